package table

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
)

// TestSealHistoryOnTwoInstancesAtOnce: two tallyd instances started
// together on a database that their start migrated to version 4 both
// believe they crossed it, and both seal the legacy history. The one that
// checked that nothing was sealed just before the other committed its
// seals must not seal, nor rewrite the stored keys as HMACs, again: a key
// rewritten twice is never found, and its retry applies twice. It runs
// today and with the clock a year on.
func TestSealHistoryOnTwoInstancesAtOnce(t *testing.T) {
	t.Parallel()
	onEveryClock(t, testSealHistoryOnTwoInstancesAtOnce)
}

func testSealHistoryOnTwoInstancesAtOnce(t *testing.T, clock func() time.Time) {
	ctx := context.Background()
	runtimeDSN := schema2Database(t, clock())
	dbtest.Upgrade(t, runtimeDSN)
	keys := seal.Random() // both instances have the one secret

	// B stops before it lists the stored keys, after it found no seal,
	// until A has sealed everything and committed.
	reached, proceed := make(chan struct{}), make(chan struct{})
	cfg, err := pgxpool.ParseConfig(runtimeDSN)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.Tracer = &pauseBefore{sql: "FROM idempotency_keys ORDER BY", reached: reached, proceed: proceed}
	poolB, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(poolB.Close)
	b := New(poolB, keys, nil).WithClock(clock)
	poolA, err := pgxpool.New(ctx, runtimeDSN)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(poolA.Close)
	a := New(poolA, keys, nil).WithClock(clock)

	bDone := make(chan error, 1)
	go func() {
		_, err := b.SealHistory(ctx)
		bDone <- err
	}()
	select {
	case <-reached:
	case err := <-bDone:
		t.Fatalf("B sealed the history without listing the keys: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("B never came to list the keys")
	}
	if n, err := a.SealHistory(ctx); err != nil || n == 0 {
		t.Fatalf("A sealing the old history: %d sealed, err %v", n, err)
	}
	close(proceed)
	if err := <-bDone; err != nil {
		t.Fatalf("B sealing after A: %v", err)
	}

	// A retry of a keyed request sent before the upgrade (the host started
	// round 1 with the key round-1) still replays its stored answer.
	raw, err := os.ReadFile("testdata/v2_tokens.json")
	if err != nil {
		t.Fatal(err)
	}
	var tokens map[string]string
	if err := json.Unmarshal(raw, &tokens); err != nil {
		t.Fatal(err)
	}
	bar := Auth{TableID: 1, Token: tokens["1"]}
	reqHash, _ := hex.DecodeString("cb85d4961215f15ed63f23b0a3554053782858568f87ded71db923433652c3fb")
	again, err := a.StartRound(ctx, bar, keyed("round-1", reqHash, 201), StartRoundInput{})
	if err != nil || !again.Replayed || !strings.Contains(string(again.Answer.Body), `"number":1,`) {
		t.Fatalf("the retried start of round 1, after two instances sealed at once: %+v %s %v", again, again.Answer.Body, err)
	}
	if rep, err := a.Audit(ctx, bar, AuditQuery{}); err != nil || !rep.OK {
		t.Fatalf("the bar table after two instances sealed at once: %+v %v", rep, err)
	}
}

// pauseBefore is a tracer that holds the first batch holding sql until
// proceed is closed, saying so on reached.
type pauseBefore struct {
	sql              string
	reached, proceed chan struct{}
	once             sync.Once
}

func (p *pauseBefore) TraceBatchStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceBatchStartData) context.Context {
	for _, q := range data.Batch.QueuedQueries {
		if strings.Contains(q.SQL, p.sql) {
			p.once.Do(func() {
				close(p.reached)
				<-p.proceed
			})
		}
	}
	return ctx
}

func (*pauseBefore) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (*pauseBefore) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}
func (*pauseBefore) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}
func (*pauseBefore) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
