package game

import "fmt"

// This file is Die Familie Meier (RULES.md §3): three throws of three, two
// and one dice, no decisions. The player needs Mr Meier (a 1) and Mrs Meier
// (a 2) in any order; every die thrown after both parents have appeared is a
// child: the other dice of the throw that completes the pair plus all dice of
// later throws. The score is the number of children's pips (0 is a score).

// rollMeier judges one Meier throw.
func (t *Turn) rollMeier(k int, r Roll) (RollResult, error) {
	if len(r.Rethrow) > 0 {
		return RollResult{}, rollErr(k, 0, ErrRerollPolicy, "Die Familie Meier has no re-rolls; every throw is 3, 2, then 1 die")
	}
	if r.Path != "" {
		return RollResult{}, rollErr(k, 0, ErrBadPath, fmt.Sprintf("Die Familie Meier has no path, but %q was named", r.Path))
	}
	if want := maxRolls + 1 - k; len(r.Dice) != want {
		return RollResult{}, rollErr(k, 0, ErrDiceCount,
			fmt.Sprintf("%s thrown, but throw %d of Die Familie Meier is %s", plural(len(r.Dice), "die"), k, plural(want, "die")))
	}
	if err := checkFaces(k, r.Dice); err != nil {
		return RollResult{}, err
	}
	var counts [7]int
	for _, d := range r.Dice {
		counts[d]++
	}
	var res RollResult
	if !t.qualified {
		foundMr := !t.mr && counts[1] > 0
		foundMrs := !t.mrs && counts[2] > 0
		if t.parents == nil {
			t.parents = t.carve(2)[:0]
		}
		if foundMr {
			counts[1]--
			t.mr = true
			t.parents = append(t.parents, 1)
		}
		if foundMrs {
			counts[2]--
			t.mrs = true
			t.parents = append(t.parents, 2)
		}
		if foundMr || foundMrs {
			n := len(t.parents)
			res.Banked = t.parents[n-btoi(foundMr)-btoi(foundMrs) : n : n]
		}
		if !t.mr || !t.mrs {
			return res, nil
		}
		t.qualified = true
	}
	// Children so far plus this throw's children, in a fresh slice so that
	// earlier results keep theirs.
	for _, v := range t.cargo {
		counts[v]++
	}
	n := 0
	for _, c := range counts {
		n += c
	}
	t.cargo = t.cargoFromCounts(&counts, n)
	res.Cargo = t.cargo
	return res, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
