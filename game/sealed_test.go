package game

import (
	"errors"
	"fmt"
	"testing"
)

// TestApplyAsJudgesSealedCargoAlike records the same throws for alice from
// three phones: her own, the host's (viewer 0) and bob's, while her cargo
// is under the cup and is one of several. Her own phone is judged on her
// cargo, as always; the others are answered the same, in the same words,
// whatever the cargo is, and may not name the dice picked up.
func TestApplyAsJudgesSealedCargoAlike(t *testing.T) {
	t.Parallel()
	on := true
	rerolls := func(dice, rethrow []int) Action {
		return Action{Player: alice, Kind: ActionRoll, Roll: &Roll{Dice: dice, Rethrow: rethrow}}
	}
	cases := []struct {
		preset string
		opts   Options
		cargos [][]int
		throws []Action // the first names dice that fit one of the cargos
	}{
		{"bar", Options{}, [][]int{{3, 2}, {6, 6}, {5, 5}}, []Action{
			rerolls([]int{1, 1}, []int{3, 2}), rerolls([]int{1, 1}, []int{6, 6}), rerolls([]int{1, 1}, []int{4, 4}),
			rerolls([]int{1}, []int{6}), rerolls([]int{1}, []int{2}), rerolls([]int{1, 1, 1}, []int{5, 5, 5}),
			rerolls([]int{1, 1, 1}, nil), rerolls([]int{7, 1}, nil), rerolls([]int{1, 1}, []int{0, 9}),
			{Player: alice, Kind: ActionRoll, Roll: &Roll{Dice: []int{1, 1}, Path: "1-2-3"}},
			liftA(alice),
		}},
		{"classic", Options{ClosedRolls: &on, Automatic: &on}, [][]int{{6, 3}, {6, 6}, {2, 2}}, []Action{
			rerolls([]int{1}, []int{6}), rerolls([]int{1}, []int{3}), rerolls([]int{1}, []int{2}),
			rerolls([]int{1, 1}, []int{6, 6}), rerolls([]int{1, 1}, []int{6, 3}), rerolls([]int{1, 1, 1}, []int{6, 3, 2}),
			rerolls([]int{1}, []int{6, 6}), rerolls([]int{1}, []int{0}), rerolls([]int{7}, []int{6}),
		}},
	}
	for _, tc := range cases {
		rs := ruleset(t, tc.preset, tc.opts)
		rounds := make([]*Round, len(tc.cargos))
		for i, cargo := range tc.cargos {
			rounds[i] = play(t, rs, RoundSetup{Players: abc}, []Action{rollA(alice, 6, 5, 4, 1, 2), rollA(alice, cargo...)})
		}
		for _, viewer := range []PlayerID{0, bob} {
			for _, r := range rounds {
				if !r.SealsFrom(viewer) || r.SealsFrom(alice) {
					t.Fatalf("%s: alice's cargo is sealed from %d: %v, from alice: %v", tc.preset, viewer, r.SealsFrom(viewer), r.SealsFrom(alice))
				}
			}
			for _, a := range tc.throws {
				var first string
				for i, r := range rounds {
					before := fmt.Sprintf("%+v", r.State())
					err := r.ApplyAs(viewer, a)
					if err == nil {
						t.Fatalf("%s: %+v recorded by %d is taken for cargo %v", tc.preset, a.Roll, viewer, tc.cargos[i])
					}
					if after := fmt.Sprintf("%+v", r.State()); after != before {
						t.Fatalf("%s: a refused throw changed the round", tc.preset)
					}
					got := fmt.Sprintf("%v (%v)", err, errors.Unwrap(err))
					if i == 0 {
						first = got
					} else if got != first {
						t.Fatalf("%s: %+v recorded by %d: %s for cargo %v, but %s for cargo %v",
							tc.preset, a, viewer, first, tc.cargos[0], got, tc.cargos[i])
					}
				}
			}
			// The first throw names dice that fit one of the cargos.
			if err := rounds[0].ApplyAs(viewer, tc.throws[0]); !errors.Is(err, ErrCargoSealed) {
				t.Fatalf("%s: %+v recorded by %d: %v, want ErrCargoSealed", tc.preset, tc.throws[0].Roll, viewer, err)
			}
		}
		// Alice's own phone is told what is wrong with her cargo.
		err := rounds[0].ApplyAs(alice, rerolls([]int{1, 1}, []int{4, 4}))
		if !errors.Is(err, ErrRethrowNotCargo) {
			t.Fatalf("%s: alice names dice not in her cargo: %v", tc.preset, err)
		}
		// Anyone may throw all of the cargo again.
		for _, r := range rounds {
			if err := r.ApplyAs(0, rerolls([]int{4, 4}, nil)); err != nil {
				t.Fatalf("%s: the host re-rolls all of alice's cargo: %v", tc.preset, err)
			}
			if o := r.State().Players[0].Outcome; o.Score != 8 || !o.Over {
				t.Fatalf("%s: after the third roll alice has %+v", tc.preset, o)
			}
		}
	}
}

// TestSealsFrom says from whom a round seals something: nobody before a
// closed throw, everyone but the thrower while the cup is down, nobody once
// the cups are lifted or the round is over.
func TestSealsFrom(t *testing.T) {
	t.Parallel()
	rs := ruleset(t, "bar", Options{})
	r := play(t, rs, RoundSetup{Players: abc}, []Action{rollA(alice, 6, 5, 4, 1, 2)})
	for _, v := range []PlayerID{0, alice, bob} {
		if r.SealsFrom(v) {
			t.Fatalf("an open roll is sealed from %d", v)
		}
	}
	for _, a := range []Action{rollA(alice, 3, 3), standA(alice), rollA(bob, 6, 5, 4, 1, 1)} {
		if err := r.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if !r.SealsFrom(0) || !r.SealsFrom(bob) || r.SealsFrom(alice) {
		t.Fatal("alice's closed roll is not sealed from everyone but her")
	}
	if err := r.ApplyAs(0, liftA(bob)); err != nil {
		t.Fatal(err)
	}
	if r.SealsFrom(0) || r.SealsFrom(carol) {
		t.Fatal("lifted cups still seal alice's roll")
	}
}
