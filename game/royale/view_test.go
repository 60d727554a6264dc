package royale

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tally-dice/tally/game"
)

// TestViewsHideFleets: another player's view holds no cell of a card
// afloat, only the viewer's own; at the end every fleet is revealed.
func TestViewsHideFleets(t *testing.T) {
	t.Parallel()
	g := entered(t, Options{},
		fleet(t, "patrol-boat A1 A2", "destroyer C1 C2 C3", "submarine E1 E2 E3"),
		fleet(t, "patrol-boat B9 B10", "destroyer G8 G9 G10", "carrier J6 J7 J8 J9 J10"))
	apply(t, g, roll(1, 2))
	apply(t, g, shoot(t, 1, "B9"))
	apply(t, g, shoot(t, 1, "C1"))
	own := g.View(1).Fleet
	want := []FleetCard{
		{Card: fleet(t, "patrol-boat A1 A2")[0], Hit: []Cell{}},
		{Card: fleet(t, "destroyer C1 C2 C3")[0], Hit: cells(t, "C1")},
		{Card: fleet(t, "submarine E1 E2 E3")[0], Hit: []Cell{}},
	}
	if !reflect.DeepEqual(own, want) {
		t.Fatalf("own fleet %+v", own)
	}
	hidden := func(viewer game.PlayerID, cs ...string) {
		t.Helper()
		b, _ := json.Marshal(g.View(viewer))
		for _, c := range cs {
			if strings.Contains(string(b), `"`+c+`"`) {
				t.Errorf("viewer %s sees %s: %s", viewer, c, b)
			}
		}
	}
	hidden(0, "A1", "A2", "C2", "C3", "E1", "E2", "E3", "B10", "G8", "J6")
	hidden(2, "A1", "A2", "C2", "C3", "E1", "E2", "E3")
	hidden(1, "B10", "G8", "J6")
	if v := g.View(2); v.Fleet == nil || v.Fleet[0].Hit[0] != cell(t, "B9") {
		t.Fatalf("player 2's own fleet: %+v", v.Fleet)
	}
	apply(t, g, end(1))
	apply(t, g, roll(2, 2))
	apply(t, g, shoot(t, 2, "A1"))
	apply(t, g, shoot(t, 2, "A2"))
	v := g.View(0)
	if len(v.SunkCards) != 1 || !reflect.DeepEqual(v.SunkCards[0].Card, want[0].Card) || v.Revealed != nil {
		t.Fatalf("a sunk card's cells are public: %+v", v.SunkCards)
	}
	hidden(0, "C2", "E1")
	apply(t, g, Action{Kind: ActAbandon})
	v = g.View(0)
	if len(v.Revealed) != 2 || !reflect.DeepEqual(v.Revealed[1].Fleet, g.seats[1].fleet) || !Opens(g.Commitments()[2], v.Revealed[1].Fleet, v.Revealed[1].Salt) {
		t.Fatalf("revealed at the end: %+v", v.Revealed)
	}
}
