package api

import (
	"net/http"
	"slices"
	"testing"
)

// These tests play Scarne's game of rounds through the API: the roll-off
// for the first throw, points added up round by round, a tie for the win
// settled by playoffs, and the pot (and per-point payments) at the end.

// gameOut is GET table's running game.
type gameOut struct {
	Game *struct {
		Totals  []totalOut `json:"totals"`
		Over    bool       `json:"over"`
		Winner  int64      `json:"winner"`
		Playoff []int64    `json:"playoff"`
	} `json:"game"`
}

// game reads the table's game of rounds.
func (s *scene) game() gameOut {
	s.t.Helper()
	var g gameOut
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path(""), token: s.tb.Audit}, &g)
	if g.Game == nil {
		s.t.Fatal("GET table shows no game of rounds")
	}
	return g
}

// totals maps player ids to their points.
func (g gameOut) totals() map[int64]int64 {
	out := map[int64]int64{}
	for _, t := range g.Game.Totals {
		out[t.Player] = t.Total
	}
	return out
}

// throw is one roll-off throw.
func throw(player int64, dice ...int) map[string]any {
	return map[string]any{"player": player, "dice": dice}
}

func TestScarneRollOffPlayoffsAndPot(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "scarne", "options": map[string]any{"goal": map[string]any{"kind": "points", "target": 20}},
		"players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	start := req{method: http.MethodPost, path: s.tb.path("/rounds"), token: s.tb.Host}
	s.refused(start, http.StatusUnprocessableEntity, "/problems/invalid-request", "roll-off")
	// Ann and Bob tie for lowest and must throw again.
	first := []any{throw(ann, 1, 1, 1, 1, 1), throw(bob, 1, 1, 1, 1, 1), throw(cy, 6, 6, 6, 6, 6)}
	start.body = map[string]any{"rollOff": first}
	s.refused(start, http.StatusUnprocessableEntity, "/problems/invalid-request", "not decided yet")
	start.body = map[string]any{"rollOff": append(slices.Clone(first), throw(cy, 1, 1, 1, 1, 1))}
	s.refused(start, http.StatusUnprocessableEntity, "/problems/invalid-request", "throws next in the roll-off")

	rd := s.start(map[string]any{"rollOff": append(first, throw(ann, 2, 2, 2, 2, 2), throw(bob, 1, 1, 1, 1, 2))})
	if !slices.Equal(rd.Players, []int64{bob, cy, ann}) || rd.Pot != 3 {
		t.Fatalf("round 1 = %+v, want Bob (lowest in the re-throw) first and a pot of 3", rd)
	}
	s.turn(1, "Bob", []int{6, 5, 4, 6, 6}) // 12 and no automatic in a game of rounds
	s.turn(1, "Cy", []int{6, 5, 4, 6, 6})
	rd = s.turn(1, "Ann", miss...)
	expectResult(t, rd, "scored", nil, 3, 3)
	if g := s.game(); g.Game.Over || !maps(g.totals(), map[int64]int64{ann: 0, bob: 12, cy: 12}) {
		t.Fatalf("after round 1: %+v", g.Game)
	}

	// Bob and Cy reach 20 together: the round is completed and they play off.
	if rd = s.start(nil); rd.Pot != 3 || !slices.Equal(rd.Players, []int64{cy, ann, bob}) {
		t.Fatalf("round 2 = %+v, want no new antes and Cy first", rd)
	}
	s.turn(2, "Cy", []int{6, 5, 4, 4, 4})
	s.turn(2, "Ann", []int{6, 5, 4, 3, 2})
	s.turn(2, "Bob", []int{6, 5, 4, 5, 3})
	g := s.game()
	if g.Game.Over || !slices.Equal(g.Game.Playoff, []int64{bob, cy}) || !maps(g.totals(), map[int64]int64{ann: 5, bob: 20, cy: 20}) {
		t.Fatalf("after round 2: %+v", g.Game)
	}

	// The first playoff ties again; the second one decides.
	rd = s.start(nil)
	if !rd.Playoff || !slices.Equal(rd.Players, []int64{bob, cy}) || rd.Pot != 3 {
		t.Fatalf("playoff round = %+v", rd)
	}
	s.turn(3, "Bob", []int{6, 5, 4, 3, 3})
	s.turn(3, "Cy", []int{6, 5, 4, 3, 3})
	if g = s.game(); g.Game.Over || !slices.Equal(g.Game.Playoff, []int64{bob, cy}) {
		t.Fatalf("after a tied playoff: %+v", g.Game)
	}
	s.start(nil)
	s.turn(4, "Bob", []int{6, 5, 4, 5, 5})
	rd = s.turn(4, "Cy", []int{6, 5, 4, 4, 3})
	if rd.Game == nil || rd.Game.Winner != bob || !slices.Equal(rd.Game.Settlement.Payouts, []amountOut{{bob, 3}}) {
		t.Fatalf("the game's end: %+v", rd.Game)
	}
	g = s.game()
	if !g.Game.Over || g.Game.Winner != bob || !maps(g.totals(), map[int64]int64{ann: 5, bob: 20, cy: 20}) {
		t.Fatalf("after the game: %+v (playoff scores must not add to totals)", g.Game)
	}
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds"), token: s.tb.Host}, http.StatusConflict, "/problems/conflict", "game is over")
	s.expectMoney(0, map[string]int64{"Ann": -1, "Bob": 2, "Cy": -1})
	s.settleUp()
}

