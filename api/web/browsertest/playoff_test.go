package browsertest

import "testing"

// TestScarneTieSaysAPlayoffFollows: a Scarne game of one round ends with
// Ann and Bob tied on 6 points (the playoff starts with Bob, the next to
// start). The result on every phone says in words
// that the game is tied and a playoff round decides it; the start card
// says only they throw and nobody antes; during the playoff the play
// screen says again what it is for; and its winner wins the game.
func TestScarneTieSaysAPlayoffFollows(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "scarne", "players": []string{"Ann", "Bob"},
		"options": map[string]any{"goal": map[string]any{"kind": "rounds", "target": 1}, "start": "rotate-left"}})
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	bob := newPhone(t, browser, srv.URL, "bob")
	bob.open("/#join=" + m.JoinCode + "&seat=Bob")
	bob.waitSeats()
	bob.tap(`button.seat[data-name="Bob"]`)
	bob.waitText(`header .role`, "You: Bob")

	host.press(`[data-testid=start-round]`)
	host.waitText(`[data-testid=whose-turn]`, "Ann")
	host.standOn(6, 5, 4, 3, 3)
	bob.waitText(`[data-testid=whose-turn]`, "Your turn")
	bob.standOn(6, 5, 4, 2, 4)

	const tied = "The game is tied: Bob and Ann share the lead on 6 points. A playoff round decides it: " +
		"only they throw, and its scores are not added to the totals."
	for _, p := range []*phone{host, bob} {
		p.waitText(`[data-testid=result]`, "Round scored.")
		p.waitText(`[data-testid=tied-game]`, tied)
		p.waitText(`[data-testid=ante]`, "Playoff round: only Bob and Ann throw; nobody antes.")
		p.shot("tied")
	}

	bob.press(`[data-testid=start-round]`)
	bob.press(`[data-testid=start-yes]`) // a player's phone asks once more
	const playing = "Playoff to decide the tied game: only Bob and Ann throw."
	for _, p := range []*phone{host, bob} {
		p.waitText(`[data-testid=playoff-round]`, playing)
		p.waitText(`[data-testid=game-playoff]`, "The game is tied: Bob and Ann share the lead on 6 points. This playoff round decides it")
		p.inView(`[data-testid=playoff-round]`, "the playoff's line on the turn")
	}
	bob.shot("playoff")
	bob.waitText(`[data-testid=whose-turn]`, "Your turn")
	bob.standOn(6, 5, 4, 1, 1)
	host.waitText(`[data-testid=whose-turn]`, "Ann")
	host.standOn(6, 5, 4, 6, 6)
	for _, p := range []*phone{host, bob} {
		p.waitText(`[data-testid=game]`, "Game over: Ann wins")
		if eval[bool](p, `!!document.querySelector('[data-testid=tied-game], [data-testid=game-playoff]')`) {
			t.Fatalf("%s still says a playoff follows once the game is won", p.name)
		}
	}
	bob.shot("won")
}
