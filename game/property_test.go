package game

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// propertyRulesets are every preset plus the options that change turn rules.
func propertyRulesets(t testing.TB) []Ruleset {
	var out []Ruleset
	for _, p := range Presets() {
		out = append(out, ruleset(t, p.Name, Options{}))
	}
	out = append(out,
		ruleset(t, "bar", Options{Low: ptr(true), Automatic: ptr(true)}),
		ruleset(t, "ship-captain", Options{Automatic: ptr(true), ClosedRolls: ptr(true)}),
		ruleset(t, "classic", Options{ClosedRolls: ptr(true)}))
	none := ruleset(t, "classic", Options{})
	none.Cargo = CargoNone
	return append(out, none)
}

// randomTurn plays a legal turn by random choices and returns it as a
// whole-turn submission. It asks the engine only what may be done next; the
// dice and choices are random.
func randomTurn(t testing.TB, rng *rand.Rand, rs Ruleset) TurnInput {
	tr := NewTurn(rs)
	var in TurnInput
	for {
		nx := tr.Next()
		if nx.Over {
			return in
		}
		var r Roll
		switch {
		case nx.Throw > 0:
			r.Dice = randomDice(rng, nx.Throw)
			if len(rs.Sequences) > 1 && len(tr.Outcome().Banked) == 0 && contains(r.Dice, 6) && contains(r.Dice, 1) {
				r.Path = []string{"6-5-4", "1-2-3"}[rng.IntN(2)]
			}
		case rng.IntN(3) == 0:
			in.Stand = rng.IntN(2) == 0
			return in
		default:
			r.Rethrow = randomRethrow(rng, nx)
			n := len(r.Rethrow)
			if n == 0 {
				n = len(nx.Rerollable)
			}
			r.Dice = randomDice(rng, n)
		}
		if err := tr.Roll(r); err != nil {
			t.Fatalf("generated roll %v rejected: %v", r, err)
		}
		in.Rolls = append(in.Rolls, r)
	}
}

func randomDice(rng *rand.Rand, n int) []int {
	d := make([]int, n)
	for i := range d {
		d[i] = 1 + rng.IntN(6)
	}
	return d
}

