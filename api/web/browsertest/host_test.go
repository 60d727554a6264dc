package browsertest

import (
	"fmt"
	"strings"
	"testing"
)

// choose picks the option labelled label in a select, as a thumb on the
// phone's picker would.
func (p *phone) choose(sel, label string) {
	p.t.Helper()
	ok := eval[bool](p, fmt.Sprintf(`(() => {
  const s = document.querySelector(%q);
  const o = s && [...s.options].find((o) => o.textContent === %q);
  if (!o) return false;
  s.value = o.value;
  s.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
})()`, sel, label))
	if !ok {
		p.t.Fatalf("%s: no option %q in %s", p.name, label, sel)
	}
}

// cash records a buy-in or a cash-out on the host's Money tab.
func (p *phone) cash(button, player, amount, done string) {
	p.t.Helper()
	p.waitFor("the cash form", `!!document.querySelector('select[name=cash-player]')`)
	p.choose(`select[name=cash-player]`, player)
	p.typeInto(`input[name=cash-amount]`, amount)
	p.tap(`[data-testid=` + button + `]`)
	p.waitText(`[data-testid=cash-done]`, done)
}

// seatText is a JavaScript expression for the text of the named seat's row
// on the Invite tab.
func seatText(name string) string {
	return fmt.Sprintf(`(document.querySelector('[data-testid=seats] li[data-name=%q]')?.textContent || '')`, name)
}

// standFirst records five dice for the player in turn and stands on them.
func (p *phone) standFirst(faces ...int) {
	p.t.Helper()
	p.enter(faces...)
	p.tap(`[data-testid=send]`)
	p.tap(`[data-testid=stand]`)
}

