package royale

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ErrFleet is wrapped by every refusal of a fleet as a whole.
var ErrFleet = errors.New("not a fleet")

// Fleet is the ship cards one player holds.
type Fleet []Card

// Check refuses a fleet with a card that is no ship card, or with two
// surface ships on one cell, or two submarines on one cell (docs/royale.md §1, a
// house rule: a submarine may share cells with a ship; two players' cards
// may share cells freely).
func (f Fleet) Check() error {
	ships, subs := map[Cell]Kind{}, map[Cell]bool{}
	for i, c := range f {
		if err := c.Check(); err != nil {
			return fmt.Errorf("card %d: %w", i+1, err)
		}
		for _, x := range c.Cells {
			if c.Kind == Submarine {
				if subs[x] {
					return fmt.Errorf("%w: two submarines both cover %s (a submarine may share only a ship's cells)", ErrFleet, x)
				}
				subs[x] = true
				continue
			}
			if k, ok := ships[x]; ok {
				return fmt.Errorf("%w: the %s and the %s both cover %s (only a submarine may share a ship's cells)",
					ErrFleet, k, c.Kind, x)
			}
			ships[x] = c.Kind
		}
	}
	return nil
}

// SaltSize is the length in bytes of the salt a commitment is made with.
const SaltSize = 32

// Canonical is the fleet's one encoding, whatever order its cards and
// cells were given in: a version line, then one line per card
// ("battleship 3 B2 B3 B4 B5", cells in board order), cards in the order
// of their kind (Kinds), then of their bonus, then of their cells.
// docs/royale-commitment.md describes it byte by byte, for checks written
// without this code; change one and the other together.
func (f Fleet) Canonical() []byte {
	cards := make(Fleet, len(f))
	for i, c := range f {
		cards[i] = Card{Kind: c.Kind, Cells: sortedCells(c.Cells), Bonus: c.Bonus}
	}
	slices.SortFunc(cards, func(a, b Card) int {
		if d := slices.Index(Kinds, a.Kind) - slices.Index(Kinds, b.Kind); d != 0 {
			return d
		}
		if d := a.Bonus - b.Bonus; d != 0 {
			return d
		}
		return slices.CompareFunc(a.Cells, b.Cells, func(x, y Cell) int { return x.Row*Size + x.Col - (y.Row*Size + y.Col) })
	})
	var b strings.Builder
	b.WriteString("tally royale fleet v1\n")
	for _, c := range cards {
		b.WriteString(string(c.Kind) + " " + strconv.Itoa(c.Bonus))
		for _, x := range c.Cells {
			b.WriteString(" " + x.String())
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// Commitment is SHA-256 over a prefix line, a salt and the fleet's
// canonical encoding (docs/royale-commitment.md): it is published when
// play starts, and the fleet and salt revealed at the end must hash to it.
func (f Fleet) Commitment(salt []byte) [32]byte {
	h := sha256.New()
	h.Write([]byte("tally royale commitment v1\n"))
	h.Write(salt)
	h.Write(f.Canonical())
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// Opens reports whether fleet and salt, revealed, are what commitment
// was made from.
func Opens(commitment [32]byte, f Fleet, salt []byte) bool {
	got := f.Commitment(salt)
	return len(salt) == SaltSize && subtle.ConstantTimeCompare(got[:], commitment[:]) == 1
}