// randomRethrow picks the cargo dice to pick up: nothing (meaning all), all
// of them by face, or under "any" a random non-empty subset.
func randomRethrow(rng *rand.Rand, nx Next) []int {
	switch {
	case rng.IntN(3) == 0:
		return nil
	case nx.RerollAll:
		return slices.Clone(nx.Rerollable)
	}
	var out []int
	for _, v := range nx.Rerollable {
		if rng.IntN(2) == 0 {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		out = append(out, nx.Rerollable[rng.IntN(len(nx.Rerollable))])
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// checkConsistent asserts what every accepted outcome must satisfy.
func checkConsistent(t testing.TB, rs Ruleset, in TurnInput, o Outcome) {
	t.Helper()
	if !o.Over || len(o.Rolls) != len(in.Rolls) || len(o.Rolls) > maxRolls {
		t.Fatalf("outcome over=%v with %d results for %d rolls", o.Over, len(o.Rolls), len(in.Rolls))
	}
	if o.Qualified && o.Score != sum(o.Cargo) {
		t.Fatalf("score %d != cargo sum %v", o.Score, o.Cargo)
	}
	if rs.Family == FamilyMeier {
		for i, r := range o.Rolls {
			if len(r.Roll.Dice) != maxRolls-i {
				t.Fatalf("meier throw %d has %d dice", i+1, len(r.Roll.Dice))
			}
		}
		return
	}
	if o.Qualified && (len(o.Cargo) != rs.CargoDice || !slices.Equal(o.Banked, o.Path)) {
		t.Fatalf("qualified with banked %v path %v cargo %v", o.Banked, o.Path, o.Cargo)
	}
	if len(o.Banked) > 0 && !slices.Equal(o.Banked, o.Path[:len(o.Banked)]) {
		t.Fatalf("banked %v is not a prefix of path %v", o.Banked, o.Path)
	}
	banked := 0
	for i, r := range o.Rolls {
		want := diceCount - banked
		if r.CargoReroll {
			want = len(r.Roll.Rethrow)
			if want == 0 {
				want = rs.CargoDice
			}
		}
		if len(r.Roll.Dice) != want {
			t.Fatalf("roll %d threw %d dice, want %d", i+1, len(r.Roll.Dice), want)
		}
		banked += len(r.Banked)
	}
	if o.Automatic && (!rs.Automatic || !o.Qualified) {
		t.Fatalf("automatic without the option or a score: %+v", o)
	}
}

func TestPropertyRandomLegalTurns(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, rs := range propertyRulesets(t) {
		for range 3000 {
			in := randomTurn(t, rng, rs)
			o, err := ValidateTurn(rs, in)
			if err != nil {
				t.Fatalf("%s: legal turn %+v rejected: %v", rs.Preset, in, err)
			}
			checkConsistent(t, rs, in, o)
			for _, m := range mutations(rng, rs, in, o) {
				_, err := ValidateTurn(rs, m.in)
				if !errors.Is(err, m.rule) {
					t.Fatalf("%s: %s of %+v: err = %v, want %v", rs.Preset, m.name, in, err, m.rule)
				}
			}
		}
	}
}

// mutation is a legal turn broken in one way, with the rule it must break.
type mutation struct {
	name string
	in   TurnInput
	rule error
}

// mutations breaks a legal turn in each way that applies to it.
func mutations(rng *rand.Rand, rs Ruleset, in TurnInput, o Outcome) []mutation {
	var out []mutation
	i := rng.IntN(len(in.Rolls))
	j := rng.IntN(len(in.Rolls[i].Dice))
	bad := cloneInput(in)
	bad.Rolls[i].Dice[j] = []int{0, 7, -1, 100}[rng.IntN(4)]
	out = append(out, mutation{"a die off the board", bad, ErrFace})

	more := cloneInput(in)
	more.Rolls[i].Dice = append(more.Rolls[i].Dice, 1)
	out = append(out, mutation{"a die too many", more, ErrDiceCount})
	if len(in.Rolls[i].Dice) > 1 {
		fewer := cloneInput(in)
		fewer.Rolls[i].Dice = fewer.Rolls[i].Dice[1:]
		out = append(out, mutation{"a die too few", fewer, ErrDiceCount})
	}
	extra := cloneInput(in)
	extra.Rolls = append(extra.Rolls, Roll{Dice: []int{1}})
	switch {
	case len(in.Rolls) == maxRolls:
		out = append(out, mutation{"a fourth roll", extra, ErrTooManyRolls})
	case (o.Automatic && !o.Rolls[len(o.Rolls)-1].Closed) || rs.Cargo == CargoNone:
		out = append(out, mutation{"a roll after the turn ended", extra, ErrTurnOver})
	}
	if !o.Qualified && rs.Family != FamilyMeier {
		stand := cloneInput(in)
		stand.Stand = true
		out = append(out, mutation{"a stand without qualifying", stand, ErrStandNotAllowed})
		short := cloneInput(in)
		short.Rolls = short.Rolls[:len(short.Rolls)-1]
		if len(short.Rolls) > 0 {
			out = append(out, mutation{"stopping early", short, ErrTurnIncomplete})
		}
	}
	for k, r := range o.Rolls {
		if !r.CargoReroll {
			if rs.Family != FamilyMeier {
				rr := cloneInput(in)
				rr.Rolls[k].Rethrow = []int{1}
				out = append(out, mutation{"a re-roll before qualifying", rr, ErrRerollNotQualified})
			}
			continue
		}
		cargo := o.Rolls[k-1].Cargo
		face := 1
		for contains(cargo, face) {
			face++
		}
		nc := cloneInput(in)
		// As many dice as the cargo holds, so that only their faces are wrong.
		nc.Rolls[k] = Roll{Dice: slices.Repeat([]int{1}, len(cargo)), Rethrow: slices.Repeat([]int{face}, len(cargo))}
		out = append(out, mutation{"a rethrow not in cargo", nc, ErrRethrowNotCargo})
		if rs.Cargo == CargoTogether {
			part := cloneInput(in)
			part.Rolls[k] = Roll{Dice: []int{1}, Rethrow: []int{cargo[0]}}
			out = append(out, mutation{"part of the cargo under together", part, ErrRerollPolicy})
		}
	}
	return out
}

func cloneInput(in TurnInput) TurnInput {
	out := TurnInput{Stand: in.Stand, Rolls: make([]Roll, len(in.Rolls))}
	for i, r := range in.Rolls {
		out.Rolls[i] = Roll{Dice: slices.Clone(r.Dice), Rethrow: slices.Clone(r.Rethrow), Path: r.Path}
	}
	return out
}

// TestIncrementalMatchesWhole checks that a turn built throw by throw ends
// where the whole-turn submission does.
func TestIncrementalMatchesWhole(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, rs := range propertyRulesets(t) {
		for range 500 {
			in := randomTurn(t, rng, rs)
			whole, err := ValidateTurn(rs, in)
			if err != nil {
				t.Fatal(err)
			}
			tr := NewTurn(rs)
			for _, r := range in.Rolls {
				if err := tr.Roll(r); err != nil {
					t.Fatal(err)
				}
			}
			if !tr.Next().Over {
				if err := tr.Stand(); err != nil {
					t.Fatal(err)
				}
			}
			got := tr.Outcome()
			if got.Score != whole.Score || got.Qualified != whole.Qualified || !slices.Equal(got.Cargo, whole.Cargo) || got.Automatic != whole.Automatic {
				t.Fatalf("incremental %+v != whole %+v", got, whole)
			}
		}
	}
}
