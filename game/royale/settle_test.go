package royale

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/tally-dice/tally/game"
)

// TestLastShotTies: one shot sinks both players' last cards; they tie and
// split the pot, the indivisible remainder staying in it.
func TestLastShotTies(t *testing.T) {
	t.Parallel()
	o := Options{Fleet: Entered, Ante: 5}
	g, err := NewGame(Setup{Options: o, Players: []game.PlayerID{1, 2}, First: 1, CarriedPot: 1})
	if err != nil {
		t.Fatal(err)
	}
	apply(t, g, Action{Player: 1, Kind: ActEnter, Fleet: fleet(t, "patrol-boat A1 A2", "patrol-boat B1 B2", "patrol-boat C1 C2"), Salt: salt(1)})
	apply(t, g, Action{Player: 2, Kind: ActEnter, Fleet: fleet(t, "patrol-boat A5 A6", "patrol-boat B5 B6", "patrol-boat C2 C3"), Salt: salt(2)})
	if g.Pot() != 11 {
		t.Fatalf("pot %d", g.Pot())
	}
	for _, turn := range []struct {
		p     game.PlayerID
		shots string
	}{{1, "A1 A2 A5"}, {2, "A6 B1 B2"}, {1, "B5 B6 C1"}, {2, "C3"}} {
		apply(t, g, roll(turn.p, len(cells(t, turn.shots))))
		for _, c := range cells(t, turn.shots) {
			apply(t, g, Action{Player: turn.p, Kind: ActShoot, Cells: []Cell{c}})
		}
		apply(t, g, end(turn.p))
	}
	apply(t, g, roll(1, 1))
	out := apply(t, g, shoot(t, 1, "C2"))
	want := &Result{Winners: []game.PlayerID{1, 2}, Settlement: game.Settlement{
		Antes:     []game.Amount{{Player: 1, Amount: 5}, {Player: 2, Amount: 5}},
		PotBefore: 11, Payouts: []game.Amount{{Player: 1, Amount: 5}, {Player: 2, Amount: 5}},
		CarryOver: 1, Remainder: 1, PerPoint: []game.Payment{},
	}}
	if !reflect.DeepEqual(out.Result, want) || !reflect.DeepEqual(out.Eliminated, []game.PlayerID{1, 2}) || len(out.Sunk) != 2 {
		t.Fatalf("the tie: %+v", out)
	}
	if g.Pot() != 1 || g.View(0).Pot != 1 {
		t.Fatalf("the remainder stays in the pot: %d", g.Pot())
	}
	if p := pegAt(t, g, "C2"); p.State != "sunk" || p.Hits != 2 {
		t.Fatalf("C2: %+v", p)
	}
}

func TestAbandon(t *testing.T) {
	t.Parallel()
	// In the fleets phase: the pot goes back as at closing a dice table.
	g := dealt(t, Options{Ante: 3}, 3, "abandon")
	g.setup.CarriedPot = 2
	apply(t, g, Action{Player: 2, Kind: ActKeep, Discard: []int{0, 1}, Salt: salt(2)})
	o := apply(t, g, Action{Kind: ActAbandon})
	want := &Result{Winners: []game.PlayerID{}, Abandoned: true, Settlement: game.Settlement{
		Antes:     []game.Amount{{Player: 1, Amount: 3}, {Player: 2, Amount: 3}, {Player: 3, Amount: 3}},
		PotBefore: 11, Payouts: game.CloseOut(11, []game.PlayerID{1, 2, 3}), PerPoint: []game.Payment{},
	}}
	if !reflect.DeepEqual(o.Result, want) || g.Phase() != PhaseOver || g.Pot() != 0 {
		t.Fatalf("abandoned: %+v", o.Result)
	}
	v := g.View(0)
	// Only the fleet that was kept is revealed.
	if len(v.Revealed) != 1 || v.Revealed[0].Player != 2 || len(v.Revealed[0].Fleet) != 3 ||
		!reflect.DeepEqual(v.Revealed[0].Salt, salt(2)) || v.Commitments != nil {
		t.Fatalf("revealed %+v", v.Revealed)
	}
	refuse(t, g, Action{Kind: ActAbandon}, ErrGameOver)
	refuse(t, g, Action{Player: 1, Kind: ActKeep, Discard: []int{0, 1}, Salt: salt(1)}, ErrGameOver)
}