func TestScarnePerPointAtGameEnd(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "scarne", "players": []string{"Ann", "Bob"},
		"options": map[string]any{"payoff": "per-point", "stake": 2, "goal": map[string]any{"kind": "rounds", "target": 2}}})
	ann, bob := s.id("Ann"), s.id("Bob")
	s.start(map[string]any{"rollOff": []any{throw(ann, 1, 1, 1, 1, 2), throw(bob, 3, 3, 3, 3, 3)}})
	s.turn(1, "Ann", []int{6, 5, 4, 6, 6})
	s.turn(1, "Bob", []int{6, 5, 4, 1, 3})
	s.expectMoney(2, map[string]int64{"Ann": -1, "Bob": -1})
	s.start(nil)
	s.turn(2, "Bob", []int{6, 5, 4, 4, 3})
	rd := s.turn(2, "Ann", []int{6, 5, 4, 1, 2})
	// Totals 15 to 11: Bob pays 2 × 4, and Ann takes the pot.
	if rd.Game == nil || rd.Game.Winner != ann || !slices.Equal(rd.Game.Settlement.PerPoint, []paymentOut{{bob, ann, 8}}) ||
		!slices.Equal(rd.Game.Settlement.Payouts, []amountOut{{ann, 2}}) {
		t.Fatalf("the game's end: %+v", rd.Game)
	}
	s.expectMoney(0, map[string]int64{"Ann": 9, "Bob": -9})
	s.settleUp()
}

func TestScarneToTheDefaultHundred(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "scarne", "players": []string{"Ann", "Bob"}})
	ann := s.id("Ann")
	s.start(map[string]any{"rollOff": []any{throw(ann, 1, 1, 1, 1, 1), throw(s.id("Bob"), 6, 6, 6, 6, 6)}})
	// Ann scores 12 a round and Bob 2: Ann passes 100 in round 9.
	for n := 1; n <= 9; n++ {
		if n > 1 {
			s.start(nil)
		}
		order := []string{"Ann", "Bob"}
		if n%2 == 0 {
			order = []string{"Bob", "Ann"}
		}
		var rd fullRound
		for _, name := range order {
			dice := []int{6, 5, 4, 1, 1}
			if name == "Ann" {
				dice = []int{6, 5, 4, 6, 6}
			}
			rd = s.turn(n, name, dice)
		}
		if over := rd.Game != nil; over != (n == 9) {
			t.Fatalf("round %d: game over %v", n, over)
		}
	}
	g := s.game()
	if !g.Game.Over || g.Game.Winner != ann || g.totals()[ann] != 108 {
		t.Fatalf("after 9 rounds: %+v", g.Game)
	}
	s.expectMoney(0, map[string]int64{"Ann": 1, "Bob": -1})
	s.settleUp()
}

// maps reports whether two maps hold the same entries.
func maps(a, b map[int64]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestScarneToAHundredWithAPlayoff: both players score 12 every round, so
// both pass 100 together in round 9 with 108. The tie is settled by a
// one-round playoff (whose scores do not add to the totals), and its winner
// takes the pot.
func TestScarneToAHundredWithAPlayoff(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "scarne", "players": []string{"Ann", "Bob"}})
	ann, bob := s.id("Ann"), s.id("Bob")
	s.start(map[string]any{"rollOff": []any{throw(ann, 1, 1, 1, 1, 1), throw(bob, 6, 6, 6, 6, 6)}})
	for n := 1; n <= 9; n++ {
		if n > 1 {
			s.start(nil)
		}
		order := []string{"Ann", "Bob"}
		if n%2 == 0 {
			order = []string{"Bob", "Ann"}
		}
		for _, name := range order {
			s.turn(n, name, []int{6, 5, 4, 6, 6})
		}
	}
	g := s.game()
	if g.Game.Over || !maps(g.totals(), map[int64]int64{ann: 108, bob: 108}) || len(g.Game.Playoff) != 2 {
		t.Fatalf("after 9 rounds both have 108 and must play off: %+v", g.Game)
	}
	rd := s.start(nil)
	if !rd.Playoff || rd.Number != 10 {
		t.Fatalf("round 10 should be the playoff: %+v", rd)
	}
	dice := map[int64][]int{ann: {6, 5, 4, 3, 4}, bob: {6, 5, 4, 1, 2}}
	name := map[int64]string{ann: "Ann", bob: "Bob"}
	for _, p := range rd.Players {
		rd = s.turn(10, name[p], dice[p])
	}
	if rd.Game == nil || rd.Game.Winner != ann {
		t.Fatalf("the playoff's end: %+v", rd.Game)
	}
	if g = s.game(); !g.Game.Over || g.Game.Winner != ann || !maps(g.totals(), map[int64]int64{ann: 108, bob: 108}) {
		t.Fatalf("after the playoff: %+v (playoff scores must not add to totals)", g.Game)
	}
	s.expectMoney(0, map[string]int64{"Ann": 1, "Bob": -1})
	s.settleUp()
}
