package royale

import "github.com/tally-dice/tally/game"

// This file resolves shots (docs/royale.md §3 and 4): hits on every card afloat
// under a cell, sinking, trophies and bounties, elimination and the end.

// Outcome is what one accepted action did: all public except Hand/Fleet never appear here.
type Outcome struct {
	Die        int             `json:"die,omitempty"`
	Ping       *bool           `json:"ping,omitempty"` // sonar
	Shots      []Shot          `json:"shots,omitempty"`
	Sunk       []Sinking       `json:"sunk,omitempty"`
	Eliminated []game.PlayerID `json:"eliminated,omitempty"`
	Bounties   []game.Payment  `json:"bounties,omitempty"` // owner pays shooter Options.Bounty per sunk card (none for your own card)
	Started    bool            `json:"started,omitempty"`  // this action completed the last fleet: play begins (commitments now fixed)
	Result     *Result         `json:"result,omitempty"`   // the game ended with this action
}

// Shot is one cell fired at and how many cards afloat it hit there: 0 a
// miss, 2 a double hit.
type Shot struct {
	Cell Cell `json:"cell"`
	Hits int  `json:"hits"`
}

// Sinking is one card sunk: whose it was, the card (its cells now
// public), who sank it and what it earned them.
type Sinking struct {
	Owner   game.PlayerID `json:"owner"`
	Card    Card          `json:"card"` // cells now public
	Shooter game.PlayerID `json:"shooter"`
	Shots   int           `json:"shots"` // bonus shots earned: standard 1; advanced the card's Bonus (0 for a submarine)
	Sonar   bool          `json:"sonar"` // advanced: a submarine earns a sonar
}

// fire resolves the turn's player's shot or volley, whose cells are
// checked: every cell is marked, the cards whose last cell it was sink,
// players left without a card afloat are eliminated, and the game ends
// when at most one player has a card afloat.
func (g *Game) fire(cells []Cell) Outcome {
	shooter := g.cur
	var o Outcome
	o.Shots = make([]Shot, len(cells))
	for k, x := range cells {
		at := index(x)
		g.board[at] = int8(len(g.covers[at]))
		g.unshot--
		for _, r := range g.covers[at] {
			g.seats[r.seat].left[r.card]--
		}
		o.Shots[k] = Shot{Cell: x, Hits: len(g.covers[at])}
	}
	g.t.pending = 0
	for si := range g.seats {
		s := &g.seats[si]
		for ci := range s.fleet {
			if s.sunk[ci] || s.left[ci] > 0 {
				continue
			}
			sk := g.sink(si, ci, shooter)
			o.Sunk = append(o.Sunk, sk)
			if sk.Sonar {
				g.t.pending++
			}
			if g.opts.Bounty > 0 && si != shooter {
				o.Bounties = append(o.Bounties, game.Payment{From: s.player, To: sk.Shooter, Amount: g.opts.Bounty})
			}
		}
	}
	for si := range g.seats {
		if s := &g.seats[si]; !s.eliminated && s.afloat == 0 {
			s.eliminated = true
			o.Eliminated = append(o.Eliminated, s.player)
		}
	}
	var left []game.PlayerID
	for _, s := range g.seats {
		if !s.eliminated {
			left = append(left, s.player)
		}
	}
	switch {
	case len(left) == 1:
		o.Result = g.finish(left)
	case len(left) == 0:
		o.Result = g.finish(o.Eliminated)
	case g.seats[shooter].eliminated:
		g.pass()
	}
	return o
}

// sink sinks card ci of seat si, shot by seat shooter, who takes it as a
// trophy.
func (g *Game) sink(si, ci, shooter int) Sinking {
	s := &g.seats[si]
	s.sunk[ci] = true
	s.afloat--
	c := s.fleet[ci]
	sk := Sinking{Owner: s.player, Card: cloneFleet(Fleet{c})[0], Shooter: g.seats[shooter].player, Shots: 1}
	if g.opts.Mode == Advanced {
		sk.Shots, sk.Sonar = c.Bonus, c.Kind == Submarine
		if sk.Sonar {
			sk.Shots = 0
		}
	}
	g.sunk = append(g.sunk, sk)
	g.seats[shooter].trophies = append(g.seats[shooter].trophies,
		Trophy{Owner: s.player, Kind: c.Kind, Shots: sk.Shots, Sonar: sk.Sonar})
	return sk
}
