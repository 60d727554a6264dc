package game

import (
	"errors"
	"strconv"
)

// The rules a submitted turn can break. Every rejection of a throw is a
// *RollError whose Rule is one of these, so callers test with errors.Is and
// map each rule to a response in one place.
var (
	// ErrDiceCount: the throw has the wrong number of dice for the moment of
	// the turn (5 minus the dice banked, the cargo picked up, or 3-2-1 in Meier).
	ErrDiceCount = errors.New("wrong number of dice")
	// ErrFace: a die shows something other than 1 to 6.
	ErrFace = errors.New("a die must show 1 to 6")
	// ErrTooManyRolls: a turn has at most three rolls.
	ErrTooManyRolls = errors.New("at most three rolls per turn")
	// ErrTurnOver: the player stood, or the turn ended on its own (an
	// automatic, or qualifying when cargo may not be re-rolled).
	ErrTurnOver = errors.New("the turn is over")
	// ErrRerollNotQualified: cargo can only be re-rolled once the full
	// sequence is banked.
	ErrRerollNotQualified = errors.New("no cargo to re-roll before the sequence is banked")
	// ErrRerollPolicy: the ruleset's cargo policy does not allow this re-roll.
	ErrRerollPolicy = errors.New("re-roll not allowed by the cargo rule")
	// ErrRethrowNotCargo: the faces said to be picked up are not all cargo.
	ErrRethrowNotCargo = errors.New("re-thrown dice are not cargo")
	// ErrCargoSealed: a re-roll recorded by someone the cargo is sealed from
	// (docs/rules.md §4) names the faces picked up. Whether they are cargo would
	// tell them what is under the cup, so only the player's own phone may
	// name them; anyone else re-rolls the whole cargo.
	ErrCargoSealed = errors.New("the cargo is under the cup")
	// ErrAmbiguousPath: in low-or-high, a first banking roll shows both a 6
	// and a 1 and the submission does not say which sequence it goes for.
	ErrAmbiguousPath = errors.New("the roll could start either sequence; name the path")
	// ErrBadPath: the named path is unknown or disagrees with the dice.
	ErrBadPath = errors.New("the named path does not fit")
	// ErrStandNotAllowed: a player may stand only with the sequence banked
	// and never in Die Familie Meier.
	ErrStandNotAllowed = errors.New("standing is not allowed now")
	// ErrEmptyTurn: a whole-turn submission without a single roll.
	ErrEmptyTurn = errors.New("a turn needs at least one roll")
	// ErrTurnIncomplete: a whole-turn submission that stops while the player
	// still has to throw (not qualified and rolls left, or Meier before the
	// third throw).
	ErrTurnIncomplete = errors.New("the turn is not finished")
)

// RollError is the one error type for a rejected throw, stand or turn. It
// names the roll (1-based), the die (1-based index into that roll's Dice, 0
// when the rule is not about one die) and the rule broken, so a phone can
// point at the offending die and a person can read what went wrong.
type RollError struct {
	Roll   int    `json:"roll"`          // 1-based roll number, 0 for the turn as a whole
	Die    int    `json:"die,omitempty"` // 1-based index into the roll's Dice, 0 if not about one die
	Rule   error  `json:"-"`             // the sentinel that was broken
	Detail string `json:"detail"`        // what happened, in a bar player's words
}

// Error reads like "roll 2: 5 dice thrown, but only 4 may be thrown after the
// ship is banked". It is assembled here, not when the error is made, so that
// rejecting costs nothing on paths that only test errors.Is.
func (e *RollError) Error() string {
	b := make([]byte, 0, 32+len(e.Detail))
	if e.Roll > 0 {
		b = append(b, "roll "...)
		b = strconv.AppendInt(b, int64(e.Roll), 10)
		if e.Die > 0 {
			b = append(b, ", die "...)
			b = strconv.AppendInt(b, int64(e.Die), 10)
		}
	} else {
		b = append(b, "turn"...)
	}
	b = append(b, ": "...)
	if e.Detail != "" {
		b = append(b, e.Detail...)
	} else if e.Rule != nil {
		b = append(b, e.Rule.Error()...)
	}
	return string(b)
}

// Unwrap returns the sentinel, so errors.Is(err, game.ErrDiceCount) works.
func (e *RollError) Unwrap() error { return e.Rule }

// rollErr builds a RollError; it is only called on the rejecting path.
func rollErr(roll, die int, rule error, detail string) *RollError {
	return &RollError{Roll: roll, Die: die, Rule: rule, Detail: detail}
}
