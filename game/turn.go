package game

import "slices"

// maxRolls is the number of rolls in every turn of every preset: three rolls
// in the Ship, Captain and Crew family, three throws (3, 2, 1 dice) in Meier.
const maxRolls = 3

// diceCount is the number of dice on the table.
const diceCount = 5

// Roll is one throw as a player reports it.
type Roll struct {
	// Dice are the faces thrown in this throw, 1 to 6, in any order.
	Dice []int `json:"dice"`
	// Rethrow, for a cargo re-roll, lists the cargo faces picked up and
	// thrown again; empty means all cargo.
	Rethrow []int `json:"rethrow,omitempty"`
	// Path, in low-or-high only, names the sequence: "6-5-4" or "1-2-3". It is
	// required only when the first banking roll shows both a 6 and a 1;
	// otherwise it is optional but must agree with the dice when given.
	Path string `json:"path,omitempty"`
}

// TurnInput is a whole turn submitted at once.
type TurnInput struct {
	Rolls []Roll `json:"rolls"`
	// Stand is an explicit stand. A complete submission ends the turn anyway:
	// a qualified whole-turn submission with rolls left implies standing.
	Stand bool `json:"stand,omitempty"`
}

// Next says what a player may do now, so a phone can offer only legal moves.
type Next struct {
	Over bool `json:"over"`
	// Throw is how many dice to throw when rolling for the sequence (or the
	// Meier throw), 0 if none.
	Throw    int  `json:"throw"`
	MayStand bool `json:"mayStand"`
	// MayReroll says cargo may be re-rolled; Rerollable lists its faces.
	MayReroll  bool  `json:"mayReroll"`
	Rerollable []int `json:"rerollable,omitempty"`
	// RerollAll is true under the "together" cargo rule: all cargo is thrown.
	RerollAll bool `json:"rerollAll,omitempty"`
	RollsLeft int  `json:"rollsLeft"`
	// Roll is the 1-based number of the next roll, 0 once the turn is over.
	Roll int `json:"roll"`
}

// Turn builds a turn roll by roll, as a phone records each throw when it
// happens. Its zero value is not usable; call NewTurn.
type Turn struct {
	rules     turnRules
	seq       []int // the sequence being chased, nil until the path is fixed
	path      span  // seq copied into buf when the path is fixed
	nbank     int   // how many values of seq are banked
	cargo     span  // current cargo (or Meier children), highest first
	parents   span  // Meier parents in the order found
	mr, mrs   bool  // Meier parents found
	qualified bool
	qualAt    int // the roll that completed the sequence, 0 if none
	automatic bool
	closed    bool
	stood     bool
	over      bool
	n         int // rolls taken
	rolls     [maxRolls]rollRecord
	// buf holds every number the turn records; records point into it by
	// offset rather than by slice, so the turn holds no pointers to itself
	// and ValidateTurn can keep it on the stack. Outcome copies it out once.
	buf  [64]int
	used int
}

// turnRules is the part of a Ruleset a turn consults, kept small because a
// turn is copied into every outcome computation.
type turnRules struct {
	seqs      [][]int
	policy    CargoPolicy
	meier     bool
	low       bool
	automatic bool
	closed    bool
	scarne    bool
}

// span is a run of buf: buf[off : off+n].
type span struct{ off, n uint8 }

// rollRecord is a RollResult held as spans of the turn's buffer.
type rollRecord struct {
	dice, rethrow, banked, cargo span
	path                         string
	cargoReroll, closed          bool
}

// NewTurn starts a turn under rs.
func NewTurn(rs Ruleset) *Turn {
	t := new(Turn)
	t.init(rs)
	return t
}

func (t *Turn) init(rs Ruleset) {
	t.rules = turnRules{
		seqs:      rs.Sequences,
		policy:    rs.Cargo,
		meier:     rs.Family == FamilyMeier,
		low:       rs.Low,
		automatic: rs.AutomaticWins(),
		closed:    rs.ClosedRolls,
		scarne:    rs.Preset == "scarne",
	}
	if len(rs.Sequences) == 1 {
		t.fixPath(rs.Sequences[0])
	}
	if t.rules.meier {
		t.parents = span{off: uint8(t.used)} // room for both parents
		t.used += 2
	}
}

// store copies s into the buffer and returns where it went. A turn never
// needs more than the buffer holds once its throws are validated; longer
// input is rejected before it is stored.
func (t *Turn) store(s []int) span {
	sp := span{uint8(t.used), uint8(len(s))}
	t.used += copy(t.buf[t.used:], s)
	return sp
}

// ints reads a span back.
func (t *Turn) ints(s span) []int {
	return t.buf[s.off : s.off+s.n : s.off+s.n]
}

// Roll validates one throw and applies it. On error nothing changes.
func (t *Turn) Roll(r Roll) error { return t.roll(r, false) }