// TestNoAnteNoPot: without an ante or a carried pot the winner takes
// nothing, and the settlement's lists are empty, not null.
func TestNoAnteNoPot(t *testing.T) {
	t.Parallel()
	g := entered(t, Options{},
		fleet(t, "patrol-boat A1 A2", "patrol-boat B1 B2", "patrol-boat C1 C2"),
		fleet(t, "patrol-boat A5 A6", "patrol-boat B5 B6", "patrol-boat C5 C6"))
	if g.Antes() != nil || g.Pot() != 0 {
		t.Fatal(g.Antes())
	}
	apply(t, g, roll(1, 3))
	for _, c := range []string{"A5", "A6", "B5"} {
		apply(t, g, shoot(t, 1, c))
	}
	for _, c := range []string{"B6", "C5"} {
		apply(t, g, bonus(t, 1, c, 0))
	}
	apply(t, g, end(1))
	apply(t, g, roll(2, 1))
	apply(t, g, shoot(t, 2, "J1"))
	apply(t, g, end(2))
	apply(t, g, roll(1, 1))
	o := apply(t, g, shoot(t, 1, "C6"))
	want := &Result{Winners: []game.PlayerID{1}, Settlement: game.Settlement{
		Antes: []game.Amount{}, Payouts: []game.Amount{}, PerPoint: []game.Payment{}}}
	if !reflect.DeepEqual(o.Result, want) {
		t.Fatalf("%+v", o.Result)
	}
}

// TestAbandonPaysTheLeftoverInPlayOrder: an abandoned game's pot goes back
// as a closing dice table's does, the indivisible units one each in play
// order, which starts from the game's first player, not from the first
// seat.
func TestAbandonPaysTheLeftoverInPlayOrder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		first   game.PlayerID
		carried int64
		want    []game.Amount
	}{
		{1, 1, []game.Amount{{Player: 1, Amount: 6}, {Player: 2, Amount: 5}, {Player: 3, Amount: 5}}},
		{2, 1, []game.Amount{{Player: 2, Amount: 6}, {Player: 3, Amount: 5}, {Player: 1, Amount: 5}}},
		{3, 1, []game.Amount{{Player: 3, Amount: 6}, {Player: 1, Amount: 5}, {Player: 2, Amount: 5}}},
		{3, 2, []game.Amount{{Player: 3, Amount: 6}, {Player: 1, Amount: 6}, {Player: 2, Amount: 5}}},
		{2, 0, []game.Amount{{Player: 2, Amount: 5}, {Player: 3, Amount: 5}, {Player: 1, Amount: 5}}},
	} {
		t.Run(fmt.Sprintf("player %s first, %d carried", tc.first, tc.carried), func(t *testing.T) {
			t.Parallel()
			g, err := NewGame(Setup{Rules: CurrentRules, Options: Options{Fleet: Entered, Ante: 5}, Players: []game.PlayerID{1, 2, 3},
				First: tc.first, CarriedPot: tc.carried})
			if err != nil {
				t.Fatal(err)
			}
			o := apply(t, g, Action{Kind: ActAbandon})
			if got := o.Result.Settlement.Payouts; !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("paid %v, want %v", got, tc.want)
			}
			if !reflect.DeepEqual(g.Setup().PlayOrder(), []game.PlayerID{tc.want[0].Player, tc.want[1].Player, tc.want[2].Player}) {
				t.Fatalf("play order %v", g.Setup().PlayOrder())
			}
		})
	}
}
