package royale

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestParseCell(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Cell{"A1": {0, 0}, "b7": {1, 6}, " J10 ": {9, 9}, "e5": {4, 4}} {
		got, err := ParseCell(in)
		if err != nil || got != want {
			t.Errorf("ParseCell(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "A", "K1", "A0", "A11", "1A", "AA", "A+1", "A-1", "A01x", "@1", "a 1"} {
		if _, err := ParseCell(in); !errors.Is(err, ErrCell) {
			t.Errorf("ParseCell(%q): %v, want ErrCell", in, err)
		}
	}
}

func TestCellJSON(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal([]Cell{{1, 6}, {9, 9}})
	if err != nil || string(b) != `["B7","J10"]` {
		t.Fatalf("Marshal: %s, %v", b, err)
	}
	var back []Cell
	if err := json.Unmarshal([]byte(`["b7","j10"]`), &back); err != nil || back[0] != (Cell{1, 6}) || back[1] != (Cell{9, 9}) {
		t.Fatalf("Unmarshal: %v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`["K1"]`), &back); !errors.Is(err, ErrCell) {
		t.Fatalf("Unmarshal K1: %v", err)
	}
}

// FuzzParseCell: any text either is refused or names a cell on the board
// that writes back as the same cell.
func FuzzParseCell(f *testing.F) {
	for _, s := range []string{"A1", "j10", "K0", "A-1", " b7 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCell(s)
		if err != nil {
			return
		}
		if !c.OnBoard() {
			t.Fatalf("ParseCell(%q) = %v, off the board", s, c)
		}
		if again, err := ParseCell(c.String()); err != nil || again != c {
			t.Fatalf("%q → %v → %q → %v, %v", s, c, c.String(), again, err)
		}
	})
}
