package api

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

// The round-trip budget of a request (issue: "the write path"): a whole
// turn or one action at most 4, starting or settling a round at most 6.
const (
	budgetTurn   = 4
	budgetSettle = 6
)

// wire counts what crosses the connection to PostgreSQL: a round trip is a
// read that follows writes (the server answering what was sent), whatever
// the driver does between them.
type wire struct {
	mu         sync.Mutex
	roundTrips int
	statements int
	wrote      bool
}

func (w *wire) add(stmts int) {
	w.mu.Lock()
	w.statements += stmts
	w.mu.Unlock()
}

func (w *wire) counts() (int, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.roundTrips, w.statements
}

type countedConn struct {
	net.Conn
	w *wire
}

func (c countedConn) Write(b []byte) (int, error) {
	c.w.mu.Lock()
	c.w.wrote = true
	c.w.mu.Unlock()
	return c.Conn.Write(b)
}

// Read counts a round trip when an answer arrives after something was
// written. It looks once the read returns, not when it begins: pgx may be
// reading already (its background reader) when it writes the next batch,
// and the answer to that batch then ends a read that began before it.
func (c countedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.w.mu.Lock()
	if n > 0 && c.w.wrote {
		c.w.roundTrips++
		c.w.wrote = false
	}
	c.w.mu.Unlock()
	return n, err
}

// tracer counts the statements pgx sends: one per query, one per queued
// query of a batch.
type tracer struct{ w *wire }

func (t tracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	t.w.add(1)
	return ctx
}
func (tracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (tracer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return ctx
}
func (t tracer) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) { t.w.add(1) }
func (tracer) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)       {}

// measured is one request's cost.
type measured struct {
	what       string
	roundTrips int
	statements int
}

// TestRoundTripBudget plays a bar night through the API on one warm
// database connection and counts, for every request, the round trips to
// PostgreSQL and the statements sent. Whole turns and single actions must
// stay within budgetTurn round trips, starting a round and the turn that
// settles it within budgetSettle.
func TestRoundTripBudget(t *testing.T) {
	m := newMeter(t)
	client, pool := m.client, m.pool

	night := func() map[string]measured {
		m.reset()
		s := &scene{t: t, c: client, pool: pool, tb: makeTable(t, client, map[string]any{"preset": "bar",
			"players": []string{"Ann", "Bob", "Cy", "Dee"}})}
		bob := s.join("Bob")
		var eve struct{ ID int64 }
		s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/players"), token: s.tb.Host,
			body: map[string]any{"name": "Eve"}}, &eve)
		s.tb.Players["Eve"] = eve.ID
		rd := s.start(nil)
		settled := false
		for i := 0; i < 5 && !settled; i++ {
			now := s.round(s.tb.Host, 1)
			if now.Status == "settled" {
				break
			}
			if now.Turn == s.id("Bob") {
				s.act(bob, 1, roll(6, 5, 1, 1, 2))
				s.act(bob, 1, roll(4, 6, 5))
				rd = s.act(bob, 1, map[string]any{"kind": "stand"})
			} else {
				var name string
				for n, id := range s.tb.Players {
					if id == now.Turn {
						name = n
					}
				}
				rd = s.turn(1, name, []int{6, 5, 4, 3, 2})
			}
			settled = rd.Status == "settled"
		}
		if !settled {
			t.Fatalf("the round did not settle: %+v", rd)
		}
		s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host,
			body: map[string]any{"player": s.id("Ann"), "amount": 20}}, nil)
		s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/payments"), token: s.tb.Host,
			body: map[string]any{"from": s.id("Ann"), "to": s.id("Cy"), "amount": 1}}, nil)
		for _, p := range []string{"", "/rounds/1", "/rounds", "/balances", "/ledger", "/events", "/audit"} {
			s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("%s", p), token: s.tb.Host}, nil)
		}
		s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/close"), token: s.tb.Host}, nil)
		return classify(m.taken(), s.tb.ID)
	}
	night() // warm: the connection prepares its statements once
	costs := night()

	// A token the table does not know (its own id, a wrong secret) is
	// refused after the one round trip that reads the table, and one more
	// that asks why the table retired it (a freed seat, a host moved) with
	// the ROLLBACK: it reads no history, and sends no more statements than
	// the table's own page, a write one more (the lock, which takes
	// nothing). The connection prepares that question once (warm).
	s := &scene{t: t, c: client, pool: pool, tb: makeTable(t, client, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path(""), token: s.tb.Host}, nil)
	wrong := s.tb.Host[:len(s.tb.Host)-6] + "wrong0"
	s.must(http.StatusUnauthorized, req{method: http.MethodGet, path: s.tb.path("/rounds"), token: wrong}, nil)
	m.reset()
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path(""), token: s.tb.Host}, nil)
	for _, p := range []string{"/rounds", "/ledger", "/audit"} {
		s.must(http.StatusUnauthorized, req{method: http.MethodGet, path: s.tb.path("%s", p), token: wrong}, nil)
	}
	s.must(http.StatusUnauthorized, req{method: http.MethodPost, path: s.tb.path("/deposits"), token: wrong,
		body: map[string]any{"player": s.id("Ann"), "amount": 5}}, nil)
	strangers := m.taken()
	page := strangers[0]
	for _, r := range strangers[1:] {
		most := page.statements
		if strings.HasPrefix(r.what, http.MethodPost) {
			most++
		}
		if r.roundTrips > 2 || r.statements > most {
			t.Errorf("%s with an unknown token: %d round trips, %d statements (the table's page: %d, %d)",
				r.what, r.roundTrips, r.statements, page.roundTrips, page.statements)
		}
	}
	t.Logf("the most any request of each kind took:\n%s", report(costs))
	for name, budget := range map[string]int{
		"POST turn":             budgetTurn,
		"POST action":           budgetTurn,
		"POST turn (settles)":   budgetSettle,
		"POST action (settles)": budgetSettle,
		"POST start round":      budgetSettle,
	} {
		c, ok := costs[name]
		if !ok && !strings.Contains(name, "action (settles)") {
			t.Errorf("the night made no %q request", name)
		}
		if c.roundTrips > budget {
			t.Errorf("%s took %d round trips; the budget is %d", name, c.roundTrips, budget)
		}
		if ok && c.roundTrips == 0 {
			t.Errorf("%s took no round trip: the counter counts nothing", name)
		}
	}
	// Every turn and action of the night follows a write of this instance
	// to the same table (the round's start, or the turn before), so it is
	// decided on the state that write kept and takes one round trip: the
	// check that the table is as kept, the write and COMMIT sent together
	// (table/kept.go).
	for _, name := range []string{"POST turn", "POST action", "POST turn (settles)", "POST action (settles)"} {
		if c, ok := costs[name]; ok && c.roundTrips != 1 {
			t.Errorf("%s, after a write here to the same table, took %d round trips, not 1", name, c.roundTrips)
		}
	}
}

