package royale

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Size is the board's side: rows A-J, columns 1-10.
const Size = 10

// ErrCell is wrapped by every refusal of a cell's name.
var ErrCell = errors.New("not a cell of the board")

// Cell is one square of the board, by row (0 for A) and column (0 for 1).
type Cell struct {
	Row, Col int
}

// ParseCell reads a cell as people write it: a row letter A-J (any case)
// and a column 1-10, such as "b7" or "J10".
func ParseCell(s string) (Cell, error) {
	t := strings.TrimSpace(s)
	if len(t) < 2 || len(t) > 3 {
		return Cell{}, fmt.Errorf("%w: %q (write a row A-J and a column 1-10, such as B7)", ErrCell, s)
	}
	row := int(strings.ToUpper(t[:1])[0]) - 'A'
	col, err := strconv.Atoi(t[1:])
	if err != nil || t[1] == '+' || t[1] == '-' || row < 0 || row >= Size || col < 1 || col > Size {
		return Cell{}, fmt.Errorf("%w: %q (write a row A-J and a column 1-10, such as B7)", ErrCell, s)
	}
	return Cell{Row: row, Col: col - 1}, nil
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
