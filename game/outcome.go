package game

// This file is what a turn amounts to: each throw's result and the
// turn's outcome, as the engine reports them.

// RollResult is what the engine made of one throw.
type RollResult struct {
	// Roll is the throw exactly as given (dice in the order reported).
	Roll Roll `json:"roll"`
	// Banked lists the values this throw banked, in sequence order (in Meier:
	// the parents it found, 1 before 2).
	Banked []int `json:"banked,omitempty"`
	// CargoReroll says the throw re-rolled cargo rather than chased the sequence.
	CargoReroll bool `json:"cargoReroll,omitempty"`
	// Closed says the throw was sealed under the cup (docs/rules.md §4).
	Closed bool `json:"closed,omitempty"`
	// Sealed is set only in a round view for a closed throw the viewer may
	// not read yet; Roll, Banked and Cargo are then empty.
	Sealed bool `json:"sealed,omitempty"`
	// Cargo is the cargo after this throw (highest first), once qualified; in
	// Meier, the children so far.
	Cargo []int `json:"cargo,omitempty"`
}

// Outcome is a turn so far, or final once Over.
type Outcome struct {
	Rolls []RollResult `json:"rolls"`
	// Qualified says the sequence is banked (in Meier: both parents found).
	Qualified bool `json:"qualified"`
	// Path is the sequence the player is on, once known.
	Path []int `json:"path,omitempty"`
	// Banked lists the banked values in sequence order.
	Banked []int `json:"banked,omitempty"`
	// Cargo is the scoring dice, highest first (in Meier: the children).
	Cargo []int `json:"cargo,omitempty"`
	// Score is the sum of the cargo; meaningful only if Qualified, because a
	// turn that never qualified has no score, which is not a score of 0.
	Score int `json:"score"`
	// Automatic says the cargo is an automatic (docs/rules.md §4).
	Automatic bool `json:"automatic,omitempty"`
	// Closed says at least one throw of the turn was closed.
	Closed bool `json:"closed,omitempty"`
	// Sealed is set only in a round view that hides closed throws; Score,
	// Cargo and Automatic are then not shown.
	Sealed bool `json:"sealed,omitempty"`
	Over   bool `json:"over"`
	Stood  bool `json:"stood,omitempty"`
}

// Outcome is the turn so far, or final once Over. It owns its memory: later
// throws do not change an outcome already taken.
func (t *Turn) Outcome() Outcome {
	ints := make([]int, t.used)
	copy(ints, t.buf[:t.used])
	at := func(s span) []int {
		if s.n == 0 {
			return nil
		}
		return ints[s.off : s.off+s.n : s.off+s.n]
	}
	o := Outcome{
		Rolls:     make([]RollResult, t.n),
		Qualified: t.qualified,
		Path:      at(t.path),
		Cargo:     at(t.cargo),
		Automatic: t.automatic,
		Closed:    t.closed,
		Over:      t.over,
		Stood:     t.stood,
	}
	for i := range o.Rolls {
		rec := &t.rolls[i]
		o.Rolls[i] = RollResult{
			Roll:        Roll{Dice: at(rec.dice), Rethrow: at(rec.rethrow), Path: rec.path},
			Banked:      at(rec.banked),
			CargoReroll: rec.cargoReroll,
			Closed:      rec.closed,
			Cargo:       at(rec.cargo),
		}
	}
	if t.rules.meier {
		o.Banked = at(t.parents)
	} else {
		o.Banked = at(span{t.path.off, uint8(t.nbank)})
	}
	if t.qualified {
		o.Score = sum(o.Cargo)
	}
	return o
}
