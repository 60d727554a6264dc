package browsertest

import (
	"fmt"
	"strings"
	"testing"
)

// diceShown is a JavaScript expression for the faces of every die a phone
// draws outside its entry pad, in page order.
const diceShown = `[...document.querySelectorAll('.die')].filter((d) => !d.closest('.faces')).map((d) => Number(d.dataset.face))`

// sealedKept is a JavaScript expression for what a phone keeps of the
// closed rolls it typed for table id (null when nothing).
func sealedKept(id int64) string {
	return fmt.Sprintf(`localStorage.getItem('tally.sealed.%d')`, id)
}

// TestSealedRollShowsOnlyOnThePhoneThatTypedIt: the host's phone records
// for Ann, who has no phone, a closed re-roll of her cargo. That phone
// shows "Stand on 8 — under the cup", the dice it typed and the odds, also
// after a reload; another phone with the host's token and Bob's phone see
// the cup, and none of those dice is anywhere in their pages or storage.
// Once the round is over every phone sees the dice, and the typing phone
// forgets them.
func TestSealedRollShowsOnlyOnThePhoneThatTypedIt(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "currency": "quarters", "players": []string{"Ann", "Bob"}})
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	other := newPhone(t, browser, srv.URL, "other-host")
	other.hostOf(m)
	bob := newPhone(t, browser, srv.URL, "bob")
	bob.open("/#join=" + m.JoinCode + "&seat=Bob")
	bob.waitSeats()
	bob.tap(`button.seat[data-name="Bob"]`)
	bob.waitText(`header .role`, "You: Bob")

	host.tap(`[data-testid=start-round]`)
	host.waitText(`[data-testid=whose-turn]`, "Ann")
	host.settled()
	host.enter(6, 5, 4, 3, 3)
	host.tap(`[data-testid=send]`)
	host.waitText(`[data-testid=stand]`, "Stand on 6")
	host.press(`[data-testid=reroll]`)
	host.enter(6, 2)
	host.tap(`[data-testid=send]`)

	// The typing phone: the score, the dice it typed and the odds.
	typed := func(when string) {
		t.Helper()
		host.waitText(`[data-testid=stand]`, "Stand on 8 — under the cup")
		host.waitText(`[data-testid=verdict]`, "only this phone sees it")
		host.waitText(`[data-testid=holding]`, "= 8")
		host.waitFor("the odds on the typing phone "+when, `/stand: \d+% to win/.test(document.querySelector('[data-testid=advisor]')?.textContent) && `+
			`/roll both: \d+% to win/.test(document.querySelector('[data-testid=advisor]')?.textContent)`)
		// Ann's open throw and the re-roll in her row; the sequence and the
		// cargo in the turn card.
		if got := fmt.Sprint(eval[[]int](host, diceShown)); got != "[6 5 4 6 2 6 5 4 3 3 6 2]" {
			t.Fatalf("the typing phone %s draws the dice %s", when, got)
		}
		if !eval[bool](host, row("Ann")+`?.querySelector('.roll.closed .cup') !== null`) {
			t.Fatalf("the typing phone %s does not mark Ann's re-roll as under the cup", when)
		}
	}
	typed("at once")
	host.shot("typed")

	// Every other phone, the host's token on another phone included, sees
	// the cup and nothing of what is under it.
	for _, p := range []*phone{other, bob} {
		p.waitFor("Ann's cup on "+p.name, row("Ann")+`?.querySelector('.cup') !== null`)
		if got := fmt.Sprint(eval[[]int](p, diceShown)); got != "[6 5 4 6 5 4 3 3]" {
			t.Fatalf("%s draws the dice %s: only Ann's open throw and her sequence may show", p.name, got)
		}
		if text := p.text(`[data-testid=turn]`); strings.Contains(text, "8") {
			t.Fatalf("%s shows Ann's score: %s", p.name, text)
		}
		if kept := eval[*string](p, sealedKept(m.Table.ID)); kept != nil {
			t.Fatalf("%s keeps Ann's closed roll: %s", p.name, *kept)
		}
	}
	other.waitText(`[data-testid=stand]`, "Stand (under the cup)")
	other.waitText(`[data-testid=turn]`, "is under the cup")
	if eval[bool](other, `!!document.querySelector('[data-testid=advisor]')`) {
		t.Fatal("the other host phone prices cargo it cannot see")
	}
	other.shot("cup")
	bob.waitText(`[data-testid=turn]`, "is under the cup")
	bob.shot("cup")

	// A reload of the typing phone keeps what it typed.
	host.open(fmt.Sprintf("/#t=%d", m.Table.ID))
	typed("after a reload")

	// Ann stands; Bob throws and stands on 2, which ends the round: every
	// cup is lifted, and the typing phone forgets Ann's roll.
	host.press(`[data-testid=stand]`)
	bob.waitText(`[data-testid=whose-turn]`, "Your turn")
	bob.standOn(6, 5, 4, 1, 1)
	for _, p := range []*phone{host, other, bob} {
		p.waitText(`[data-testid=result]`, "Ann wins!")
		p.waitFor("Ann's re-roll revealed on "+p.name, row("Ann")+`?.querySelector('.cup') === null && `+
			row("Ann")+`?.querySelectorAll('.die').length === 7`)
	}
	host.waitFor("the typing phone to forget Ann's roll", sealedKept(m.Table.ID)+` === null`)
	bob.shot("revealed")
}
