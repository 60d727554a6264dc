package play

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// TestResumingEqualsReplaying plays random rounds at tables of several
// presets and, after every write, checks that load (which resumes from the
// state stored with the latest round) and loadReplayed (which replays every
// round from the first) agree on the game and on the round being played.
func TestResumingEqualsReplaying(t *testing.T) {
	t.Parallel()
	pool := dbtest.Pool(t)
	store := ledger.NewStore(pool)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, preset := range []string{"bar", "classic", "ship-of-fools", "scarne", "family-meier"} {
		var created Created
		in := NewTable{Preset: preset, Players: []string{"Ann", "Bob", "Cy"}}
		if preset == "scarne" {
			in.Options.Goal = &game.Goal{Kind: game.GoalPoints, Target: 15}
			in.Options.Start = ptr(game.StartRotateLeft)
		}
		write(t, store, func(tx pgx.Tx) (err error) { created, err = CreateTable(ctx, tx, in); return err })
		host := Principal{Role: RoleHost, TableID: created.Table.ID}
		for round := 1; round <= 6; round++ {
			var rd RoundView
			err := store.InTx(ctx, func(tx pgx.Tx) (err error) { rd, err = StartRound(ctx, tx, host, StartRoundInput{}); return err })
			if err != nil {
				break // a won game of rounds starts no more rounds
			}
			agree(t, ctx, pool, created.Table.ID)
			for _, p := range rd.Players {
				turn := TurnInput{Player: p, Rolls: randomTurn(rng, created.Table.Ruleset)}
				write(t, store, func(tx pgx.Tx) error { _, err := SubmitTurn(ctx, tx, host, rd.Number, turn); return err })
				agree(t, ctx, pool, created.Table.ID)
				if r, err := Round(ctx, pool, host, rd.Number); err != nil || r.Status == "settled" {
					break // an automatic may end the round early
				}
			}
		}
		view, err := Table(ctx, pool, created.Table.ID, host)
		if err != nil || view.RoundsPlayed < 2 || view.CurrentRound != 0 {
			t.Fatalf("%s: %d rounds settled, round %d still open (%v); the test played too little to prove anything",
				preset, view.RoundsPlayed, view.CurrentRound, err)
		}
	}
}

// agree compares the two ways of loading a table.
func agree(t *testing.T, ctx context.Context, pool *pgxpool.Pool, tableID int64) {
	t.Helper()
	fast, err := load(ctx, pool, tableID)
	if err != nil {
		t.Fatal(err)
	}
	full, err := loadReplayed(ctx, pool, tableID)
	if err != nil {
		t.Fatal(err)
	}
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
	b, errB := full.game.Snapshot()
	if errA != nil || errB != nil || !reflect.DeepEqual(normalize(a), normalize(b)) {
		t.Fatalf("the games differ:\n%+v %v\n%+v %v", a, errA, b, errB)
	}
}

// randomTurn is a legal whole turn: three throws that bank what they show.
func randomTurn(rng *rand.Rand, rs game.Ruleset) []game.Roll {
	turn := game.NewTurn(rs)
	var rolls []game.Roll
	for !turn.Next().Over && len(rolls) < 3 {
		n := turn.Next().Throw
		if n == 0 {
			break // qualified: a whole turn stands on its cargo
		}
		dice := make([]int, n)
		for i := range dice {
			dice[i] = 1 + rng.IntN(6)
		}
		r := game.Roll{Dice: dice}
		if err := turn.Roll(r); err != nil {
			r.Path = "6-5-4" // low-or-high's ambiguous first banking roll
			if turn.Roll(r) != nil {
				continue
			}
		}
		rolls = append(rolls, r)
	}
	return rolls
}

func write(t *testing.T, store *ledger.Store, fn func(tx pgx.Tx) error) {
	t.Helper()
	if err := store.InTx(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }
