package game

import "fmt"

// This file is Die Familie Meier (docs/rules.md §3): three throws of three, two
// and one dice, no decisions. The player needs Mr Meier (a 1) and Mrs Meier
// (a 2) in any order; every die thrown after both parents have appeared is a
// child: the other dice of the throw that completes the pair plus all dice of
// later throws. The score is the children's pips (0 is a score).

// validateMeier judges one Meier throw: only the number of dice and their
// faces can be wrong, since there are no choices.
func (t *Turn) validateMeier(k int, r Roll) error {
	if len(r.Rethrow) > 0 {
		return rollErr(k, 0, ErrRerollPolicy, "Die Familie Meier has no re-rolls; every turn is 3, 2, then 1 die")
	}
	if r.Path != "" {
		return rollErr(k, 0, ErrBadPath, fmt.Sprintf("Die Familie Meier has no path, but %q was named", r.Path))
	}
	if want := maxRolls + 1 - k; len(r.Dice) != want {
		return rollErr(k, 0, ErrDiceCount,
			fmt.Sprintf("%s thrown, but throw %d of Die Familie Meier is %s", plural(len(r.Dice), "die"), k, plural(want, "die")))
	}
	return checkFaces(k, r.Dice)
}

// applyMeier finds parents and counts children.
func (t *Turn) applyMeier(rec *rollRecord, r Roll) {
	var counts [7]int
	for _, d := range r.Dice {
		counts[d]++
	}
	if !t.qualified {
		before := t.parents.n
		if !t.mr && counts[1] > 0 {
			counts[1]--
			t.mr = true
			t.buf[t.parents.off+t.parents.n] = 1
			t.parents.n++
		}
		if !t.mrs && counts[2] > 0 {
			counts[2]--
			t.mrs = true
			t.buf[t.parents.off+t.parents.n] = 2
			t.parents.n++
		}
		rec.banked = span{t.parents.off + before, t.parents.n - before}
		if !t.mr || !t.mrs {
			return
		}
		t.qualified = true
	}
	// The children so far and this throw's, stored afresh so that earlier
	// results keep theirs.
	for _, v := range t.ints(t.cargo) {
		counts[v]++
	}
	t.cargo = t.cargoFromCounts(&counts)
	rec.cargo = t.cargo
}
