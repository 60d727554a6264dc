package royale

import (
	"strings"
	"testing"
)

// TestEachFaultHasOneRule: every way a turn can break the rules is refused
// with the one sentinel of its fault (so the API sends one rule code for
// it), and says what was wrong in accurate words.
func TestEachFaultHasOneRule(t *testing.T) {
	t.Parallel()
	standard := func(t *testing.T) *Game {
		return entered(t, Options{},
			fleet(t, "patrol-boat A1 A2", "destroyer C1 C2 C3", "submarine E1 E2 E3"),
			fleet(t, "patrol-boat J9 J10", "destroyer G1 G2 G3", "carrier I1 I2 I3 I4 I5"))
	}
	advanced := func(t *testing.T) *Game {
		return entered(t, Options{Mode: Advanced},
			fleet(t, "submarine A1 A2 A3", "destroyer:2 C1 C2 C3", "patrol-boat:1 E1 E2"),
			fleet(t, "submarine J1 J2 J3", "destroyer:2 G1 G2 G3", "carrier:4 I1 I2 I3 I4 I5"))
	}
	for _, tc := range []struct {
		name   string
		game   func(*testing.T) *Game
		before []string // actions taken first, as "roll 2", "shoot A1 B1", "end"
		a      Action
		want   error
		says   string
		never  string // words the refusal must not say
	}{
		{"a shot before the roll", standard, nil, shoot(t, 1, "B5"), ErrRollFirst, "after the turn's roll", ""},
		{"a bonus before the roll", standard, nil, bonus(t, 1, "B5", 0), ErrRollFirst, "after the turn's roll", ""},
		{"a volley before the roll", advanced, nil, shoot(t, 1, "B5 B6"), ErrRollFirst, "after the turn's roll", ""},
		{"a roll without its value", standard, nil, roll(1, 0), ErrDie, "the die's value is missing", "not 0"},
		{"a roll of 4", standard, nil, roll(1, 4), ErrDie, "1, 2 or 3, not 4", ""},
		{"a roll of -1", advanced, nil, roll(1, -1), ErrDie, "1, 2 or 3, not -1", ""},
		{"a second roll", standard, []string{"roll 2"}, roll(1, 2), ErrSecondRoll, "rolled this turn already", ""},
		{"a second roll without a value", advanced, []string{"roll 2"}, roll(1, 0), ErrSecondRoll, "rolled this turn already", ""},
		{"two cells in one shot", standard, []string{"roll 2"}, shoot(t, 1, "B5 B6"), ErrTooManyShots, "1 cell, and 2 were sent", ""},
		{"a shot of no cell", standard, []string{"roll 2"}, Action{Player: 1, Kind: ActShoot}, ErrTooFewShots, "1 cell, and 0 were sent", ""},
		{"a shot past the die's", standard, []string{"roll 1", "shoot B5"}, shoot(t, 1, "B6"), ErrTooManyShots, "the die's 1 shots are fired", ""},
		{"a bonus shot with none", standard, []string{"roll 1"}, bonus(t, 1, "B6", 0), ErrTooManyShots, "no bonus shot", ""},
		{"two cells in a bonus shot", standard, []string{"roll 3", "shoot J9", "shoot J10"}, bonus(t, 1, "B5 B6", 0),
			ErrTooManyShots, "a bonus shot is 1 cell, and 2 were sent", ""},
		{"a cell shot already", standard, []string{"roll 1", "shoot B5", "end", "roll 1"}, shoot(t, 2, "B5"), ErrShot, "B5 was shot already", ""},
		{"a volley too long", advanced, []string{"roll 2"}, shoot(t, 1, "B5 B6 B7"), ErrTooManyShots, "the die's volley is 2 cells, and 3 were sent", ""},
		{"a volley too short", advanced, []string{"roll 3"}, shoot(t, 1, "B5 B6"), ErrTooFewShots, "the die's volley is 3 cells, and 2 were sent", ""},
		{"a cell twice in a volley", advanced, []string{"roll 2"}, shoot(t, 1, "B5 B5"), ErrShot, "B5 is named twice", ""},
		{"a second volley", advanced, []string{"roll 1", "shoot B5"}, shoot(t, 1, "B6"), ErrTooManyShots, "volley is fired", ""},
		{"a bonus volley too long", advanced, []string{"roll 2", "shoot J9 J10", "end", "roll 2", "shoot I1 I2", "end", "roll 1", "shoot I3",
			"end", "roll 1", "shoot I4", "end", "roll 1", "shoot I5"}, bonus(t, 1, "B5 B6 B7 B8 B9", 1),
			ErrTooManyShots, "trophy 1's bonus volley is 4 cells, and 5 were sent", ""},
		{"a bonus volley too short", advanced, []string{"roll 2", "shoot J9 J10", "end", "roll 2", "shoot I1 I2", "end", "roll 1", "shoot I3",
			"end", "roll 1", "shoot I4", "end", "roll 1", "shoot I5"}, bonus(t, 1, "B5", 1),
			ErrTooFewShots, "trophy 1's bonus volley is 4 cells, and 1 were sent", ""},
		{"a submarine's bonus volley", advanced, []string{"roll 3", "shoot J1 J2 J3"}, bonus(t, 1, "B5", 1),
			ErrTooManyShots, "trophy 1 is a submarine", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := tc.game(t)
			for _, s := range tc.before {
				apply(t, g, turnAction(t, g, s))
			}
			err := refuse(t, g, tc.a, tc.want)
			checkRefusal(t, err)
			if !strings.Contains(err.Error(), tc.says) || tc.never != "" && strings.Contains(err.Error(), tc.never) {
				t.Fatalf("%q: want it to say %q and not %q", err, tc.says, tc.never)
			}
		})
	}
}

// turnAction reads an action of the turn's player written as "roll 2",
// "shoot A1 B1" or "end".
func turnAction(t *testing.T, g *Game, s string) Action {
	t.Helper()
	kind, rest, _ := strings.Cut(s, " ")
	p := g.Turn()
	switch ActionKind(kind) {
	case ActRoll:
		return roll(p, map[string]int{"1": 1, "2": 2, "3": 3}[rest])
	case ActShoot:
		return shoot(t, p, rest)
	case ActEnd:
		return end(p)
	}
	t.Fatalf("no action %q", s)
	return Action{}
}
