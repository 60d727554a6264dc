package api

import (
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// syncEvery is how often a stream sends a "sync" event with the chain
// head, so a phone that missed a notice catches up, proxies keep the
// connection open, and a revoked token loses its stream (Config.StreamSync
// changes it for tests).
const syncEvery = 15 * time.Second

// stream serves GET /v1/tables/:tableId/stream as server-sent events: a
// "change" event for every change of the table, and a "sync" event on
// connect and every syncEvery with the latest event's sequence number. A
// change event only says that the table changed: the phone then reads what
// it shows again, which keeps sealed rolls sealed (each phone reads its own
// view).
func (s *server) stream(c echo.Context) error {
	ctx := c.Request().Context()
	notices, ready, stop, head, err := s.tables.Watch(ctx, auth(c))
	if err != nil {
		return err
	}
	defer stop()
	// The first sync is sent once changes are listened for, so a change
	// committed after it can never be missed. Without a database answering,
	// the stream still opens and the periodic sync keeps the phone current.
	select {
	case <-ready:
	case <-time.After(5 * time.Second):
	case <-ctx.Done():
		return nil
	}
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, "text/event-stream")
	w.Header().Set(echo.HeaderCacheControl, "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// Each sync authenticates the token again: a token revoked since the
	// stream opened (a seat released or left) ends it within syncEvery.
	// A database that does not answer keeps the stream, on its last head.
	sync := func() error {
		last, err := s.tables.Head(ctx, auth(c))
		switch {
		case err == nil:
			head = last
		case !errors.Is(err, table.ErrUnavailable):
			_, _ = fmt.Fprint(w, "event: revoked\ndata: {\"kind\":\"revoked\"}\n\n")
			w.Flush()
			return err
		}
		return sendEvent(w, "sync", table.Notice{Seq: head.Seq, Hash: hex.EncodeToString(head.Hash), Kind: "sync"})
	}
	if err := sync(); err != nil {
		return nil
	}
	tick := time.NewTicker(s.syncEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.done:
			return nil
		case n := <-notices:
			if sendEvent(w, "change", n) != nil {
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
func sendEvent(w *echo.Response, event string, n table.Notice) error {
	if _, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: {\"seq\":%d,\"hash\":%q,\"kind\":%q}\n\n", n.Seq, event, n.Seq, n.Hash, n.Kind); err != nil {
		return err
	}
	w.Flush()
	return nil
}
