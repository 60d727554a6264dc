package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/db"
)

// notice tells a phone that its table changed: it then refetches what it
// shows, which keeps sealed rolls sealed (each phone reads its own view).
type notice struct {
	Seq  int64  `json:"seq"`
	Kind string `json:"kind"`
}

// hub fans PostgreSQL's event notifications (db.EventChannel) out to the
// phones watching each table. It listens only while someone is watching.
type hub struct {
	pool *pgxpool.Pool
	log  *slog.Logger

	mu     sync.Mutex
	subs   map[int64]map[chan notice]struct{}
	count  int
	cancel context.CancelFunc // stops the listener; nil when none runs
	ready  chan struct{}      // closed once the listener's LISTEN is in force
}

func newHub(pool *pgxpool.Pool, log *slog.Logger) *hub {
	return &hub{pool: pool, log: log, subs: map[int64]map[chan notice]struct{}{}}
}

// subscribe watches a table until the returned function is called. The
// ready channel is closed once notifications are being listened for:
// anything committed after that reaches ch.
func (h *hub) subscribe(tableID int64) (<-chan notice, <-chan struct{}, func()) {
	ch := make(chan notice, 16)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[tableID] == nil {
		h.subs[tableID] = map[chan notice]struct{}{}
	}
	h.subs[tableID][ch] = struct{}{}
	h.count++
	if h.cancel == nil {
		ctx, cancel := context.WithCancel(context.Background())
		h.cancel, h.ready = cancel, make(chan struct{})
		go h.listen(ctx, h.ready)
	}
	return ch, h.ready, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.subs[tableID], ch)
		if len(h.subs[tableID]) == 0 {
			delete(h.subs, tableID)
		}
		if h.count--; h.count == 0 && h.cancel != nil {
			h.cancel()
			h.cancel = nil
		}
	}
}

// listen holds one connection in LISTEN until ctx ends, reconnecting after
// failures. Phones that miss a notice during a reconnect catch up on their
// next refetch, which the stream's periodic "sync" event prompts.
func (h *hub) listen(ctx context.Context, ready chan struct{}) {
	var once sync.Once
	markReady := func() { once.Do(func() { close(ready) }) }
	for backoff := 100 * time.Millisecond; ctx.Err() == nil; backoff = min(2*backoff, 5*time.Second) {
		err := h.listenOnce(ctx, markReady)
		if ctx.Err() != nil {
			return
		}
		h.log.Warn("live updates: listener lost its connection", "err", err, "retry_in", backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
	}
}

func (h *hub) listenOnce(ctx context.Context, listening func()) error {
	conn, err := h.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "LISTEN "+db.EventChannel); err != nil {
		return err
	}
	listening()
	defer func() {
		// The connection goes back to the pool: stop listening on it first.
		_, _ = conn.Exec(context.Background(), "UNLISTEN "+db.EventChannel)
	}()
	for {
		n, err := conn.Conn().WaitForNotification(ctx)
		if err != nil {
			return err
		}
		tableID, seq, kind, err := db.ParseEventNotice(n.Payload)
		if err != nil {
			h.log.Warn("live updates: unreadable notice", "err", err)
			continue
		}
		h.publish(tableID, notice{Seq: seq, Kind: kind})
	}
}

// publish hands a notice to every watcher of the table without waiting: a
// watcher whose buffer is full is behind anyway and will refetch.
func (h *hub) publish(tableID int64, n notice) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs[tableID] {
		select {
		case ch <- n:
		default:
		}
	}
}

// syncEvery is how often a stream sends a "sync" event with the latest
// sequence number, so a phone that missed a notice catches up and proxies
// keep the connection open.
const syncEvery = 15 * time.Second

// stream serves GET /v1/tables/:tableId/stream as server-sent events: a
// "change" event for every change of the table, and a "sync" event on
// connect and every syncEvery with the latest event's sequence number.
func (s *server) stream(c echo.Context) error {
	tableID := principal(c).TableID
	ch, ready, stop := s.hub.subscribe(tableID)
	defer stop()
	// The first sync is sent once changes are listened for, so a change
	// committed after it can never be missed. Without a database answering,
	// the stream still opens and the periodic sync keeps the phone current.
	select {
	case <-ready:
	case <-time.After(5 * time.Second):
	case <-c.Request().Context().Done():
		return nil
	}
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, "text/event-stream")
	w.Header().Set(echo.HeaderCacheControl, "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	ctx := c.Request().Context()
	sync := func() error {
		seq := int64(0)
		if last, err := db.EventLast(ctx, s.pool, tableID); err == nil {
			seq = last.Seq
		}
		return sendEvent(w, "sync", seq, notice{Seq: seq, Kind: "sync"})
	}
	if err := sync(); err != nil {
		return nil
	}
	tick := time.NewTicker(syncEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.done:
			return nil
		case n := <-ch:
			if sendEvent(w, "change", n.Seq, n) != nil {
				return nil
			}
		case <-tick.C:
			if sync() != nil {
				return nil
			}
		}
	}
}

// sendEvent writes one server-sent event and flushes it.
func sendEvent(w *echo.Response, event string, id int64, n notice) error {
	if _, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: {\"seq\":%d,\"kind\":%q}\n\n", id, event, n.Seq, n.Kind); err != nil {
		return err
	}
	w.Flush()
	return nil
}