// roll is Roll; sealed says the cargo is sealed from whoever records the
// throw (see validateReroll).
func (t *Turn) roll(r Roll, sealed bool) error {
	k := t.n + 1
	switch {
	case t.stood:
		return rollErr(k, 0, ErrTurnOver, "the player stood; the turn is over")
	case t.n >= maxRolls:
		return rollErr(k, 0, ErrTooManyRolls, "a turn has only three rolls")
	case t.over:
		return rollErr(k, 0, ErrTurnOver, t.overReason())
	}
	var err error
	switch {
	case t.rules.meier:
		err = t.validateMeier(k, r)
	case t.qualified:
		err = t.validateReroll(k, r, sealed)
	default:
		err = t.validateSequence(k, r)
	}
	if err != nil {
		return err
	}
	// The throw is legal: record it, then let the rule that judged it apply it.
	rec := &t.rolls[t.n]
	*rec = rollRecord{dice: t.store(r.Dice), rethrow: t.store(r.Rethrow), path: r.Path}
	switch {
	case t.rules.meier:
		t.applyMeier(rec, r)
	case t.qualified:
		t.applyReroll(rec, r)
	default:
		t.applySequence(k, rec, r)
	}
	t.n++
	t.closed = t.closed || rec.closed
	t.automatic = t.isAutomatic()
	// An open automatic ends the turn (it is claimed as it is recorded). A
	// closed one does not: the player claims it or stands, like on any other
	// cargo under the cup, so that the cup gives nothing away.
	t.over = t.n == maxRolls || (t.automatic && !rec.closed) || (t.qualified && t.rules.policy == CargoNone && !t.rules.meier)
	return nil
}

// overReason says in words why a turn ended before its third roll.
func (t *Turn) overReason() string {
	if t.automatic {
		return "the cargo is an automatic; the turn is over"
	}
	return "the sequence is banked and cargo may not be re-rolled in this game; the turn is over"
}

// Stand ends the turn keeping the current cargo. Only a qualified player may
// stand, and nobody stands in Die Familie Meier, which has no decisions.
func (t *Turn) Stand() error {
	if t.stood || t.over {
		return rollErr(t.n, 0, ErrTurnOver, "the turn is already over")
	}
	if err := t.standErr(); err != nil {
		return err
	}
	t.stood = true
	t.over = true
	return nil
}

// standErr says why the player has nothing to stand on, or nil.
func (t *Turn) standErr() error {
	switch {
	case t.rules.meier:
		return rollErr(t.n, 0, ErrStandNotAllowed, "Die Familie Meier always takes all three throws; nobody stands")
	case !t.qualified:
		return rollErr(t.n, 0, ErrStandNotAllowed, "only a player with "+t.seqWords()+" banked may stand")
	}
	return nil
}

// Next says what is allowed now.
func (t *Turn) Next() Next {
	if t.over {
		return Next{Over: true}
	}
	nx := Next{Roll: t.n + 1, RollsLeft: maxRolls - t.n}
	switch {
	case t.rules.meier:
		nx.Throw = maxRolls - t.n
	case !t.qualified:
		nx.Throw = diceCount - t.nbank
	default:
		nx.MayStand = true
		nx.MayReroll = t.rules.policy != CargoNone
		if nx.MayReroll {
			nx.Rerollable = slices.Clone(t.ints(t.cargo))
			nx.RerollAll = t.rules.policy == CargoTogether
		}
	}
	return nx
}

// ValidateTurn judges a whole turn submitted at once and returns its final
// outcome. A qualified turn with rolls left is taken to stand; a turn that
// stops while the player must still throw is rejected as incomplete.
func ValidateTurn(rs Ruleset, in TurnInput) (Outcome, error) {
	if len(in.Rolls) == 0 {
		return Outcome{}, rollErr(0, 0, ErrEmptyTurn, "no roll was submitted")
	}
	var t Turn
	t.init(rs)
	for _, r := range in.Rolls {
		if err := t.Roll(r); err != nil {
			return Outcome{}, err
		}
	}
	switch {
	case in.Stand:
		// An explicit stand at the end of a finished turn is harmless, but
		// only for a player who had something to stand on.
		if err := t.standErr(); err != nil {
			return Outcome{}, err
		}
		t.stood, t.over = t.stood || !t.over, true
	case !t.over && t.qualified && !t.rules.meier:
		t.stood, t.over = true, true
	case !t.over:
		return Outcome{}, rollErr(t.n, 0, ErrTurnIncomplete, t.incompleteDetail())
	}
	return t.Outcome(), nil
}

// incompleteDetail explains why a submitted turn cannot end where it does.
func (t *Turn) incompleteDetail() string {
	left := maxRolls - t.n
	if t.rules.meier {
		return "Die Familie Meier always takes all three throws; " + plural(left, "throw") + " left"
	}
	return t.seqWords() + " not banked yet and " + plural(left, "roll") + " left; keep throwing"
}

func sum(s []int) int {
	n := 0
	for _, v := range s {
		n += v
	}
	return n
}
