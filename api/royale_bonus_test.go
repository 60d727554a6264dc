package api

import (
	"testing"

	"github.com/tally-dice/tally/game/royale"
)

// TestRoyaleEnteredBonusNumbers: in the advanced game each ship is entered
// with the bonus number printed on it, and one left out is refused with a
// problem asking for it, changing nothing; a submarine is entered with its
// printed bonus number, as a dealt one carries one, or without, and sinks
// alike: a sonar, no shots.
func TestRoyaleEnteredBonusNumbers(t *testing.T) {
	t.Parallel()
	r := newRoyale(t, map[string]any{"mode": "advanced", "fleet": "entered"}, "Ann", "Bob")
	ann, bob := r.tokens["Ann"], r.tokens["Bob"]
	r.start(map[string]any{"first": r.id("Ann")})
	annFleet := func(destroyer map[string]any) []map[string]any {
		return []map[string]any{
			{"kind": "submarine", "cells": []string{"A1", "A2", "A3"}, "bonus": 2},
			destroyer,
			{"kind": "battleship", "cells": []string{"E1", "E2", "E3", "E4"}, "bonus": 3},
		}
	}
	r.refuse(r.move(ann, map[string]any{"kind": "enter", "fleet": annFleet(map[string]any{"kind": "destroyer", "cells": []string{"C1", "C2", "C3"}})}),
		422, invalidMove, "card", "card 2", "the destroyer's bonus number is missing: enter the number printed on the card")
	v := r.act(ann, 1, map[string]any{"kind": "enter", "fleet": annFleet(map[string]any{"kind": "destroyer", "cells": []string{"C1", "C2", "C3"}, "bonus": 2})})
	if v.Fleet[0].Kind != royale.Submarine || v.Fleet[0].Bonus != 2 || v.Fleet[1].Bonus != 2 {
		t.Fatalf("Ann's fleet: %+v", v.Fleet)
	}
	r.act(bob, 1, map[string]any{"kind": "enter", "fleet": []map[string]any{
		{"kind": "submarine", "cells": []string{"H1", "H2", "H3"}},
		{"kind": "patrol-boat", "cells": []string{"J9", "J10"}, "bonus": 1},
		{"kind": "carrier", "cells": []string{"J1", "J2", "J3", "J4", "J5"}, "bonus": 4},
	}})
	r.act(ann, 1, map[string]any{"kind": "roll", "die": 3})
	r.act(ann, 1, map[string]any{"kind": "shoot", "cells": []string{"H1", "H2", "H3"}})
	r.act(ann, 1, map[string]any{"kind": "end"})
	r.act(bob, 1, map[string]any{"kind": "roll", "die": 3})
	v = r.act(bob, 1, map[string]any{"kind": "shoot", "cells": []string{"A1", "A2", "A3"}})
	if len(v.SunkCards) != 2 {
		t.Fatalf("two submarines sunk: %+v", v.SunkCards)
	}
	for i, bonus := range []int{0, 2} {
		if k := v.SunkCards[i]; k.Card.Kind != royale.Submarine || k.Card.Bonus != bonus || k.Shots != 0 || !k.Sonar {
			t.Errorf("submarine %d sunk: %+v", i+1, k)
		}
	}
	r.auditOK()
}
