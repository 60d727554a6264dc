package stats

import (
	"errors"
	"fmt"
	"time"

	"github.com/tally-dice/tally/game"
)

// Member is a crew member's id. It is what ties one person's rounds together
// across the nights and tables of a crew, whatever their player id at each
// table was.
type Member int64

// Person is a member of the crew as the figures name them.
type Person struct {
	ID   Member `json:"id"`
	Name string `json:"name"`
}

// History is everything the figures are computed from: the crew's members
// and the nights they played. Members lists everyone on the crew, so that a
// member who never played still has a line in the season table; a member
// found in the nights but not listed is added, unnamed.
type History struct {
	Members []Person `json:"members"`
	Nights  []Night  `json:"nights"`
}

// Night is one closed table of the crew: its rounds as the engine judged
// them and what each member took home.
type Night struct {
	Table int64  `json:"table"`
	Name  string `json:"name"`
	// Played is when the table closed; nights are taken in this order.
	Played time.Time `json:"played"`
	// Preset is the ruleset preset's name ("bar", "classic", ...).
	Preset string `json:"preset"`
	// Low says the lowest qualified score won (the table's low option); it
	// decides who beat whom between two scores.
	Low    bool    `json:"low,omitempty"`
	Rounds []Round `json:"rounds"`
	// Net is each member's closing balance that night: what rolled into the
	// crew's books. It is taken as given, never recomputed from the rounds.
	Net map[Member]int64 `json:"net"`
}

// Round is one finished round, filled from the engine's game.Result and the
// turns' game.Outcome.
type Round struct {
	Number int `json:"number"`
	// Scores are the players of the round in play order (game.Result.Scores):
	// a member played the round exactly when they have a score here.
	Scores []Score `json:"scores"`
	// Winners are game.Result.Winners: the winner, or each of the tied
	// winners of a split. A playoff or a carried tie has none.
	Winners []Member        `json:"winners"`
	Kind    game.ResultKind `json:"kind"`
	// Pot is the pot the round was played for (Settlement.PotBefore).
	Pot int64 `json:"pot"`
	// Payouts is what each member took out of the pot (Settlement.Payouts).
	Payouts map[Member]int64 `json:"payouts,omitempty"`
	Throws  []Throw          `json:"throws"`
}

// Score is one member's result in a round (game.PlayerScore). A score of 0
// without Qualified is no score, which is not a score of 0.
type Score struct {
	Member    Member `json:"member"`
	Qualified bool   `json:"qualified"`
	Score     int    `json:"score"`
	Automatic bool   `json:"automatic,omitempty"`
	Forfeited bool   `json:"forfeited,omitempty"`
}

// Throw is the dice one member physically threw at once: each face once.
// A first throw of five dice has five faces; a later throw only the dice
// thrown again (game.Roll.Dice). Banked dice stay on the table and are not
// thrown again, so they must not be listed again, or the fairness test
// would count the same die twice.
type Throw struct {
	Member Member `json:"member"`
	Faces  []int  `json:"faces"`
}

// ErrBadHistory is returned by Compute for a history it cannot count: a
// face that is not 1 to 6, a member id of 0, or a member listed twice.
var ErrBadHistory = errors.New("invalid crew history")

// check rejects a history that would make the figures meaningless.
func (h History) check() error {
	seen := map[Member]bool{}
	for _, p := range h.Members {
		switch {
		case p.ID == 0:
			return fmt.Errorf("%w: member %q has id 0", ErrBadHistory, p.Name)
		case seen[p.ID]:
			return fmt.Errorf("%w: member %d is listed twice", ErrBadHistory, p.ID)
		}
		seen[p.ID] = true
	}
	for _, n := range h.Nights {
		if _, ok := n.Net[0]; ok {
			return fmt.Errorf("%w: table %d has a net for member 0", ErrBadHistory, n.Table)
		}
		for _, r := range n.Rounds {
			for _, s := range r.Scores {
				if s.Member == 0 {
					return fmt.Errorf("%w: table %d round %d scores member 0", ErrBadHistory, n.Table, r.Number)
				}
			}
			for _, t := range r.Throws {
				if t.Member == 0 {
					return fmt.Errorf("%w: table %d round %d has a throw by member 0", ErrBadHistory, n.Table, r.Number)
				}
				for _, f := range t.Faces {
					if f < 1 || f > 6 {
						return fmt.Errorf("%w: table %d round %d: member %d threw a %d", ErrBadHistory, n.Table, r.Number, t.Member, f)
					}
				}
			}
		}
	}
	return nil
}
