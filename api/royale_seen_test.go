package api

import (
	"net/http"
	"strings"
	"testing"
)

// These tests are one throw, one record at Battleship Royale: every kind
// of action, sent twice against the same seen (the game's actions as the
// phone read them), is taken once; the other is refused with what was
// recorded and by whose phone, and changes nothing; the first, retried
// with its key, replays. Fleets of different players never clash.

// cidFleet is a standard fleet for a player without a phone.
var cidFleet = []map[string]any{
	{"kind": "patrol-boat", "cells": []string{"G1", "G2"}},
	{"kind": "destroyer", "cells": []string{"G4", "G5", "G6"}},
	{"kind": "battleship", "cells": []string{"I1", "I2", "I3", "I4"}},
}

// twice sends first and then second, both entered against the game's n
// actions: first is taken, second refused saying detail, and first,
// retried with its key, replays its answer. It returns the game after
// first.
func (r *royaleScene) twice(n int, first, second req, detail string) gameView {
	r.t.Helper()
	first.key, second.key = randomKey(), randomKey()
	first.body, second.body = seen(n, first.body.(map[string]any)), seen(n, second.body.(map[string]any))
	var v gameView
	answer := r.must(http.StatusOK, first, &v)
	if v.Actions != n+1 {
		r.t.Fatalf("%v: the game has %d actions after it, want %d", first.body, v.Actions, n+1)
	}
	r.refuse(second, http.StatusConflict, recordedSince, "recorded-since", detail)
	r.replays(first, answer)
	return v
}

// TestRoyaleSeenStandard plays the standard game with entered fleets, Cid
// without a phone (the host holds his fleet): a hold, a fleet entered, the
// die (tapped on two phones at the same moment), a shot, a bonus shot and
// the end of a turn, each sent twice.
func TestRoyaleSeenStandard(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"name": "Royale night", "game": "royale", "royale": map[string]any{"fleet": "entered"},
		"players": []string{"Ann", "Bob", "Cid"}})
	r := &royaleScene{scene: s, names: []string{"Ann", "Bob"}, tokens: map[string]string{}}
	for _, n := range r.names {
		r.tokens[n] = s.join(n)
	}
	ann, bob, host := r.tokens["Ann"], r.tokens["Bob"], r.tb.Host
	annID, cid := r.id("Ann"), r.id("Cid")
	r.start(map[string]any{"first": annID})

	r.twice(0, r.move(host, map[string]any{"player": cid, "kind": "hold"}), r.move(host, map[string]any{"player": cid, "kind": "hold"}),
		"The host's phone already recorded a hold of the fleet for Cid")
	enter := map[string]any{"kind": "enter", "fleet": annFleet}
	r.twice(1, r.move(ann, enter), r.move(ann, enter), "Ann's phone already recorded a fleet entered")
	// Bob's phone and the host (for Cid) choose their fleets against the
	// same seen: each chooses their own, so nothing clashes.
	r.must(http.StatusOK, r.move(bob, seen(1, map[string]any{"kind": "enter", "fleet": bobFleet})), nil)
	var v gameView
	r.must(http.StatusOK, r.move(host, seen(1, map[string]any{"player": cid, "kind": "enter", "fleet": cidFleet})), &v)
	if v.Phase != "playing" || v.Turn != annID || v.Actions != 4 {
		t.Fatalf("every fleet in: %s, turn %d, %d actions", v.Phase, v.Turn, v.Actions)
	}

	// Ann's phone and the host's tap the die at the same moment.
	die := map[string]any{"kind": "roll", "die": 2}
	both := sendEach(t, r.c, r.move(ann, seen(4, die)), r.move(host, seen(4, as(annID, die))))
	detail := "The host's phone already recorded the die: 2 for Ann"
	if both[0].status == http.StatusOK {
		detail = "Ann's phone already recorded the die: 2"
		both[0], both[1] = both[1], both[0]
	}
	if p := both[0].problem(t); both[1].status != http.StatusOK || both[0].status != http.StatusConflict || p.Detail != detail {
		t.Fatalf("two phones tapped the die: %d %s and %d %s, want one taken and one refused saying %q",
			both[1].status, both[1].body, both[0].status, both[0].body, detail)
	}
	if v = r.view(host, 1); v.Die != 2 || v.ShotsLeft != 2 || v.Actions != 5 {
		t.Fatalf("after the die tapped twice: die %d, %d shots left, %d actions", v.Die, v.ShotsLeft, v.Actions)
	}

	r.twice(5, r.move(host, as(annID, map[string]any{"kind": "shoot", "cells": []string{"A9"}})),
		r.move(ann, map[string]any{"kind": "shoot", "cells": []string{"A9"}}), "The host's phone already recorded a shot at A9 for Ann")
	// The second shot, without seen, sinks Bob's patrol boat: a bonus shot.
	if v = r.act(ann, 1, map[string]any{"kind": "shoot", "cells": []string{"A10"}}); v.player(annID).BonusShots != 1 {
		t.Fatalf("Ann sank Bob's patrol boat: %+v", v.player(annID))
	}
	r.twice(v.Actions, r.move(ann, map[string]any{"kind": "bonus", "cells": []string{"C8"}}),
		r.move(host, as(annID, map[string]any{"kind": "bonus", "cells": []string{"C8"}})), "Ann's phone already recorded a bonus shot at C8")
	v = r.twice(v.Actions+1, r.move(ann, map[string]any{"kind": "end"}), r.move(host, as(annID, map[string]any{"kind": "end"})),
		"Ann's phone already recorded the end of the turn")
	if v.Turn != r.id("Bob") {
		t.Fatalf("after Ann's turn it is player %d's", v.Turn)
	}
	r.auditOK()
}

// TestRoyaleSeenAdvanced plays the advanced game with dealt hands: a hand
// kept, sonar and a volley, each sent twice; Bob keeps his hand against
// the seen Ann's phone kept hers against, and is not refused.
func TestRoyaleSeenAdvanced(t *testing.T) {
	t.Parallel()
	r := newRoyale(t, map[string]any{"mode": "advanced"}, "Ann", "Bob")
	ann, bob, host := r.tokens["Ann"], r.tokens["Bob"], r.tb.Host
	annID := r.id("Ann")
	r.start(map[string]any{"first": annID})
	keep := func(tok string) map[string]any {
		hand := r.view(tok, 1).Hand
		return map[string]any{"kind": "keep", "discard": []int{len(hand) - 2, len(hand) - 1}}
	}
	r.twice(0, r.move(ann, keep(ann)), r.move(ann, keep(ann)), "Ann's phone already recorded a fleet kept from the hand")
	var v gameView
	r.must(http.StatusOK, r.move(bob, seen(0, keep(bob))), &v)
	if v.Phase != "playing" || v.Actions != 2 {
		t.Fatalf("both hands kept: %s with %d actions", v.Phase, v.Actions)
	}
	r.twice(2, r.move(ann, map[string]any{"kind": "sonar", "line": "A"}), r.move(host, as(annID, map[string]any{"kind": "sonar", "line": "A"})),
		"Ann's phone already recorded sonar on row A")
	v = r.act(ann, 1, map[string]any{"kind": "roll", "die": 2})
	cells := r.targets(1, "Ann")[:2]
	r.twice(v.Actions, r.move(host, as(annID, map[string]any{"kind": "shoot", "cells": cells})),
		r.move(ann, map[string]any{"kind": "shoot", "cells": cells}),
		"The host's phone already recorded a volley at "+strings.Join(cells, ", ")+" for Ann")
	r.auditOK()
}
