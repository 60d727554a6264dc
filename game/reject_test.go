package game

import (
	"errors"
	"testing"
)

func TestValidateTurnRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		preset string
		opts   Options
		in     TurnInput
		rule   error
		roll   int
		die    int
	}{
		{"no rolls", "bar", Options{}, TurnInput{}, ErrEmptyTurn, 0, 0},
		{"four dice on the first roll", "bar", Options{},
			TurnInput{Rolls: rolls([]int{6, 5, 4, 3})}, ErrDiceCount, 1, 0},
		{"five dice after the ship is banked", "bar", Options{},
			TurnInput{Rolls: rolls([]int{6, 1, 1, 1, 1}, []int{5, 4, 3, 2, 1})}, ErrDiceCount, 2, 0},
		{"a 7", "bar", Options{},
			TurnInput{Rolls: rolls([]int{6, 1, 7, 1, 1})}, ErrFace, 1, 3},
		{"a 0 on the second roll", "classic", Options{},
			TurnInput{Rolls: rolls([]int{6, 1, 1, 1, 1}, []int{1, 2, 0, 3})}, ErrFace, 2, 3},
		{"a fourth roll", "classic", Options{},
			TurnInput{Rolls: rolls([]int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}, []int{6, 5, 4, 3, 3})}, ErrTooManyRolls, 4, 0},
		{"re-roll before qualifying", "classic", Options{},
			TurnInput{Rolls: []Roll{{Dice: []int{6, 1, 1, 1, 1}}, {Dice: []int{1}, Rethrow: []int{1}}}}, ErrRerollNotQualified, 2, 0},
		{"together: keeping one cargo die", "bar", Options{},
			TurnInput{Rolls: []Roll{{Dice: []int{6, 5, 4, 6, 1}}, {Dice: []int{3}, Rethrow: []int{1}}}}, ErrRerollPolicy, 2, 0},
		{"together: one die thrown for two cargo dice", "bar", Options{},
			TurnInput{Rolls: []Roll{{Dice: []int{6, 5, 4, 6, 1}}, {Dice: []int{3}}}}, ErrDiceCount, 2, 0},
		{"any: rethrow face not in cargo", "classic", Options{},
			TurnInput{Rolls: []Roll{{Dice: []int{6, 5, 4, 6, 1}}, {Dice: []int{3}, Rethrow: []int{2}}}}, ErrRethrowNotCargo, 2, 0},
		{"any: rethrow one face twice when cargo has it once", "classic", Options{},
			TurnInput{Rolls: []Roll{{Dice: []int{6, 5, 4, 6, 1}}, {Dice: []int{3, 3}, Rethrow: []int{1, 1}}}}, ErrRethrowNotCargo, 2, 0},
		{"any: two dice thrown for one picked up", "classic", Options{},
			TurnInput{Rolls: []Roll{{Dice: []int{6, 5, 4, 6, 1}}, {Dice: []int{3, 3}, Rethrow: []int{1}}}}, ErrDiceCount, 2, 0},
		{"bar: roll after an automatic", "bar", Options{},
			TurnInput{Rolls: rolls([]int{6, 5, 4, 6, 6}, []int{1, 1})}, ErrTurnOver, 2, 0},
		{"stand without qualifying", "classic", Options{},
			TurnInput{Rolls: rolls([]int{6, 5, 1, 1, 1}), Stand: true}, ErrStandNotAllowed, 1, 0},
		{"stand after three rolls without qualifying", "classic", Options{},
			TurnInput{Rolls: rolls([]int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}), Stand: true}, ErrStandNotAllowed, 3, 0},
		{"stopping before qualifying with rolls left", "classic", Options{},
			TurnInput{Rolls: rolls([]int{6, 5, 1, 1, 1})}, ErrTurnIncomplete, 1, 0},
		{"low-or-high: 6 and 1 without a path", "low-or-high", Options{},
			TurnInput{Rolls: rolls([]int{6, 1, 2, 2, 2})}, ErrAmbiguousPath, 1, 0},
		{"low-or-high: unknown path", "low-or-high", Options{},
			TurnInput{Rolls: []Roll{{Dice: []int{6, 1, 2, 2, 2}, Path: "6-5"}}}, ErrBadPath, 1, 0},
		{"low-or-high: path names a die not shown", "low-or-high", Options{},
			TurnInput{Rolls: []Roll{{Dice: []int{6, 3, 2, 2, 2}, Path: "1-2-3"}}}, ErrBadPath, 1, 0},
		{"low-or-high: path disagrees with the fixed path", "low-or-high", Options{},
			TurnInput{Rolls: []Roll{{Dice: []int{6, 3, 2, 2, 2}}, {Dice: []int{1, 2, 3, 3}, Path: "1-2-3"}}}, ErrBadPath, 2, 0},
		{"bar: a path that is not the sequence", "bar", Options{},
			TurnInput{Rolls: []Roll{{Dice: []int{6, 3, 2, 2, 2}, Path: "1-2-3"}}}, ErrBadPath, 1, 0},
		{"meier: three dice on the second throw", "family-meier", Options{},
			TurnInput{Rolls: rolls([]int{1, 2, 3}, []int{1, 2, 3})}, ErrDiceCount, 2, 0},
		{"meier: a re-roll", "family-meier", Options{},
			TurnInput{Rolls: []Roll{{Dice: []int{1, 2, 3}}, {Dice: []int{4, 4}, Rethrow: []int{3}}}}, ErrRerollPolicy, 2, 0},
		{"meier: stand", "family-meier", Options{},
			TurnInput{Rolls: rolls([]int{1, 2, 3}, []int{4, 4}, []int{5}), Stand: true}, ErrStandNotAllowed, 3, 0},
		{"meier: stopping after two throws", "family-meier", Options{},
			TurnInput{Rolls: rolls([]int{1, 2, 3}, []int{4, 4})}, ErrTurnIncomplete, 2, 0},
		{"meier: a fourth throw", "family-meier", Options{},
			TurnInput{Rolls: rolls([]int{1, 2, 3}, []int{4, 4}, []int{5}, []int{5})}, ErrTooManyRolls, 4, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ValidateTurn(ruleset(t, tc.preset, tc.opts), tc.in)
			checkRollError(t, err, tc.rule, tc.roll, tc.die)
		})
	}
}