// meter is an API whose requests are measured: the round trips to
// PostgreSQL and the statements each took, on one warm connection.
type meter struct {
	client *client
	pool   *pgxpool.Pool
	mu     sync.Mutex
	log    []measured
}

// newMeter serves the API on a pool of one connection, so that sequential
// requests are measured alone and its statements are prepared once, as on
// a server that has been up.
func newMeter(t *testing.T) *meter {
	t.Helper()
	ctx := context.Background()
	w := &wire{}
	cfg, err := pgxpool.ParseConfig(dbtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 1
	cfg.ConnConfig.Tracer = tracer{w}
	dial := cfg.ConnConfig.DialFunc
	cfg.ConnConfig.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		return countedConn{c, w}, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	m := &meter{pool: pool}
	srv := New(Config{Tables: table.New(pool, seal.Random(), nil)})
	counted := echo.New()
	counted.Any("/*", func(c echo.Context) error {
		rt0, st0 := w.counts()
		srv.ServeHTTP(c.Response(), c.Request())
		rt1, st1 := w.counts()
		m.mu.Lock()
		m.log = append(m.log, measured{c.Request().Method + " " + c.Request().URL.Path, rt1 - rt0, st1 - st0})
		m.mu.Unlock()
		return nil
	})
	m.client = newClient(t, counted)
	return m
}

// reset forgets what was measured.
func (m *meter) reset() {
	m.mu.Lock()
	m.log = nil
	m.mu.Unlock()
}

// taken is what every request since the last reset took, in order.
func (m *meter) taken() []measured {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.log)
}

// report lists the most each kind of request took, by name.
func report(costs map[string]measured) string {
	names := make([]string, 0, len(costs))
	for name := range costs {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		c := costs[name]
		fmt.Fprintf(&b, "%-36s %d round trips, %2d statements\n", name, c.roundTrips, c.statements)
	}
	return b.String()
}

// classify names each request by what it did and keeps the most each kind
// took.
func classify(log []measured, tableID int64) map[string]measured {
	out := map[string]measured{}
	prefix := fmt.Sprintf("/v1/tables/%d", tableID)
	for i, m := range log {
		name := strings.Replace(m.what, prefix, "", 1)
		switch {
		case strings.HasSuffix(name, "/turns") || strings.HasSuffix(name, "/actions"):
			kind := "turn"
			if strings.HasSuffix(name, "/actions") {
				kind = "action"
			}
			// A request that settles the round is followed by reads of a
			// settled round; the scene looks at the answer instead.
			name = "POST " + kind
			if settles(log, i) {
				name += " (settles)"
			}
		case name == "POST /rounds":
			name = "POST start round"
		}
		if prev, ok := out[name]; !ok || m.roundTrips > prev.roundTrips || m.statements > prev.statements {
			out[name] = measured{name, max(m.roundTrips, prev.roundTrips), max(m.statements, prev.statements)}
		}
	}
	return out
}

// settles reports whether the turn or action at log[i] settled its round:
// the night reads the round after each, and only a settled round is
// followed by the deposit.
func settles(log []measured, i int) bool {
	for _, m := range log[i+1:] {
		switch {
		case strings.HasSuffix(m.what, "/deposits"):
			return true
		case strings.HasSuffix(m.what, "/turns"), strings.HasSuffix(m.what, "/actions"):
			return false
		}
	}
	return false
}
