package table

import (
	"fmt"

	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/royale"
)

// This file reads a Battleship Royale action as the API receives it.

// RoyaleActionInput is one action as the API receives it. The player is
// the caller's own for a player token; the host names whose action it is.
type RoyaleActionInput struct {
	Player  game.PlayerID     `json:"player,omitempty"`
	Kind    royale.ActionKind `json:"kind"`
	Discard []int             `json:"discard,omitempty"`
	Fleet   []CardInput       `json:"fleet,omitempty"`
	Line    string            `json:"line,omitempty"`
	Die     int               `json:"die,omitempty"`
	Cells   []string          `json:"cells,omitempty"`
	Card    int               `json:"card,omitempty"`
	// Seen, when sent, is how many actions the game had recorded (its
	// view's actions) when the phone drew what was tapped: the action is
	// refused if the game has recorded one since that it could clash
	// with (seenRoyale).
	Seen *uint `json:"seen,omitempty"`
}

// CardInput is a ship card as a player types it: its cells are read here,
// in their one spelling (royale.ParseCell).
type CardInput struct {
	Kind  royale.Kind `json:"kind"`
	Cells []string    `json:"cells"`
	Bonus int         `json:"bonus,omitempty"`
}

// action is the input as the engine's action, its cells and sonar line read
// in their one spelling and written in it (upper case), as the action is
// stored and its event tells it. A misspelt one is refused naming its field
// (royale.ErrCell, royale.ErrLine).
func (in RoyaleActionInput) action() (royale.Action, error) {
	act := royale.Action{Player: in.Player, Kind: in.Kind, Discard: in.Discard, Die: in.Die, Card: in.Card}
	if in.Line != "" || in.Kind == royale.ActSonar {
		line, err := royale.ParseLine(in.Line)
		if err != nil {
			return act, fmt.Errorf("line: %w", err)
		}
		act.Line = line.String()
	}
	var err error
	if act.Cells, err = parseCells("cells", in.Cells); err != nil {
		return act, err
	}
	for i, c := range in.Fleet {
		card := royale.Card{Kind: c.Kind, Bonus: c.Bonus}
		if card.Cells, err = parseCells(fmt.Sprintf("fleet[%d].cells", i), c.Cells); err != nil {
			return act, err
		}
		act.Fleet = append(act.Fleet, card)
	}
	return act, nil
}

// parseCells reads the cells of field, naming the one misspelt.
func parseCells(field string, in []string) ([]royale.Cell, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]royale.Cell, len(in))
	for i, s := range in {
		x, err := royale.ParseCell(s)
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", field, i, err)
		}
		out[i] = x
	}
	return out, nil
}
