package royale

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
)

// cellPattern and linePattern are openapi.yaml's Cell and sonar line
// patterns: the spelling ParseCell and ParseLine read, and nothing else.
var (
	cellPattern = regexp.MustCompile(`^[A-Ja-j]([1-9]|10)$`)
	linePattern = regexp.MustCompile(`^([A-Ja-j]|[1-9]|10)$`)
)

func TestParseCell(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Cell{"A1": {0, 0}, "b7": {1, 6}, "J10": {9, 9}, "j10": {9, 9}, "e5": {4, 4}} {
		got, err := ParseCell(in)
		if err != nil || got != want {
			t.Errorf("ParseCell(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "A", "K1", "A0", "A11", "1A", "AA", "A+1", "A-1", "A01x", "@1", "a 1",
		" B2", "B2 ", "B2\n", "\tB2", "B02", "b02", "A010", "B 2", "B2\x00", "Ａ1", "B٢", "B1O", "BB2", "A1,"} {
		_, err := ParseCell(in)
		if !errors.Is(err, ErrCell) || !strings.Contains(err.Error(), CellSpelling) {
			t.Errorf("ParseCell(%q): %v, want ErrCell saying how a cell is written", in, err)
		}
	}
}

func TestParseLine(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"A": "A", "c": "C", "j": "J", "J": "J", "1": "1", "7": "7", "10": "10"} {
		got, err := ParseLine(in)
		if err != nil || got.String() != want {
			t.Errorf("ParseLine(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", " C", "C ", " j", "j\n", "01", "0", "010", "11", "K", "k", "+1", "1 0", "AB", "A1", "-1", "Ⅰ"} {
		_, err := ParseLine(in)
		if !errors.Is(err, ErrLine) || !strings.Contains(err.Error(), LineSpelling) {
			t.Errorf("ParseLine(%q): %v, want ErrLine saying how a line is written", in, err)
		}
	}
	row, col := Line{Index: 2}, Line{Column: true, Index: 6}
	if !row.Holds(Cell{2, 9}) || row.Holds(Cell{3, 2}) || !col.Holds(Cell{0, 6}) || col.Holds(Cell{6, 0}) {
		t.Error("row C and column 7 hold the wrong cells")
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
	for _, bad := range []string{`["K1"]`, `[" B2"]`, `["B02"]`} {
		if err := json.Unmarshal([]byte(bad), &back); !errors.Is(err, ErrCell) {
			t.Fatalf("Unmarshal %s: %v", bad, err)
		}
	}
}

// FuzzParseCell: any text is a cell exactly when it matches openapi.yaml's
// Cell pattern, and then it writes back as itself in upper case; any text is
// a sonar line exactly when it matches the line pattern, likewise.
func FuzzParseCell(f *testing.F) {
	for _, s := range []string{"A1", "j10", "K0", "A-1", " b7 ", "B02", "B2\n", "C", " j", "01", "10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCell(s)
		if (err == nil) != cellPattern.MatchString(s) {
			t.Fatalf("ParseCell(%q) = %v, %v; the pattern says %v", s, c, err, cellPattern.MatchString(s))
		}
		if err == nil && (!c.OnBoard() || c.String() != strings.ToUpper(s)) {
			t.Fatalf("ParseCell(%q) = %v, written %q", s, c, c.String())
		}
		l, err := ParseLine(s)
		if (err == nil) != linePattern.MatchString(s) {
			t.Fatalf("ParseLine(%q) = %v, %v; the pattern says %v", s, l, err, linePattern.MatchString(s))
		}
		if err == nil && l.String() != strings.ToUpper(s) {
			t.Fatalf("ParseLine(%q) = %v, written %q", s, l, l.String())
		}
	})
}
