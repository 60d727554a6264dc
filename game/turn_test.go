package game

import (
	"slices"
	"testing"
)

// ruleset builds a preset's ruleset with options, failing the test on error.
func ruleset(t testing.TB, name string, o Options) Ruleset {
	t.Helper()
	rs, err := NewRuleset(name, o)
	if err != nil {
		t.Fatalf("NewRuleset(%q): %v", name, err)
	}
	return rs
}

func ptr[T any](v T) *T { return &v }

// rolls is shorthand for a turn of plain throws.
func rolls(dice ...[]int) []Roll {
	out := make([]Roll, len(dice))
	for i, d := range dice {
		out[i] = Roll{Dice: d}
	}
	return out
}

func TestValidateTurnAccepts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		preset    string
		opts      Options
		policy    CargoPolicy // overrides the preset's cargo policy when set
		in        TurnInput
		qualified bool
		score     int
		banked    []int
		cargo     []int
		automatic bool
		stood     bool
		perRoll   [][]int // banked values per roll
	}{
		{name: "worked example: 6 banked, then 5 and 4, cargo 3, stand", preset: "classic",
			in:        TurnInput{Rolls: rolls([]int{6, 4, 3, 3, 1}, []int{5, 4, 1, 2})},
			qualified: true, score: 3, banked: []int{6, 5, 4}, cargo: []int{2, 1}, stood: true,
			perRoll: [][]int{{6}, {5, 4}}},
		{name: "worked example: re-roll both cargo as 5,2 scores 7", preset: "classic",
			in:        TurnInput{Rolls: rolls([]int{6, 4, 3, 3, 1}, []int{5, 4, 1, 2}, []int{5, 2})},
			qualified: true, score: 7, banked: []int{6, 5, 4}, cargo: []int{5, 2},
			perRoll: [][]int{{6}, {5, 4}, nil}},
		{name: "all three from one throw", preset: "classic",
			in:        TurnInput{Rolls: rolls([]int{4, 5, 6, 6, 3}), Stand: true},
			qualified: true, score: 9, banked: []int{6, 5, 4}, cargo: []int{6, 3}, stood: true},
		{name: "two sixes count as one ship; the other is cargo", preset: "classic",
			in:        TurnInput{Rolls: rolls([]int{6, 6, 5, 1, 1}, []int{4, 6, 6})},
			qualified: true, score: 12, banked: []int{6, 5, 4}, cargo: []int{6, 6}, stood: true},
		{name: "5 and 4 without a 6 bank nothing", preset: "classic",
			in:        TurnInput{Rolls: rolls([]int{5, 4, 3, 2, 1}, []int{6, 5, 4, 3, 3})},
			qualified: true, score: 6, banked: []int{6, 5, 4}, cargo: []int{3, 3}, stood: true,
			perRoll: [][]int{nil, {6, 5, 4}}},
		{name: "4 before 5 is not banked", preset: "classic",
			in:        TurnInput{Rolls: rolls([]int{6, 4, 4, 4, 4}, []int{5, 3, 3, 3}, []int{4, 1, 1})},
			qualified: true, score: 2, banked: []int{6, 5, 4}, cargo: []int{1, 1},
			perRoll: [][]int{{6}, {5}, {4}}},
		{name: "no ship in three rolls: no score", preset: "bar",
			in:        TurnInput{Rolls: rolls([]int{1, 2, 3, 4, 5}, []int{1, 2, 3, 4, 5}, []int{1, 1, 1, 1, 1})},
			qualified: false, score: 0},
		{name: "ship and captain only: no score", preset: "bar",
			in:        TurnInput{Rolls: rolls([]int{6, 5, 1, 1, 1}, []int{1, 1, 1}, []int{2, 2, 2})},
			qualified: false, banked: []int{6, 5}},
		{name: "any: re-roll one cargo die, keep the other", preset: "classic",
			in:        TurnInput{Rolls: []Roll{{Dice: []int{6, 5, 4, 6, 1}}, {Dice: []int{3}, Rethrow: []int{1}}}},
			qualified: true, score: 9, banked: []int{6, 5, 4}, cargo: []int{6, 3}, stood: true},
		{name: "any: re-thrown result must be kept even when worse", preset: "classic",
			in:        TurnInput{Rolls: []Roll{{Dice: []int{6, 5, 4, 6, 5}}, {Dice: []int{1, 1}}}},
			qualified: true, score: 2, cargo: []int{1, 1}, banked: []int{6, 5, 4}, stood: true},
		{name: "together: both cargo dice re-rolled", preset: "ship-of-fools",
			in:        TurnInput{Rolls: []Roll{{Dice: []int{6, 5, 4, 1, 1}}, {Dice: []int{3, 5}, Rethrow: []int{1, 1}}, {Dice: []int{2, 2}}}},
			qualified: true, score: 4, cargo: []int{2, 2}, banked: []int{6, 5, 4}},
		{name: "none: qualifying ends the turn", preset: "classic", policy: CargoNone,
			in:        TurnInput{Rolls: rolls([]int{6, 5, 4, 1, 1})},
			qualified: true, score: 2, cargo: []int{1, 1}, banked: []int{6, 5, 4}, stood: false},
		{name: "ship-captain: three cargo dice", preset: "ship-captain",
			in:        TurnInput{Rolls: rolls([]int{6, 5, 4, 4, 4})},
			qualified: true, score: 12, cargo: []int{4, 4, 4}, banked: []int{6, 5}, stood: true},
		{name: "ship-captain: 6-6-6 cargo is automatic when on", preset: "ship-captain", opts: Options{Automatic: ptr(true)},
			in:        TurnInput{Rolls: rolls([]int{6, 5, 6, 6, 6})},
			qualified: true, score: 18, cargo: []int{6, 6, 6}, banked: []int{6, 5}, automatic: true},
		{name: "bar: 6-6 is an automatic and ends the turn", preset: "bar",
			in:        TurnInput{Rolls: rolls([]int{6, 5, 4, 6, 6})},
			qualified: true, score: 12, cargo: []int{6, 6}, banked: []int{6, 5, 4}, automatic: true},
		{name: "classic: 6-6 is not automatic", preset: "classic",
			in:        TurnInput{Rolls: rolls([]int{6, 5, 4, 6, 6})},
			qualified: true, score: 12, cargo: []int{6, 6}, banked: []int{6, 5, 4}, stood: true},
		{name: "low with automatic on: 1-1 is automatic", preset: "bar", opts: Options{Low: ptr(true), Automatic: ptr(true)},
			in:        TurnInput{Rolls: rolls([]int{6, 5, 4, 1, 1})},
			qualified: true, score: 2, cargo: []int{1, 1}, banked: []int{6, 5, 4}, automatic: true},
		{name: "low without automatic: 1-1 is not automatic", preset: "bar", opts: Options{Low: ptr(true)},
			in:        TurnInput{Rolls: rolls([]int{6, 5, 4, 1, 1})},
			qualified: true, score: 2, cargo: []int{1, 1}, banked: []int{6, 5, 4}, stood: true},
		{name: "low-or-high: 1-2-3 path", preset: "low-or-high",
			in:        TurnInput{Rolls: rolls([]int{1, 2, 5, 5, 5}, []int{3, 4, 4})},
			qualified: true, score: 8, cargo: []int{4, 4}, banked: []int{1, 2, 3}, stood: true},
		{name: "low-or-high: 6 and 1 with a named path", preset: "low-or-high",
			in:        TurnInput{Rolls: []Roll{{Dice: []int{6, 1, 2, 3, 3}, Path: "1-2-3"}}},
			qualified: true, score: 9, cargo: []int{6, 3}, banked: []int{1, 2, 3}, stood: true},
		{name: "low-or-high: the first banked die fixes the path", preset: "low-or-high",
			in:        TurnInput{Rolls: rolls([]int{6, 2, 2, 3, 3}, []int{1, 2, 3, 5}, []int{4, 1, 1})},
			qualified: true, score: 2, cargo: []int{1, 1}, banked: []int{6, 5, 4}, perRoll: [][]int{{6}, {5}, {4}}},
		{name: "meier worked example: 7", preset: "family-meier",
			in:        TurnInput{Rolls: rolls([]int{1, 5, 6}, []int{2, 4}, []int{3})},
			qualified: true, score: 7, cargo: []int{4, 3}, banked: []int{1, 2}, perRoll: [][]int{{1}, {2}, nil}},
		{name: "meier worked example: 18", preset: "family-meier",
			in:        TurnInput{Rolls: rolls([]int{1, 2, 5}, []int{3, 4}, []int{6})},
			qualified: true, score: 18, cargo: []int{6, 5, 4, 3}, banked: []int{1, 2}},
		{name: "meier: pair on the last throw scores 0", preset: "family-meier",
			in:        TurnInput{Rolls: rolls([]int{2, 5, 6}, []int{3, 4}, []int{1})},
			qualified: true, score: 0, banked: []int{2, 1}},
		{name: "meier: a second 1 in the completing throw is a child", preset: "family-meier",
			in:        TurnInput{Rolls: rolls([]int{1, 5, 6}, []int{2, 1}, []int{6})},
			qualified: true, score: 7, cargo: []int{6, 1}, banked: []int{1, 2}},
		{name: "meier: no Mrs Meier, no score", preset: "family-meier",
			in:        TurnInput{Rolls: rolls([]int{1, 5, 6}, []int{1, 4}, []int{3})},
			qualified: false, banked: []int{1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rs := ruleset(t, tc.preset, tc.opts)
			if tc.policy != "" {
				rs.Cargo = tc.policy
			}
			checkOutcome(t, rs, tc.in, tc.qualified, tc.score, tc.banked, tc.cargo, tc.automatic, tc.stood, tc.perRoll)
		})
	}
}

