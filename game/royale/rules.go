package royale

import (
	"slices"
	"strings"

	"github.com/tally-dice/tally/game"
)

// This file is the rules' versions. A game is refereed to its end by the
// rules it was set up under (Setup.Rules), so that a game stored under
// earlier rules replays, and audits, exactly as it was decided; new games
// take CurrentRules.

// Rules is a version of Tally's rules of Battleship Royale, fixed in a
// game's Setup when it starts.
type Rules int

const (
	// Rules0 is the rules of the games set up before setups named their
	// rules: a setup stored without them reads as Rules0. Under them the
	// indivisible units of a pot handed back go one each in seat order;
	// and a sonar line was taken loosely (spaces around it: " j"), and an
	// advanced surface ship entered without its bonus number as bonus 0,
	// as their stored actions still are (Replay).
	Rules0 Rules = 0
	// Rules1 hands the indivisible units back in play order, from the
	// game's first player; its stored actions were all taken as Apply
	// takes new ones, and replay so.
	Rules1 Rules = 1
	// CurrentRules is the rules every new game is set up with.
	CurrentRules = Rules1
)

// ReturnOrder is the order in which the indivisible units of money handed
// back to the game's players go one each (game.CloseOut), for an abandoned
// game's pot and for the pot of a table closed after the game: play order
// (PlayOrder), or seat order under Rules0.
func (s Setup) ReturnOrder() []game.PlayerID {
	if s.Rules == Rules0 {
		return slices.Clone(s.Players)
	}
	return s.PlayOrder()
}

// Replay applies an action the game took before, as stored, the way the
// rules it was set up under took it: whatever Apply took then replays the
// same. Under Rules0 a sonar line is read as it was taken, with spaces
// around it and in either case (parseLineRules0), and an advanced surface
// ship entered without its bonus number is taken as bonus 0; otherwise
// Replay judges as Apply does. New input always goes to Apply, which reads
// it strictly whatever the game's rules.
func (g *Game) Replay(a Action) (Outcome, error) {
	return g.apply(a, g.setup.Rules == Rules0)
}

// parseLineRules0 reads a sonar line as Rules0 took it: trimmed of spaces
// and upper-cased, then in its one spelling (" j" is row J; "07" and "+7"
// are no line).
func parseLineRules0(s string) (Line, error) {
	return ParseLine(strings.ToUpper(strings.TrimSpace(s)))
}
