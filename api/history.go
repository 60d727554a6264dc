package api

import (
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger/play"
)

// eventView is one audit-log event as the API shows it.
type eventView struct {
	Seq       int64           `json:"seq"`
	Kind      string          `json:"kind"`
	Payload   json.RawMessage `json:"payload"`
	CreatedAt time.Time       `json:"createdAt"`
	PrevHash  string          `json:"prevHash"`
	Hash      string          `json:"hash"`
}

// eventPage is one page of the event log.
type eventPage struct {
	Events []eventView `json:"events"`
	Next   string      `json:"next,omitempty"`
}

// listEvents serves GET /v1/tables/:tableId/events. The cursor is the last
// sequence number seen, so a page never shifts when new events arrive.
func (s *server) listEvents(c echo.Context) error {
	after := int64(0)
	if raw := c.QueryParam("after"); raw != "" {
		v, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || v < 0 {
			return fail(kindMalformed, "after must be a cursor from a previous page's next")
		}
		after = v
	}
	limit := 100
	if raw := c.QueryParam("limit"); raw != "" {
		v, err := strconv.Atoi(raw)
		if err != nil || v < 1 || v > 500 {
			return fail(kindMalformed, "limit must be a whole number from 1 to 500")
		}
		limit = v
	}
	events, err := db.EventList(c.Request().Context(), s.pool, principal(c).TableID, after)
	if err != nil {
		return err
	}
	round, sealed, err := play.SealedActions(c.Request().Context(), s.pool, principal(c))
	if err != nil {
		return err
	}
	page := eventPage{Events: []eventView{}}
	for i, e := range events {
		if i == limit {
			page.Next = strconv.FormatInt(events[i-1].Seq, 10)
			break
		}
		page.Events = append(page.Events, eventView{Seq: e.Seq, Kind: e.Kind, Payload: withheld(e, round, sealed),
			CreatedAt: e.CreatedAt, PrevHash: hex.EncodeToString(e.PrevHash), Hash: hex.EncodeToString(e.Hash)})
	}
	return c.JSON(http.StatusOK, page)
}

// withheld is an event's payload as the caller may read it: a round action
// that is a closed throw still sealed from the caller shows only its round
// and sequence number (and sealed: true) until the round reveals it, so the
// log cannot unseal what GET round hides. Its hash is of the full payload
// and can be checked once the round is over.
func withheld(e db.Event, round int, sealed map[int]bool) json.RawMessage {
	if e.Kind != "round.action" || len(sealed) == 0 {
		return e.Payload
	}
	var ref struct {
		Round int `json:"round"`
		Seq   int `json:"seq"`
	}
	if err := json.Unmarshal(e.Payload, &ref); err != nil || ref.Round != round || !sealed[ref.Seq] {
		return e.Payload
	}
	out, _ := json.Marshal(map[string]any{"round": ref.Round, "seq": ref.Seq, "sealed": true})
	return out
}

// auditTable serves GET /v1/tables/:tableId/audit.
func (s *server) auditTable(c echo.Context) error {
	rep, err := play.Audit(c.Request().Context(), s.pool, principal(c).TableID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rep)
}