func checkOutcome(t *testing.T, rs Ruleset, in TurnInput, qualified bool, score int, banked, cargo []int, automatic, stood bool, perRoll [][]int) {
	t.Helper()
	o, err := ValidateTurn(rs, in)
	if err != nil {
		t.Fatalf("ValidateTurn: %v", err)
	}
	if !o.Over {
		t.Errorf("Over = false, want true")
	}
	if o.Qualified != qualified || (qualified && o.Score != score) {
		t.Errorf("Qualified, Score = %v, %d; want %v, %d", o.Qualified, o.Score, qualified, score)
	}
	if !qualified && o.Score != 0 {
		t.Errorf("Score = %d without qualifying, want 0", o.Score)
	}
	if !slices.Equal(o.Banked, banked) {
		t.Errorf("Banked = %v, want %v", o.Banked, banked)
	}
	if !slices.Equal(o.Cargo, cargo) {
		t.Errorf("Cargo = %v, want %v", o.Cargo, cargo)
	}
	if o.Automatic != automatic || o.Stood != stood {
		t.Errorf("Automatic, Stood = %v, %v; want %v, %v", o.Automatic, o.Stood, automatic, stood)
	}
	if len(o.Rolls) != len(in.Rolls) {
		t.Fatalf("%d roll results for %d rolls", len(o.Rolls), len(in.Rolls))
	}
	for i, want := range perRoll {
		if !slices.Equal(o.Rolls[i].Banked, want) {
			t.Errorf("roll %d banked %v, want %v", i+1, o.Rolls[i].Banked, want)
		}
	}
}

