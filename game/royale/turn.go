package royale

import "fmt"

// This file is a turn (docs/royale.md §3): sonar, the roll, the die's shots
// (standard: one at a time; advanced: one volley), bonus shots, and done.

// turnState is the progress of the turn being played.
type turnState struct {
	die       int  // the turn's roll, 0 before it
	fired     int  // standard: the die's shots fired
	volley    bool // advanced: the die's volley fired
	sonarUsed bool // advanced: a sonar was used at the start of the turn
	pending   int  // advanced: sonars the last volley earned, usable right now
}

// roll records the turn's die value.
func (g *Game) roll(die int) (Outcome, error) {
	switch {
	case g.t.die != 0:
		return Outcome{}, fmt.Errorf("%w: the die was rolled this turn already (%d)", ErrSecondRoll, g.t.die)
	case die == 0:
		return Outcome{}, fmt.Errorf("%w: the die's value is missing: send what it shows, 1, 2 or 3", ErrDie)
	case die < 1 || die > 3:
		return Outcome{}, fmt.Errorf("%w: the die shows 1, 2 or 3, not %d", ErrDie, die)
	}
	g.t.die, g.t.pending = die, 0
	return Outcome{Die: die}, nil
}

// shoot fires the die's shots: in the standard game one cell, in the
// advanced game the whole volley of Die cells (all cells left if fewer).
func (g *Game) shoot(i int, cells []Cell) (Outcome, error) {
	if g.t.die == 0 {
		return Outcome{}, fmt.Errorf("%w: the die's shots come after the turn's roll", ErrRollFirst)
	}
	want := 1
	if g.opts.Mode == Standard {
		if g.t.fired >= g.t.die {
			return Outcome{}, fmt.Errorf("%w: the die's %d shots are fired%s", ErrTooManyShots, g.t.die, g.bonusHint(i))
		}
	} else {
		if g.t.volley {
			return Outcome{}, fmt.Errorf("%w: the die's volley is fired%s", ErrTooManyShots, g.bonusHint(i))
		}
		want = min(g.t.die, g.unshot)
	}
	what := "the die's volley"
	if g.opts.Mode == Standard {
		what = "a shot, called one at a time,"
	}
	if err := g.checkCells(cells, want, what); err != nil {
		return Outcome{}, err
	}
	if g.opts.Mode == Standard {
		g.t.fired++
	} else {
		g.t.volley = true
	}
	return g.fire(cells), nil
}

// bonusHint tells a player out of die shots about their bonus shots.
func (g *Game) bonusHint(i int) string {
	if g.bonusShots(i) > 0 {
		return "; use a bonus shot"
	}
	return ""
}

// bonus fires a bonus: in the standard game one cell for one unused bonus
// shot; in the advanced game one unused ship trophy's whole volley.
func (g *Game) bonus(i int, cells []Cell, card int) (Outcome, error) {
	if g.t.die == 0 {
		return Outcome{}, fmt.Errorf("%w: bonus shots come after the turn's roll", ErrRollFirst)
	}
	s := &g.seats[i]
	k := -1
	if g.opts.Mode == Advanced && card != 0 {
		if card < 0 || card > len(s.trophies) {
			return Outcome{}, fmt.Errorf("%w: no trophy %d (player %s has %d)", ErrBadAction, card, s.player, len(s.trophies))
		}
		k = card - 1
		switch tr := s.trophies[k]; {
		case tr.Shots == 0:
			return Outcome{}, fmt.Errorf("%w: trophy %d is a submarine: it gives sonar, not shots", ErrTooManyShots, card)
		case tr.Used:
			return Outcome{}, fmt.Errorf("%w: trophy %d's bonus is used", ErrTooManyShots, card)
		}
	} else {
		for j, tr := range s.trophies {
			if !tr.Used && tr.Shots > 0 {
				k = j
				break
			}
		}
		if k < 0 {
			return Outcome{}, fmt.Errorf("%w: player %s has no bonus shot (one comes with each card they sink)", ErrTooManyShots, s.player)
		}
	}
	want, what := 1, "a bonus shot"
	if g.opts.Mode == Advanced {
		want, what = min(s.trophies[k].Shots, g.unshot), fmt.Sprintf("trophy %d's bonus volley", k+1)
	}
	if err := g.checkCells(cells, want, what); err != nil {
		return Outcome{}, err
	}
	s.trophies[k].Used = true
	return g.fire(cells), nil
}

// checkCells refuses a shot or volley that is not want distinct cells of
// the board nobody has shot; what names it for the refusal.
func (g *Game) checkCells(cells []Cell, want int, what string) error {
	switch {
	case len(cells) > want:
		return fmt.Errorf("%w: %s is %s, and %d were sent", ErrTooManyShots, what, countCells(want), len(cells))
	case len(cells) < want:
		return fmt.Errorf("%w: %s is %s, and %d were sent", ErrTooFewShots, what, countCells(want), len(cells))
	}
	for k, x := range cells {
		if !x.OnBoard() {
			return fmt.Errorf("%w: %s is off the board", ErrCell, x)
		}
		if g.board[index(x)] != unshotPeg {
			return fmt.Errorf("%w: %s was shot already", ErrShot, x)
		}
		for _, y := range cells[:k] {
			if y == x {
				return fmt.Errorf("%w: %s is named twice", ErrShot, x)
			}
		}
	}
	return nil
}

