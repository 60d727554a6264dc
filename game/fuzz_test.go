package game

import (
	"errors"
	"testing"
)

// decodeTurn turns arbitrary bytes into a ruleset choice and a TurnInput, so
// the fuzzer explores odd dice counts, faces off the board, rethrows and
// paths rather than mostly invalid JSON.
func decodeTurn(rulesets []Ruleset, data []byte) (Ruleset, TurnInput) {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b
	}
	rs := rulesets[next()%len(rulesets)]
	var in TurnInput
	in.Stand = next()%2 == 1
	for nrolls := next() % 6; nrolls > 0; nrolls-- {
		var r Roll
		for n := next() % 8; n > 0; n-- {
			r.Dice = append(r.Dice, next()%9-1)
		}
		for n := next() % 5; n > 1; n-- {
			r.Rethrow = append(r.Rethrow, next()%9-1)
		}
		r.Path = []string{"", "", "6-5-4", "1-2-3", "6-5", "1-2", "x"}[next()%7]
		in.Rolls = append(in.Rolls, r)
	}
	return rs, in
}

func FuzzValidateTurn(f *testing.F) {
	f.Add([]byte{0, 0, 1, 5, 7, 6, 5, 4, 1, 0, 0})
	f.Add([]byte{1, 1, 3, 5, 7, 4, 3, 1, 1, 0, 0, 2, 7, 1, 2, 0, 0, 0, 2, 7, 7, 0, 0})
	f.Add([]byte{5, 0, 2, 5, 7, 2, 3, 4, 4, 0, 3, 3, 4, 5, 5, 0, 0})
	f.Add([]byte{6, 0, 3, 3, 2, 3, 4, 0, 0, 2, 3, 5, 0, 0, 1, 4, 0, 0})
	f.Add([]byte{})
	rulesets := propertyRulesets(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, in := decodeTurn(rulesets, data)
		o, err := ValidateTurn(rs, in)
		if err != nil {
			var re *RollError
			if !errors.As(err, &re) || re.Rule == nil || re.Error() == "" {
				t.Fatalf("rejection %v is not a RollError with a rule", err)
			}
			if re.Roll < 0 || re.Roll > len(in.Rolls)+1 {
				t.Fatalf("rejection names roll %d of %d", re.Roll, len(in.Rolls))
			}
			if re.Die < 0 || (re.Die > 0 && re.Die > len(in.Rolls[re.Roll-1].Dice)) {
				t.Fatalf("rejection names die %d", re.Die)
			}
			return
		}
		checkConsistent(t, rs, in, o)
	})
}
