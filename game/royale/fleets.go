package royale

import (
	"fmt"
	"slices"
)

// This file is the fleets phase (docs/royale.md §2): each player keeps cards
// of the hand Tally dealt, or enters the cards they hold, with a salt for
// the fleet's commitment; play starts when the last fleet is in.

// keep takes a dealt hand less its two discards as seat i's fleet.
func (g *Game) keep(i int, discard []int, salt []byte) (Outcome, error) {
	s := &g.seats[i]
	if g.opts.Fleet != Dealt {
		return Outcome{}, fmt.Errorf("%w: this table's fleets are entered, not dealt: enter your cards", ErrBadAction)
	}
	if s.fleet != nil {
		return Outcome{}, fmt.Errorf("%w: player %s has already kept a fleet", ErrPhase, s.player)
	}
	if len(discard) != 2 {
		return Outcome{}, fmt.Errorf("%w: discard exactly 2 cards, not %d", ErrDiscard, len(discard))
	}
	for _, d := range discard {
		if d < 0 || d >= len(s.hand) {
			return Outcome{}, fmt.Errorf("%w: no card %d in a hand of %d (number them from 0)", ErrDiscard, d, len(s.hand))
		}
		if g.opts.Mode == Advanced && s.hand[d].Kind == Submarine {
			return Outcome{}, fmt.Errorf("%w: card %d is the submarine, which is always kept", ErrDiscard, d)
		}
	}
	if discard[0] == discard[1] {
		return Outcome{}, fmt.Errorf("%w: card %d discarded twice", ErrDiscard, discard[0])
	}
	if err := checkSalt(salt); err != nil {
		return Outcome{}, err
	}
	var fleet Fleet
	for j, c := range s.hand {
		if !slices.Contains(discard, j) {
			fleet = append(fleet, c)
		}
	}
	return g.ready(i, cloneFleet(fleet), salt), nil
}

// enter takes the cards a player typed in as seat i's fleet: in the
// standard game KeepSize cards of any kinds without bonus numbers; in the
// advanced game one submarine, with its printed bonus number or none, and
// KeepSize-1 surface ships, each with its printed bonus number (replaying
// Rules0, which took one left out as 0, with it or not).
func (g *Game) enter(i int, f Fleet, salt []byte, rules0 bool) (Outcome, error) {
	s := &g.seats[i]
	if g.opts.Fleet != Entered {
		return Outcome{}, fmt.Errorf("%w: this table's fleets are dealt: keep cards of your hand", ErrBadAction)
	}
	if s.fleet != nil {
		return Outcome{}, fmt.Errorf("%w: player %s has already entered a fleet", ErrPhase, s.player)
	}
	if err := g.checkEntered(f, rules0); err != nil {
		return Outcome{}, err
	}
	if err := checkSalt(salt); err != nil {
		return Outcome{}, err
	}
	return g.ready(i, cloneFleet(f), salt), nil
}

// checkEntered refuses an entered fleet of the wrong cards for the game;
// with rules0 set, a surface ship without its bonus number is taken, as
// Rules0 took it.
func (g *Game) checkEntered(f Fleet, rules0 bool) error {
	n := KeepSize(g.opts.Mode, len(g.seats))
	if len(f) != n {
		return fmt.Errorf("%w: enter %d cards, not %d", ErrFleet, n, len(f))
	}
	if err := f.Check(); err != nil {
		return err
	}
	for j, c := range f {
		switch {
		case g.opts.Mode == Standard && c.Bonus != 0:
			return fmt.Errorf("card %d: %w: a standard card has no bonus number (%d given)", j+1, ErrCard, c.Bonus)
		case g.opts.Mode == Advanced && c.Kind != Submarine && c.Bonus == 0 && !rules0:
			// Sinking it earns its bonus number of shots: a number left
			// out would silently earn none.
			return fmt.Errorf("card %d: %w: the %s's bonus number is missing: enter the number printed on the card, 1 to %d",
				j+1, ErrCard, c.Kind, maxBonus)
		}
	}
	if subs := countKind(f, Submarine); g.opts.Mode == Advanced && subs != 1 {
		return fmt.Errorf("%w: an advanced fleet holds exactly 1 submarine, not %d", ErrFleet, subs)
	}
	return nil
}

// checkSalt refuses a salt of the wrong size.
func checkSalt(salt []byte) error {
	if len(salt) != SaltSize {
		return fmt.Errorf("%w: the salt is %d bytes, not %d", ErrBadAction, len(salt), SaltSize)
	}
	return nil
}

// ready records seat i's fleet and starts play once every fleet is in.
func (g *Game) ready(i int, f Fleet, salt []byte) Outcome {
	s := &g.seats[i]
	s.fleet, s.salt = f, slices.Clone(salt)
	s.left = make([]int, len(f))
	s.sunk = make([]bool, len(f))
	for j, c := range f {
		s.left[j] = len(c.Cells)
	}
	s.afloat = len(f)
	if !g.started() {
		return Outcome{}
	}
	for si := range g.seats {
		st := &g.seats[si]
		st.commit = st.fleet.Commitment(st.salt)
		for ci, c := range st.fleet {
			for _, x := range c.Cells {
				g.covers[index(x)] = append(g.covers[index(x)], ref{si, ci})
			}
		}
	}
	g.phase = PhasePlaying
	g.cur = g.seatOf(g.setup.First)
	g.t = turnState{}
	return Outcome{Started: true}
}

// index is a cell's place in board order.
func index(x Cell) int { return x.Row*Size + x.Col }