func checkRollError(t *testing.T, err, rule error, roll, die int) {
	t.Helper()
	if !errors.Is(err, rule) {
		t.Fatalf("err = %v, want %v", err, rule)
	}
	var re *RollError
	if !errors.As(err, &re) {
		t.Fatalf("err %T is not a *RollError", err)
	}
	if re.Roll != roll || re.Die != die {
		t.Errorf("roll, die = %d, %d; want %d, %d (%v)", re.Roll, re.Die, roll, die, err)
	}
	if re.Error() == "" || re.Detail == "" {
		t.Errorf("empty message for %v", rule)
	}
}

func TestTurnRollAfterStand(t *testing.T) {
	t.Parallel()
	tr := NewTurn(ruleset(t, "classic", Options{}))
	if err := tr.Roll(Roll{Dice: []int{6, 5, 4, 6, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := tr.Stand(); err != nil {
		t.Fatal(err)
	}
	checkRollError(t, tr.Roll(Roll{Dice: []int{6, 6}}), ErrTurnOver, 2, 0)
	checkRollError(t, tr.Stand(), ErrTurnOver, 1, 0)
	if o := tr.Outcome(); !o.Stood || o.Score != 7 || len(o.Rolls) != 1 {
		t.Errorf("outcome after rejected throws = %+v", o)
	}
}

func TestTurnErrorChangesNothing(t *testing.T) {
	t.Parallel()
	tr := NewTurn(ruleset(t, "classic", Options{}))
	if err := tr.Roll(Roll{Dice: []int{6, 1, 1, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	before := tr.Next()
	for _, bad := range []Roll{{Dice: []int{5, 4, 3}}, {Dice: []int{5, 4, 9, 1}}, {Dice: []int{5}, Rethrow: []int{1}}} {
		if err := tr.Roll(bad); err == nil {
			t.Fatalf("Roll(%v) accepted", bad)
		}
	}
	if after := tr.Next(); after.Roll != before.Roll || after.Throw != 4 {
		t.Errorf("Next after rejected throws = %+v, want %+v", after, before)
	}
	if err := tr.Roll(Roll{Dice: []int{5, 4, 3, 3}}); err != nil {
		t.Fatal(err)
	}
	if o := tr.Outcome(); o.Score != 6 || !o.Qualified {
		t.Errorf("outcome = %+v", o)
	}
}

func TestRollErrorMessage(t *testing.T) {
	t.Parallel()
	_, err := ValidateTurn(ruleset(t, "bar", Options{}), TurnInput{Rolls: rolls([]int{6, 1, 1, 1, 1}, []int{5, 4, 3, 2, 1})})
	want := "roll 2: 5 dice thrown, but only 4 may be thrown after the ship is banked"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	_, err = ValidateTurn(ruleset(t, "bar", Options{}), TurnInput{Rolls: rolls([]int{6, 1, 8, 1, 1})})
	if want := "roll 1, die 3: a die shows 8; dice show 1 to 6"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}
