package royale

import (
	"errors"
	"reflect"
	"testing"

	"github.com/tally-dice/tally/game"
)

// sentinels are every error a refusal may wrap.
var sentinels = []error{ErrCell, ErrLine, ErrCard, ErrFleet, ErrSetup, ErrOptions, ErrPhase, ErrOutOfTurn, ErrUnknownPlayer,
	ErrShot, ErrTooManyShots, ErrTooFewShots, ErrDie, ErrSecondRoll, ErrRollFirst, ErrSonar, ErrDiscard, ErrGameOver, ErrNotDone, ErrBadAction}

// checkRefusal fails t unless err wraps exactly one sentinel: one rule a
// refusal names, so one code the API sends for it.
func checkRefusal(t *testing.T, err error) {
	t.Helper()
	var named []error
	for _, s := range sentinels {
		if errors.Is(err, s) {
			named = append(named, s)
		}
	}
	if len(named) != 1 {
		t.Fatalf("a refusal wrapping %d sentinels %v, not one: %v", len(named), named, err)
	}
}

// bytesOf hands out data a byte at a time, then zeros.
type bytesOf []byte

func (b *bytesOf) next() int {
	if len(*b) == 0 {
		return 0
	}
	v := int((*b)[0])
	*b = (*b)[1:]
	return v
}

func FuzzEnter(f *testing.F) {
	f.Add([]byte{0, 0, 3, 4, 0, 0, 0, 0, 2, 0, 1, 0, 2, 1, 0, 2, 0})
	f.Add([]byte{1, 0, 3, 2, 0, 0, 0, 0, 3, 3, 0, 1, 3, 0, 5, 5, 0})
	f.Add([]byte{1, 1, 2, 2, 0, 1, 4, 4, 0, 3, 0, 7, 7, 0})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		b := bytesOf(data)
		mode := []Mode{Standard, Advanced}[b.next()%2]
		players := []game.PlayerID{1, 2}
		if b.next()%2 == 1 {
			players = []game.PlayerID{1, 2, 3, 4, 5}
		}
		g, err := NewGame(Setup{Options: Options{Mode: mode, Fleet: Entered}, Players: players, First: 1})
		if err != nil {
			t.Fatal(err)
		}
		var fl Fleet
		for n := b.next() % 5; n > 0; n-- {
			c := Card{Kind: append(Kinds[:5:5], "raft")[b.next()%6], Bonus: b.next()%8 - 1}
			down, row, col := b.next()%2, b.next()%12-1, b.next()%12-1
			for i := range c.Kind.Length() + b.next()%3 - 1 {
				x := Cell{Row: row, Col: col + i}
				if down == 1 {
					x = Cell{Row: row + i, Col: col}
				}
				c.Cells = append(c.Cells, x)
			}
			fl = append(fl, c)
		}
		a := Action{Player: 1, Kind: ActEnter, Fleet: fl, Salt: salt(1)}
		before := snapshot(t, g)
		if _, err := g.Apply(a); err != nil {
			checkRefusal(t, err)
			if snapshot(t, g) != before {
				t.Fatalf("refused (%v) but changed", err)
			}
			return
		}
		if err := fl.Check(); err != nil || len(fl) != KeepSize(mode, len(players)) {
			t.Fatalf("accepted %v: %v", fl, err)
		}
		subs := 0
		for i, c := range fl {
			if c.Kind == Submarine {
				subs++
			}
			if mode == Standard && c.Bonus != 0 || mode == Advanced && c.Kind != Submarine && c.Bonus == 0 {
				t.Fatalf("accepted %s card %d with bonus %d", mode, i, c.Bonus)
			}
			if !reflect.DeepEqual(g.View(1).Fleet[i].Card, c) {
				t.Fatalf("kept %+v, entered %+v", g.View(1).Fleet[i].Card, c)
			}
		}
		if mode == Advanced && subs != 1 {
			t.Fatalf("an advanced fleet with %d submarines", subs)
		}
	})
}

// fuzzGame is a three-player game with dealt fleets kept, in play.
func fuzzGame(t testing.TB, mode Mode) *Game {
	g := dealt(t, Options{Mode: mode, Ante: 4, Bounty: 1}, 3, "fuzz "+string(mode))
	for _, p := range []game.PlayerID{1, 2, 3} {
		apply(t, g, Action{Player: p, Kind: ActKeep, Discard: []int{3, 4}, Salt: salt(byte(p))})
	}
	return g
}

func FuzzShots(f *testing.F) {
	f.Add([]byte{0, 3, 1, 2, 4, 1, 1, 0, 4, 1, 1, 11, 6, 1, 0, 0})
	f.Add([]byte{1, 3, 1, 3, 4, 1, 3, 0, 1, 2, 4, 1, 0, 1, 1, 0, 2, 1, 2, 6, 1, 0})
	f.Add([]byte{1, 2, 1, 0, 0, 3, 1, 2, 4, 1, 3, 5, 6, 7, 0, 0, 6, 1, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		b := bytesOf(data)
		g := fuzzGame(t, []Mode{Standard, Advanced}[b.next()%2])
		kinds := []ActionKind{ActSonar, ActRoll, ActShoot, ActBonus, ActEnd, ActAbandon, ActKeep, "fire"}
		shot := map[Cell]bool{}
		for steps := 0; len(b) > 0 && steps < 200; steps++ {
			a := Action{Kind: kinds[b.next()%len(kinds)], Player: game.PlayerID(b.next() % 5)}
			switch a.Kind {
			case ActSonar:
				a.Line = []string{"A", "j", "5", "10", "K", "0", "", " j", "01"}[b.next()%9]
			case ActRoll:
				a.Die = b.next()%5 - 1
			case ActShoot, ActBonus:
				for n := b.next() % 5; n > 0; n-- {
					v := b.next()
					a.Cells = append(a.Cells, Cell{Row: v / 10 % 11, Col: v % 10})
				}
				a.Card = b.next()%4 - 1
			}
			before := snapshot(t, g)
			o, err := g.Apply(a)
			if err != nil {
				checkRefusal(t, err)
				if snapshot(t, g) != before {
					t.Fatalf("%+v refused (%v) but changed the game", a, err)
				}
				continue
			}
			for _, s := range o.Shots {
				if shot[s.Cell] {
					t.Fatalf("%s shot twice", s.Cell)
				}
				shot[s.Cell] = true
			}
			if len(g.View(0).Board)+g.unshot != Size*Size || len(shot) != len(g.View(0).Board) {
				t.Fatalf("the board holds %d pegs, %d shots seen, %d unshot", len(g.View(0).Board), len(shot), g.unshot)
			}
			checkViews(t, g)
		}
	})
}
