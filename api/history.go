package api

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"math"
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
	// One more than a page says whether there is a next page.
	events, err := db.EventListPage(c.Request().Context(), s.pool, principal(c).TableID, after, limit+1)
	if err != nil {
		return err
	}
	round, sealed, err := play.SealedActions(c.Request().Context(), s.pool, principal(c))
	if err != nil {
		return err
	}
	unhashed, err := s.firstSealedEvent(c.Request().Context(), principal(c).TableID, events, after, round, sealed)
	if err != nil {
		return err
	}
	page := eventPage{Events: []eventView{}}
	for i, e := range events {
		if i == limit {
			page.Next = strconv.FormatInt(events[i-1].Seq, 10)
			break
		}
		v := eventView{Seq: e.Seq, Kind: e.Kind, Payload: withheld(e, round, sealed), CreatedAt: e.CreatedAt}
		if e.Seq < unhashed {
			v.PrevHash, v.Hash = hex.EncodeToString(e.PrevHash), hex.EncodeToString(e.Hash)
		}
		page.Events = append(page.Events, v)
	}
	return c.JSON(http.StatusOK, page)
}

// firstSealedEvent is the sequence number of the first event whose payload
// is withheld from the caller, or the largest int64 when none is. From that
// event on, the log shows no hashes until the round reveals: a closed throw
// has few possible faces (36 for two cargo dice), so the hash of its event,
// or of any later event chained to it, would let anyone try each and read
// the dice under the cup. events are those after the cursor after; when the
// page starts past the round's first sealed event, the log is read from the
// beginning to find it.
func (s *server) firstSealedEvent(ctx context.Context, tableID int64, events []db.Event, after int64, round int, sealed map[int]bool) (int64, error) {
	none := int64(math.MaxInt64)
	if len(sealed) == 0 {
		return none, nil
	}
	if after > 0 {
		all, err := db.EventList(ctx, s.pool, tableID, 0)
		if err != nil {
			return 0, err
		}
		events = all
	}
	for _, e := range events {
		if isSealed(e, round, sealed) {
			return e.Seq, nil
		}
	}
	return none, nil
}

// withheld is an event's payload as the caller may read it: a round action
// that is a closed throw still sealed from the caller shows only its round
// and sequence number (and sealed: true) until the round reveals it, so the
// log cannot unseal what GET round hides. Its hash is of the full payload
// and can be checked once the round is over.
func withheld(e db.Event, round int, sealed map[int]bool) json.RawMessage {
	ref, ok := sealedRef(e, round, sealed)
	if !ok {
		return e.Payload
	}
	out, _ := json.Marshal(map[string]any{"round": ref.Round, "seq": ref.Seq, "sealed": true})
	return out
}

// actionRef is what a round.action event's payload says about its action.
type actionRef struct {
	Round int `json:"round"`
	Seq   int `json:"seq"`
}

// sealedRef reads the action a round.action event records and reports
// whether it is one of the sealed actions of the round being played.
func sealedRef(e db.Event, round int, sealed map[int]bool) (actionRef, bool) {
	var ref actionRef
	if e.Kind != "round.action" || len(sealed) == 0 {
		return ref, false
	}
	if err := json.Unmarshal(e.Payload, &ref); err != nil || ref.Round != round || !sealed[ref.Seq] {
		return ref, false
	}
	return ref, true
}

// isSealed reports whether an event's payload is withheld from the caller.
func isSealed(e db.Event, round int, sealed map[int]bool) bool {
	_, ok := sealedRef(e, round, sealed)
	return ok
}

// auditTable serves GET /v1/tables/:tableId/audit.
func (s *server) auditTable(c echo.Context) error {
	rep, err := play.Audit(c.Request().Context(), s.pool, principal(c).TableID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rep)
}
