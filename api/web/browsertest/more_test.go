package browsertest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// made is a table made through the API.
type made struct {
	JoinCode, HostToken string
	Table               struct {
		ID      int64
		Players []struct {
			ID   int64
			Name string
		}
	}
}

// id is the id of the table's player of that name.
func (m made) id(t *testing.T, name string) int64 {
	t.Helper()
	for _, p := range m.Table.Players {
		if p.Name == name {
			return p.ID
		}
	}
	t.Fatalf("no player %q at table %d", name, m.Table.ID)
	return 0
}

// makeTable creates a table through the API and returns its join code.
func makeTable(t *testing.T, base string, body map[string]any) string {
	t.Helper()
	return makeTableFull(t, base, body).JoinCode
}

// makeTableFull creates a table through the API.
func makeTableFull(t *testing.T, base string, body map[string]any) made {
	t.Helper()
	b, _ := json.Marshal(body)
	hr, _ := http.NewRequest(http.MethodPost, base+"/v1/tables", bytes.NewReader(b))
	hr.Header.Set("Content-Type", "application/json")
	key := make([]byte, 16)
	_, _ = rand.Read(key)
	hr.Header.Set("Idempotency-Key", hex.EncodeToString(key))
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out made
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("create table: %d %v", res.StatusCode, err)
	}
	return out
}

// hostOf makes the phone the host of a table made through the API, the way
// the app remembers the tables it started.
func (p *phone) hostOf(m made) {
	p.t.Helper()
	p.open("/")
	entry, _ := json.Marshal(map[string]any{"id": m.Table.ID, "name": "Table", "role": "host", "token": m.HostToken, "code": m.JoinCode})
	eval[bool](p, fmt.Sprintf(`localStorage.setItem('tally.tables', JSON.stringify({%d: %s})), true`, m.Table.ID, entry))
	p.open(fmt.Sprintf("/#t=%d", m.Table.ID))
	p.waitText(`header .role`, "Host phone")
}

// waitSeats waits until the join screen's seat list is settled for the code
// typed, so that no button moves under the next tap.
func (p *phone) waitSeats() {
	p.t.Helper()
	p.waitFor("the open seats", `document.querySelector('[data-testid=open-seats]')?.dataset.ready === 'true'`)
}

// joinBySeat joins from the join screen by typing the code and tapping the
// open seat the server lists for it.
func (p *phone) joinBySeat(code, name string) {
	p.t.Helper()
	p.open("/")
	p.tap(`[data-testid=join]`)
	p.typeInto(`input[aria-label="join code"]`, code)
	p.waitSeats()
	p.waitText(`[data-testid=open-seats]`, name)
	p.shot("open-seats")
	p.tap(fmt.Sprintf(`[data-testid=open-seats] button[data-name=%q]`, name))
	p.waitText(`header .role`, "You: "+name)
}

// joinByCode joins from the join screen by typing the code and a name.
func (p *phone) joinByCode(code, name string) {
	p.t.Helper()
	p.open("/")
	p.tap(`[data-testid=join]`)
	p.typeInto(`input[aria-label="join code"]`, code)
	p.waitSeats()
	p.typeInto(`input[aria-label="your name"]`, name)
	p.tap(`[data-testid=join-go]`)
	p.waitText(`header .role`, "You: ")
}

// joinMisses counts the join-code look-ups the server answered 404, from
// its metrics.
func joinMisses(t *testing.T, base string) int {
	t.Helper()
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, "tally_http_requests_total{") && strings.Contains(line, `route="/v1/join/:code"`) &&
			strings.Contains(line, `status="404"`) {
			v, err := strconv.Atoi(line[strings.LastIndexByte(line, ' ')+1:])
			if err != nil {
				t.Fatalf("metrics line %q: %v", line, err)
			}
			n += v
		}
	}
	return n
}

