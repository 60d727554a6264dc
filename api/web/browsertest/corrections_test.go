package browsertest

import (
	"fmt"
	"strings"
	"testing"
)

// balanceOf is a JavaScript expression for the named player's row on the
// Money tab's balances.
func balanceOf(name string) string {
	return fmt.Sprintf(`([...document.querySelectorAll('[data-testid=balances] li')].find((li) => li.textContent.startsWith(%q))?.textContent || '')`, name)
}

// TestHostCorrectsMistakes: the host's phone reverses the latest round and
// every phone shows the balances from before it; then takes back a wrong
// throw while Ann's phone watches it go; then reverses a buy-in typed
// wrong. Each asks first, and History on Ann's phone lists every
// correction with its reason.
func TestHostCorrectsMistakes(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob", "Cy"},
		"currency": "chips", "options": map[string]any{"ante": 2}})
	base := fmt.Sprintf("/v1/tables/%d", m.Table.ID)
	turn := func(round int, player int64, faces ...int) {
		post(t, srv.URL, m.HostToken, fmt.Sprintf("%s/rounds/%d/turns", base, round),
			map[string]any{"player": player, "rolls": []any{map[string]any{"dice": faces}}}, nil)
	}
	ann, bob, cy := m.id(t, "Ann"), m.id(t, "Bob"), m.id(t, "Cy")
	post(t, srv.URL, m.HostToken, base+"/rounds", nil, nil)
	turn(1, ann, 6, 5, 4, 6, 6)
	turn(1, bob, 6, 5, 4, 3, 3)
	turn(1, cy, 6, 5, 4, 1, 2)
	post(t, srv.URL, m.HostToken, base+"/rounds", nil, nil)
	turn(2, bob, 6, 5, 4, 6, 6)
	turn(2, cy, 6, 5, 4, 3, 3)
	turn(2, ann, 6, 5, 4, 1, 2)

	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	annPhone := newPhone(t, browser, srv.URL, "ann")
	annPhone.joinBySeat(m.JoinCode, "Ann")
	annPhone.tap(`[data-testid=go-money]`)
	annPhone.waitFor("Ann's balance after round 2", balanceOf("Ann")+`.includes('+2 chips')`)

	// Round 2 was played with the wrong cup: the host reverses it.
	host.waitText(`[data-testid=fixes]`, "Made a mistake?")
	host.tap(`[data-testid=reverse-round]`)
	host.waitText(`[data-testid=reverse-round-confirm]`, "Reverse round 2?")
	host.typeInto(`[data-testid=reverse-round-reason]`, "wrong cup")
	host.shot("reverse-round-confirm")
	host.tap(`[data-testid=reverse-round-yes]`)
	host.waitText(`[data-testid=reversed]`, "Reversed by the host.")
	host.shot("round-reversed")
	annPhone.waitFor("Ann's balance back to round 1's", balanceOf("Ann")+`.includes('+4 chips')`)
	if got := eval[string](annPhone, balanceOf("Bob")); !strings.Contains(got, "-2 chips") {
		t.Fatalf("Bob's balance on Ann's phone after the reversal: %q", got)
	}
	host.tap(`[data-testid=go-money]`)
	host.waitFor("Ann's balance on the host's phone", balanceOf("Ann")+`.includes('+4 chips')`)
	annPhone.shot("balances-restored")

	// The round is played again; Ann's second throw is typed wrong and the
	// host takes it back while Ann's phone watches.
	host.tap(`[data-testid=go-play]`)
	host.tap(`[data-testid=start-round]`)
	host.waitFor("round 3 on the host's phone", `!!document.querySelector('[data-testid=turn]')`)
	post(t, srv.URL, m.HostToken, fmt.Sprintf("%s/rounds/3/actions", base),
		map[string]any{"player": bob, "kind": "roll", "dice": []int{6, 5, 4, 3, 3}}, nil)
	post(t, srv.URL, m.HostToken, fmt.Sprintf("%s/rounds/3/actions", base),
		map[string]any{"player": bob, "kind": "roll", "dice": []int{1, 1}}, nil)
	annPhone.tap(`[data-testid=go-play]`)
	throws := fmt.Sprintf(`document.querySelectorAll('[data-testid=turns-3] [data-player="%d"] .roll').length`, bob)
	annPhone.waitFor("Bob's two throws", throws+` === 2`)
	host.waitFor("Bob's two throws on the host's phone", throws+` === 2`)
	host.tap(`[data-testid=take-back]`)
	host.waitText(`[data-testid=take-back-confirm]`, "Take back the last entry of this round?")
	host.typeInto(`[data-testid=take-back-reason]`, "typed 1 1, the dice show 6 6")
	host.axe("take-back-confirm")
	host.tap(`[data-testid=take-back-yes]`)
	annPhone.waitFor("Bob's wrong throw gone from Ann's phone", throws+` === 1`)
	host.waitFor("Bob's wrong throw gone from the host's phone", throws+` === 1`)
	annPhone.shot("throw-taken-back")

	// A buy-in typed as 500 instead of 50 is reversed from the Money tab.
	post(t, srv.URL, m.HostToken, base+"/deposits", map[string]any{"player": cy, "amount": 500}, nil)
	host.tap(`[data-testid=go-money]`)
	host.waitText(`[data-testid=money-fixes]`, "Cy bought in for 500 chips.")
	host.tap(`[data-testid=money-fixes] button`)
	host.waitText(`[data-testid=money-fixes]`, "Reverse this buy-in?")
	host.shot("reverse-buy-in")
	host.tap(`[data-testid=money-fixes] button.danger`)
	annPhone.tap(`[data-testid=go-money]`)
	annPhone.waitFor("Cy's buy-in reversed on Ann's phone", balanceOf("Cy")+`.includes('-4 chips')`)

	// Ann's History lists the three corrections, with the reasons given.
	annPhone.tap(`[data-testid=go-history]`)
	annPhone.waitText(`[data-testid=corrections]`, "the host reversed round 2. Reason: “wrong cup”.")
	annPhone.waitText(`[data-testid=corrections]`, "the host took back Bob’s last entry in round 3. Reason: “typed 1 1, the dice show 6 6”.")
	annPhone.waitText(`[data-testid=corrections]`, "the host reversed Cy’s buy-in of 500 chips. No reason given.")
	annPhone.waitText(`[data-testid=audit]`, "Audit: all checks pass")
	// Under "Seats and payments" the buy-in is still listed, marked
	// reversed; nothing else is.
	annPhone.waitFor("Cy's buy-in marked reversed", `[...document.querySelectorAll('[data-testid=table-log] li')].some((li) =>
		li.textContent.startsWith(li.querySelector('.when').textContent + 'Cy bought in 500 chips') && !!li.querySelector('[data-testid=reversed-mark]'))`)
	if n := eval[int](annPhone, `document.querySelectorAll('[data-testid=table-log] [data-testid=reversed-mark]').length`); n != 1 {
		t.Errorf("%d lines of the table log are marked reversed, want 1 (Cy's buy-in)", n)
	}
	oneClock(t, annPhone)
	annPhone.shot("history-corrections")
}

// oneClock checks that every time of day on the screen is written one
// way: the phone's own, as Intl writes it for its locale with the app's
// options (a 12-hour "4:42 PM" in this browser), whichever card it is on.
// History once had "04:40 PM" among the corrections and "16:42" in the
// table log.
func oneClock(t *testing.T, p *phone) {
	t.Helper()
	got := eval[struct {
		Want  string   `json:"want"`
		Times []string `json:"times"`
	}](p, `(() => {
  const shape = (s) => s.replace(/\d+/g, '9').replace(/\b[AP]M\b/, 'PM');
  const want = shape(new Intl.DateTimeFormat([], {hour: 'numeric', minute: '2-digit'}).format(new Date(2026, 0, 9, 16, 42)));
  return {want, times: [...document.querySelectorAll('main time')].map((t) => t.textContent + ' is ' + shape(t.textContent))};
})()`)
	if len(got.Times) < 2 {
		t.Fatalf("%s: %d times on the screen, want the log's and the corrections'", p.name, len(got.Times))
	}
	for _, tm := range got.Times {
		if !strings.HasSuffix(tm, " is "+got.Want) {
			t.Errorf("%s: a time reads %s, want the shape %q", p.name, tm, got.Want)
		}
	}
}
