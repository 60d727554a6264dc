package game

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// refTurn is a second, plain reading of docs/rules.md §1-3 and the house rules in
// doc.go, written without the engine's buffers, to judge whole turns
// against: it says which rule the first bad throw breaks (and the roll and
// die), or the final score.
type refTurn struct {
	rs          Ruleset
	seq         []int
	prog, n     int
	qual, over  bool
	cargo       []int
	mr, mrs     bool
	auto, stood bool
}

// roll judges and applies one throw; it returns the rule broken and the
// 1-based die, or nil.
func (t *refTurn) roll(r Roll) (int, error) {
	k := t.n + 1
	reroll := t.qual && t.rs.Family != FamilyMeier // a cargo re-roll, closed under closed-rolls
	switch {
	case t.n >= 3:
		return 0, ErrTooManyRolls
	case t.over:
		return 0, ErrTurnOver
	}
	face := func() (int, error) {
		for i, d := range r.Dice {
			if d < 1 || d > 6 {
				return i + 1, ErrFace
			}
		}
		return 0, nil
	}
	switch {
	case t.rs.Family == FamilyMeier:
		switch {
		case len(r.Rethrow) > 0:
			return 0, ErrRerollPolicy
		case r.Path != "":
			return 0, ErrBadPath
		case len(r.Dice) != 4-k:
			return 0, ErrDiceCount
		}
		if die, err := face(); err != nil {
			return die, err
		}
		left := append([]int(nil), r.Dice...)
		take := func(v int) bool {
			for i, d := range left {
				if d == v {
					left = append(left[:i], left[i+1:]...)
					return true
				}
			}
			return false
		}
		if !t.qual {
			t.mr = t.mr || take(1)
			t.mrs = t.mrs || take(2)
			t.qual = t.mr && t.mrs
		}
		if t.qual {
			t.cargo = append(t.cargo, left...)
		}
	case !t.qual:
		if len(r.Rethrow) > 0 {
			return 0, ErrRerollNotQualified
		}
		if len(r.Dice) != 5-t.prog {
			return 0, ErrDiceCount
		}
		if die, err := face(); err != nil {
			return die, err
		}
		seq := t.seq
		if r.Path != "" {
			var named []int
			for _, s := range t.rs.Sequences {
				if pathString(s) == r.Path {
					named = s
				}
			}
			shows := func(s []int) bool { return contains(r.Dice, s[0]) }
			switch {
			case named == nil, seq != nil && !sameInts(seq, named):
				return 0, ErrBadPath
			case seq == nil && !shows(named) && slices.ContainsFunc(t.rs.Sequences, shows):
				return 0, ErrBadPath
			case seq == nil && shows(named):
				seq = named
			}
		}
		if seq == nil {
			for _, s := range t.rs.Sequences {
				if contains(r.Dice, s[0]) {
					if seq != nil {
						return 0, ErrAmbiguousPath
					}
					seq = s
				}
			}
		}
		left := append([]int(nil), r.Dice...)
		for seq != nil && t.prog < len(seq) {
			i := slices.Index(left, seq[t.prog])
			if i < 0 {
				break
			}
			left = slices.Delete(left, i, i+1)
			t.prog++
		}
		t.seq = seq
		if seq != nil && t.prog == len(seq) {
			t.qual, t.cargo = true, left
		}
	default:
		// What anyone can see is judged first (how many dice are picked
		// up, the dice thrown, the path) and which faces are cargo last,
		// so that a re-roll recorded by someone the cargo is sealed from
		// is refused alike whatever is under the cup.
		pick := r.Rethrow
		if len(pick) == 0 {
			pick = t.cargo
		}
		switch {
		case t.rs.Cargo == CargoTogether && len(pick) != len(t.cargo):
			return 0, ErrRerollPolicy
		case len(pick) > len(t.cargo), slices.ContainsFunc(pick, func(v int) bool { return v < 1 || v > 6 }):
			return 0, ErrRethrowNotCargo
		case len(r.Dice) != len(pick):
			return 0, ErrDiceCount
		}
		if die, err := face(); err != nil {
			return die, err
		}
		if r.Path != "" && r.Path != pathString(t.seq) {
			return 0, ErrBadPath
		}
		kept := append([]int(nil), t.cargo...)
		for _, v := range pick {
			i := slices.Index(kept, v)
			if i < 0 {
				return 0, ErrRethrowNotCargo
			}
			kept = slices.Delete(kept, i, i+1)
		}
		t.cargo = append(kept, r.Dice...)
	}
	t.n++
	best := 6
	if t.rs.Low {
		best = 1
	}
	t.auto = t.rs.AutomaticWins() && t.qual && len(t.cargo) > 0 &&
		!slices.ContainsFunc(t.cargo, func(v int) bool { return v != best })
	// An open automatic ends the turn; a closed one waits for a stand or a
	// claim like any other cargo under the cup.
	closedAuto := t.auto && reroll && t.rs.ClosedRolls
	t.over = t.n == 3 || (t.auto && !closedAuto) || (t.qual && t.rs.Cargo == CargoNone && t.rs.Family != FamilyMeier)
	return 0, nil
}

