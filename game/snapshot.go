package game

import (
	"fmt"
	"slices"
)

// GameState is everything a Game carries from one round to the next: who
// sits where, who starts and declares next, the pot, whether the next round
// antes, a pending playoff and a game of rounds' totals. A table stores it
// with each round so that it can resume its game without replaying every
// round before; the audit still replays them all and compares.
type GameState struct {
	Seats    []PlayerID `json:"seats"`
	First    int        `json:"first"`
	Declarer int        `json:"declarer"`
	Pot      int64      `json:"pot"`
	Ante     bool       `json:"ante"`
	Playoff  []PlayerID `json:"playoff,omitempty"`
	Rounds   int        `json:"rounds"`
	Totals   []int64    `json:"totals"`
	Over     bool       `json:"over,omitempty"`
	Winner   PlayerID   `json:"winner,omitempty"`
}

// Snapshot is the game's state between rounds. It refuses while a round
// set up by NextRound has not been recorded.
func (g *Game) Snapshot() (GameState, error) {
	if g.pending != nil {
		return GameState{}, fmt.Errorf("%w: a round is being played", ErrBadSetup)
	}
	return GameState{Seats: slices.Clone(g.seats), First: g.first, Declarer: g.declarer, Pot: g.pot, Ante: g.ante,
		Playoff: slices.Clone(g.playoff), Rounds: g.rounds, Totals: slices.Clone(g.totals), Over: g.over,
		Winner: g.winner}, nil
}

// ResumeGame rebuilds a game from a Snapshot, checking that the state is one
// a game could be in.
func ResumeGame(rs Ruleset, s GameState) (*Game, error) {
	if err := checkSeats(s.Seats); err != nil {
		return nil, err
	}
	n := len(s.Seats)
	switch {
	case s.First < 0 || s.First >= n || s.Declarer < 0 || s.Declarer >= n:
		return nil, fmt.Errorf("%w: first seat %d or declarer %d outside %d seats", ErrBadSetup, s.First, s.Declarer, n)
	case len(s.Totals) != n:
		return nil, fmt.Errorf("%w: %d totals for %d seats", ErrBadSetup, len(s.Totals), n)
	case s.Pot < 0 || s.Rounds < 0:
		return nil, fmt.Errorf("%w: negative pot or round count", ErrBadSetup)
	case s.Over != (s.Winner != 0) || (s.Winner != 0 && !slices.Contains(s.Seats, s.Winner)):
		return nil, fmt.Errorf("%w: winner %d does not fit", ErrBadSetup, s.Winner)
	}
	for _, p := range s.Playoff {
		if !slices.Contains(s.Seats, p) {
			return nil, fmt.Errorf("%w: playoff player %d is not seated", ErrBadSetup, p)
		}
	}
	return &Game{rs: rs, seats: slices.Clone(s.Seats), first: s.First, declarer: s.Declarer, pot: s.Pot, ante: s.Ante,
		playoff: slices.Clone(s.Playoff), rounds: s.Rounds, totals: slices.Clone(s.Totals), over: s.Over,
		winner: s.Winner}, nil
}
