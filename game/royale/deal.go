package royale

import (
	"encoding/binary"
	"fmt"
	"io"
)

// Deal draws a fleet of the given kinds from r, a cryptographic random
// source (crypto/rand.Reader in play; a fixed stream in tests, which makes
// the deal reproducible). Each card gets a direction and a position drawn
// uniformly, drawn again while it would put two surface ships on one cell.
// With bonus set (the advanced game) each card carries its DealtBonus.
func Deal(r io.Reader, kinds []Kind, bonus bool) (Fleet, error) {
	fleet := make(Fleet, 0, len(kinds))
	for _, k := range kinds {
		if k.Length() == 0 {
			return nil, fmt.Errorf("%w: no kind %q", ErrCard, k)
		}
		for tries := 0; ; tries++ {
			if tries == 1000 {
				return nil, fmt.Errorf("%w: no room for a %s", ErrFleet, k)
			}
			c, err := drawCard(r, k)
			if err != nil {
				return nil, err
			}
			if bonus {
				c.Bonus = k.DealtBonus()
			}
			if next := append(fleet, c); next.Check() == nil {
				fleet = next
				break
			}
		}
	}
	return fleet, nil
}

// drawCard draws one card of kind k: across or down, then its first cell
// among those where it fits on the board.
func drawCard(r io.Reader, k Kind) (Card, error) {
	n := k.Length()
	down, err := uniform(r, 2)
	if err != nil {
		return Card{}, err
	}
	long, err := uniform(r, Size-n+1) // along the ship
	if err != nil {
		return Card{}, err
	}
	other, err := uniform(r, Size) // across it
	if err != nil {
		return Card{}, err
	}
	c := Card{Kind: k, Cells: make([]Cell, n)}
	for i := range n {
		if down == 1 {
			c.Cells[i] = Cell{Row: long + i, Col: other}
		} else {
			c.Cells[i] = Cell{Row: other, Col: long + i}
		}
	}
	return c, nil
}

// uniform draws an integer in [0, n) from r without bias: 32-bit draws at
// or above the largest multiple of n are drawn again.
func uniform(r io.Reader, n int) (int, error) {
	limit := (1 << 32) / uint64(n) * uint64(n)
	var b [4]byte
	for {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return 0, fmt.Errorf("royale: random source: %w", err)
		}
		if v := uint64(binary.BigEndian.Uint32(b[:])); v < limit {
			return int(v % uint64(n)), nil
		}
	}
}