// TestClosedAutomaticIsClaimed: Ann's phone corrects an entry by taking a
// die back, survives a reload, throws a closed 6-6 that Bob's phone sees
// only as a cup, and claims the automatic in time.
func TestClosedAutomaticIsClaimed(t *testing.T) {
	srv := startServer(t)
	code := makeTable(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	browser := startBrowser(t)
	ann := newPhone(t, browser, srv.URL, "ann")
	bob := newPhone(t, browser, srv.URL, "bob")
	// Codes and names match whatever their case, and codes however grouped.
	ann.joinByCode(strings.ToLower(code[:4]+"-"+code[4:8]+" "+code[8:]), "ann")
	bob.joinBySeat(code, "Bob") // the server lists the open seats for a typed code
	if got := ann.text(`header .role`); got != "You: Ann" {
		t.Fatalf("Ann's phone says %q", got)
	}
	// Typing a code letter by letter looks up only the whole code: a part of
	// one would count as a miss against the phone's address.
	if n := joinMisses(t, srv.URL); n != 0 {
		t.Fatalf("typing two codes looked up %d codes no table has", n)
	}

	ann.startRound()
	ann.waitText(`[data-testid=whose-turn]`, "Your turn")
	ann.enter(6, 5, 4, 1, 2)
	ann.tap(`.tray button[data-face="2"]`)
	if n := eval[int](ann, `document.querySelectorAll('.tray button').length`); n != 4 {
		t.Fatalf("after taking a die back the tray holds %d dice, want 4", n)
	}
	ann.enter(1)
	ann.tap(`[data-testid=send]`)
	ann.waitText(`[data-testid=stand]`, "Stand on 2")

	// A reload resumes the table from the token kept on the phone.
	ann.open("/" + eval[string](ann, `location.hash`))
	ann.waitText(`[data-testid=stand]`, "Stand on 2")

	ann.tap(`[data-testid=reroll]`)
	ann.enter(6, 6)
	ann.tap(`[data-testid=send]`)
	ann.waitText(`[data-testid=claim]`, "Claim the automatic")
	bob.waitFor("Ann's cup on Bob's phone", row("Ann")+`?.querySelector('.cup') !== null`)
	if eval[bool](bob, `!!document.querySelector('[data-testid=claim]')`) {
		t.Fatal("Bob's phone offers to claim Ann's automatic")
	}
	ann.shot("claim")
	bob.shot("cup")
	ann.tap(`[data-testid=claim]`)
	ann.waitText(`[data-testid=result]`, "Ann wins with an automatic!")
	bob.waitText(`[data-testid=result]`, "Ann wins with an automatic!")
	bob.waitFor("Ann's cup lifted once the round is over", row("Ann")+`?.querySelector('.cup') === null`)
	bob.shot("automatic")
}

// TestAnyCargoPicksDice: under the classic `any` rule the player picks which
// cargo dice to throw again, and the advisor prices each choice.
func TestAnyCargoPicksDice(t *testing.T) {
	srv := startServer(t)
	code := makeTable(t, srv.URL, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	browser := startBrowser(t)
	ann := newPhone(t, browser, srv.URL, "ann")
	ann.open("/#join=" + code + "&seat=Ann&seat=Bob")
	ann.waitSeats()
	ann.tap(`button.seat[data-name="Ann"]`)
	ann.startRound()
	ann.enter(6, 5, 4, 3, 2)
	ann.tap(`[data-testid=send]`)
	ann.waitFor("the advisor's re-roll choices", `/re-roll the 2: \d+%/.test(document.querySelector('[data-testid=advisor]')?.textContent) && `+
		`/roll both: \d+%/.test(document.querySelector('[data-testid=advisor]')?.textContent)`)
	ann.tap(`[data-testid=reroll]`)
	ann.tap(`.picker button[aria-label="pick up 2"]`)
	if n := eval[int](ann, `document.querySelectorAll('.pad .slot').length`); n != 1 {
		t.Fatalf("picking one cargo die asks for %d dice, want 1", n)
	}
	ann.enter(5)
	ann.shot("pick-cargo")
	ann.tap(`[data-testid=send]`)
	ann.waitText(`[data-testid=stand]`, "Stand on 8")
	ann.shot("picked")
}

// TestStartRoundOptions: a roll-off table asks for everyone's five dice
// before its first round and the lowest starts; a progressive table asks
// for the declared score and shows it during the round.
func TestStartRoundOptions(t *testing.T) {
	srv := startServer(t)
	scarne := makeTable(t, srv.URL, map[string]any{"preset": "scarne", "players": []string{"Ann", "Bob"}})
	progressive := makeTable(t, srv.URL, map[string]any{"preset": "bar", "options": map[string]any{"progressive": true},
		"players": []string{"Ann", "Bob"}})
	browser := startBrowser(t)

	ann := newPhone(t, browser, srv.URL, "ann")
	ann.open("/#join=" + scarne + "&seat=Ann&seat=Bob")
	ann.waitSeats()
	ann.tap(`button.seat[data-name="Ann"]`)
	ann.waitText(`.start-round`, "everyone throws all five dice")
	ann.enter(6, 6, 6, 6, 6)
	ann.tap(`[data-testid=send]`) // "Add this throw" for Ann, then the thrower moves on to Bob
	ann.waitFor("Bob picked as the next thrower", `document.querySelector('.rolloff select').selectedOptions[0].textContent === 'Bob'`)
	ann.enter(1, 1, 1, 1, 2)
	ann.tap(`[data-testid=send]`)
	ann.shot("roll-off")
	ann.startRound()
	ann.waitText(`[data-testid=whose-turn]`, "Bob’s turn")
	ann.waitText(`[data-testid=game]`, "first to 100 points")

	pip := newPhone(t, browser, srv.URL, "pip")
	pip.open("/#join=" + progressive)
	pip.waitSeats()
	pip.typeInto(`input[aria-label="your name"]`, "Ann")
	pip.tap(`[data-testid=join-go]`)
	pip.startRound()
	pip.waitText(`.start-round .error`, "declared")
	pip.typeInto(`[data-testid=declared]`, "8")
	pip.tap(`[data-testid=start-yes]`)
	pip.waitText(`[data-testid=declared-score]`, "Declared score: 8")
	pip.shot("declared")
}

// TestLiftCups: after Ann's closed re-roll, Bob completes 6-5-4 on his first
// throw and calls for the cups to be lifted, a call that says what it does
// and stands apart from Stand: Ann's roll is revealed to all.
func TestLiftCups(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	bob := newPhone(t, browser, srv.URL, "bob")
	bob.open("/#join=" + m.JoinCode + "&seat=Bob")
	bob.waitSeats()
	bob.tap(`button.seat[data-name="Bob"]`)

	host.tap(`[data-testid=start-round]`)
	// The round's pad is drawn once the start is answered: a tap before
	// that finds no faces (seen under a loaded machine).
	host.waitFor("the round's pad", `!!document.querySelector('.faces button[data-face="6"]')`)
	host.enter(6, 5, 4, 1, 1)
	host.tap(`[data-testid=send]`)
	host.tap(`[data-testid=reroll]`)
	host.enter(3, 3)
	host.tap(`[data-testid=send]`)
	host.tap(`[data-testid=stand]`)
	bob.waitFor("Ann's cup on Bob's phone", row("Ann")+`?.querySelector('.cup') !== null`)
	bob.enter(6, 5, 4, 2, 2)
	bob.tap(`[data-testid=send]`)
	bob.waitText(`[data-testid=lift]`, "Lift the cups!")
	// The call says what it does, and stands well apart from Stand.
	bob.waitText(`[data-testid=lift-why]`, "You may call Ann to lift the cup: what is under it is shown to everyone before you decide")
	if gap := eval[float64](bob, `document.querySelector('[data-testid=lift]').getBoundingClientRect().top - `+
		`document.querySelector('[data-testid=stand]').getBoundingClientRect().bottom`); gap < 48 {
		t.Fatalf("Lift the cups! is %.0fpx below Stand: a thumb aiming at one finds the other", gap)
	}
	bob.shot("lift")
	bob.tap(`[data-testid=lift]`)
	host.waitFor("Ann's re-roll revealed on the host's phone", row("Ann")+`?.querySelector('.cup') === null && `+
		row("Ann")+`?.textContent.includes('cups lifted')`)
	bob.waitText(`[data-testid=point] .value`, "6")
	host.shot("lifted")
}
