package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/ledger"
)

// stressRequest is what one idempotency key asks for. It is derived from
// the key alone, so every submission of a key is the same request.
type stressRequest struct {
	table   int64
	players []int64
	op      int
	amount  int64
	a, b    int
}

// apply performs the request's effect in tx.
func (r stressRequest) apply(ctx context.Context, tx pgx.Tx) (ledger.Transaction, error) {
	switch r.op {
	case 0:
		antes := make([]ledger.PlayerAmount, len(r.players))
		for i, p := range r.players {
			antes[i] = ledger.PlayerAmount{PlayerID: p, Amount: r.amount}
		}
		return ledger.Ante(ctx, tx, r.table, nil, antes)
	case 1:
		return ledger.Payout(ctx, tx, r.table, nil, r.players[r.a])
	case 2:
		return ledger.PerPoint(ctx, tx, r.table, nil, []ledger.Payment{{From: r.players[r.a], To: r.players[r.b], Amount: r.amount}})
	default:
		return ledger.Deposit(ctx, tx, r.table, r.players[r.a], r.amount)
	}
}

// TestConcurrentMovementsKeepTheBooks runs many goroutines doing antes,
// payouts, payments and deposits with idempotency keys on a few shared
// tables, submitting the same keys concurrently, and then checks that the
// books hold together and that no key had two effects.
func TestConcurrentMovementsKeepTheBooks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(dbtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 24
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	f := &fixture{t: t, ctx: ctx, pool: pool, store: ledger.NewStore(pool)}
	type table struct {
		id      int64
		players []int64
	}
	var tables []table
	for range 3 {
		tbl := f.addTable(false, "Ann", "Bob", "Cy", "Dee")
		var ids []int64
		for _, p := range mustPlayers(t, pool, tbl.ID) {
			ids = append(ids, p.ID)
		}
		tables = append(tables, table{tbl.ID, ids})
	}
	const keys, workers, perWorker = 90, 16, 30
	request := func(k int) stressRequest {
		rng := rand.New(rand.NewPCG(uint64(k), 99))
		tb := tables[k%len(tables)]
		a := rng.IntN(len(tb.players))
		return stressRequest{table: tb.id, players: tb.players, op: rng.IntN(4), amount: 1 + rng.Int64N(9),
			a: a, b: (a + 1 + rng.IntN(len(tb.players)-1)) % len(tb.players)}
	}
	var (
		mu           sync.Mutex
		applied      = map[string]string{} // key -> transaction id of its effect
		appliedFresh = map[string]bool{}   // keys whose effect was applied, by whoever applied it
		replays      int
	)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for range perWorker {
				k := rng.IntN(keys)
				req := request(k)
				key := "k" + strconv.Itoa(k)
				hash := ledger.RequestHash([]byte(key))
				var body string
				var fresh bool
				err := f.store.InTx(ctx, func(tx pgx.Tx) error {
					fresh = false
					stored, err := ledger.Begin(ctx, tx, "stress", key, hash)
					if err != nil {
						return err
					}
					if stored != nil {
						body = string(stored.Body)
						return nil
					}
					txn, err := req.apply(ctx, tx)
					if err != nil {
						return err
					}
					body, fresh = strconv.FormatInt(txn.ID, 10), true
					return ledger.Save(ctx, tx, "stress", key, hash, 201, []byte(body), "text/plain")
				})
				switch {
				case errors.Is(err, ledger.ErrIdempotencyInFlight), errors.Is(err, ledger.ErrPotEmpty):
					time.Sleep(time.Millisecond) // a client would retry later
					continue
				case err != nil:
					t.Errorf("key %s: %v", key, err)
					return
				}
				mu.Lock()
				// A replay by another worker may be recorded here before the
				// worker that applied the key takes the mutex, so order says
				// nothing: a key applied fresh twice, or two different
				// answers for one key, is what a double effect looks like.
				if prev, seen := applied[key]; seen && prev != body {
					t.Errorf("key %s answered twice differently: transactions %s and %s", key, prev, body)
				}
				if fresh {
					if appliedFresh[key] {
						t.Errorf("key %s applied twice", key)
					}
					appliedFresh[key] = true
				} else {
					replays++
				}
				applied[key] = body
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	checkInvariants(t, ctx, pool)
	if n := f.count(`SELECT count(*) FROM journal_transactions`); n != int64(len(applied)) {
		t.Errorf("%d journal transactions for %d applied keys", n, len(applied))
	}
	if n := f.count(`SELECT count(*) FROM idempotency_keys k JOIN journal_transactions j ON j.id = convert_from(k.response_body, 'UTF8')::bigint`); n != int64(len(applied)) {
		t.Errorf("%d keys point at a journal transaction, want %d", n, len(applied))
	}
	t.Logf("%d keys applied, %d replays", len(applied), replays)
	if replays == 0 {
		t.Error("no key was ever replayed: the test did not exercise idempotency")
	}
}

// TestSameKeySubmittedAtOnce fires one idempotency key from many goroutines
// released together: exactly one submission applies; the others are told
// the request is in flight or get the stored response.
func TestSameKeySubmittedAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(dbtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 16
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	f := &fixture{t: t, ctx: ctx, pool: pool, store: ledger.NewStore(pool)}
	tbl := f.addTable(false, "Ann")
	ann := mustPlayers(t, pool, tbl.ID)[0].ID
	const bursts, submitters = 10, 12
	for burst := range bursts {
		key := fmt.Sprintf("burst-%d", burst)
		hash := ledger.RequestHash([]byte(key))
		start := make(chan struct{})
		var wg sync.WaitGroup
		var mu sync.Mutex
		counts := map[string]int{}
		for range submitters {
			wg.Go(func() {
				<-start
				outcome := "fresh"
				err := f.store.InTx(ctx, func(tx pgx.Tx) error {
					stored, err := ledger.Begin(ctx, tx, "burst", key, hash)
					if err != nil || stored != nil {
						outcome = "replay"
						return err
					}
					outcome = "fresh"
					if _, err := ledger.Deposit(ctx, tx, tbl.ID, ann, 1); err != nil {
						return err
					}
					return ledger.Save(ctx, tx, "burst", key, hash, 201, nil, "")
				})
				if errors.Is(err, ledger.ErrIdempotencyInFlight) {
					outcome = "in flight"
				} else if err != nil {
					t.Error(err)
				}
				mu.Lock()
				counts[outcome]++
				mu.Unlock()
			})
		}
		close(start)
		wg.Wait()
		if counts["fresh"] != 1 || counts["fresh"]+counts["replay"]+counts["in flight"] != submitters {
			t.Fatalf("burst %d: outcomes %v, want exactly one fresh", burst, counts)
		}
	}
	if got := f.count(`SELECT balance FROM accounts WHERE player_id = $1`, ann); got != bursts {
		t.Fatalf("Ann's balance %d, want %d (one deposit per key)", got, bursts)
	}
	checkInvariants(t, ctx, pool)
}
