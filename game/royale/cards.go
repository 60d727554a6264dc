package royale

import (
	"errors"
	"fmt"
	"slices"
)

// Kind is a kind of ship card.
type Kind string

// The five kinds of ship, by their length.
const (
	PatrolBoat Kind = "patrol-boat"
	Destroyer  Kind = "destroyer"
	Submarine  Kind = "submarine"
	Battleship Kind = "battleship"
	Carrier    Kind = "carrier"
)

// Kinds lists every kind, shortest first.
var Kinds = []Kind{PatrolBoat, Destroyer, Submarine, Battleship, Carrier}

// Length is how many cells a ship of the kind covers; 0 for no kind.
func (k Kind) Length() int {
	switch k {
	case PatrolBoat:
		return 2
	case Destroyer, Submarine:
		return 3
	case Battleship:
		return 4
	case Carrier:
		return 5
	}
	return 0
}

// DealtBonus is the bonus number Tally prints on a card it deals in the
// advanced game (docs/royale.md §1, a house rule): the ship's length minus one.
func (k Kind) DealtBonus() int { return k.Length() - 1 }

// ErrCard is wrapped by every refusal of a card's shape.
var ErrCard = errors.New("not a ship card")

// Card is one ship card: its kind, the cells it covers in a straight line,
// and in the advanced game the bonus number printed on it (shots earned by
// sinking a surface ship; a submarine earns a sonar instead); 0 for none.
type Card struct {
	Kind  Kind   `json:"kind"`
	Cells []Cell `json:"cells"`
	Bonus int    `json:"bonus,omitempty"`
}

// maxBonus bounds an entered card's printed bonus number.
const maxBonus = 5

// Check refuses a card that is no ship card: an unknown kind, the wrong
// number of cells, a cell off the board, cells not in one straight,
// unbroken horizontal or vertical line, or a bonus number out of range.
// The cells may be listed in any order.
func (c Card) Check() error {
	n := c.Kind.Length()
	if n == 0 {
		return fmt.Errorf("%w: no kind %q (patrol-boat, destroyer, submarine, battleship, carrier)", ErrCard, c.Kind)
	}
	if len(c.Cells) != n {
		return fmt.Errorf("%w: a %s covers %d cells, not %d", ErrCard, c.Kind, n, len(c.Cells))
	}
	for _, x := range c.Cells {
		if !x.OnBoard() {
			return fmt.Errorf("%w: %s is off the board", ErrCard, x)
		}
	}
	if c.Bonus < 0 || c.Bonus > maxBonus {
		return fmt.Errorf("%w: a bonus number of %d (0 to %d)", ErrCard, c.Bonus, maxBonus)
	}
	cells := sortedCells(c.Cells)
	across, down := true, true
	for i := 1; i < len(cells); i++ {
		prev, x := cells[i-1], cells[i]
		across = across && x.Row == prev.Row && x.Col == prev.Col+1
		down = down && x.Col == prev.Col && x.Row == prev.Row+1
	}
	if !across && !down {
		return fmt.Errorf("%w: the %s's cells %v are not one straight, unbroken line", ErrCard, c.Kind, cells)
	}
	return nil
}

// sortedCells is cells in board order (by row, then column), as a copy.
func sortedCells(cells []Cell) []Cell {
	out := slices.Clone(cells)
	slices.SortFunc(out, func(a, b Cell) int {
		if a.Row != b.Row {
			return a.Row - b.Row
		}
		return a.Col - b.Col
	})
	return out
}

// Covers reports whether the card covers cell x.
func (c Card) Covers(x Cell) bool { return slices.Contains(c.Cells, x) }
