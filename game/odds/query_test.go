package odds

import (
	"errors"
	"testing"

	"github.com/tally-dice/tally/game"
)

// ruleset builds a preset's ruleset or fails the test.
func ruleset(t testing.TB, name string, o game.Options) game.Ruleset {
	t.Helper()
	rs, err := game.NewRuleset(name, o)
	if err != nil {
		t.Fatalf("NewRuleset(%q): %v", name, err)
	}
	return rs
}

// intp returns a pointer to a point value.
func intp(v int) *int { return &v }

func TestAdviseRejectsImpossibleQueries(t *testing.T) {
	t.Parallel()
	bar := ruleset(t, "bar", game.Options{})
	captain := ruleset(t, "ship-captain", game.Options{})
	lowHigh := ruleset(t, "low-or-high", game.Options{})
	meier := ruleset(t, "family-meier", game.Options{})
	weird := bar
	weird.Family = "yahtzee"
	longSeq := bar
	longSeq.Sequences = [][]int{{6, 5, 4, 3}}
	badPolicy := bar
	badPolicy.Cargo = "some"
	tests := []struct {
		name string
		q    Query
		want error
	}{
		{"unknown family", Query{Ruleset: weird, RollsLeft: 3}, ErrRuleset},
		{"sequence too long for two cargo dice", Query{Ruleset: longSeq, RollsLeft: 3}, ErrRuleset},
		{"unknown cargo policy", Query{Ruleset: badPolicy, RollsLeft: 3}, ErrRuleset},
		{"rolls left negative", Query{Ruleset: bar, RollsLeft: -1}, ErrRollsLeft},
		{"rolls left four", Query{Ruleset: bar, RollsLeft: 4}, ErrRollsLeft},
		{"later negative", Query{Ruleset: bar, RollsLeft: 3, Later: -1}, ErrLater},
		{"later too many", Query{Ruleset: bar, RollsLeft: 3, Later: MaxLater + 1}, ErrLater},
		{"point below two", Query{Ruleset: bar, RollsLeft: 3, Point: intp(1)}, ErrPoint},
		{"point above twelve", Query{Ruleset: bar, RollsLeft: 3, Point: intp(13)}, ErrPoint},
		{"point above eighteen", Query{Ruleset: captain, RollsLeft: 3, Point: intp(19)}, ErrPoint},
		{"meier point above 24", Query{Ruleset: meier, RollsLeft: 3, Point: intp(25)}, ErrPoint},
		{"captain before ship", Query{Ruleset: bar, Banked: []int{5}, RollsLeft: 2}, ErrBanked},
		{"crew before captain", Query{Ruleset: bar, Banked: []int{6, 4}, RollsLeft: 2}, ErrBanked},
		{"too many banked", Query{Ruleset: bar, Banked: []int{6, 5, 4, 3}, RollsLeft: 2}, ErrBanked},
		{"face seven banked", Query{Ruleset: bar, Banked: []int{7}, RollsLeft: 2}, ErrFace},
		{"face zero in cargo", Query{Ruleset: bar, Banked: []int{6, 5, 4}, Cargo: []int{0, 3}, RollsLeft: 1}, ErrFace},
		{"cargo before qualifying", Query{Ruleset: bar, Banked: []int{6, 5}, Cargo: []int{3, 3}, RollsLeft: 1}, ErrCargoNotQualified},
		{"cargo with nothing banked", Query{Ruleset: bar, Cargo: []int{3, 3}, RollsLeft: 1}, ErrCargoNotQualified},
		{"one cargo die", Query{Ruleset: bar, Banked: []int{6, 5, 4}, Cargo: []int{3}, RollsLeft: 1}, ErrCargoCount},
		{"two cargo dice in ship-captain", Query{Ruleset: captain, Banked: []int{6, 5}, Cargo: []int{3, 3}, RollsLeft: 1}, ErrCargoCount},
		{"banked before the first roll", Query{Ruleset: bar, Banked: []int{6}, RollsLeft: 3}, ErrImpossibleState},
		{"qualified before the first roll", Query{Ruleset: bar, Banked: []int{6, 5, 4}, Cargo: []int{1, 2}, RollsLeft: 3}, ErrImpossibleState},
		{"unknown path", Query{Ruleset: lowHigh, RollsLeft: 3, PathHint: "2-3-4"}, ErrPathHint},
		{"path against banked", Query{Ruleset: lowHigh, Banked: []int{6}, RollsLeft: 2, PathHint: "1-2-3"}, ErrPathHint},
		{"path in meier", Query{Ruleset: meier, RollsLeft: 3, PathHint: "6-5-4"}, ErrPathHint},
		{"meier parent three", Query{Ruleset: meier, Banked: []int{3}, RollsLeft: 2}, ErrBanked},
		{"meier two Mr Meiers", Query{Ruleset: meier, Banked: []int{1, 1}, RollsLeft: 2}, ErrBanked},
		{"meier children before parents", Query{Ruleset: meier, Banked: []int{1}, Cargo: []int{4}, RollsLeft: 2}, ErrCargoNotQualified},
		{"meier two children after one throw", Query{Ruleset: meier, Banked: []int{1, 2}, Cargo: []int{4, 4}, RollsLeft: 2}, ErrCargoCount},
		{"meier none after one throw", Query{Ruleset: meier, Banked: []int{1, 2}, RollsLeft: 2}, ErrCargoCount},
		{"meier two children after two throws", Query{Ruleset: meier, Banked: []int{1, 2}, Cargo: []int{4, 4}, RollsLeft: 1}, ErrCargoCount},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Advise(tc.q)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Advise error = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestAdviseAcceptsEveryReachableKindOfState(t *testing.T) {
	t.Parallel()
	bar := ruleset(t, "bar", game.Options{})
	lowHigh := ruleset(t, "low-or-high", game.Options{})
	meier := ruleset(t, "family-meier", game.Options{})
	noRerolls := bar
	noRerolls.Cargo = game.CargoNone
	tests := []struct {
		name  string
		q     Query
		kinds []ChoiceKind
	}{
		{"fresh turn", Query{Ruleset: bar, RollsLeft: 3}, []ChoiceKind{KindRoll}},
		{"ship banked", Query{Ruleset: bar, Banked: []int{6}, RollsLeft: 2}, []ChoiceKind{KindRoll}},
		{"nothing banked, one roll left", Query{Ruleset: bar, RollsLeft: 1}, []ChoiceKind{KindRoll}},
		{"out of rolls without a score", Query{Ruleset: bar, Banked: []int{6, 5}, RollsLeft: 0}, []ChoiceKind{KindStand}},
		{"qualified, together", Query{Ruleset: bar, Banked: []int{6, 5, 4}, Cargo: []int{2, 5}, RollsLeft: 2}, []ChoiceKind{KindStand, KindReroll}},
		{"qualified, last roll used", Query{Ruleset: bar, Banked: []int{6, 5, 4}, Cargo: []int{2, 5}, RollsLeft: 0}, []ChoiceKind{KindStand}},
		{"qualified where cargo may not be re-rolled", Query{Ruleset: noRerolls, Banked: []int{6, 5, 4}, Cargo: []int{2, 5}, RollsLeft: 2}, []ChoiceKind{KindStand}},
		{"standing on an automatic claims it; re-rolling it away is allowed", Query{Ruleset: bar, Banked: []int{6, 5, 4}, Cargo: []int{6, 6}, RollsLeft: 2}, []ChoiceKind{KindStand, KindReroll}},
		{"path named in advance", Query{Ruleset: lowHigh, RollsLeft: 3, PathHint: "1-2-3"}, []ChoiceKind{KindRoll}},
		{"low path banked", Query{Ruleset: lowHigh, Banked: []int{1, 2}, RollsLeft: 1, PathHint: "1-2-3"}, []ChoiceKind{KindRoll}},
		{"low path qualified", Query{Ruleset: lowHigh, Banked: []int{1, 2, 3}, Cargo: []int{6, 6}, RollsLeft: 1}, []ChoiceKind{KindStand, KindReroll, KindReroll}},
		{"meier fresh", Query{Ruleset: meier, RollsLeft: 3}, []ChoiceKind{KindRoll}},
		{"meier one parent", Query{Ruleset: meier, Banked: []int{2}, RollsLeft: 1}, []ChoiceKind{KindRoll}},
		{"meier parents in the first throw", Query{Ruleset: meier, Banked: []int{2, 1}, Cargo: []int{5}, RollsLeft: 2}, []ChoiceKind{KindRoll}},
		{"meier finished", Query{Ruleset: meier, Banked: []int{1, 2}, Cargo: []int{5, 6, 6, 1}, RollsLeft: 0}, []ChoiceKind{KindStand}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			adv, err := Advise(tc.q)
			if err != nil {
				t.Fatalf("Advise: %v", err)
			}
			var kinds []ChoiceKind
			for _, c := range adv.Choices {
				kinds = append(kinds, c.Kind)
			}
			if len(kinds) != len(tc.kinds) {
				t.Fatalf("choices %v, want %v", kinds, tc.kinds)
			}
			for i := range kinds {
				if kinds[i] != tc.kinds[i] {
					t.Fatalf("choices %v, want %v", kinds, tc.kinds)
				}
			}
		})
	}
}