// judge plays a whole submission: the rule broken with its roll and die,
// or nil with the final turn.
func (t *refTurn) judge(in TurnInput) (int, int, error) {
	if len(in.Rolls) == 0 {
		return 0, 0, ErrEmptyTurn
	}
	for _, r := range in.Rolls {
		if die, err := t.roll(r); err != nil {
			return t.n + 1, die, err
		}
	}
	switch {
	case in.Stand && (t.rs.Family == FamilyMeier || !t.qual):
		return t.n, 0, ErrStandNotAllowed
	case !t.over && !t.qual, !t.over && t.rs.Family == FamilyMeier:
		return t.n, 0, ErrTurnIncomplete
	}
	return 0, 0, nil
}

// nearLegalTurn writes a turn that is legal most of the way and then, now
// and then, wrong in one small way: a die too many or too few, a face off
// the board, a rethrow of the wrong dice, a path, a stand.
func nearLegalTurn(rng *rand.Rand, rs Ruleset) TurnInput {
	ref := &refTurn{rs: rs}
	var in TurnInput
	for len(in.Rolls) < 4 {
		// Now and then stop short of the end, or throw past it.
		if (ref.over && rng.IntN(4) > 0) || rng.IntN(15) == 0 {
			return in
		}
		var r Roll
		switch {
		case ref.over:
			r.Dice = randomDice(rng, 1+rng.IntN(5))
		case rs.Family == FamilyMeier:
			r.Dice = randomDice(rng, 3-ref.n)
		case !ref.qual:
			r.Dice = randomDice(rng, 5-ref.prog)
		case rng.IntN(4) == 0:
			in.Stand = true
			return in
		default:
			if rs.Cargo == CargoAny && rng.IntN(2) == 0 {
				r.Rethrow = ref.cargo[:1+rng.IntN(len(ref.cargo))]
			}
			r.Dice = randomDice(rng, max(len(r.Rethrow), len(ref.cargo)*btoi(len(r.Rethrow) == 0)))
		}
		switch rng.IntN(12) {
		case 0:
			r.Dice = append(r.Dice, 1+rng.IntN(6))
		case 1:
			if len(r.Dice) > 0 {
				r.Dice[rng.IntN(len(r.Dice))] = []int{0, 7, -1}[rng.IntN(3)]
			}
		case 2:
			r.Rethrow = []int{1 + rng.IntN(6)}
		case 3:
			r.Path = []string{"6-5-4", "1-2-3", "6-5", "5-4"}[rng.IntN(4)]
		case 4:
			in.Stand = true
		}
		if len(rs.Sequences) > 1 && ref.seq == nil && contains(r.Dice, 6) && contains(r.Dice, 1) && rng.IntN(4) > 0 {
			r.Path = []string{"6-5-4", "1-2-3"}[rng.IntN(2)]
		}
		in.Rolls = append(in.Rolls, r)
		if _, err := ref.roll(r); err != nil || in.Stand {
			return in
		}
	}
	return in
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestEngineMatchesPlainReading judges many near-legal turns twice: by the
// engine and by refTurn. They must agree on every rejection (rule, roll,
// die) and on every accepted turn's score, qualification and automatic.
func TestEngineMatchesPlainReading(t *testing.T) {
	t.Parallel()
	on := true
	rulesets := propertyRulesets(t)
	rulesets = append(rulesets, ruleset(t, "bar", Options{Low: &on, Automatic: &on}),
		ruleset(t, "scarne", Options{Automatic: &on}), ruleset(t, "bar", Options{Progressive: &on}),
		ruleset(t, "ship-captain", Options{Automatic: &on}), ruleset(t, "low-or-high", Options{Automatic: &on}))
	rng := rand.New(rand.NewPCG(3, 5))
	for _, rs := range rulesets {
		for range 4000 {
			in := nearLegalTurn(rng, rs)
			ref := &refTurn{rs: rs}
			roll, die, rule := ref.judge(in)
			o, err := ValidateTurn(rs, in)
			if rule != nil {
				var re *RollError
				if !errors.As(err, &re) || !errors.Is(err, rule) || re.Roll != roll || re.Die != die {
					t.Fatalf("%s %+v: engine says %v, plain reading %v at roll %d die %d", rs.Preset, in, err, rule, roll, die)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s %+v: engine rejects (%v), plain reading accepts", rs.Preset, in, err)
			}
			score := 0
			for _, v := range ref.cargo {
				score += v
			}
			if o.Qualified != ref.qual || (ref.qual && o.Score != score) || o.Automatic != ref.auto {
				t.Fatalf("%s %+v: engine %+v, plain reading qualified %v score %d automatic %v", rs.Preset, in, o, ref.qual, score, ref.auto)
			}
		}
	}
}
