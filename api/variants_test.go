package api

import (
	"slices"
	"testing"
)

// These tests cover option combinations the preset scenarios leave out:
// loser-first, per-point payments after an automatic and in a low game, and
// a progressive pot at a bar-rules table without re-ante.

func TestLoserFirst(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "options": map[string]any{"start": "loser-first"}, "players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 4, 4})
	s.turn(1, "Bob", []int{6, 5, 4, 1, 2})
	s.turn(1, "Cy", miss...)
	// No score is below any score: Cy starts.
	rd := s.start(nil)
	if !slices.Equal(rd.Players, []int64{cy, ann, bob}) {
		t.Fatalf("round 2 plays %v, want Cy, Ann, Bob", rd.Players)
	}
	s.turn(2, "Cy", []int{6, 5, 4, 5, 5})
	s.turn(2, "Ann", []int{6, 5, 4, 1, 1})
	s.turn(2, "Bob", []int{6, 5, 4, 1, 1})
	// Ann and Bob tie for lowest; Ann threw first in round 2, so she starts.
	if rd = s.start(nil); !slices.Equal(rd.Players, []int64{ann, bob, cy}) {
		t.Fatalf("round 3 plays %v, want Ann, Bob, Cy", rd.Players)
	}
	s.turn(3, "Ann", []int{6, 5, 4, 1, 1})
	s.turn(3, "Bob", []int{6, 5, 4, 2, 1})
	expectResult(t, s.turn(3, "Cy", miss...), "win", []int64{bob}, 3, 0)
	s.expectMoney(0, map[string]int64{"Ann": 0, "Bob": 0, "Cy": 0})
	s.auditOK()
}

func TestPerPointAfterAnAutomaticForfeits(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "options": map[string]any{"payoff": "per-point", "stake": 2}, "players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 3, 3})
	// Bob's open automatic wins at once; Cy forfeits and counts as no score.
	rd := s.turn(1, "Bob", []int{6, 6, 6, 5, 4})
	expectResult(t, rd, "win", []int64{bob}, 3, 0)
	if pp := rd.Result.Settlement.PerPoint; !slices.Equal(pp, []paymentOut{{ann, bob, 12}, {cy, bob, 24}}) {
		t.Fatalf("per-point %+v", pp)
	}
	s.expectMoney(0, map[string]int64{"Ann": -13, "Bob": 38, "Cy": -25})
	s.settleUp()
}

func TestPerPointInALowGame(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "options": map[string]any{"low": true, "ante": 0, "payoff": "per-point", "stake": 1},
		"players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	if rd := s.start(nil); rd.Pot != 0 {
		t.Fatalf("no ante, but the pot holds %d", rd.Pot)
	}
	s.turn(1, "Ann", []int{6, 5, 4, 1, 2})
	s.turn(1, "Bob", []int{6, 5, 4, 2, 3})
	rd := s.turn(1, "Cy", miss...)
	expectResult(t, rd, "win", []int64{ann}, 0, 0)
	// The margin is measured the other way; no score counts as 12, the worst.
	if pp := rd.Result.Settlement.PerPoint; !slices.Equal(pp, []paymentOut{{bob, ann, 2}, {cy, ann, 9}}) {
		t.Fatalf("per-point %+v", pp)
	}
	s.expectMoney(0, map[string]int64{"Ann": 11, "Bob": -2, "Cy": -9})
	s.settleUp()
}

func TestProgressiveBarTieStillAntes(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "options": map[string]any{"progressive": true, "reanteOnTie": false},
		"players": []string{"Ann", "Bob", "Cy"}})
	ann, bob := s.id("Ann"), s.id("Bob")
	if rd := s.start(map[string]any{"declared": 7}); rd.Declarer != ann {
		t.Fatalf("round 1 declarer %d, want Ann", rd.Declarer)
	}
	s.turn(1, "Ann", []int{6, 5, 4, 3, 4})
	s.turn(1, "Bob", []int{6, 5, 4, 5, 2})
	expectResult(t, s.turn(1, "Cy", []int{6, 5, 4, 6, 5}), "tie", nil, 3, 3)
	// Everyone antes every round of a progressive pot, tie or not.
	rd := s.start(map[string]any{"declared": 8})
	if rd.Declarer != bob || rd.Pot != 6 {
		t.Fatalf("round 2 = %+v, want Bob declaring and a pot of 6", rd)
	}
	s.turn(2, "Bob", []int{6, 5, 4, 4, 4})
	s.turn(2, "Cy", []int{6, 5, 4, 1, 1})
	expectResult(t, s.turn(2, "Ann", []int{6, 5, 4, 5, 2}), "win", []int64{bob}, 6, 0)
	s.expectMoney(0, map[string]int64{"Ann": -2, "Bob": 4, "Cy": -2})
	s.settleUp()
}

func TestLastPlayersClosedAutomaticWins(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	ann, bob := s.id("Ann"), s.id("Bob")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 6, 5})
	// Nobody throws after Bob, so his closed 6-6 cannot go unclaimed: it
	// wins as an automatic when the round ends.
	s.act(s.tb.Host, 1, as(bob, roll(6, 5, 4, 1, 1)))
	s.act(s.tb.Host, 1, as(bob, roll(6, 6)))
	rd := s.act(s.tb.Host, 1, as(bob, map[string]any{"kind": "stand"}))
	expectResult(t, rd, "win", []int64{bob}, 2, 0)
	if !rd.Result.Automatic || !rd.score(t, bob).Automatic || rd.score(t, ann).Forfeited {
		t.Fatalf("round %+v", rd.Result)
	}
	s.expectMoney(0, map[string]int64{"Ann": -1, "Bob": 1})
	s.settleUp()
}