func TestTurnNext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		preset string
		rolls  []Roll
		want   Next
	}{
		{"fresh turn", "bar", nil, Next{Throw: 5, RollsLeft: 3, Roll: 1}},
		{"ship banked", "bar", rolls([]int{6, 1, 1, 1, 1}), Next{Throw: 4, RollsLeft: 2, Roll: 2}},
		{"qualified under together", "bar", rolls([]int{6, 5, 4, 3, 1}),
			Next{MayStand: true, MayReroll: true, Rerollable: []int{3, 1}, RerollAll: true, RollsLeft: 2, Roll: 2}},
		{"qualified under any", "classic", rolls([]int{6, 5, 4, 3, 1}),
			Next{MayStand: true, MayReroll: true, Rerollable: []int{3, 1}, RollsLeft: 2, Roll: 2}},
		{"three rolls taken", "classic", rolls([]int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1}), Next{Over: true}},
		{"meier second throw", "family-meier", rolls([]int{1, 1, 1}), Next{Throw: 2, RollsLeft: 2, Roll: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr := NewTurn(ruleset(t, tc.preset, Options{}))
			for _, r := range tc.rolls {
				if err := tr.Roll(r); err != nil {
					t.Fatal(err)
				}
			}
			got := tr.Next()
			if got.Over != tc.want.Over || got.Throw != tc.want.Throw || got.MayStand != tc.want.MayStand ||
				got.MayReroll != tc.want.MayReroll || got.RerollAll != tc.want.RerollAll ||
				got.RollsLeft != tc.want.RollsLeft || got.Roll != tc.want.Roll || !slices.Equal(got.Rerollable, tc.want.Rerollable) {
				t.Errorf("Next = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestClosedRolls(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		rolls  []Roll
		closed []bool
	}{
		{"qualified on roll 1, re-roll twice", rolls([]int{6, 5, 4, 1, 1}, []int{2, 2}, []int{3, 3}), []bool{false, true, true}},
		{"third roll without the sequence", rolls([]int{6, 1, 1, 1, 1}, []int{5, 1, 1, 1}, []int{4, 3, 3}), []bool{false, false, true}},
		{"qualified on roll 2, re-roll", rolls([]int{6, 1, 1, 1, 1}, []int{5, 4, 1, 1}, []int{3, 3}), []bool{false, false, true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o, err := ValidateTurn(ruleset(t, "bar", Options{}), TurnInput{Rolls: tc.rolls})
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range tc.closed {
				if o.Rolls[i].Closed != want {
					t.Errorf("roll %d closed = %v, want %v", i+1, o.Rolls[i].Closed, want)
				}
			}
			open, _ := ValidateTurn(ruleset(t, "bar", Options{ClosedRolls: ptr(false)}), TurnInput{Rolls: tc.rolls})
			for i, r := range open.Rolls {
				if r.Closed {
					t.Errorf("roll %d closed with closed-rolls off", i+1)
				}
			}
		})
	}
}
