package api

import (
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/table"
)

// listEvents serves GET /v1/tables/:tableId/events.
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
	page, err := s.tables.Events(c.Request().Context(), auth(c), after, limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, page)
}

// maxWitnessed bounds the heads one audit request may bring.
const maxWitnessed = 32

// auditTable serves GET /v1/tables/:tableId/audit. witness (repeatable) is
// a chain head a phone saw, "SEQ:HASH" with the hash in hex; full=true
// replays every round even where a checkpoint vouches for it.
func (s *server) auditTable(c echo.Context) error {
	var q table.AuditQuery
	raw := c.QueryParams()["witness"]
	if len(raw) > maxWitnessed {
		return fail(kindMalformed, fmt.Sprintf("witness: at most %d heads per audit", maxWitnessed))
	}
	for _, w := range raw {
		h, err := parseHead(w)
		if err != nil {
			return fail(kindMalformed, fmt.Sprintf("witness %q: %v", w, err))
		}
		q.Witnessed = append(q.Witnessed, h)
	}
	switch c.QueryParam("full") {
	case "", "false":
	case "true":
		q.Full = true
	default:
		return fail(kindMalformed, "full must be true or false")
	}
	rep, err := s.tables.Audit(c.Request().Context(), auth(c), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rep)
}

// parseHead reads a chain head written "SEQ:HASH" (hash in hex, 64 digits).
func parseHead(s string) (chain.Head, error) {
	seqText, hashText, ok := strings.Cut(s, ":")
	seq, err := strconv.ParseInt(seqText, 10, 64)
	if !ok || err != nil || seq < 1 {
		return chain.Head{}, errors.New("want SEQ:HASH, a sequence number from 1 and the event's hash in hex")
	}
	hash, err := hex.DecodeString(hashText)
	if err != nil || len(hash) != 32 {
		return chain.Head{}, errors.New("the hash must be 64 hex digits")
	}
	return chain.Head{Seq: seq, Hash: hash}, nil
}
