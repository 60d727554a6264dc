package royale

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"io"
	"reflect"
	"testing"
)

// stream is a fixed, endless byte stream for reproducible deals.
type stream struct {
	block [32]byte
	buf   []byte
}

func newStream(seed string) *stream { return &stream{block: sha256.Sum256([]byte(seed))} }

func (s *stream) Read(p []byte) (int, error) {
	for n := 0; n < len(p); {
		if len(s.buf) == 0 {
			s.block = sha256.Sum256(s.block[:])
			s.buf = s.block[:]
		}
		k := copy(p[n:], s.buf)
		s.buf, n = s.buf[k:], n+k
	}
	return len(p), nil
}

func TestDealIsReproducibleFromItsSource(t *testing.T) {
	t.Parallel()
	kinds := []Kind{Submarine, PatrolBoat, Destroyer, Battleship, Carrier}
	a, err := Deal(newStream("night 1"), kinds, true)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Deal(newStream("night 1"), kinds, true)
	c, _ := Deal(newStream("night 2"), kinds, true)
	if !reflect.DeepEqual(a, b) || reflect.DeepEqual(a, c) {
		t.Fatalf("same source %v / %v; another %v", a, b, c)
	}
	for i, card := range a {
		if card.Kind != kinds[i] || card.Bonus != card.Kind.Length()-1 {
			t.Errorf("card %d: %+v", i, card)
		}
	}
}

// TestDealsAreFleets: many deals from crypto/rand are every one a fleet,
// and every cell of the board is covered by some deal (no corner is never
// dealt).
func TestDealsAreFleets(t *testing.T) {
	t.Parallel()
	seen := map[Cell]bool{}
	for range 2000 {
		f, err := Deal(rand.Reader, Kinds, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Check(); err != nil || len(f) != len(Kinds) {
			t.Fatalf("dealt %v: %v", f, err)
		}
		for _, c := range f {
			if c.Bonus != 0 {
				t.Fatalf("a standard deal with a bonus: %+v", c)
			}
			for _, x := range c.Cells {
				seen[x] = true
			}
		}
	}
	if len(seen) != Size*Size {
		t.Fatalf("deals covered %d cells of %d", len(seen), Size*Size)
	}
}

func TestDealRefuses(t *testing.T) {
	t.Parallel()
	if _, err := Deal(newStream("x"), []Kind{"frigate"}, false); !errors.Is(err, ErrCard) {
		t.Fatalf("an unknown kind: %v", err)
	}
	if _, err := Deal(bytes.NewReader(make([]byte, 6)), Kinds, false); !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		t.Fatalf("a source that runs dry: %v", err)
	}
}

func TestUniformIsUnbiased(t *testing.T) {
	t.Parallel()
	s := newStream("uniform")
	counts := make([]int, 7)
	const draws = 70000
	for range draws {
		v, err := uniform(s, 7)
		if err != nil {
			t.Fatal(err)
		}
		counts[v]++
	}
	// Chi-square with 6 degrees of freedom; 22.46 is the 0.001 level.
	var chi float64
	for _, c := range counts {
		d := float64(c) - draws/7.0
		chi += d * d / (draws / 7.0)
	}
	if chi > 22.46 {
		t.Fatalf("counts %v: chi-square %.1f", counts, chi)
	}
}
