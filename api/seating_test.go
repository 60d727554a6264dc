package api

import (
	"net/http"
	"slices"
	"testing"
)

// TestSeatsChangeBetweenRounds has a player join during a round and another
// leave after one, and checks who plays each round, who antes and, when the
// table closes with money in the pot, who gets it back.
func TestSeatsChangeBetweenRounds(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "options": map[string]any{"ante": 2}, "players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	s.start(nil)
	// Dee sits down mid-round: she plays from the next round on.
	var joined struct{ Player struct{ ID int64 } }
	s.must(http.StatusCreated, req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": s.tb.Code, "name": "Dee"}}, &joined)
	dee := joined.Player.ID
	s.turn(1, "Ann", []int{6, 5, 4, 5, 5})
	s.turn(1, "Bob", []int{6, 5, 4, 1, 1})
	rd := s.turn(1, "Cy", miss...)
	expectResult(t, rd, "win", []int64{ann}, 6, 0)
	s.expectMoney(0, map[string]int64{"Ann": 4, "Bob": -2, "Cy": -2})

	rd = s.start(nil)
	if !slices.Equal(rd.Players, []int64{bob, cy, dee, ann}) || rd.Pot != 8 {
		t.Fatalf("round 2 = %+v, want Bob, Cy, Dee, Ann and a pot of 8", rd)
	}
	s.turn(2, "Bob", []int{6, 5, 4, 4, 4})
	s.turn(2, "Cy", []int{6, 5, 4, 3, 5})
	s.tb.Players["Dee"] = dee
	s.turn(2, "Dee", []int{6, 5, 4, 2, 2})
	rd = s.turn(2, "Ann", []int{6, 5, 4, 1, 1})
	expectResult(t, rd, "tie", nil, 8, 8)
	s.expectMoney(8, map[string]int64{"Ann": 2, "Bob": -4, "Cy": -4, "Dee": -2})

	// Bob leaves; the rotation passes on to Cy, and the tied pot carries.
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/players/%d/leave", bob), token: s.tb.Host}, nil)
	rd = s.start(nil)
	if !slices.Equal(rd.Players, []int64{cy, dee, ann}) || rd.Pot != 14 {
		t.Fatalf("round 3 = %+v, want Cy, Dee, Ann and a pot of 8 + 6", rd)
	}
	s.turn(3, "Cy", []int{6, 5, 4, 3, 3})
	s.turn(3, "Dee", []int{6, 5, 4, 4, 2})
	rd = s.turn(3, "Ann", []int{6, 5, 4, 2, 4})
	expectResult(t, rd, "tie", nil, 14, 14)
	s.expectMoney(14, map[string]int64{"Ann": 0, "Bob": -4, "Cy": -6, "Dee": -4})

	// Closing returns the 14 to round 3's players: 5, 5 and 4 in play order.
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/close"), token: s.tb.Host}, nil)
	s.expectMoney(0, map[string]int64{"Ann": 4, "Bob": -4, "Cy": -1, "Dee": 1})
	s.settleUp()
}

// TestGameOfRoundsKeepsItsPlayers checks that nobody joins or leaves a game
// of rounds once it has begun, since the totals would no longer compare,
// and that the game goes on with its players.
func TestGameOfRoundsKeepsItsPlayers(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "scarne", "options": map[string]any{"goal": map[string]any{"kind": "rounds", "target": 2}},
		"players": []string{"Ann", "Bob"}})
	ann, bob := s.id("Ann"), s.id("Bob")
	s.start(map[string]any{"rollOff": []any{throw(ann, 1, 1, 1, 1, 1), throw(bob, 2, 2, 2, 2, 2)}})
	s.turn(1, "Ann", []int{6, 5, 4, 6, 6})
	s.turn(1, "Bob", []int{6, 5, 4, 1, 1})
	s.check(t, []refusal{
		{"join", req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": s.tb.Code, "name": "Cy"}},
			409, "/problems/conflict", []string{"game of rounds"}},
		{"seat", req{method: http.MethodPost, path: s.tb.path("/players"), token: s.tb.Host, body: map[string]any{"name": "Cy"}},
			409, "/problems/conflict", []string{"game of rounds"}},
		{"leave", req{method: http.MethodPost, path: s.tb.path("/players/%d/leave", bob), token: s.tb.Host},
			409, "/problems/conflict", []string{"game of rounds"}},
	})
	s.start(nil)
	s.turn(2, "Bob", []int{6, 5, 4, 1, 1})
	rd := s.turn(2, "Ann", []int{6, 5, 4, 1, 1})
	if rd.Game == nil || rd.Game.Winner != ann {
		t.Fatalf("game end %+v", rd.Game)
	}
	s.expectMoney(0, map[string]int64{"Ann": 1, "Bob": -1})
	s.settleUp()
}
