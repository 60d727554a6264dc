package browsertest

import (
	"context"
	"testing"
	"time"
)

// These tests are one throw, one record (issue 23): Bob has his own phone,
// and the host's phone shows the pad on his turn too. Both tap the same
// throw; it is stored once, and the phone that lost says who recorded it.

// rollsOf counts the throws stored for a player of a table.
func (s *server) rollsOf(t *testing.T, table, player int64) int {
	t.Helper()
	var n int
	err := s.pool.QueryRow(context.Background(),
		`SELECT count(*) FROM round_actions WHERE table_id = $1 AND player_id = $2 AND kind = 'roll'`, table, player).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// bobsTurn seats Bob on his own phone at a bar table made through the API,
// has the host's phone start the round and record Ann's turn, and returns
// both phones once each shows Bob's turn.
func bobsTurn(t *testing.T, srv *server, m made) (host, bob *phone) {
	t.Helper()
	browser := startBrowser(t)
	host = newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	bob = newPhone(t, browser, srv.URL, "bob")
	bob.open("/#join=" + m.JoinCode + "&seat=Bob")
	bob.waitSeats()
	bob.tap(`button.seat[data-name="Bob"]`)
	bob.waitText(`header .role`, "You: Bob")
	host.tap(`[data-testid=start-round]`)
	bob.waitText(`[data-testid=whose-turn]`, "Ann’s turn")
	host.standFirst(6, 5, 4, 3, 3)
	host.waitText(`[data-testid=whose-turn]`, "Bob’s turn")
	bob.waitText(`[data-testid=whose-turn]`, "Your turn")
	return host, bob
}

// TestTwoPhonesTapTheSameThrow is the field report: the host's phone and
// Bob's tap 1-2-3-4-2 and Record at the same moment (the server holds the
// first until the second arrives, so neither phone has heard of the other).
// The throw is stored once, both screens show Bob at roll 2 of 3, and the
// phone that lost says whose phone recorded it.
func TestTwoPhonesTapTheSameThrow(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	host, bob := bobsTurn(t, srv, m)
	host.enter(1, 2, 3, 4, 2)
	bob.enter(1, 2, 3, 4, 2)
	srv.together(2)
	host.tap(`[data-testid=send]`)
	bob.tap(`[data-testid=send]`)
	for _, p := range []*phone{host, bob} {
		p.waitText(`[data-testid=next]`, "roll 2 of 3")
		p.waitFor("Bob's one throw on screen", row("Bob")+`?.querySelectorAll('.die').length === 5`)
	}
	lost, won := loser(t, host, bob)
	says := "The host's phone already recorded 1-2-3-4-2 for Bob."
	if lost == host {
		says = "Bob's phone already recorded 1-2-3-4-2."
	}
	lost.waitText(`[data-testid=already]`, says)
	if won.text(`[data-testid=already]`) != "" || won.text(`[data-testid=reason]`) != "" {
		t.Errorf("the phone whose throw was taken says %q", won.text(`[data-testid=turn]`))
	}
	if n := srv.rollsOf(t, m.Table.ID, m.id(t, "Bob")); n != 1 {
		t.Fatalf("one throw tapped on two phones is stored %d times", n)
	}
	// Ann's throw and stand, and one tap on each phone, reached the
	// server once each: the refused tap is not sent again.
	onceEach(t, srv, 4)
	lost.shot("already-recorded")
	won.shot("recorded")

	// The phone that lost moves on: its pad takes Bob's next throw.
	lost.enter(6, 5, 4, 1, 1)
	lost.tap(`[data-testid=send]`)
	for _, p := range []*phone{host, bob} {
		p.waitText(`[data-testid=next]`, "Stand or re-roll")
	}
	lost.waitFor("the news gone with the next move", `!document.querySelector('[data-testid=already]')`)
}

// loser is, of two phones that tapped one throw, the one that says
// another recorded it first (once one does), and the other.
func loser(t *testing.T, a, b *phone) (lost, won *phone) {
	t.Helper()
	for deadline := time.Now().Add(stepTimeout); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		switch {
		case a.text(`[data-testid=already]`) != "":
			return a, b
		case b.text(`[data-testid=already]`) != "":
			return b, a
		}
	}
	t.Fatalf("neither phone says another recorded the throw first:\n%s\n%s", a.text(`main`), b.text(`main`))
	return nil, nil
}

// TestQueuedDuplicateIsDropped: Bob's phone has no network when he taps
// 1-2-3-4-2, and the throw waits on it; the host's phone records the same
// throw for him. Back online, Bob's waiting throw meets the server's
// "already recorded": it is dropped, not sent again, and Bob's phone says
// so as news, with the server's words, not as an error. The throw is
// stored once, and both screens agree.
func TestQueuedDuplicateIsDropped(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	host, bob := bobsTurn(t, srv, m)
	bob.setOffline(true)
	bob.enter(1, 2, 3, 4, 2)
	bob.tap(`[data-testid=send]`)
	bob.waitText(`[data-testid=waiting]`, "1 waiting to send")
	host.enter(1, 2, 3, 4, 2)
	host.tap(`[data-testid=send]`)
	host.waitText(`[data-testid=next]`, "roll 2 of 3")

	bob.setOffline(false)
	bob.waitText(`[data-testid=already-sent]`, "The host's phone already recorded 1-2-3-4-2 for Bob.")
	bob.waitText(`[data-testid=already-sent]`, "So this phone did not send its own: Bob: throw 1 2 3 4 2.")
	bob.waitFor("nothing left waiting", `!document.querySelector('[data-testid=waiting]')`)
	for _, p := range []*phone{host, bob} {
		p.waitText(`[data-testid=next]`, "roll 2 of 3")
		p.waitFor("Bob's one throw on screen", row("Bob")+`?.querySelectorAll('.die').length === 5`)
	}
	if bob.text(`[data-testid=conflict]`) != "" {
		t.Errorf("the dropped duplicate is shown as an error: %q", bob.text(`[data-testid=conflict]`))
	}
	bob.shot("duplicate-dropped")
	if n := srv.rollsOf(t, m.Table.ID, m.id(t, "Bob")); n != 1 {
		t.Fatalf("the throw is stored %d times", n)
	}
	// Ann's throw and stand, the host's throw for Bob and Bob's waiting
	// one, which arrived once and was not sent again.
	onceEach(t, srv, 4)
	bob.tap(`[data-testid=conflict-ok]`)
	bob.waitFor("the notice dismissed", `!document.querySelector('[data-testid=already-sent]')`)
}