// countCells writes n cells: "1 cell", "3 cells".
func countCells(n int) string {
	if n == 1 {
		return "1 cell"
	}
	return fmt.Sprintf("%d cells", n)
}

// end is the turn's player saying done: the turn passes.
func (g *Game) end() (Outcome, error) {
	if g.unshot > 0 {
		switch {
		case g.t.die == 0:
			return Outcome{}, fmt.Errorf("%w: roll the die and fire its shots first", ErrNotDone)
		case g.opts.Mode == Standard && g.t.fired < g.t.die:
			return Outcome{}, fmt.Errorf("%w: %d of the die's shots left to fire", ErrNotDone, g.t.die-g.t.fired)
		case g.opts.Mode == Advanced && !g.t.volley:
			return Outcome{}, fmt.Errorf("%w: fire the die's volley first", ErrNotDone)
		}
	}
	g.pass()
	return Outcome{}, nil
}

// pass gives the turn to the next player in seat order still afloat.
func (g *Game) pass() {
	for k := 1; k <= len(g.seats); k++ {
		if j := (g.cur + k) % len(g.seats); !g.seats[j].eliminated {
			g.cur = j
			break
		}
	}
	g.t = turnState{}
}

// useSonar answers a sonar on a row or column (advanced game); with rules0
// set the line is read as Rules0 took it.
func (g *Game) useSonar(i int, line string, rules0 bool) (Outcome, error) {
	if g.opts.Mode != Advanced {
		return Outcome{}, fmt.Errorf("%w: the standard game has no sonar", ErrSonar)
	}
	parse := ParseLine
	if rules0 {
		parse = parseLineRules0
	}
	on, err := parse(line)
	if err != nil {
		return Outcome{}, err
	}
	switch {
	case g.sonars(i) == 0:
		return Outcome{}, fmt.Errorf("%w: player %s has no sonar left (the base sonar is used or the submarine sunk)", ErrSonar, g.seats[i].player)
	case g.t.pending > 0:
	case g.t.die != 0:
		return Outcome{}, fmt.Errorf("%w: sonar comes at the start of a turn, before the roll, or right after sinking a submarine", ErrSonar)
	case g.t.sonarUsed:
		return Outcome{}, fmt.Errorf("%w: one sonar at the start of a turn", ErrSonar)
	}
	s := &g.seats[i]
	trophy := func() bool {
		for j := range s.trophies {
			if tr := &s.trophies[j]; tr.Sonar && !tr.Used {
				tr.Used = true
				return true
			}
		}
		return false
	}
	switch {
	case g.t.pending > 0 && trophy():
		// Right after the volley that sank a submarine, the sonar used is
		// that submarine's: the base sonar stays, to be lost if the
		// player's own submarine sinks.
	case s.baseSonar && g.subAfloat(i):
		s.baseSonar = false
	default:
		trophy()
	}
	if g.t.pending > 0 {
		g.t.pending--
	} else {
		g.t.sonarUsed = true
	}
	ping := g.ping(on)
	g.sonar = append(g.sonar, SonarCall{Player: s.player, Line: on.String(), Ping: ping})
	return Outcome{Ping: &ping}, nil
}

// ping reports whether any card afloat, anyone's, has a cell on the line.
func (g *Game) ping(on Line) bool {
	for _, s := range g.seats {
		for j, c := range s.fleet {
			if s.sunk[j] {
				continue
			}
			for _, x := range c.Cells {
				if on.Holds(x) {
					return true
				}
			}
		}
	}
	return false
}

// sonars counts the sonars seat i may still use: the base sonar while
// their submarine is afloat, and one per submarine they sank.
func (g *Game) sonars(i int) int {
	s := &g.seats[i]
	if g.opts.Mode != Advanced || s.eliminated || s.fleet == nil {
		return 0
	}
	n := 0
	if s.baseSonar && g.subAfloat(i) {
		n++
	}
	for _, tr := range s.trophies {
		if tr.Sonar && !tr.Used {
			n++
		}
	}
	return n
}

// subAfloat reports whether seat i's submarine is afloat.
func (g *Game) subAfloat(i int) bool {
	s := &g.seats[i]
	for j, c := range s.fleet {
		if c.Kind == Submarine && !s.sunk[j] {
			return true
		}
	}
	return false
}

// bonusShots counts seat i's unused bonus shots (0 once eliminated).
func (g *Game) bonusShots(i int) int {
	s := &g.seats[i]
	if s.eliminated {
		return 0
	}
	n := 0
	for _, tr := range s.trophies {
		if !tr.Used {
			n += tr.Shots
		}
	}
	return n
}

// canSonar reports whether the turn's player may use sonar now.
func (g *Game) canSonar() bool {
	if g.phase != PhasePlaying || g.sonars(g.cur) == 0 {
		return false
	}
	return g.t.pending > 0 || (g.t.die == 0 && !g.t.sonarUsed)
}
