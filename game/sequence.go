package game

import (
	"fmt"
	"strings"
)

// This file is docs/rules.md §1 and the low-or-high path of §2: rolling for the
// required sequence and banking it.

// validateSequence judges a throw made before the sequence is complete.
func (t *Turn) validateSequence(k int, r Roll) error {
	if len(r.Rethrow) > 0 {
		return rollErr(k, 0, ErrRerollNotQualified, "cargo can only be re-rolled once "+t.seqWords()+" are banked")
	}
	if want := diceCount - t.nbank; len(r.Dice) != want {
		return rollErr(k, 0, ErrDiceCount, t.sequenceCountDetail(len(r.Dice), want))
	}
	if err := checkFaces(k, r.Dice); err != nil {
		return err
	}
	_, err := t.choosePath(k, r)
	return err
}

// applySequence banks what a validated throw shows. Banking is automatic and
// mandatory: the next required value is banked if the dice show it, then the
// next, so 6, 5 and 4 may all come from one throw, and only one die of each
// value is banked. The submitter never says what to bank.
func (t *Turn) applySequence(k int, rec *rollRecord, r Roll) {
	seq, _ := t.choosePath(k, r)
	var counts [7]int
	for _, d := range r.Dice {
		counts[d]++
	}
	nb := t.nbank
	for nb < len(seq) && counts[seq[nb]] > 0 {
		counts[seq[nb]]--
		nb++
	}
	// Roll 1 is always open; a third roll taken without the sequence is closed.
	rec.closed = t.rules.closed && k == maxRolls
	if seq != nil && t.seq == nil {
		t.fixPath(seq)
	}
	rec.banked = span{t.path.off + uint8(t.nbank), uint8(nb - t.nbank)}
	t.nbank = nb
	if seq != nil && nb == len(seq) {
		t.qualified = true
		t.qualAt = k
		t.cargo = t.cargoFromCounts(&counts)
		rec.cargo = t.cargo
	}
}

// fixPath commits the turn to one sequence.
func (t *Turn) fixPath(seq []int) {
	t.seq = seq
	t.path = t.store(seq)
}

// choosePath returns the sequence this throw is judged against: the fixed
// one, or in low-or-high the one the throw starts. It returns nil when no
// path is fixed and the throw starts none. A first banking throw that could
// start either sequence must name its path (docs/rules.md §2, Decision).
func (t *Turn) choosePath(k int, r Roll) ([]int, error) {
	var named []int
	if r.Path != "" {
		for _, s := range t.rules.seqs {
			if pathIs(r.Path, s) {
				named = s
			}
		}
		if named == nil {
			return nil, rollErr(k, 0, ErrBadPath, fmt.Sprintf("%q is not a sequence in this game (%s)", r.Path, t.seqNames()))
		}
	}
	if t.seq != nil {
		if named != nil && !sameInts(named, t.seq) {
			return nil, rollErr(k, 0, ErrBadPath, fmt.Sprintf("path %s was named, but this turn is already on %s", r.Path, pathString(t.seq)))
		}
		return t.seq, nil
	}
	var starts []int
	n := 0
	for _, s := range t.rules.seqs {
		if contains(r.Dice, s[0]) {
			starts = s
			n++
		}
	}
	switch {
	case named != nil && n > 0 && !contains(r.Dice, named[0]):
		return nil, rollErr(k, 0, ErrBadPath, fmt.Sprintf("path %s was named, but the roll shows no %d to start it", r.Path, named[0]))
	case named != nil && n > 0:
		return named, nil
	case n > 1:
		return nil, rollErr(k, 0, ErrAmbiguousPath, "the roll shows both a 6 and a 1; say whether the path is 6-5-4 or 1-2-3")
	}
	return starts, nil
}

// cargoFromCounts stores the dice left in counts, highest first.
func (t *Turn) cargoFromCounts(counts *[7]int) span {
	sp := span{off: uint8(t.used)}
	for v := 6; v >= 1; v-- {
		for j := 0; j < counts[v]; j++ {
			t.buf[t.used] = v
			t.used++
		}
	}
	sp.n = uint8(t.used) - sp.off
	return sp
}

// checkFaces rejects a die that is not 1 to 6, naming it.
func checkFaces(k int, dice []int) error {
	for i, d := range dice {
		if d < 1 || d > 6 {
			return rollErr(k, i+1, ErrFace, fmt.Sprintf("a die shows %d; dice show 1 to 6", d))
		}
	}
	return nil
}

// sequenceCountDetail explains a wrong number of dice thrown for the sequence.
func (t *Turn) sequenceCountDetail(got, want int) string {
	if t.nbank == 0 {
		return fmt.Sprintf("%s thrown, but all %d must be thrown while nothing is banked", plural(got, "die"), want)
	}
	return fmt.Sprintf("%s thrown, but only %d may be thrown after %s", plural(got, "die"), want, t.bankedWords())
}

// valueName is what bar players call a value of the sequence.
func (t *Turn) valueName(v int) string {
	if len(t.seq) > 0 && t.seq[0] == 6 {
		switch v {
		case 6:
			return "ship"
		case 5:
			return "captain"
		case 4:
			if t.rules.scarne {
				return "mate"
			}
			return "crew"
		}
	}
	return fmt.Sprint(v)
}

// bankedWords says what is banked: "the ship and captain are banked".
func (t *Turn) bankedWords() string {
	switch t.nbank {
	case 0:
		return "nothing is banked"
	case 1:
		return "the " + t.valueName(t.seq[0]) + " is banked"
	}
	s := "the " + t.valueName(t.seq[0])
	for i := 1; i < t.nbank-1; i++ {
		s += ", " + t.valueName(t.seq[i])
	}
	return s + " and " + t.valueName(t.seq[t.nbank-1]) + " are banked"
}

// seqWords names the whole required sequence: "the ship, captain and crew".
func (t *Turn) seqWords() string {
	if t.seq == nil || t.seq[0] != 6 {
		return t.seqNames()
	}
	s := "the " + t.valueName(6)
	for i := 1; i < len(t.seq)-1; i++ {
		s += ", " + t.valueName(t.seq[i])
	}
	return s + " and " + t.valueName(t.seq[len(t.seq)-1])
}

// seqNames lists the sequences this turn may still go for: "6-5-4 or 1-2-3".
func (t *Turn) seqNames() string {
	if t.seq != nil {
		return pathString(t.seq)
	}
	s := ""
	for i, q := range t.rules.seqs {
		if i > 0 {
			s += " or "
		}
		s += pathString(q)
	}
	return s
}

// pathIs reports whether s spells seq as "6-5-4", without allocating.
func pathIs(s string, seq []int) bool {
	if len(s) != 2*len(seq)-1 {
		return false
	}
	for i, v := range seq {
		if s[2*i] != byte('0'+v) || (i > 0 && s[2*i-1] != '-') {
			return false
		}
	}
	return true
}

// pathString spells a sequence as a player names it: "6-5-4".
func pathString(seq []int) string {
	b := make([]byte, 0, 2*len(seq))
	for i, v := range seq {
		if i > 0 {
			b = append(b, '-')
		}
		b = append(b, byte('0'+v))
	}
	return string(b)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "die") {
		return fmt.Sprintf("%d %sce", n, word[:len(word)-1])
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
