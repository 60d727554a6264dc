package royale

import (
	"fmt"
	"slices"
	"strings"
)

// Apply judges one action and, if it is allowed, applies it whole and says
// what it did; a refused action changes nothing. Every action but the
// host's abandon names its player, who must sit at the table; during play
// only the turn's player acts.
func (g *Game) Apply(a Action) (Outcome, error) {
	if g.phase == PhaseOver {
		return Outcome{}, fmt.Errorf("%w: no more %s", ErrGameOver, orAction(a.Kind))
	}
	if err := checkFields(a); err != nil {
		return Outcome{}, err
	}
	if a.Kind == ActAbandon {
		if a.Player != 0 {
			return Outcome{}, fmt.Errorf("%w: only the host abandons a game (player 0, not %s)", ErrBadAction, a.Player)
		}
		return g.abandon(), nil
	}
	i := g.seatOf(a.Player)
	if i < 0 {
		return Outcome{}, fmt.Errorf("%w: player %s", ErrUnknownPlayer, a.Player)
	}
	if a.Kind == ActKeep || a.Kind == ActEnter {
		if g.phase != PhaseFleets {
			return Outcome{}, fmt.Errorf("%w: play has started, every fleet is fixed", ErrPhase)
		}
		if a.Kind == ActKeep {
			return g.keep(i, a.Discard, a.Salt)
		}
		return g.enter(i, a.Fleet, a.Salt)
	}
	if g.phase != PhasePlaying {
		return Outcome{}, fmt.Errorf("%w: play starts when every fleet is in", ErrPhase)
	}
	if i != g.cur {
		return Outcome{}, fmt.Errorf("%w: it is %s's turn, not %s's", ErrOutOfTurn, g.seats[g.cur].player, a.Player)
	}
	switch a.Kind {
	case ActSonar:
		return g.useSonar(i, a.Line)
	case ActRoll:
		return g.roll(a.Die)
	case ActShoot:
		return g.shoot(i, a.Cells)
	case ActBonus:
		return g.bonus(i, a.Cells, a.Card)
	}
	return g.end()
}

// orAction names an action kind for a refusal, "action" when it has none.
func orAction(k ActionKind) string {
	if k == "" {
		return "action"
	}
	return string(k)
}

// actionFields lists, per kind, the fields of Action it takes.
var actionFields = map[ActionKind][]string{
	ActKeep:    {"discard", "salt"},
	ActEnter:   {"fleet", "salt"},
	ActSonar:   {"line"},
	ActRoll:    {"die"},
	ActShoot:   {"cells"},
	ActBonus:   {"cells", "card"},
	ActEnd:     {},
	ActAbandon: {},
}

// checkFields refuses an action of no known kind, or one carrying a field
// its kind does not take.
func checkFields(a Action) error {
	allowed, ok := actionFields[a.Kind]
	if !ok {
		return fmt.Errorf("%w: no action %q (keep, enter, sonar, roll, shoot, bonus, end, abandon)", ErrBadAction, a.Kind)
	}
	present := map[string]bool{
		"discard": len(a.Discard) > 0, "fleet": len(a.Fleet) > 0, "salt": len(a.Salt) > 0,
		"line": a.Line != "", "die": a.Die != 0, "cells": len(a.Cells) > 0, "card": a.Card != 0,
	}
	var extra []string
	for _, f := range []string{"discard", "fleet", "salt", "line", "die", "cells", "card"} {
		if present[f] && !slices.Contains(allowed, f) {
			extra = append(extra, f)
		}
	}
	if len(extra) > 0 {
		return fmt.Errorf("%w: %s takes no %s", ErrBadAction, a.Kind, strings.Join(extra, " or "))
	}
	return nil
}
