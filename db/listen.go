package db

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// channel is the PostgreSQL NOTIFY channel that announces changes to
// tables, so that every tallyd serving a table can tell its phones at once.
const channel = "tally_events"

// Notice says a table changed: its audit log now ends at Seq, whose hash
// is Hash (hex), an event of kind Kind.
type Notice struct {
	Seq  int64
	Hash string
	Kind string
}

// parseNotice reads a notification sent by TableAppend.
func parseNotice(payload string) (int64, Notice, error) {
	parts := strings.SplitN(payload, ":", 4)
	if len(parts) != 4 {
		return 0, Notice{}, fmt.Errorf("notice %q: want table:seq:hash:kind", payload)
	}
	tableID, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil {
		return 0, Notice{}, fmt.Errorf("notice %q: %w", payload, err)
	}
	seq, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return 0, Notice{}, fmt.Errorf("notice %q: %w", payload, err)
	}
	return tableID, Notice{Seq: seq, Hash: parts[2], Kind: parts[3]}, nil
}

// Listener fans the notifications out to whoever watches each table. It
// holds one connection in LISTEN, and only while someone is watching.
type Listener struct {
	pool *pgxpool.Pool
	log  *slog.Logger

	mu     sync.Mutex
	subs   map[int64]map[chan Notice]struct{}
	count  int
	cancel context.CancelFunc // stops the listening; nil when none runs
	ready  chan struct{}      // closed once LISTEN is in force
}

// NewListener makes a listener on pool.
func NewListener(pool *pgxpool.Pool, log *slog.Logger) *Listener {
	return &Listener{pool: pool, log: log, subs: map[int64]map[chan Notice]struct{}{}}
}

// Subscribe watches a table until the returned function is called. The
// ready channel is closed once notifications are being listened for:
// anything committed after that reaches the notice channel. A watcher that
// falls behind misses notices rather than holding anyone up.
func (l *Listener) Subscribe(tableID int64) (<-chan Notice, <-chan struct{}, func()) {
	ch := make(chan Notice, 16)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.subs[tableID] == nil {
		l.subs[tableID] = map[chan Notice]struct{}{}
	}
	l.subs[tableID][ch] = struct{}{}
	l.count++
	if l.cancel == nil {
		ctx, cancel := context.WithCancel(context.Background())
		l.cancel, l.ready = cancel, make(chan struct{})
		go l.listen(ctx, l.ready)
	}
	return ch, l.ready, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		delete(l.subs[tableID], ch)
		if len(l.subs[tableID]) == 0 {
			delete(l.subs, tableID)
		}
		if l.count--; l.count == 0 && l.cancel != nil {
			l.cancel()
			l.cancel = nil
		}
	}
}

// listen holds one connection in LISTEN until ctx ends, reconnecting after
// failures. Watchers that miss a notice during a reconnect catch up on
// their next read.
func (l *Listener) listen(ctx context.Context, ready chan struct{}) {
	var once sync.Once
	markReady := func() { once.Do(func() { close(ready) }) }
	for backoff := 100 * time.Millisecond; ctx.Err() == nil; backoff = min(2*backoff, 5*time.Second) {
		err := l.listenOnce(ctx, markReady)
		if ctx.Err() != nil {
			return
		}
		l.log.Warn("live updates: listener lost its connection", "err", err, "retry_in", backoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
	}
}

func (l *Listener) listenOnce(ctx context.Context, listening func()) error {
	conn, err := l.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	listening()
	defer func() {
		// The connection goes back to the pool: stop listening on it first.
		_, _ = conn.Exec(context.Background(), "UNLISTEN "+channel)
	}()
	for {
		n, err := conn.Conn().WaitForNotification(ctx)
		if err != nil {
			return err
		}
		tableID, notice, err := parseNotice(n.Payload)
		if err != nil {
			l.log.Warn("live updates: unreadable notice", "err", err)
			continue
		}
		l.publish(tableID, notice)
	}
}

// publish hands a notice to every watcher of the table without waiting.
func (l *Listener) publish(tableID int64, n Notice) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for ch := range l.subs[tableID] {
		select {
		case ch <- n:
		default:
		}
	}
}
