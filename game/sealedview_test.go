package game

import (
	"reflect"
	"testing"
)

// TestSealedViewHidesHowAClosedTurnEnded: a closed cargo re-roll that
// shows 6-6 ends the turn as an automatic that may still be claimed, and
// a player who re-rolls under the cup and stands ends it too. Other players
// must not tell the two apart before the cups are lifted (docs/rules.md §4: a
// closed roll is sealed), or the next player knows to hurry their first
// roll and void the claim.
func TestSealedViewHidesHowAClosedTurnEnded(t *testing.T) {
	t.Parallel()
	bar := ruleset(t, "bar", Options{})
	tests := []struct {
		name    string
		actions []Action
	}{
		{"closed automatic, then stand (claimable until bob throws)", []Action{rollA(alice, 6, 5, 4, 1, 2), rollA(alice, 6, 6), standA(alice)}},
		{"closed re-roll, then stand", []Action{rollA(alice, 6, 5, 4, 1, 2), rollA(alice, 3, 3), standA(alice)}},
	}
	var views []Outcome
	for _, tc := range tests {
		r := play(t, bar, RoundSetup{Players: abc, Ante: true}, tc.actions)
		for _, viewer := range []PlayerID{0, bob, carol} {
			v := r.View(viewer)
			if v.Turn != bob {
				t.Fatalf("%s: turn %q, want bob", tc.name, v.Turn)
			}
			views = append(views, v.Players[0].Outcome)
		}
	}
	for _, v := range views[1:] {
		if !reflect.DeepEqual(v, views[0]) {
			t.Fatalf("a sealed turn shows how it ended:\n%+v\n%+v", views[0], v)
		}
	}
}
