package browsertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// tableMade is what GET /v1/tables/{id} says of a table's rules and money.
type tableMade struct {
	Name        string `json:"name"`
	Currency    string `json:"currency"`
	NoOverdraft bool   `json:"noOverdraft"`
	Players     []struct {
		Name string `json:"name"`
	} `json:"players"`
	Ruleset struct {
		Preset      string `json:"preset"`
		Low         bool   `json:"low"`
		Automatic   bool   `json:"automatic"`
		ClosedRolls bool   `json:"closedRolls"`
		Progressive bool   `json:"progressive"`
		Payoff      string `json:"payoff"`
		Stake       int64  `json:"stake"`
		Ante        int64  `json:"ante"`
		Start       string `json:"start"`
		ReanteOnTie bool   `json:"reanteOnTie"`
		Goal        struct {
			Kind   string `json:"kind"`
			Target int    `json:"target"`
		} `json:"goal"`
	} `json:"ruleset"`
}

// madeByForm reads, as its host, the table the phone's start form just made
// and opened.
func (p *phone) madeByForm(t *testing.T) (id int64, tbl tableMade) {
	t.Helper()
	p.waitFor("the new table's invite tab", `/^#t=\d+&tab=invite$/.test(location.hash)`)
	id = int64(eval[float64](p, `Number(new URLSearchParams(location.hash.slice(1)).get('t'))`))
	token := eval[string](p, fmt.Sprintf(`JSON.parse(localStorage.getItem('tally.tables'))[%d].token`, id))
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/v1/tables/%d", p.base, id), nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(&tbl); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET table %d: %d %v", id, res.StatusCode, err)
	}
	return id, tbl
}

// newTable opens the start form from the home screen.
func (p *phone) newTable() {
	p.t.Helper()
	p.open("/")
	p.tap(`[data-testid=start]`)
	p.waitFor("the presets", `document.querySelectorAll('input[name=preset]').length === 7`)
}

// fillPlayers types the players' names and the table's name.
func (p *phone) fillPlayers(name string, players ...string) {
	p.t.Helper()
	for i, n := range players {
		if i >= 2 {
			p.tap(`[data-testid=add-player]`)
		}
		p.typeInto(fmt.Sprintf(`input[aria-label="player %d"]`, i+1), n)
	}
	p.typeInto(`input[name=name]`, name)
}

// TestStartFormSetsEveryOption makes two tables through the start form,
// which between them set every option of POST /v1/tables away from its
// preset's default (a low progressive Classic table; a Scarne game of five
// rounds paid per point), and checks the tables the API made. The presets
// show by their names for people, and amounts say their unit in the
// singular for one.
func TestStartFormSetsEveryOption(t *testing.T) {
	srv := startServer(t)
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")

	host.newTable()
	titles := eval[[]string](host, `[...document.querySelectorAll('input[name=preset]')].map((i) => i.closest('label').querySelector('b').textContent)`)
	if want := []string{"Bar rules", "Classic", "Scarne's Battleship", "Ship of Fools", "Ship, Captain", "Low or High", "Die Familie Meier"}; !reflect.DeepEqual(titles, want) {
		t.Fatalf("the presets show as %q, want %q", titles, want)
	}

	// Classic, low, automatic, closed rolls and a progressive pot; 4 chips
	// a round at a no-overdraft table; the lowest scorer starts; no new
	// ante after a tie.
	host.tap(`input[name=preset][value=classic]`)
	for _, opt := range []string{"automatic", "closedRolls", "low", "progressive", "noOverdraft"} {
		host.tap(`input[name=` + opt + `]`)
	}
	host.typeInto(`input[name=ante]`, "4")
	host.typeInto(`input[name=currency]`, "chips")
	host.tap(`details.more > summary`)
	host.choose(`select[name=start]`, "Last round’s lowest scorer")
	host.tap(`input[name=reanteOnTie]`)
	host.fillPlayers("Low night", "Ann", "Bob", "Cy")
	host.shot("classic")
	host.tap(`[data-testid=create]`)
	_, low := host.madeByForm(t)
	rs := low.Ruleset
	if low.Name != "Low night" || low.Currency != "chips" || !low.NoOverdraft || len(low.Players) != 3 ||
		rs.Preset != "classic" || !rs.Low || !rs.Automatic || !rs.ClosedRolls || !rs.Progressive || rs.Ante != 4 ||
		rs.Start != "loser-first" || rs.ReanteOnTie || rs.Payoff != "pot" {
		t.Fatalf("the form made %+v", low)
	}

	// Scarne's game of five rounds, paid 2 pennies a point, starting to
	// the right (no roll-off).
	host.newTable()
	host.tap(`input[name=preset][value=scarne]`)
	if eval[bool](host, `!!document.querySelector('input[name=low], input[name=progressive]')`) {
		t.Fatal("the form offers Scarne's game of rounds a low or progressive option the server refuses")
	}
	host.tap(`input[name=goal-kind][value=rounds]`)
	host.typeInto(`input[name=goal-target]`, "5")
	host.typeInto(`input[name=currency]`, "pennies")
	host.tap(`details.more > summary`)
	host.choose(`select[name=start]`, "The next player to the right")
	host.tap(`input[name=payoff][value=per-point]`)
	host.typeInto(`input[name=stake]`, "2")
	host.fillPlayers("Scarne night", "Ann", "Bob")
	host.shot("scarne")
	host.tap(`[data-testid=create]`)
	id, game := host.madeByForm(t)
	rs = game.Ruleset
	if rs.Preset != "scarne" || rs.Goal.Kind != "rounds" || rs.Goal.Target != 5 || rs.Payoff != "per-point" || rs.Stake != 2 ||
		rs.Start != "rotate-right" || rs.Ante != 1 || game.Currency != "pennies" {
		t.Fatalf("the form made %+v", game)
	}

	// One penny is a penny, on the start card and in the pot.
	host.open(fmt.Sprintf("/#t=%d", id))
	host.waitText(`[data-testid=ante]`, "Everyone antes 1 penny.")
	host.tap(`[data-testid=start-round]`)
	host.waitText(`[data-testid=pot]`, "2 pennies")
	if text := eval[string](host, `document.body.innerText`); strings.Contains(text, "1 pennies") {
		t.Fatalf("the play screen says \"1 pennies\":\n%s", text)
	}
}
