package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db/dbtest"
)

// raceBuild are go build's flags for the tallyd these tests start: -race
// when the tests run with it (race_test.go).
var raceBuild []string

// instances are two tallyd processes, A and B, serving one database with
// one secret, as several instances behind a load balancer do.
type instances struct {
	a, b phone
	// db reads the rows directly, as the runtime role, where the API has
	// no answer to count with (how many tables a name has).
	db *pgxpool.Pool
}

// startInstances builds tallyd and starts A and B on a fresh database,
// migrated by its owner and served as the runtime role, with one secret
// file: the seals and the Idempotency-Keys' HMACs are the same on both.
func startInstances(t *testing.T) *instances {
	t.Helper()
	bin := buildTallyd(t, raceBuild...)
	dsn := dbtest.DSN(t)
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	secretFile := filepath.Join(t.TempDir(), "secret.key")
	if err := os.WriteFile(secretFile, []byte(hex.EncodeToString(secret)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"--database-url", dsn, "--migrate-database-url", dbtest.OwnerDSN(t, dsn), "--secret-file", secretFile,
		"--db-max-conns", "10"}
	a, stopA := startTallyd(t, bin, t.TempDir(), args...)
	t.Cleanup(stopA)
	b, stopB := startTallyd(t, bin, t.TempDir(), args...)
	t.Cleanup(stopB)
	// The test counts across the whole database, as no request does: as
	// the owner, outside the routing check.
	pool, err := pgxpool.New(context.Background(), dbtest.OwnerDSN(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return &instances{a: newPhone(a), b: newPhone(b), db: pool}
}

// count runs a query counting rows.
func (in *instances) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	if err := in.db.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// TestSeveralInstances starts two tallyd processes on one database and
// plays against both: what one writes, the other announces, replays and
// waits for, and a night whose phones a balancer sends to one and the
// other in turn keeps its books in order.
func TestSeveralInstances(t *testing.T) {
	t.Parallel()
	in := startInstances(t)
	t.Run("live stream", func(t *testing.T) { t.Parallel(); liveAcrossInstances(t, in) })
	t.Run("idempotency", func(t *testing.T) { t.Parallel(); replayAcrossInstances(t, in) })
	t.Run("in flight", func(t *testing.T) { t.Parallel(); inFlightAcrossInstances(t, in) })
	t.Run("concurrent writers", func(t *testing.T) { t.Parallel(); writersAcrossInstances(t, in) })
	t.Run("balancer", func(t *testing.T) { t.Parallel(); nightBehindBalancer(t, in) })
}

// liveAcrossInstances: a phone listening on B hears of a write made on A
// at once, with the head the write answered, and the other way round.
func liveAcrossInstances(t *testing.T, in *instances) {
	m := in.a.makeTable(t, "live", "Ann", "Bob")
	var joined struct{ PlayerToken string }
	in.b.must(t, http.StatusCreated, call{method: http.MethodPost, path: "/v1/join", key: newKey(),
		body: map[string]any{"code": m.JoinCode, "name": "Bob"}}, &joined)
	onB := in.b.watch(t, m, joined.PlayerToken)
	onA := in.a.watch(t, m, m.HostToken)

	started := in.a.must(t, http.StatusCreated, call{method: http.MethodPost, path: m.path("/rounds"), token: m.HostToken, key: newKey()}, nil)
	onB.reaches(t, started.head())
	onA.reaches(t, started.head())

	deposit := in.b.must(t, http.StatusCreated, call{method: http.MethodPost, path: m.path("/deposits"), token: m.HostToken, key: newKey(),
		body: map[string]any{"player": m.player(t, "Ann"), "amount": 5}}, nil)
	onA.reaches(t, deposit.head())
	onB.reaches(t, deposit.head())
}

// replayAcrossInstances: a write sent to A and sent again to B, with the
// same Idempotency-Key and body, is applied once and B answers A's answer:
// a write at a table, making a table (whose keys are kept under no table)
// and joining with the code.
func replayAcrossInstances(t *testing.T, in *instances) {
	// Making a table.
	key, body := newKey(), tableBody("made once", "Ann", "Bob")
	first := in.a.must(t, http.StatusCreated, call{method: http.MethodPost, path: "/v1/tables", key: key, body: body}, nil)
	again := in.b.must(t, http.StatusCreated, call{method: http.MethodPost, path: "/v1/tables", key: key, body: body}, nil)
	sameAnswer(t, "making a table", first, again)
	if n := in.count(t, "SELECT count(*) FROM tables WHERE name = 'made once'"); n != 1 {
		t.Fatalf("a table made on A and again on B with one key: %d tables", n)
	}
	m := in.a.makeTable(t, "replays", "Ann", "Bob")

	// Joining with the code.
	key, body = newKey(), map[string]any{"code": m.JoinCode, "name": "Dee"}
	first = in.a.must(t, http.StatusCreated, call{method: http.MethodPost, path: "/v1/join", key: key, body: body}, nil)
	again = in.b.must(t, http.StatusCreated, call{method: http.MethodPost, path: "/v1/join", key: key, body: body}, nil)
	sameAnswer(t, "joining", first, again)

	// A buy-in at the table.
	key, body = newKey(), map[string]any{"player": m.player(t, "Ann"), "amount": 7}
	first = in.a.must(t, http.StatusCreated, call{method: http.MethodPost, path: m.path("/deposits"), token: m.HostToken, key: key, body: body}, nil)
	again = in.b.must(t, http.StatusCreated, call{method: http.MethodPost, path: m.path("/deposits"), token: m.HostToken, key: key, body: body}, nil)
	sameAnswer(t, "a buy-in", first, again)
	if again.head() != first.head() {
		t.Errorf("B's replay carries the head %s, the table's is %s", again.head(), first.head())
	}
	// The key, on B, for another request is refused as it is on A.
	other := in.b.send(t, call{method: http.MethodPost, path: m.path("/deposits"), token: m.HostToken, key: key,
		body: map[string]any{"player": m.player(t, "Ann"), "amount": 8}})
	if other.status != http.StatusUnprocessableEntity {
		t.Fatalf("the key of A's buy-in for another on B: %d %s", other.status, other.body)
	}

	kinds := in.b.eventKinds(t, m)
	if kinds["player.joined"] != 1 || kinds["ledger.deposit"] != 1 {
		t.Fatalf("after one join and one buy-in, each sent to A and to B, the history has %v", kinds)
	}
	if got := in.a.balances(t, m); got["Ann"] != 7 || got["Dee"] != 0 {
		t.Fatalf("balances: %v", got)
	}
	in.b.auditOK(t, m, first.head())
}

// sameAnswer checks that again, the same request sent again (to the
// other instance), replayed exactly what first answered.
func sameAnswer(t *testing.T, what string, first, again answer) {
	t.Helper()
	if first.replayed() || !again.replayed() || again.status != first.status || string(again.body) != string(first.body) {
		t.Fatalf("%s answered %d (replayed %v) %s\nand sent again %d (replayed %v) %s", what,
			first.status, first.replayed(), first.body, again.status, again.replayed(), again.body)
	}
}

// inFlightAcrossInstances sends each keyed write to A and to B at the same
// moment: one of the two applies it, and the other waits for it and
// replays its answer, whichever instance each landed on.
func inFlightAcrossInstances(t *testing.T, in *instances) {
	const pairs = 20
	m := in.a.makeTable(t, "in flight", "Ann", "Bob")
	ann := m.player(t, "Ann")
	both := func(n int, c func(i int) call) [][2]answer {
		out := make([][2]answer, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			for j, p := range []phone{in.a, in.b} {
				wg.Go(func() {
					<-start
					out[i][j] = p.send(t, c(i))
				})
			}
		}
		close(start)
		wg.Wait()
		return out
	}

	keys := make([]string, 3*pairs)
	for i := range keys {
		keys[i] = newKey()
	}
	buyIns := both(pairs, func(i int) call {
		return call{method: http.MethodPost, path: m.path("/deposits"), token: m.HostToken, key: keys[i],
			body: map[string]any{"player": ann, "amount": 1}}
	})
	joins := both(pairs/2, func(i int) call {
		return call{method: http.MethodPost, path: "/v1/join", key: keys[pairs+i],
			body: map[string]any{"code": m.JoinCode, "name": fmt.Sprintf("P%d", i)}}
	})
	made := both(pairs/2, func(i int) call {
		return call{method: http.MethodPost, path: "/v1/tables", key: keys[2*pairs+i],
			body: tableBody(fmt.Sprintf("in flight %d", i), "Ann")}
	})
	for what, answers := range map[string][][2]answer{"a buy-in": buyIns, "a join": joins, "making a table": made} {
		for i, pair := range answers {
			oneApplied(t, fmt.Sprintf("%s (pair %d)", what, i), pair)
		}
	}
	if got := in.a.balances(t, m); got["Ann"] != pairs {
		t.Fatalf("%d buy-ins of 1, each sent to A and B at once: Ann has %d", pairs, got["Ann"])
	}
	if kinds := in.b.eventKinds(t, m); kinds["ledger.deposit"] != pairs || kinds["player.joined"] != pairs/2 {
		t.Fatalf("%d buy-ins and %d joins, each sent to A and B at once: the history has %v", pairs, pairs/2, kinds)
	}
	if n := in.count(t, "SELECT count(*) FROM tables WHERE name LIKE 'in flight %'"); n != pairs/2 {
		t.Fatalf("%d tables made, each sent to A and B at once: %d tables", pairs/2, n)
	}
	in.a.auditOK(t, m, "")
}

// oneApplied checks a pair of answers to the same keyed write: both
// 201, one applied, one replayed, the same body.
func oneApplied(t *testing.T, what string, pair [2]answer) {
	t.Helper()
	a, b := pair[0], pair[1]
	if a.status != http.StatusCreated || b.status != http.StatusCreated || a.replayed() == b.replayed() ||
		string(a.body) != string(b.body) {
		t.Fatalf("%s sent to A and B at once: A %d (replayed %v) %s\nB %d (replayed %v) %s", what,
			a.status, a.replayed(), a.body, b.status, b.replayed(), b.body)
	}
}

// writersAcrossInstances: many different writes to one table, sent to A
// and B at once, are all applied, one after another, on one unbroken
// chain.
func writersAcrossInstances(t *testing.T, in *instances) {
	const writes = 40
	m := in.a.makeTable(t, "writers", "Ann", "Bob", "Cy")
	ids := []int64{m.player(t, "Ann"), m.player(t, "Bob"), m.player(t, "Cy")}
	out := make([]answer, writes)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range writes {
		p := []phone{in.a, in.b}[i%2]
		c := call{method: http.MethodPost, path: m.path("/deposits"), token: m.HostToken, key: newKey(),
			body: map[string]any{"player": ids[i%3], "amount": 2}}
		if i%4 == 1 {
			c.path, c.body = m.path("/payments"), map[string]any{"from": ids[i%3], "to": ids[(i+1)%3], "amount": 1}
		}
		wg.Go(func() {
			<-start
			out[i] = p.send(t, c)
		})
	}
	close(start)
	wg.Wait()
	for i, a := range out {
		if a.status != http.StatusCreated || a.replayed() {
			t.Fatalf("write %d of %d sent to A and B at once: %d (replayed %v) %s", i, writes, a.status, a.replayed(), a.body)
		}
	}
	kinds := in.b.eventKinds(t, m)
	if kinds["ledger.deposit"]+kinds["ledger.settlement"] != writes {
		t.Fatalf("%d writes applied, the history has %v", writes, kinds)
	}
	in.b.auditOK(t, m, "")
}
