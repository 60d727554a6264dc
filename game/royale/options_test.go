package royale

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestOptionsWithDefaults(t *testing.T) {
	t.Parallel()
	got := Options{Ante: 5}.WithDefaults()
	if want := (Options{Mode: Standard, Fleet: Dealt, Die: RealDie, Ante: 5}); got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	set := Options{Mode: Advanced, Fleet: Entered, Die: TallyDie, Bounty: 2}
	if set.WithDefaults() != set {
		t.Fatalf("defaults overwrote choices: %+v", set.WithDefaults())
	}
}

func TestOptionsCheck(t *testing.T) {
	t.Parallel()
	ok := Options{}.WithDefaults()
	for _, tc := range []struct {
		o     Options
		field string // "" when the options are fine
	}{
		{ok, ""},
		{Options{Mode: Advanced, Fleet: Entered, Die: TallyDie, Ante: 1_000_000, Bounty: 1_000_000}, ""},
		{Options{Mode: "salvo", Fleet: Dealt, Die: RealDie}, "mode"},
		{Options{Mode: Standard, Fleet: "drawn", Die: RealDie}, "fleet"},
		{Options{Mode: Standard, Fleet: Dealt, Die: "d6"}, "die"},
		{Options{Mode: Standard, Fleet: Dealt, Die: RealDie, Ante: -1}, "ante"},
		{Options{Mode: Standard, Fleet: Dealt, Die: RealDie, Ante: 1_000_001}, "ante"},
		{Options{Mode: Standard, Fleet: Dealt, Die: RealDie, Bounty: -1}, "bounty"},
		{Options{Mode: Standard, Fleet: Dealt, Die: RealDie, Bounty: 1_000_001}, "bounty"},
		{Options{}, "mode"},
	} {
		err := tc.o.Check()
		if tc.field == "" {
			if err != nil {
				t.Errorf("%+v: %v", tc.o, err)
			}
			continue
		}
		if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%+v: got %v, want ErrOptions naming %s", tc.o, err, tc.field)
		}
	}
}

func TestHandAndKeepSize(t *testing.T) {
	t.Parallel()
	for _, mode := range []Mode{Standard, Advanced} {
		for players, want := range map[int][2]int{2: {5, 3}, 3: {5, 3}, 4: {5, 3}, 5: {4, 2}, 6: {4, 2}} {
			if h, k := HandSize(mode, players), KeepSize(mode, players); h != want[0] || k != want[1] {
				t.Errorf("%s, %d players: hand %d keep %d, want %v", mode, players, h, k, want)
			}
		}
	}
}

func TestDealHand(t *testing.T) {
	t.Parallel()
	for _, mode := range []Mode{Standard, Advanced} {
		for _, players := range []int{2, 5} {
			kinds := map[Kind]int{}
			for i := range 300 {
				seed := string(mode) + string(rune('a'+players)) + string(rune(i))
				h, err := DealHand(newStream(seed), mode, players)
				if err != nil {
					t.Fatal(err)
				}
				again, _ := DealHand(newStream(seed), mode, players)
				if !reflect.DeepEqual(h, again) {
					t.Fatalf("a deal is not reproducible from its source")
				}
				if len(h) != HandSize(mode, players) || h.Check() != nil {
					t.Fatalf("%s hand %v", mode, h)
				}
				for j, c := range h {
					kinds[c.Kind]++
					if mode == Advanced && (c.Kind == Submarine) != (j == 0) {
						t.Fatalf("advanced hand %v: the submarine comes first, and only there", h)
					}
					if wantBonus := map[Mode]int{Standard: 0, Advanced: c.Kind.DealtBonus()}[mode]; c.Bonus != wantBonus {
						t.Fatalf("%s card %+v: bonus %d", mode, c, c.Bonus)
					}
				}
			}
			if len(kinds) != len(Kinds) { // the advanced deck: four surface kinds and the submarine
				t.Errorf("%s deals covered kinds %v", mode, kinds)
			}
		}
	}
}
