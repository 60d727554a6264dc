package table

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/gametest"
)

// TestResumingEqualsReplaying plays random rounds at tables of several
// presets and, after every write, checks that the two ways of loading a
// table agree on the game and on the round being played: the one every
// request takes (resuming from the game state stored with the latest round)
// and the audit's (replaying every round from the first).
func TestResumingEqualsReplaying(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	f := newFixture(t, NewTable{Preset: "bar", Players: []string{"Ann", "Bob", "Cy"}})
	for _, preset := range []string{"bar", "classic", "ship-of-fools", "scarne", "family-meier"} {
		in := NewTable{Preset: preset, Players: []string{"Ann", "Bob", "Cy"}}
		if preset == "scarne" {
			in.Options.Goal = &game.Goal{Kind: game.GoalPoints, Target: 15}
			in.Options.Start = ptr(game.StartRotateLeft)
		}
		f.addTable(in)
		for round := 1; round <= 6; round++ {
			r, err := f.svc.StartRound(f.ctx, f.host, Key{}, StartRoundInput{})
			if err != nil {
				break // a won game of rounds starts no more rounds
			}
			rd := r.Value.(RoundView)
			agree(t, f, f.host.TableID)
			for _, p := range rd.Players {
				turn := TurnInput{Player: p, Rolls: gametest.RandomTurn(rng, f.created.Table.Ruleset)}
				_, err := f.svc.SubmitTurn(f.ctx, f.host, Key{}, rd.Number, turn)
				noErr(t, err)
				agree(t, f, f.host.TableID)
				if now, err := f.svc.Round(f.ctx, f.host, rd.Number); err != nil || now.Status == statusSettled {
					break // an automatic may end the round early
				}
			}
		}
		view, err := f.svc.Table(f.ctx, f.host)
		if err != nil || view.RoundsPlayed < 2 || view.CurrentRound != 0 {
			t.Fatalf("%s: %d rounds settled, round %d still open (%v); the test played too little to prove anything",
				preset, view.RoundsPlayed, view.CurrentRound, err)
		}
	}
	checkInvariants(t, f.ctx, f.pool)
}

// agree compares the two ways of loading a table.
func agree(t *testing.T, f *fixture, tableID int64) {
	t.Helper()
	ctx := context.Background()
	conn, err := f.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	b := db.NewBatch(ctx)
	var row db.Table
	var l db.Loaded
	var rounds []db.Round
	var actions []db.Action
	b.TableGet(tableID, &row)
	b.TableLoad(tableID, db.KeyRef{}, &l)
	b.RoundList(tableID, &rounds)
	b.ActionListByTable(tableID, &actions)
	noErr(t, b.Send(conn))
	st, err := stateOf(row, l)
	noErr(t, err)
	fast := st.dice()
	full := &diceState{rules: row.Rules}
	noErr(t, full.replayAll(rounds, actions))
	if (fast.game == nil) != (full.game == nil) {
		t.Fatalf("one load has a game, the other not")
	}
	if fast.game == nil {
		return
	}
	if fast.current() != nil {
		// Mid-round both games wait on the same pending round.
		if !reflect.DeepEqual(fast.current().round.State(), full.current().round.State()) {
			t.Fatalf("the round being played differs:\n%+v\n%+v", fast.current().round.State(), full.current().round.State())
		}
		return
	}
	a, errA := fast.game.Snapshot()
	b2, errB := full.game.Snapshot()
	if errA != nil || errB != nil || !reflect.DeepEqual(normalize(a), normalize(b2)) {
		t.Fatalf("the games differ:\n%+v %v\n%+v %v", a, errA, b2, errB)
	}
}

func ptr[T any](v T) *T { return &v }