// TestHostRunsTheNight: the host's phone takes buy-ins at a no-overdraft
// table, seats a latecomer who joins from the QR code, takes a player who
// went home off the table, is told a player without money cannot ante,
// plays a round, closes the table after confirming, and pays a player out
// of the bank. Every phone then reads the table as closed.
func TestHostRunsTheNight(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob", "Cy"},
		"currency": "chips", "noOverdraft": true, "name": "Friday", "options": map[string]any{"ante": 2}})
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)

	// Buy-ins: a wrong amount is explained, then two buy-ins go through.
	host.tap(`[data-testid=go-money]`)
	host.waitText(`[data-testid=cash]`, "Buy-ins and cash-outs")
	host.tap(`[data-testid=buy-in]`)
	host.waitText(`[data-testid=cash-error]`, "Type the amount in whole chips, 1 or more.")
	host.cash("buy-in", "Ann", "20", "Recorded: Ann bought in 20 chips.")
	host.cash("buy-in", "Bob", "20", "Recorded: Bob bought in 20 chips.")
	host.waitText(`[data-testid=balances]`, "+20 chips")
	host.waitText(`[data-testid=bank]`, "The bank holds 40 chips in cash from buy-ins.")
	if v := eval[string](host, `document.querySelector('input[name=cash-amount]').value`); v != "" {
		t.Fatalf("the amount still reads %q after it was recorded", v)
	}
	host.shot("buy-ins")

	// A latecomer is seated and claims the seat from the QR code's link.
	host.tap(`[data-testid=go-invite]`)
	host.typeInto(`input[name=seat-name]`, "Dee")
	host.tap(`[data-testid=seat]`)
	host.waitText(`[data-testid=seat-done]`, "Dee sits in seat 4.")
	host.waitFor("Dee's open seat in the QR link", `document.querySelector('[data-testid=qr] svg')?.getAttribute('aria-label').includes('seat=Dee')`)
	host.shot("seated")
	dee := newPhone(t, browser, srv.URL, "dee")
	dee.open(strings.TrimPrefix(strings.TrimPrefix(eval[string](host,
		`document.querySelector('[data-testid=qr] svg').getAttribute('aria-label')`), "QR code for "), srv.URL))
	dee.tap(`button.seat[data-name="Dee"]`)
	dee.waitText(`header .role`, "You: Dee")
	host.waitFor("Dee joined", seatText("Dee")+`.includes('joined')`)

	// Cy went home: the host takes him off after confirming.
	host.tap(`[data-testid=seats] li[data-name="Cy"] [data-testid=leave]`)
	host.waitText(`[data-testid=leave-confirm]`, "Cy leaves the table")
	host.shot("leave-confirm")
	host.tap(`[data-testid=leave-yes]`)
	host.waitFor("Cy marked as left", seatText("Cy")+`.includes('left')`)
	if link := eval[string](host, `document.querySelector('[data-testid=qr] svg').getAttribute('aria-label')`); strings.Contains(link, "Cy") {
		t.Fatalf("the QR link still offers Cy's seat: %s", link)
	}
	host.shot("left")

	// Dee has no chips at a no-overdraft table: the ante is refused with
	// what to do, the host records her buy-in, and the round starts.
	host.tap(`[data-testid=go-play]`)
	host.tap(`[data-testid=start-round]`)
	host.waitText(`.start-round .error`, "Record a buy-in on the Money tab first.")
	host.shot("no-funds")
	host.tap(`[data-testid=go-money]`)
	host.cash("buy-in", "Dee", "10", "Recorded: Dee bought in 10 chips.")
	host.tap(`[data-testid=go-play]`)
	host.tap(`[data-testid=start-round]`)
	host.waitText(`[data-testid=whose-turn]`, "Ann")

	// While the round is played, nobody leaves and the table stays open.
	host.tap(`[data-testid=go-invite]`)
	host.waitText(`[data-testid=seats-locked]`, "once round 1 is settled")
	if !eval[bool](host, `document.querySelector('[data-testid=seats] li[data-name="Ann"] [data-testid=leave]').disabled`) {
		t.Fatal("Ann may leave in the middle of a round")
	}
	host.tap(`[data-testid=go-money]`)
	host.waitText(`[data-testid=close-card]`, "Finish round 1 before closing the table.")

	host.tap(`[data-testid=go-play]`)
	host.standFirst(6, 5, 4, 3, 3)
	host.waitText(`[data-testid=whose-turn]`, "Bob")
	host.standFirst(6, 5, 4, 1, 1)
	dee.waitText(`[data-testid=whose-turn]`, "Your turn")
	dee.standFirst(6, 5, 4, 1, 2)
	host.waitText(`[data-testid=result]`, "Ann wins!")

	// The end of the night: the host closes the table after a confirmation
	// that can be cancelled.
	host.tap(`[data-testid=go-money]`)
	host.waitText(`[data-testid=balances]`, "+24 chips")
	host.tap(`[data-testid=close]`)
	host.waitText(`[data-testid=close-confirm]`, "Close “Friday” for good?")
	host.tap(`[data-testid=close-no]`)
	host.waitFor("the confirmation gone", `!document.querySelector('[data-testid=close-confirm]')`)
	// The Play tab's "Done for the night?" leads to the same question,
	// which reads in plain words (it once printed "undefined").
	host.tap(`[data-testid=go-play]`)
	host.tap(`[data-testid=end-night]`)
	host.waitText(`[data-testid=close-confirm]`, "Close “Friday” for good?")
	if text := host.text(`[data-testid=close-card]`); strings.Contains(text, "undefined") {
		t.Fatalf("the close confirmation reads %q", text)
	}
	host.shot("close-confirm")
	host.tap(`[data-testid=close-yes]`)
	host.waitText(`[data-testid=closed]`, "Closed")
	host.waitText(`[data-testid=balances]`, "Final balances")
	host.waitText(`[data-testid=settle]`, "Ann")
	if eval[bool](host, `!!document.querySelector('[data-testid=close-card]') || !!document.querySelector('[data-testid=buy-in]')`) {
		t.Fatal("a closed table still offers to close or to buy in")
	}
	host.shot("closed")

	// Every phone reads the table as closed.
	dee.waitText(`[data-testid=closed]`, "Closed")
	dee.waitText(`[data-testid=closed-card]`, "This table is closed")
	if eval[bool](dee, `!!document.querySelector('[data-testid=start-round]')`) {
		t.Fatal("Dee's phone offers to start a round at a closed table")
	}
	dee.shot("closed")
	host.tap(`[data-testid=go-invite]`)
	host.waitText(`[data-testid=tab-invite]`, "Nobody can join it any more.")
	if eval[bool](host, `!!document.querySelector('[data-testid=qr]') || !!document.querySelector('[data-testid=leave]')`) {
		t.Fatal("a closed table still shows its QR code or a leave button")
	}

	// Ann takes her chips home: a cash-out is still recorded.
	host.tap(`[data-testid=go-money]`)
	host.cash("cash-out", "Ann", "24", "Recorded: Ann cashed out 24 chips.")
	host.waitFor("Ann square", `[...document.querySelectorAll('[data-testid=balances] li')].some((li) => /^Ann\s*0 chips$/.test(li.textContent))`)
	host.shot("cashed-out")

	host.open("/")
	host.waitText("main", "host · closed")
}

