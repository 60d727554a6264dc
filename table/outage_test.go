package table

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
)

// TestAnExhaustedPoolIsUnavailable: with every connection of the pool
// taken, a request waits acquireWait for one and then hears that the
// database is unavailable, reads and writes alike, rather than waiting for
// as long as its caller does.
func TestAnExhaustedPoolIsUnavailable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(dbtest.DSN(t))
	noErr(t, err)
	cfg.MaxConns = 1
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	noErr(t, err)
	t.Cleanup(pool.Close)
	svc := New(pool, seal.Random(), nil)
	r, err := svc.CreateTable(ctx, Key{}, NewTable{Preset: "bar", Players: []string{"Ann", "Bob"}})
	noErr(t, err)
	host := Auth{TableID: r.Value.(Created).Table.ID, Token: r.Value.(Created).HostToken}
	svc.acquireWait = 200 * time.Millisecond

	held, err := pool.Acquire(ctx)
	noErr(t, err)
	for what, call := range map[string]func() error{
		"a read":  func() error { _, err := svc.Table(ctx, host); return err },
		"a write": func() error { _, err := svc.StartRound(ctx, host, answered(201), StartRoundInput{}); return err },
		"a join":  func() error { _, err := svc.Invite(ctx, r.Value.(Created).JoinCode); return err },
	} {
		began := time.Now()
		err := call()
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("%s with the pool exhausted: %v, want ErrUnavailable", what, err)
		}
		if waited := time.Since(began); waited < svc.acquireWait || waited > 10*svc.acquireWait {
			t.Fatalf("%s waited %v for a connection, want about %v", what, waited, svc.acquireWait)
		}
	}
	held.Release()
	_, err = svc.StartRound(ctx, host, answered(201), StartRoundInput{})
	noErr(t, err)
}
