package game

import (
	"errors"
	"fmt"
	"slices"
)

// This file is a table's sequence of rounds: who starts each round, the
// progressive declarer, the pot carried from round to round and who antes.
// Scarne's game of rounds, which ends, is in scarne.go.

// The ways a game refuses a request.
var (
	ErrGameOver       = errors.New("the game is over")
	ErrNoRoundPending = errors.New("no round is being played")
	ErrResultMismatch = errors.New("the result is not of the round being played")
)

// Game produces each next RoundSetup of a table from the results of the
// rounds before it. Like a Round it is deterministic: the same seats, first
// player and results always give the same setups.
type Game struct {
	rs       Ruleset
	seats    []PlayerID // clockwise
	first    int        // seat that starts the next regular round
	declarer int        // seat that declares in the next progressive round
	pot      int64
	ante     bool       // whether the next regular round antes
	playoff  []PlayerID // players of a pending playoff, in play order
	pending  *RoundSetup
	rounds   int     // regular rounds played
	totals   []int64 // per seat, in a game of rounds
	over     bool
	winner   PlayerID
}

// NewGame starts a table's game. Seats are the players clockwise; first is
// who throws first in the first round: the roll-off winner under roll-off
// (required), otherwise the first seat when 0.
func NewGame(rs Ruleset, seats []PlayerID, first PlayerID) (*Game, error) {
	if err := checkSeats(seats); err != nil {
		return nil, err
	}
	if first == 0 && rs.Start == StartRollOff {
		return nil, fmt.Errorf("%w: under roll-off, the roll-off decides who goes first", ErrBadSetup)
	}
	f := 0
	if first != 0 {
		if f = slices.Index(seats, first); f < 0 {
			return nil, fmt.Errorf("%w: first player %q is not seated", ErrBadSetup, first)
		}
	}
	return &Game{rs: rs, seats: slices.Clone(seats), first: f, declarer: f, ante: true,
		totals: make([]int64, len(seats))}, nil
}

// NextRound is the setup of the next round. Under a progressive pot the
// declarer is named and the caller fills in Declared (the declarer's call)
// before NewRound. Asking again before Record returns the same setup.
func (g *Game) NextRound() (RoundSetup, error) {
	if g.over {
		return RoundSetup{}, fmt.Errorf("%w: %s won", ErrGameOver, g.winner)
	}
	if g.pending != nil {
		return cloneSetup(*g.pending), nil
	}
	s := RoundSetup{CarriedPot: g.pot}
	if len(g.playoff) > 0 {
		// Only the tied players play; nobody antes, the pot waits for them.
		s.Players, s.Playoff = slices.Clone(g.playoff), true
	} else {
		s.Players = playOrder(g.seats, g.first)
		s.Ante = g.ante
		if g.rs.Progressive {
			s.Declarer = g.seats[g.declarer]
		}
	}
	g.pending = &s
	return cloneSetup(s), nil
}

// Record takes the result of the round NextRound set up and moves the table
// on: the pot carries, the start rotates, and a game of rounds adds up.
func (g *Game) Record(res Result) error {
	if g.pending == nil {
		return ErrNoRoundPending
	}
	s := *g.pending
	if len(res.Scores) != len(s.Players) {
		return fmt.Errorf("%w: %d scores for %d players", ErrResultMismatch, len(res.Scores), len(s.Players))
	}
	for i, sc := range res.Scores {
		if sc.Player != s.Players[i] {
			return fmt.Errorf("%w: score %d is %s's, expected %s's", ErrResultMismatch, i+1, sc.Player, s.Players[i])
		}
	}
	g.pending = nil
	g.pot = res.Settlement.CarryOver
	if g.rs.Goal.Kind != GoalRound {
		g.recordScarne(s, res)
		return nil
	}
	g.playoff = nil
	if res.Kind == ResultPlayoff {
		g.playoff = slices.Clone(res.Playoff)
	}
	if s.Playoff {
		// A playoff replays the round it settles: the rotation stays put.
		g.ante = true
		return nil
	}
	g.first = nextFirst(g.rs, g.seats, g.first, res)
	g.declarer = (g.declarer + 1) % len(g.seats)
	g.rounds++
	// Everyone antes every round of a progressive pot; otherwise a round
	// replayed after a tie re-antes only with reante-on-tie.
	g.ante = g.rs.Progressive || !res.Carried() || g.rs.ReanteOnTie
	return nil
}

// Pot is what the table's pot holds between rounds. Once a game of rounds
// is won it holds nothing: the winner took it (Result pays it out).
func (g *Game) Pot() int64 {
	if g.over {
		return 0
	}
	return g.pot
}

// Over reports whether a game of rounds has been won.
func (g *Game) Over() bool { return g.over }

// Begun reports whether a round of the game has been recorded (or a
// playoff is owed): from then on a game of rounds keeps its players.
func (g *Game) Begun() bool { return g.rounds > 0 || len(g.playoff) > 0 }

func cloneSetup(s RoundSetup) RoundSetup {
	s.Players = slices.Clone(s.Players)
	return s
}

// CloseOut returns the money left in a closing table's pot to the players of
// its last round equally; leftover units go one each to those players in
// play order (docs/rules.md §6).
func CloseOut(pot int64, lastRoundPlayers []PlayerID) []Amount {
	if pot <= 0 || len(lastRoundPlayers) == 0 {
		return nil
	}
	var out []Amount
	for i, amt := range Shares(pot, len(lastRoundPlayers)) {
		if amt > 0 {
			out = append(out, Amount{lastRoundPlayers[i], amt})
		}
	}
	return out
}

// Shares divides total among n in whole units: total/n each, and the
// leftover units one each to the first total%n, in order. It is how money
// that must all be handed out is shared (docs/rules.md §6), by the engine and by
// the ledger alike.
func Shares(total int64, n int) []int64 {
	shares := make([]int64, n)
	base, left := total/int64(n), total%int64(n)
	for i := range shares {
		shares[i] = base
		if int64(i) < left {
			shares[i]++
		}
	}
	return shares
}
