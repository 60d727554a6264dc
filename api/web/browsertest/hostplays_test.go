package browsertest

import (
	"fmt"
	"strings"
	"testing"
)

// These tests are the host who plays (issue 23): the host's phone is its
// own player's phone too, claims the closed automatic of a player without a
// phone that it recorded, and a player's phone starts a round only when
// asked twice.

// startRound starts the next round from a player's phone: the start
// button, then the confirmation it asks for.
func (p *phone) startRound() {
	p.t.Helper()
	p.tap(`[data-testid=start-round]`)
	p.waitText(`[data-testid=start-confirm]`, "Only the host can undo it.")
	p.tap(`[data-testid=start-yes]`)
}

// TestTheHostPlaysAWholeRoundFromItsPhone: the host makes a table on the
// start form keeping its default, the first name (Ann) as the phone's own,
// so the QR link offers Bob and Cy only and Ann's seat is the host's. The
// host starts the round in one tap, plays Ann's turn as its own ("Your
// turn"), sees its own closed re-roll as Ann does (no cup), records Cy's
// turn (Cy has no phone); Bob plays his on his phone. Once the round is
// over, Bob's phone does not start the next one in one careless tap: it
// asks first, says everyone antes, and "Not yet" starts nothing.
func TestTheHostPlaysAWholeRoundFromItsPhone(t *testing.T) {
	srv := startServer(t)
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.open("/")
	host.tap(`[data-testid=start]`)
	host.waitFor("the presets", `document.querySelectorAll('label.preset').length >= 7`)
	host.fillPlayers("Friday", "Ann", "Bob", "Cy")
	if !eval[bool](host, `document.querySelector('[data-testid=host-0]').checked && !document.querySelector('[data-testid=host-none]').checked`) {
		t.Fatal("the start form does not take the first name as the host's own")
	}
	host.shot("start-form")
	host.tap(`[data-testid=create]`)
	host.waitFor("the QR code", `!!document.querySelector('[data-testid=qr] svg path')`)
	link := strings.TrimPrefix(eval[string](host, `document.querySelector('[data-testid=qr] svg').getAttribute('aria-label')`), "QR code for ")
	if !strings.HasSuffix(link, "&seat=Bob&seat=Cy") || strings.Contains(link, "seat=Ann") {
		t.Fatalf("the QR code offers %q: Ann's seat is the host's", link)
	}
	host.waitText(`header .role`, "Host phone · you: Ann")
	host.waitFor("Ann's seat marked the host's", seatText("Ann")+`.includes('host’s phone') && `+seatText("Ann")+`.includes('(you)')`)
	if eval[bool](host, `!!document.querySelector('[data-testid=seats] li[data-name="Ann"] [data-testid=release]')`) {
		t.Fatal("the host's phone offers to free its own seat")
	}
	host.shot("invite")

	bob := newPhone(t, browser, srv.URL, "bob")
	bob.open(strings.TrimPrefix(link, srv.URL))
	bob.waitSeats()
	if eval[bool](bob, `!!document.querySelector('button.seat[data-name="Ann"]')`) {
		t.Fatal("Bob's phone is offered Ann's seat, the host's own")
	}
	bob.tap(`button.seat[data-name="Bob"]`)
	bob.waitText(`header .role`, "You: Bob")

	// One tap starts the round on the host's phone.
	host.tap(`[data-testid=go-play]`)
	host.press(`[data-testid=start-round]`)
	host.waitText(`[data-testid=whose-turn]`, "Your turn")
	bob.waitText(`[data-testid=whose-turn]`, "Ann’s turn")
	host.settled()
	host.enter(6, 5, 4, 1, 2)
	host.press(`[data-testid=send]`)
	host.waitText(`[data-testid=stand]`, "Stand on 3")
	host.press(`[data-testid=reroll]`)
	host.enter(5, 4)
	host.press(`[data-testid=send]`)
	// Ann's own closed re-roll: the host's phone is hers, and the server
	// shows it her dice, as it would her own phone.
	host.waitText(`[data-testid=stand]`, "Stand on 9")
	if text := host.text(`[data-testid=stand]`); strings.Contains(text, "under the cup") {
		t.Fatalf("the host's phone shows its own throw as another's cup: %q", text)
	}
	bob.waitFor("Ann's cup on Bob's phone", row("Ann")+`?.querySelector('.cup') !== null`)
	host.shot("own-closed-roll")
	host.press(`[data-testid=stand]`)

	bob.waitText(`[data-testid=whose-turn]`, "Your turn")
	bob.standOn(6, 5, 4, 2, 2)
	host.waitText(`[data-testid=whose-turn]`, "Cy’s turn")
	host.standOn(6, 5, 4, 3, 3)
	for _, p := range []*phone{host, bob} {
		p.waitText(`[data-testid=result]`, "Ann wins!")
	}
	host.shot("result")
	// The host who plays Ann is paid as a player is: its Money tab says
	// who owes Ann, as Ann's own phone would.
	host.tap(`[data-testid=go-money]`)
	host.waitText(`[data-testid=your-money]`, "Bob owes you")
	host.waitText(`[data-testid=your-money]`, "Cy owes you")
	host.shot("host-seat-money")
	host.tap(`[data-testid=go-play]`)

	// Bob's phone asks before it starts round 2: a careless tap starts
	// nothing.
	bob.waitText(`[data-testid=start-round]`, "Start round 2…")
	bob.press(`[data-testid=start-round]`)
	bob.waitText(`[data-testid=start-confirm]`, "Start round 2 now, from this phone? Everyone antes 1 unit. Only the host can undo it.")
	bob.shot("start-confirm")
	bob.press(`[data-testid=start-no]`)
	bob.waitFor("the start button back", `!document.querySelector('[data-testid=start-confirm]') && !!document.querySelector('[data-testid=start-round]')`)
	var tb struct {
		CurrentRound int `json:"currentRound"`
		RoundsPlayed int `json:"roundsPlayed"`
	}
	id := eval[int64](host, `Number(new URLSearchParams(location.hash.slice(1)).get('t'))`)
	token := eval[string](host, fmt.Sprintf(`JSON.parse(localStorage.getItem('tally.tables'))[%d].token`, id))
	getAs(t, srv.URL, token, fmt.Sprintf("/v1/tables/%d", id), &tb)
	if tb.CurrentRound != 0 || tb.RoundsPlayed != 1 {
		t.Fatalf("after Bob's phone said not yet, the table is %+v", tb)
	}
	bob.startRound()
	for _, p := range []*phone{host, bob} {
		p.waitText(`[data-testid=round] .value`, "2")
	}
	bob.waitText(`[data-testid=whose-turn]`, "Your turn")
	bob.shot("round-2")
}

