package royale

import (
	"fmt"
	"strings"
)

// Apply judges one new action and, if it is allowed, applies it whole and
// says what it did; a refused action changes nothing. Every action but the
// host's abandon names its player, who must sit at the table; during play
// only the turn's player acts. Its cells and sonar line are read in their
// one spelling, whatever rules the game was set up under; an action taken
// before is replayed with Replay.
func (g *Game) Apply(a Action) (Outcome, error) { return g.apply(a, false) }

// apply is Apply, or with rules0 set Replay of an action Rules0 took.
func (g *Game) apply(a Action, rules0 bool) (Outcome, error) {
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
		return g.enter(i, a.Fleet, a.Salt, rules0)
	}
	if g.phase != PhasePlaying {
		return Outcome{}, fmt.Errorf("%w: play starts when every fleet is in", ErrPhase)
	}
	if i != g.cur {
		return Outcome{}, fmt.Errorf("%w: it is %s's turn, not %s's", ErrOutOfTurn, g.seats[g.cur].player, a.Player)
	}
	switch a.Kind {
	case ActSonar:
		return g.useSonar(i, a.Line, rules0)
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

// fieldNames are Action's optional fields, as JSON names them.
var fieldNames = []string{"discard", "fleet", "salt", "line", "die", "cells", "card"}

// actionFields lists, per kind, the fields of Action it takes (bits of
// fieldNames).
var actionFields = map[ActionKind]uint{
	ActKeep:    1<<0 | 1<<2,
	ActEnter:   1<<1 | 1<<2,
	ActSonar:   1 << 3,
	ActRoll:    1 << 4,
	ActShoot:   1 << 5,
	ActBonus:   1<<5 | 1<<6,
	ActEnd:     0,
	ActAbandon: 0,
}

// checkFields refuses an action of no known kind, or one carrying a field
// its kind does not take.
func checkFields(a Action) error {
	allowed, ok := actionFields[a.Kind]
	if !ok {
		return fmt.Errorf("%w: no action %q (keep, enter, sonar, roll, shoot, bonus, end, abandon)", ErrBadAction, a.Kind)
	}
	present := []bool{len(a.Discard) > 0, len(a.Fleet) > 0, len(a.Salt) > 0, a.Line != "", a.Die != 0, len(a.Cells) > 0, a.Card != 0}
	var extra []string
	for i, p := range present {
		if p && allowed&(1<<i) == 0 {
			extra = append(extra, fieldNames[i])
		}
	}
	if len(extra) > 0 {
		return fmt.Errorf("%w: %s takes no %s", ErrBadAction, a.Kind, strings.Join(extra, " or "))
	}
	return nil
}
