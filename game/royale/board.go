package royale

import (
	"errors"
	"fmt"
	"strconv"
)

// Size is the board's side: rows A-J, columns 1-10.
const Size = 10

// ErrCell is wrapped by every refusal of a cell's name.
var ErrCell = errors.New("not a cell of the board")

// ErrLine is wrapped by every refusal of a sonar line's name.
var ErrLine = errors.New("not a line of the board")

// CellSpelling and LineSpelling say how a cell and a sonar line are written,
// in the words every refusal of a misspelt one uses. openapi.yaml's Cell and
// line patterns say the same.
const (
	CellSpelling = "a row letter A-J (either case) then a column number 1-10, " +
		"with no leading zero and nothing before, between or after, such as B7 or j10"
	LineSpelling = "a row letter A-J (either case) or a column number 1-10, " +
		"with no leading zero and nothing before or after, such as C or 7"
)

// Cell is one square of the board, by row (0 for A) and column (0 for 1).
type Cell struct {
	Row, Col int
}

// ParseCell reads a cell in its one spelling (CellSpelling): a row letter
// A-J in either case, then a column 1-10 in digits without a leading zero,
// and nothing else: "B7", "b7" and "J10" are cells; " B7", "B7 ", "B07",
// "B+7" and "K1" are not.
func ParseCell(s string) (Cell, error) {
	row, ok := rowOf(s)
	col, okCol := columnOf(s[min(len(s), 1):])
	if !ok || !okCol {
		return Cell{}, fmt.Errorf("%w: %q: write %s", ErrCell, s, CellSpelling)
	}
	return Cell{Row: row, Col: col}, nil
}

// rowOf reads the row letter s starts with: 0 for A or a.
func rowOf(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	switch c := s[0]; {
	case c >= 'A' && c < 'A'+Size:
		return int(c - 'A'), true
	case c >= 'a' && c < 'a'+Size:
		return int(c - 'a'), true
	}
	return 0, false
}

// columnOf reads a column number written out whole, "1" to "10" and
// nothing else: 0 for "1".
func columnOf(s string) (int, bool) {
	if s == "" || s[0] < '1' || s[0] > '9' {
		return 0, false // also refuses a sign, a space or a leading zero
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > Size || strconv.Itoa(n) != s {
		return 0, false
	}
	return n - 1, true
}

// OnBoard reports whether c is a cell of the board.
func (c Cell) OnBoard() bool { return c.Row >= 0 && c.Row < Size && c.Col >= 0 && c.Col < Size }

// String writes the cell as ParseCell reads it, upper case: "B7".
func (c Cell) String() string {
	if !c.OnBoard() {
		return fmt.Sprintf("(%d,%d)", c.Row, c.Col)
	}
	return string(rune('A'+c.Row)) + strconv.Itoa(c.Col+1)
}

// MarshalText writes the cell as String does, so that JSON carries "B7".
func (c Cell) MarshalText() ([]byte, error) {
	if !c.OnBoard() {
		return nil, fmt.Errorf("%w: %s", ErrCell, c)
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a cell as ParseCell does.
func (c *Cell) UnmarshalText(b []byte) error {
	v, err := ParseCell(string(b))
	*c = v
	return err
}

// Line is one row or one column of the board, as sonar names it.
type Line struct {
	Column bool // a column; else a row
	Index  int  // the row (0 for A) or the column (0 for 1)
}

// ParseLine reads a sonar line in its one spelling (LineSpelling): a row
// letter A-J in either case, or a column 1-10 in digits without a leading
// zero, and nothing else.
func ParseLine(s string) (Line, error) {
	if row, ok := rowOf(s); ok && len(s) == 1 {
		return Line{Index: row}, nil
	}
	if col, ok := columnOf(s); ok {
		return Line{Column: true, Index: col}, nil
	}
	if s == "" {
		return Line{}, fmt.Errorf("%w: none given: name %s", ErrLine, LineSpelling)
	}
	return Line{}, fmt.Errorf("%w: %q: name %s", ErrLine, s, LineSpelling)
}

// String writes the line as ParseLine reads it, a row upper case: "C", "7".
func (l Line) String() string {
	if l.Column {
		return strconv.Itoa(l.Index + 1)
	}
	return string(rune('A' + l.Index))
}

// Holds reports whether cell x lies on the line.
func (l Line) Holds(x Cell) bool {
	if l.Column {
		return x.Col == l.Index
	}
	return x.Row == l.Index
}
