package royale

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/tally-dice/tally/game"
)

// checkViews: every viewer sees the same game but for their own hand,
// fleet and salt; no view before the end holds a card afloat.
func checkViews(t testing.TB, g *Game) {
	t.Helper()
	public, _ := json.Marshal(g.View(0))
	for _, s := range g.seats {
		v := g.View(s.player)
		if len(v.Fleet) != len(s.fleet) {
			t.Fatalf("player %s sees %d own cards", s.player, len(v.Fleet))
		}
		v.Hand, v.Fleet, v.Salt = nil, nil, nil
		if j, _ := json.Marshal(v); string(j) != string(public) {
			t.Fatalf("player %s's view differs from the public one beyond their own:\n%s\n%s", s.player, j, public)
		}
		if g.Phase() == PhaseOver {
			continue
		}
		for _, sk := range g.View(0).SunkCards {
			k := slices.IndexFunc(g.seats[g.seatOf(sk.Owner)].fleet, func(c Card) bool { return slices.Equal(c.Cells, sk.Card.Cells) })
			if k < 0 || !g.seats[g.seatOf(sk.Owner)].sunk[k] {
				t.Fatalf("a card afloat is shown sunk: %+v", sk)
			}
		}
		if g.View(0).Revealed != nil {
			t.Fatal("fleets revealed before the end")
		}
	}
}

// checkEnd checks the winners and the money of a finished game.
func checkEnd(t *testing.T, pl played) {
	t.Helper()
	g, res := pl.g, pl.g.Result()
	if res == nil || g.Phase() != PhaseOver {
		t.Fatal("no result")
	}
	v := g.View(0)
	var afloat []game.PlayerID
	for _, p := range v.Players {
		if p.Afloat > 0 {
			afloat = append(afloat, p.Player)
		}
	}
	switch {
	case len(afloat) == 1:
		if !slices.Equal(res.Winners, afloat) {
			t.Fatalf("winners %v, afloat %v", res.Winners, afloat)
		}
	case len(afloat) == 0:
		if !slices.Equal(res.Winners, pl.last.Eliminated) || len(res.Winners) < 2 {
			t.Fatalf("a tie of %v, the last shot eliminated %v", res.Winners, pl.last.Eliminated)
		}
	default:
		t.Fatalf("over with %v afloat", afloat)
	}
	st := res.Settlement
	balance := map[game.PlayerID]int64{}
	var antes, payouts int64
	for _, a := range st.Antes {
		balance[a.Player] -= a.Amount
		antes += a.Amount
	}
	for _, a := range st.Payouts {
		balance[a.Player] += a.Amount
		payouts += a.Amount
	}
	for _, b := range pl.bounties {
		balance[b.From] -= b.Amount
		balance[b.To] += b.Amount
	}
	var net int64
	for _, p := range g.setup.Players {
		net += balance[p]
	}
	if st.PotBefore != g.setup.CarriedPot+antes || payouts+st.CarryOver != st.PotBefore ||
		net+st.CarryOver-g.setup.CarriedPot != 0 || st.CarryOver != st.Remainder || st.PerPoint == nil {
		t.Fatalf("money does not balance: %+v, bounties %v", st, pl.bounties)
	}
	for _, rv := range v.Revealed {
		if !Opens(g.Commitments()[rv.Player], rv.Fleet, rv.Salt) {
			t.Fatalf("player %s's revealed fleet does not open their commitment", rv.Player)
		}
	}
}

// checkReplay replays the game's setup and actions, stored as JSON, and
// compares every viewer's view: what Apply took, Replay takes alike, under
// every version of the rules.
func checkReplay(t *testing.T, pl played) {
	t.Helper()
	var s Setup
	var actions []Action
	if j, err := json.Marshal(pl.g.Setup()); err != nil || json.Unmarshal(j, &s) != nil {
		t.Fatalf("the setup as JSON: %v", err)
	}
	if j, err := json.Marshal(pl.actions); err != nil || json.Unmarshal(j, &actions) != nil {
		t.Fatalf("the actions as JSON: %v", err)
	}
	g, err := NewGame(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range actions {
		if _, err := g.Replay(a); err != nil {
			t.Fatalf("replay: %+v: %v", a, err)
		}
	}
	if snapshot(t, g) != snapshot(t, pl.g) {
		t.Fatal("the replay's views differ from the live game's")
	}
}