// TestCrowdedTable: at a table of seven, one player takes himself off from
// his own phone before the round, and the host records a round of six with a
// long name in the hammer's seat; the screen must stay one column wide.
func TestCrowdedTable(t *testing.T) {
	srv := startServer(t)
	names := []string{"Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gwendolyn-Marie"}
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": names})
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	finn := newPhone(t, browser, srv.URL, "finn")
	finn.open("/#join=" + m.JoinCode + "&seat=Finn")
	finn.waitSeats()
	finn.tap(`button.seat[data-name="Finn"]`)
	finn.waitText(`header .role`, "You: Finn")

	// Finn's phone offers only Finn's own seat to leave.
	finn.tap(`[data-testid=go-invite]`)
	finn.waitFor("Finn's leave button", `document.querySelectorAll('[data-testid=leave]').length === 1 && `+
		`!!document.querySelector('[data-testid=seats] li[data-name="Finn"] [data-testid=leave]')`)
	finn.tap(`[data-testid=leave]`)
	finn.waitText(`[data-testid=leave-confirm]`, "Leave the table?")
	finn.tap(`[data-testid=leave-yes]`)
	finn.waitText(`header .role`, "You: Finn (left)")
	host.tap(`[data-testid=go-invite]`)
	host.waitFor("Finn gone on the host's phone", seatText("Finn")+`.includes('left')`)
	host.tap(`[data-testid=go-play]`)

	host.tap(`[data-testid=start-round]`)
	host.waitText(`[data-testid=whose-turn]`, "Ann")
	if n := eval[int](host, `document.querySelectorAll('.turnrow').length`); n != 6 {
		t.Fatalf("the round has %d turn rows, want 6 (Finn left)", n)
	}
	host.waitText(`[data-testid=hammer] .value`, "Gwendolyn-Marie")
	host.standFirst(6, 5, 4, 3, 3)
	host.waitText(`[data-testid=whose-turn]`, "Bob")
	host.standFirst(6, 5, 4, 2, 2)
	host.waitText(`[data-testid=whose-turn]`, "Cy")
	host.shot("six-players")
	finn.tap(`[data-testid=go-play]`)
	finn.waitText(`[data-testid=whose-turn]`, "Cy’s turn")
	finn.shot("watching")
}

// TestHostFreesATakenSeat: someone joins as Ann, whom the host plays for.
// The host frees Ann's seat after confirming; the impostor's phone is
// locked out, and the seat is open again in the QR link for Ann's phone.
func TestHostFreesATakenSeat(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	impostor := newPhone(t, browser, srv.URL, "impostor")
	impostor.joinBySeat(m.JoinCode, "Ann")

	host.tap(`[data-testid=go-invite]`)
	host.waitFor("Ann's seat taken", seatText("Ann")+`.includes('joined')`)
	host.tap(`[data-testid=seats] li[data-name="Ann"] [data-testid=release]`)
	host.waitText(`[data-testid=release-confirm]`, "The phone that joined as Ann is locked out")
	host.shot("release-confirm")
	host.tap(`[data-testid=release-yes]`)
	host.waitFor("Ann's seat open again", seatText("Ann")+`.includes('open')`)
	host.waitFor("Ann back in the QR link", `document.querySelector('[data-testid=qr] svg')?.getAttribute('aria-label').includes('seat=Ann')`)
	host.shot("released")

	ann := newPhone(t, browser, srv.URL, "ann")
	ann.joinBySeat(m.JoinCode, "Ann")
	if got := ann.text(`header .role`); got != "You: Ann" {
		t.Fatalf("Ann's phone says %q", got)
	}
}
