package royale

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestFleetCheck(t *testing.T) {
	t.Parallel()
	sub := Card{Kind: Submarine, Cells: cells(t, "B3 C3 D3")}
	battleship := Card{Kind: Battleship, Cells: cells(t, "B2 B3 B4 B5")}
	if err := (Fleet{battleship, sub}).Check(); err != nil {
		t.Fatalf("a submarine under a ship: %v", err)
	}
	destroyer := Card{Kind: Destroyer, Cells: cells(t, "A4 B4 C4")}
	err := Fleet{battleship, destroyer}.Check()
	if !errors.Is(err, ErrFleet) || !strings.Contains(err.Error(), "both cover B4") {
		t.Fatalf("two ships on B4: %v", err)
	}
	err = Fleet{battleship, {Kind: Destroyer, Cells: cells(t, "A1 A2")}}.Check()
	if !errors.Is(err, ErrCard) || !strings.Contains(err.Error(), "card 2") {
		t.Fatalf("a bad second card: %v", err)
	}
}

func TestCommitment(t *testing.T) {
	t.Parallel()
	salt := bytes.Repeat([]byte{7}, SaltSize)
	f := Fleet{
		{Kind: Battleship, Cells: cells(t, "B2 B3 B4 B5"), Bonus: 3},
		{Kind: PatrolBoat, Cells: cells(t, "J9 J10"), Bonus: 1},
		{Kind: Submarine, Cells: cells(t, "B10 C10 D10"), Bonus: 2},
	}
	want := "tally royale fleet v1\npatrol-boat 1 J9 J10\nsubmarine 2 B10 C10 D10\nbattleship 3 B2 B3 B4 B5\n"
	if got := string(f.Canonical()); got != want {
		t.Fatalf("Canonical:\n%s\nwant\n%s", got, want)
	}
	// The same fleet in another order, cells reversed: the same commitment.
	shuffled := Fleet{
		{Kind: Submarine, Cells: cells(t, "D10 C10 B10"), Bonus: 2},
		{Kind: Battleship, Cells: cells(t, "B5 B4 B3 B2"), Bonus: 3},
		{Kind: PatrolBoat, Cells: cells(t, "J10 J9"), Bonus: 1},
	}
	c := f.Commitment(salt)
	if !Opens(c, shuffled, salt) {
		t.Fatal("the same fleet in another order does not open the commitment")
	}
	moved := Fleet{f[0], {Kind: PatrolBoat, Cells: cells(t, "J8 J9"), Bonus: 1}, f[2]}
	otherSalt := bytes.Repeat([]byte{8}, SaltSize)
	rebonused := Fleet{f[0], f[1], {Kind: Submarine, Cells: f[2].Cells, Bonus: 3}}
	for name, ok := range map[string]bool{
		"a ship moved":    Opens(c, moved, salt),
		"another salt":    Opens(c, f, otherSalt),
		"a short salt":    Opens(f.Commitment(salt[:4]), f, salt[:4]),
		"another bonus":   Opens(c, rebonused, salt),
		"a card left out": Opens(c, f[:2], salt),
	} {
		if ok {
			t.Errorf("%s opens the commitment", name)
		}
	}
}
