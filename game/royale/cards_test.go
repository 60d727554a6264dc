package royale

import (
	"errors"
	"strings"
	"testing"
)

// cells parses "B2 B3 B4" for tests.
func cells(t testing.TB, s string) []Cell {
	t.Helper()
	var out []Cell
	for _, f := range strings.Fields(s) {
		c, err := ParseCell(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func TestCardCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		card Card
		want string // "" for a card
	}{
		{Card{Kind: Battleship, Cells: cells(t, "B2 B3 B4 B5"), Bonus: 3}, ""},
		{Card{Kind: Carrier, Cells: cells(t, "J10 F10 G10 H10 I10")}, ""},
		{Card{Kind: PatrolBoat, Cells: cells(t, "A1 B1")}, ""},
		{Card{Kind: "frigate", Cells: cells(t, "A1 A2")}, `no kind "frigate"`},
		{Card{Kind: Destroyer, Cells: cells(t, "A1 A2")}, "a destroyer covers 3 cells, not 2"},
		{Card{Kind: Destroyer, Cells: cells(t, "A1 A2 A4")}, "not one straight, unbroken line"},
		{Card{Kind: Destroyer, Cells: cells(t, "A1 B2 C3")}, "not one straight, unbroken line"},
		{Card{Kind: Destroyer, Cells: cells(t, "A1 A1 A2")}, "not one straight, unbroken line"},
		{Card{Kind: PatrolBoat, Cells: []Cell{{0, 9}, {0, 10}}}, "is off the board"},
		{Card{Kind: PatrolBoat, Cells: cells(t, "A1 A2"), Bonus: 6}, "a bonus number of 6"},
		{Card{Kind: PatrolBoat, Cells: cells(t, "A1 A2"), Bonus: -1}, "a bonus number of -1"},
	} {
		err := tc.card.Check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.card, err)
		case tc.want != "" && (!errors.Is(err, ErrCard) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: %v, want ErrCard saying %q", tc.card, err, tc.want)
		}
	}
}
