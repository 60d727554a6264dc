package royale

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/tally-dice/tally/game"
)

// fleet reads cards written as "kind[:bonus] cell cell ...", such as
// "battleship:3 B1 B2 B3 B4".
func fleet(t testing.TB, cards ...string) Fleet {
	t.Helper()
	var f Fleet
	for _, s := range cards {
		words := strings.Fields(s)
		kind, bonus, _ := strings.Cut(words[0], ":")
		c := Card{Kind: Kind(kind)}
		if bonus != "" {
			c.Bonus, _ = strconv.Atoi(bonus)
		}
		for _, w := range words[1:] {
			c.Cells = append(c.Cells, cell(t, w))
		}
		f = append(f, c)
	}
	return f
}

func cell(t testing.TB, s string) Cell {
	t.Helper()
	x, err := ParseCell(s)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// salt is a salt of SaltSize bytes b.
func salt(b byte) []byte { return bytes.Repeat([]byte{b}, SaltSize) }

// entered starts a game under the current rules with fleets entered for
// players 1..len(fleets), player 1 first, and enters every fleet.
func entered(t testing.TB, o Options, fleets ...Fleet) *Game {
	t.Helper()
	o.Fleet = Entered
	s := Setup{Rules: CurrentRules, Options: o, First: 1}
	for i := range fleets {
		s.Players = append(s.Players, game.PlayerID(i+1))
	}
	g, err := NewGame(s)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range fleets {
		apply(t, g, Action{Player: game.PlayerID(i + 1), Kind: ActEnter, Fleet: f, Salt: salt(byte(i + 1))})
	}
	if g.Phase() != PhasePlaying {
		t.Fatalf("phase %s after every fleet", g.Phase())
	}
	return g
}

// apply applies a, which must be accepted.
func apply(t testing.TB, g *Game, a Action) Outcome {
	t.Helper()
	o, err := g.Apply(a)
	if err != nil {
		t.Fatalf("%+v: %v", a, err)
	}
	return o
}

// snapshot is every viewer's view of g as JSON, and its money.
func snapshot(t testing.TB, g *Game) string {
	t.Helper()
	var b strings.Builder
	for _, p := range append([]game.PlayerID{0}, g.setup.Players...) {
		j, err := json.Marshal(g.View(p))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
	}
	r, _ := json.Marshal(g.Result())
	b.Write(r)
	b.WriteString(strconv.FormatInt(g.Pot(), 10) + string(g.Phase()) + g.Turn().String())
	return b.String()
}

// refuse applies a, which must be refused with want and change nothing.
func refuse(t testing.TB, g *Game, a Action, want error) error {
	t.Helper()
	before := snapshot(t, g)
	o, err := g.Apply(a)
	if !errors.Is(err, want) {
		t.Fatalf("%+v: got %v, want %v", a, err, want)
	}
	if o.Result != nil || o.Shots != nil || o.Started {
		t.Fatalf("%+v: refused with an outcome %+v", a, o)
	}
	if after := snapshot(t, g); after != before {
		t.Fatalf("%+v: refused (%v) but changed the game\nbefore %s\nafter  %s", a, err, before, after)
	}
	return err
}

func TestNewGameRefuses(t *testing.T) {
	t.Parallel()
	hands := func(n int, mode Mode, seed string) map[game.PlayerID]Fleet {
		h := map[game.PlayerID]Fleet{}
		for i := range n {
			f, err := DealHand(newStream(seed+strconv.Itoa(i)), mode, n)
			if err != nil {
				t.Fatal(err)
			}
			h[game.PlayerID(i+1)] = f
		}
		return h
	}
	ok := Setup{Players: []game.PlayerID{1, 2, 3}, First: 2, Hands: hands(3, Standard, "a")}
	if _, err := NewGame(ok); err != nil {
		t.Fatal(err)
	}
	short := hands(3, Standard, "b")
	short[2] = short[2][:4]
	noSub := hands(2, Advanced, "c")
	noSub[1] = append(Fleet{noSub[1][1]}, noSub[1][1:]...)
	overlap := hands(2, Standard, "d")
	overlap[1] = fleet(t, "carrier A1 A2 A3 A4 A5", "destroyer A1 B1 C1", "patrol-boat J1 J2", "patrol-boat J4 J5", "patrol-boat J7 J8")
	extra := hands(3, Standard, "e")
	extra[9] = extra[1]
	for name, tc := range map[string]struct {
		s    Setup
		want error
	}{
		"one player":        {Setup{Players: []game.PlayerID{1}, First: 1, Hands: hands(1, Standard, "f")}, ErrSetup},
		"seven players":     {Setup{Players: []game.PlayerID{1, 2, 3, 4, 5, 6, 7}, First: 1, Hands: hands(7, Standard, "g")}, ErrSetup},
		"player 0":          {Setup{Players: []game.PlayerID{1, 0}, First: 1, Hands: hands(2, Standard, "h")}, ErrSetup},
		"seated twice":      {Setup{Players: []game.PlayerID{1, 1}, First: 1, Hands: hands(2, Standard, "h")}, ErrSetup},
		"first not seated":  {Setup{Players: []game.PlayerID{1, 2, 3}, First: 4, Hands: ok.Hands}, ErrSetup},
		"bad mode":          {Setup{Options: Options{Mode: "salvo"}, Players: []game.PlayerID{1, 2, 3}, First: 1, Hands: ok.Hands}, ErrOptions},
		"negative pot":      {Setup{Players: []game.PlayerID{1, 2, 3}, First: 1, CarriedPot: -1, Hands: ok.Hands}, ErrSetup},
		"later rules":       {Setup{Rules: CurrentRules + 1, Players: []game.PlayerID{1, 2, 3}, First: 1, Hands: ok.Hands}, ErrSetup},
		"negative rules":    {Setup{Rules: -1, Players: []game.PlayerID{1, 2, 3}, First: 1, Hands: ok.Hands}, ErrSetup},
		"no hands":          {Setup{Players: []game.PlayerID{1, 2, 3}, First: 1}, ErrSetup},
		"short hand":        {Setup{Players: []game.PlayerID{1, 2, 3}, First: 1, Hands: short}, ErrSetup},
		"hand for stranger": {Setup{Players: []game.PlayerID{1, 2, 3}, First: 1, Hands: extra}, ErrSetup},
		"two submarines":    {Setup{Options: Options{Mode: Advanced}, Players: []game.PlayerID{1, 2}, First: 1, Hands: noSub}, ErrSetup},
		"overlapping hand":  {Setup{Players: []game.PlayerID{1, 2}, First: 1, Hands: overlap}, ErrFleet},
		"hands when entered": {Setup{Options: Options{Fleet: Entered}, Players: []game.PlayerID{1, 2, 3}, First: 1,
			Hands: ok.Hands}, ErrSetup},
	} {
		if _, err := NewGame(tc.s); !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", name, err, tc.want)
		}
	}
}

func TestSetupIsACopy(t *testing.T) {
	t.Parallel()
	f, _ := DealHand(newStream("copy"), Standard, 2)
	g2, _ := DealHand(newStream("copy2"), Standard, 2)
	s := Setup{Players: []game.PlayerID{1, 2}, First: 1, Hands: map[game.PlayerID]Fleet{1: f, 2: g2}}
	g, err := NewGame(s)
	if err != nil {
		t.Fatal(err)
	}
	want := f[0].Cells[0]
	f[0].Cells[0] = Cell{9, 9}
	s.Players[0] = 7
	got := g.Setup()
	if got.Players[0] != 1 || got.Hands[1][0].Cells[0] != want {
		t.Fatalf("the game shares its setup with the caller: %+v", got)
	}
	got.Hands[1][0].Cells[0] = Cell{8, 8}
	if g.Setup().Hands[1][0].Cells[0] != want {
		t.Fatal("Setup hands out the game's own hands")
	}
}
