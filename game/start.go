package game

import (
	"errors"
	"fmt"
	"slices"
)

// This file is who goes first (docs/rules.md §7): the roll-off before the first
// round, and the rotation from one round to the next.

// ErrRollOff is a roll-off throw out of order, by someone not rolling off,
// or after the roll-off is decided.
var ErrRollOff = errors.New("invalid roll-off throw")

// RollOffThrow is one player's five dice in the roll-off for first throw.
type RollOffThrow struct {
	Player PlayerID `json:"player"`
	Dice   []int    `json:"dice"`
}

// RollOff decides who throws first: every player rolls all five dice and
// the lowest total goes first; players tied for lowest roll off again among
// themselves. Within each pass players throw in seat order, so the throws
// form one sequence that can be validated and replayed.
type RollOff struct {
	pass   []PlayerID // who throws in the current pass, in seat order
	totals []int      // their totals so far in this pass
	first  PlayerID
}

// NewRollOff starts a roll-off among the seated players (in seat order).
func NewRollOff(seats []PlayerID) (*RollOff, error) {
	if err := checkSeats(seats); err != nil {
		return nil, err
	}
	return &RollOff{pass: append([]PlayerID(nil), seats...)}, nil
}

// Waiting is who must still throw in the current pass, in order; the first
// of them throws next. It is empty once the roll-off is decided.
func (ro *RollOff) Waiting() []PlayerID {
	return ro.pass[len(ro.totals):]
}

// First is the player who throws first, once decided.
func (ro *RollOff) First() (PlayerID, bool) {
	return ro.first, ro.first != 0
}

// Throw records one roll-off throw. On error nothing changes.
func (ro *RollOff) Throw(t RollOffThrow) error {
	if ro.first != 0 {
		return fmt.Errorf("%w: %s already throws first", ErrRollOff, ro.first)
	}
	if want := ro.pass[len(ro.totals)]; t.Player != want {
		return fmt.Errorf("%w: %s throws next in the roll-off, not %s", ErrRollOff, want, t.Player)
	}
	if len(t.Dice) != diceCount {
		return fmt.Errorf("%w: %s threw %s; the roll-off is all five dice: %w", ErrRollOff, t.Player, plural(len(t.Dice), "die"), ErrDiceCount)
	}
	if err := checkFaces(1, t.Dice); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrRollOff, t.Player, err)
	}
	ro.totals = append(ro.totals, sum(t.Dice))
	if len(ro.totals) < len(ro.pass) {
		return nil
	}
	low := ro.totals[0]
	for _, v := range ro.totals {
		low = min(low, v)
	}
	var again []PlayerID
	for i, v := range ro.totals {
		if v == low {
			again = append(again, ro.pass[i])
		}
	}
	ro.pass, ro.totals = again, nil
	if len(again) == 1 {
		ro.first = again[0]
	}
	return nil
}

// ResolveRollOff replays a whole roll-off and returns who throws first.
func ResolveRollOff(seats []PlayerID, throws []RollOffThrow) (PlayerID, error) {
	ro, err := NewRollOff(seats)
	if err != nil {
		return 0, err
	}
	for _, t := range throws {
		if err := ro.Throw(t); err != nil {
			return 0, err
		}
	}
	first, ok := ro.First()
	if !ok {
		return 0, fmt.Errorf("%w: not decided yet; waiting for %v", ErrRollOff, ro.Waiting())
	}
	return first, nil
}

// nextFirst is the seat that starts the round after a regular round that
// started at seat first and ended with res.
//
//   - rotate-left, and roll-off after the first round: one seat to the left,
//     the next seat in play order.
//   - rotate-right: the seat to the right of the previous first player.
//   - loser-first: the previous round's lowest scorer (the highest in a low
//     game); no score is lower than any score, and a tie goes to the one who
//     threw earliest in that round.
func nextFirst(rs Ruleset, seats []PlayerID, first int, res Result) int {
	n := len(seats)
	switch rs.Start {
	case StartRotateRight:
		return (first - 1 + n) % n
	case StartLoserFirst:
		loser := -1
		for i, s := range res.Scores {
			if loser < 0 || worse(rs, s, res.Scores[loser]) {
				loser = i
			}
		}
		if loser >= 0 {
			for i, p := range seats {
				if p == res.Scores[loser].Player {
					return i
				}
			}
		}
	}
	return (first + 1) % n
}

// worse reports whether a is strictly worse than b.
func worse(rs Ruleset, a, b PlayerScore) bool {
	switch {
	case a.Qualified != b.Qualified:
		return !a.Qualified
	case !a.Qualified:
		return false
	case rs.Low:
		return a.Score > b.Score
	}
	return a.Score < b.Score
}

// PlayOrder lists seats in the order they play, starting at player first
// and going on in seat order (to the left); a first player not among them
// starts from the first seat. Money shared out in play order (CloseOut)
// follows it.
func PlayOrder(seats []PlayerID, first PlayerID) []PlayerID {
	return playOrder(seats, max(slices.Index(seats, first), 0))
}

// playOrder lists the seats starting at first, clockwise.
func playOrder(seats []PlayerID, first int) []PlayerID {
	out := make([]PlayerID, 0, len(seats))
	out = append(out, seats[first:]...)
	return append(out, seats[:first]...)
}

// checkSeats rejects fewer than two players or repeated or empty ids.
func checkSeats(seats []PlayerID) error {
	return checkSetup(Ruleset{}, RoundSetup{Players: seats})
}
