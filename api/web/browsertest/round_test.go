package browsertest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// row is a JavaScript expression for the turn row of the named player.
func row(name string) string {
	return fmt.Sprintf(`[...document.querySelectorAll('.turnrow')].find((r) => r.querySelector('.who b').textContent === %q)`, name)
}

// deafen refuses a token's live stream from now on and ends the one open,
// so that its phone hears of nothing but the answers to its own requests.
func (s *server) deafen(token string) {
	s.mute(token)
	s.mu.Lock()
	defer s.mu.Unlock()
	for r, cancel := range s.streams {
		if r.URL.Query().Get("access_token") == token {
			cancel()
		}
	}
}

// hear lets a deafened token's phone stream again.
func (s *server) hear(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.muted, token)
}

// TestRoundOnTwoPhones plays a whole bar round with the host's phone and
// Bob's phone: make the table, join by the QR code's link, record every
// throw, watch each other's rolls arrive live, get a throw another phone
// recorded first refused with the engine's reason, survive a lost answer
// and a wifi drop without recording anything twice, and settle up.
func TestRoundOnTwoPhones(t *testing.T) {
	srv := startServer(t)
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")

	host.open("/")
	host.waitText("main", "Start a table")
	host.shot("home")
	host.tap(`[data-testid=start]`)
	host.waitFor("the presets", `document.querySelectorAll('label.preset').length >= 7`)
	host.typeInto(`input[name=ante]`, "2")
	host.typeInto(`input[name=currency]`, "quarters")
	host.typeInto(`input[aria-label="player 1"]`, "Ann")
	host.typeInto(`input[aria-label="player 2"]`, "Bob")
	host.tap(`[data-testid=add-player]`)
	host.typeInto(`input[aria-label="player 3"]`, "Cy")
	host.typeInto(`input[name=name]`, "Friday")
	host.tap(`[data-testid=host-none]`) // the host records for Ann and Cy, who have no phones
	host.shot("start-form")
	host.tap(`[data-testid=create]`)

	host.waitFor("the QR code", `!!document.querySelector('[data-testid=qr] svg path')`)
	// The code shows in groups of four to read aloud; the link holds it plain.
	shown := strings.TrimSpace(host.text(`[data-testid=join-code]`))
	if !regexp.MustCompile(`^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{2}$`).MatchString(shown) {
		t.Fatalf("the join code shows as %q", shown)
	}
	link := strings.TrimPrefix(eval[string](host, `document.querySelector('[data-testid=qr] svg').getAttribute('aria-label')`), "QR code for ")
	if want := srv.URL + "/#join=" + strings.ReplaceAll(shown, "-", "") + "&seat=Ann&seat=Bob&seat=Cy"; link != want {
		t.Fatalf("the QR code holds %q, want %q", link, want)
	}
	host.shot("invite")

	// Bob's phone opens the link the camera read from the QR code.
	bob := newPhone(t, browser, srv.URL, "bob")
	bob.open(strings.TrimPrefix(link, srv.URL))
	bob.waitText("main", "Who are you?")
	bob.shot("join")
	bob.tap(`button.seat[data-name="Bob"]`)
	bob.waitText(`header .role`, "You: Bob")
	bob.shot("joined")
	// From here on, a reload of Bob's page would lose this mark.
	eval[bool](bob, `window.stillHere = true`)

	host.tap(`[data-testid=go-play]`)
	host.tap(`[data-testid=start-round]`)
	host.waitText(`[data-testid=whose-turn]`, "Ann")
	bob.waitText(`[data-testid=whose-turn]`, "Ann’s turn")
	bob.waitText(`[data-testid=pot] .value`, "6")
	host.shot("round-start")

	// The host's phone records Ann's throw; the verdict and the advisor show.
	host.enter(6, 5, 4, 3, 3)
	host.shot("dice-entered")
	host.tap(`[data-testid=send]`)
	host.waitText(`[data-testid=verdict]`, "banked 6-5-4")
	host.waitFor("the advisor", `/stand: \d+% to win/.test(document.querySelector('[data-testid=advisor]')?.textContent) && `+
		`/roll both: \d+% to win/.test(document.querySelector('[data-testid=advisor]')?.textContent)`)
	host.shot("verdict")
	bob.waitFor("Ann's throw on Bob's phone", row("Ann")+`?.querySelectorAll('.die').length === 5`)
	host.tap(`[data-testid=stand]`)

	bob.waitText(`[data-testid=whose-turn]`, "Your turn")
	bob.waitText(`[data-testid=point] .value`, "6")
	bob.waitText(`[data-testid=hammer] .value`, "Cy")
	bob.shot("your-turn")

	// Four dice where five are thrown are not offered for recording.
	bob.enter(6, 5, 1, 1)
	bob.waitText(`[data-testid=send]`, "Tap 1 more die")
	if !eval[bool](bob, `document.querySelector('[data-testid=send]').disabled`) {
		t.Fatal("Bob's phone offers to record 4 dice where 5 are thrown")
	}
	bob.enter(2)
	bob.waitText(`[data-testid=send]`, "Record 5 dice")

	// Bob's phone loses its live updates, and the host's phone records
	// Bob's throw first. Bob's phone, which cannot know, records it again,
	// against the round it last read: the server says the host's phone
	// recorded it already, and Bob's phone catches up.
	bobToken := eval[string](bob, `Object.values(JSON.parse(localStorage.getItem('tally.tables')))[0].token`)
	srv.deafen(bobToken)
	bob.waitFor("the lost live updates on Bob's phone", `!document.getElementById('banner').hidden`)
	host.enter(6, 5, 1, 1, 2)
	host.tap(`[data-testid=send]`)
	host.waitText(`[data-testid=next]`, "Throw 3 dice")
	bob.tap(`[data-testid=send]`)
	bob.waitText(`[data-testid=already]`, "The host's phone already recorded 6-5-1-1-2 for Bob.")
	bob.waitText(`[data-testid=next]`, "Throw 3 dice")
	bob.shot("already-recorded")
	srv.hear(bobToken)
	bob.waitFor("Bob's live updates back", `document.getElementById('banner').hidden`)
	host.waitFor("Bob's first throw on the host's phone", row("Bob")+`?.querySelectorAll('.die').length === 5`)
	bob.enter(4, 1, 2)
	bob.tap(`[data-testid=send]`)
	bob.waitText(`[data-testid=reroll]`, "Re-roll both")
	bob.shot("qualified")
	bob.tap(`[data-testid=reroll]`)
	bob.enter(5, 6)
	bob.shot("reroll")
	bob.tap(`[data-testid=send]`)
	// The re-roll is closed: the host's phone shows Bob's cup, not his dice.
	host.waitFor("Bob's cup on the host's phone", row("Bob")+`?.querySelector('.cup') !== null`)
	host.waitText(`[data-testid=whose-turn]`, "Cy")
	host.shot("sealed")

	// Cy's first throw is recorded but its answer is lost; the phone retries
	// with the same key and the server replays the answer.
	srv.lose.Store(1)
	host.enter(1, 2, 3, 3, 2)
	host.tap(`[data-testid=send]`)
	host.waitText(`[data-testid=next]`, "roll 2 of 3")
	if n := srv.retriedKeys(); n != 1 {
		t.Fatalf("%d action keys were retried, want the lost one", n)
	}

	// The wifi drops: both phones say so; the host's throw waits and goes
	// through when the wifi is back.
	srv.setDown(true)
	bob.waitFor("the banner on Bob's phone", `!document.getElementById('banner').hidden`)
	host.enter(1, 2, 3, 3, 2)
	host.tap(`[data-testid=send]`)
	host.waitFor("the banner on the host's phone", `!document.getElementById('banner').hidden`)
	host.shot("offline")
	time.Sleep(time.Second)
	srv.setDown(false)
	host.waitText(`[data-testid=next]`, "roll 3 of 3")
	bob.waitFor("Bob's phone back online", `document.getElementById('banner').hidden`)
	bob.waitFor("Cy's second throw on Bob's phone", row("Cy")+`?.querySelectorAll('.die').length === 10`)

	host.enter(1, 2, 3, 3, 2)
	host.tap(`[data-testid=send]`)
	host.waitText(`[data-testid=result]`, "Bob wins!")
	bob.waitText(`[data-testid=result]`, "Bob gets 6 quarters")
	host.waitFor("Cy's three throws, once each", row("Cy")+`?.querySelectorAll('.die').length === 15`)
	host.shot("result")
	bob.shot("result")

	// Bob is owed: he records both payments as he receives them.
	bob.tap(`[data-testid=go-money]`)
	bob.waitText(`[data-testid=balances]`, "+4 quarters")
	bob.waitText(`[data-testid=settle]`, "Ann pays Bob 2 quarters")
	bob.waitText(`[data-testid=settle]`, "Cy pays Bob 2 quarters")
	bob.shot("money")
	bob.tap(`[data-testid=paid-me]`)
	bob.tap(`[data-testid=paid-yes]`)
	bob.waitFor("one payment left", `document.querySelectorAll('[data-testid=paid-me]').length === 1 && !document.querySelector('[data-testid=paid-confirm]')`)
	bob.tap(`[data-testid=paid-me]`)
	bob.tap(`[data-testid=paid-yes]`)
	bob.waitText(`[data-testid=settle]`, "Everyone is square.")
	bob.shot("settled")

	host.tap(`[data-testid=go-history]`)
	host.waitText(`[data-testid=audit]`, "Audit: all checks pass")
	host.waitFor("round 1 in the history", `document.querySelectorAll('[data-testid=turns-1] .die').length >= 25`)
	host.shot("history")

	if !eval[bool](bob, `window.stillHere === true`) {
		t.Fatal("Bob's phone reloaded the page; live updates must arrive without a reload")
	}
}