// TestTheHostClaimsForAPlayerWithoutAPhone: the host, who plays Ann,
// records Dee's cargo re-roll under the cup as 6-6 (Dee has no phone). Its
// pad offers to claim the automatic for her, first, and the odds line says
// claiming wins rather than pricing a stand at 100%; Dee stands, and on
// Cy's turn, before Cy throws, the claim is still offered: the host claims
// it, Dee wins the pot, and History and the money say so. On a 390x844
// phone and on a 360x640 one, tapping only what is in view.
func TestTheHostClaimsForAPlayerWithoutAPhone(t *testing.T) {
	srv := startServer(t)
	browser := startBrowser(t)
	for _, sc := range screens[:2] {
		t.Run(sc.name, func(t *testing.T) {
			m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "currency": "quarters",
				"players": []string{"Ann", "Dee", "Cy"}, "host": "Ann"})
			host := newPhoneOn(t, browser, srv.URL, "host-"+sc.name, sc)
			host.hostOf(m)
			host.thumb(`[data-testid=start-round]`, "the start button")
			host.waitText(`[data-testid=whose-turn]`, "Your turn")
			host.settled()
			host.thumbDice(6, 5, 4, 3, 3)
			host.thumb(`[data-testid=send]`, "Record 5 dice")
			host.waitText(`[data-testid=stand]`, "Stand on 6")
			host.settled()
			host.thumb(`[data-testid=stand]`, "Stand on 6")

			host.waitText(`[data-testid=whose-turn]`, "Dee’s turn")
			host.settled()
			host.thumbDice(6, 5, 4, 1, 2)
			host.thumb(`[data-testid=send]`, "Record 5 dice")
			host.waitText(`[data-testid=stand]`, "Stand on 3")
			host.settled()
			host.thumb(`[data-testid=reroll]`, "Re-roll both")
			host.settled()
			host.thumbDice(6, 6)
			host.thumb(`[data-testid=send]`, "Record 2 dice")
			host.waitText(`[data-testid=claim]`, "Claim the automatic for Dee")
			host.waitText(`[data-testid=stand]`, "Stand on 12 — under the cup")
			host.waitText(`[data-testid=advisor]`, "claim the automatic: it wins the pot now")
			if odds := host.text(`[data-testid=advisor]`); strings.Contains(odds, "100%") {
				t.Fatalf("the odds line prices a stand on a claimable automatic: %q", odds)
			}
			host.settled()
			host.inView(`[data-testid=claim]`, "the claim")
			host.inView(`[data-testid=stand]`, "the stand")
			host.shot("claim-on-the-pad")
			host.thumb(`[data-testid=stand]`, "Stand on 12")

			// On Cy's turn, before Cy's first throw, the claim still stands.
			host.waitText(`[data-testid=whose-turn]`, "Cy’s turn")
			host.waitText(`[data-testid=claim]`, "Claim the automatic for Dee")
			host.settled()
			host.inView(`[data-testid=claim]`, "the claim after Dee stood")
			host.shot("claim-after-stand")
			host.thumb(`[data-testid=claim]`, "Claim the automatic for Dee")
			host.waitText(`[data-testid=result]`, "Dee wins with an automatic!")
			host.shot("claimed")

			host.tap(`[data-testid=go-history]`)
			host.waitFor("Dee's automatic in History", `[...document.querySelectorAll('[data-testid=turns-1] .turnrow')].some((r) => `+
				`r.textContent.includes('Dee') && r.textContent.includes('scored 12 (automatic)'))`)
			if text := eval[string](host, `document.body.innerText`); strings.Contains(text, "automatic not claimed") {
				t.Fatalf("History says the automatic was not claimed:\n%s", text)
			}
			host.shot("history")
			host.tap(`[data-testid=go-money]`)
			host.waitFor("the pot with Dee", balanceOf("Dee")+`.includes('+2')`)
			host.waitFor("Ann's ante gone", balanceOf("Ann")+`.includes('-1')`)
		})
	}
}
