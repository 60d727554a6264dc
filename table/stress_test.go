package table

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/seal"
)

// stressRequest is what one idempotency key asks for. It is derived from
// the key alone, so every submission of a key is the same request.
type stressRequest struct {
	table   int
	op      int
	amount  int64
	a, b    int
	players []game.PlayerID
}

// send makes the request at its table with its key.
func (r stressRequest) send(ctx context.Context, svc *Service, host Auth, key string) (Reply, error) {
	k := keyed(key, []byte(key), 201)
	switch r.op {
	case 0:
		return svc.Deposit(ctx, host, k, CashInput{Player: r.players[r.a], Amount: r.amount})
	case 1:
		return svc.Withdraw(ctx, host, k, CashInput{Player: r.players[r.a], Amount: r.amount})
	case 2:
		return svc.Pay(ctx, host, k, PaymentInput{From: r.players[r.a], To: r.players[r.b], Amount: r.amount})
	default:
		return svc.Pay(ctx, host, k, PaymentInput{From: 0, To: r.players[r.a], Amount: r.amount})
	}
}

// stressPool is a pool of the given size on a fresh database.
func stressPool(t *testing.T, size int32) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(dbtest.DSN(t))
	noErr(t, err)
	cfg.MaxConns = size
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	noErr(t, err)
	t.Cleanup(pool.Close)
	return pool
}

// TestConcurrentMovementsKeepTheBooks runs many goroutines recording
// buy-ins, cash-outs and payments with idempotency keys on a few shared
// tables, submitting the same keys concurrently, and then checks that the
// books hold together and that no key had two effects.
func TestConcurrentMovementsKeepTheBooks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := stressPool(t, 24)
	f := &fixture{t: t, ctx: ctx, pool: pool, svc: New(pool, seal.Random(), nil)}
	type seated struct {
		host    Auth
		players []game.PlayerID
	}
	var tables []seated
	for range 3 {
		f.addTable(NewTable{Preset: "bar", Players: []string{"Ann", "Bob", "Cy", "Dee"}})
		tables = append(tables, seated{f.host, f.players})
	}
	const keys, workers, perWorker = 90, 16, 30
	request := func(k int) stressRequest {
		rng := rand.New(rand.NewPCG(uint64(k), 99))
		tb := k % len(tables)
		n := len(tables[tb].players)
		a := rng.IntN(n)
		return stressRequest{table: tb, players: tables[tb].players, op: rng.IntN(4), amount: 1 + rng.Int64N(9),
			a: a, b: (a + 1 + rng.IntN(n-1)) % n}
	}
	var (
		mu           sync.Mutex
		answers      = map[string]string{} // key -> the body it was answered with
		appliedFresh = map[string]bool{}   // keys whose effect was applied
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
				r, err := req.send(ctx, f.svc, tables[req.table].host, key)
				if err != nil {
					t.Errorf("key %s: %v", key, err)
					return
				}
				mu.Lock()
				if prev, seen := answers[key]; seen && prev != string(r.Answer.Body) {
					t.Errorf("key %s answered twice differently:\n%s\n%s", key, prev, r.Answer.Body)
				}
				if !r.Replayed {
					if appliedFresh[key] {
						t.Errorf("key %s applied twice", key)
					}
					appliedFresh[key] = true
				} else {
					replays++
				}
				answers[key] = string(r.Answer.Body)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	checkInvariants(t, ctx, pool)
	if n := f.countAll(`SELECT count(*) FROM journal_transactions`); n != int64(len(appliedFresh)) {
		t.Errorf("%d journal transactions for %d applied keys", n, len(appliedFresh))
	}
	if n := f.countAll(`SELECT count(*) FROM idempotency_keys`); n != int64(len(appliedFresh)) {
		t.Errorf("%d keys stored for %d applied", n, len(appliedFresh))
	}
	t.Logf("%d keys applied, %d replays", len(appliedFresh), replays)
	if replays == 0 {
		t.Error("no key was ever replayed: the test did not exercise idempotency")
	}
}

// TestSameKeySubmittedAtOnce fires one idempotency key from many goroutines
// released together: exactly one submission applies; the others wait for
// it and get its answer.
func TestSameKeySubmittedAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := stressPool(t, 16)
	f := &fixture{t: t, ctx: ctx, pool: pool, svc: New(pool, seal.Random(), nil)}
	f.addTable(NewTable{Players: []string{"Ann"}})
	const bursts, submitters = 10, 12
	for burst := range bursts {
		key := fmt.Sprintf("burst-%d", burst)
		start := make(chan struct{})
		var wg sync.WaitGroup
		var mu sync.Mutex
		counts := map[string]int{}
		for range submitters {
			wg.Go(func() {
				<-start
				r, err := f.svc.Deposit(ctx, f.host, keyed(key, []byte(key), 201),
					CashInput{Player: f.players[0], Amount: 1})
				outcome := "fresh"
				switch {
				case err != nil:
					t.Error(err)
					outcome = "failed"
				case r.Replayed:
					outcome = "replay"
				}
				mu.Lock()
				counts[outcome]++
				mu.Unlock()
			})
		}
		close(start)
		wg.Wait()
		if counts["fresh"] != 1 || counts["replay"] != submitters-1 {
			t.Fatalf("burst %d: outcomes %v, want exactly one fresh and the rest replays", burst, counts)
		}
	}
	if got := f.count(`SELECT balance FROM accounts WHERE table_id = $1 AND player_id = $2`, f.host.TableID, f.players[0]); got != bursts {
		t.Fatalf("Ann's balance %d, want %d (one deposit per key)", got, bursts)
	}
	checkInvariants(t, ctx, pool)
}

// TestWritesRetryConcurrencyAborts: a write that PostgreSQL aborts because
// of another transaction (a serialization failure, a deadlock) runs again
// from the start, so it never reaches the caller as an error and never
// applies twice; one that keeps failing is reported as the database being
// unavailable.
func TestWritesRetryConcurrencyAborts(t *testing.T) {
	t.Parallel()
	f := newFixture(t, NewTable{Players: []string{"Ann"}})
	for _, code := range []string{"40001", "40P01"} {
		attempts := 0
		_, err := f.svc.write(f.ctx, tokenTarget(f.host), answered(201), func(w *writer) (any, error) {
			attempts++
			if attempts < 3 {
				_, err := w.conn.Exec(w.ctx, `DO $$ BEGIN RAISE EXCEPTION 'simulated' USING ERRCODE = '`+code+`'; END $$`)
				return nil, err
			}
			e, err := entryDeposit(f.players[0])
			if err != nil {
				return nil, err
			}
			return nil, w.post(e)
		})
		if err != nil || attempts != 3 {
			t.Errorf("%s: err %v after %d attempts, want success on the third", code, err, attempts)
		}
	}
	if got := f.count(`SELECT balance FROM accounts WHERE table_id = $1 AND player_id = $2`, f.host.TableID, f.players[0]); got != 2 {
		t.Fatalf("Ann's balance %d, want 2: each deposit committed once", got)
	}
	attempts := 0
	_, err := f.svc.write(f.ctx, tokenTarget(f.host), Key{}, func(w *writer) (any, error) {
		attempts++
		_, err := w.conn.Exec(w.ctx, `DO $$ BEGIN RAISE EXCEPTION 'always' USING ERRCODE = '40001'; END $$`)
		return nil, err
	})
	if !errors.Is(err, ErrUnavailable) || attempts != maxAttempts {
		t.Fatalf("err %v after %d attempts, want ErrUnavailable after %d", err, attempts, maxAttempts)
	}
	checkInvariants(t, f.ctx, f.pool)
}
