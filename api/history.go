package api

import (
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/table"
)

// listEvents serves GET /v1/tables/:tableId/events.
func (s *server) listEvents(c echo.Context) error {
	after, limit, err := pageQuery(c, pageEvents)
	if err != nil {
		return err
	}
	families, err := eventFamilies(c)
	if err != nil {
		return err
	}
	page, err := s.tables.Events(c.Request().Context(), auth(c), after, limit, families)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, page)
}

// maxFamilies bounds the ?kind= filters of one page of events.
const maxFamilies = 8

// eventFamily is a family of event kinds, the part before the first dot
// (player, ledger, host, round, table, royale).
var eventFamily = regexp.MustCompile(`^[a-z]{1,16}$`)

// eventFamilies reads ?kind= (repeatable): the families of the events to
// list, all of them when none is named.
func eventFamilies(c echo.Context) ([]string, error) {
	raw := c.QueryParams()["kind"]
	if len(raw) > maxFamilies {
		return nil, fail(kindMalformed, fmt.Sprintf("kind: at most %d families per page", maxFamilies))
	}
	for _, f := range raw {
		if !eventFamily.MatchString(f) {
			return nil, fail(kindMalformed, fmt.Sprintf("kind %q: name a family of events in lower-case letters, such as player, ledger or host", f))
		}
	}
	return raw, nil
}

// paging is how a list is cut into pages: its limit when none is asked
// for, and the most it allows (as openapi.yaml says).
type paging struct{ limit, max int }

// The lists read page by page.
var (
	pageEvents = paging{limit: 100, max: 500}
	pageRounds = paging{limit: 50, max: 100}
	pageLedger = paging{limit: 100, max: 500}
)

// pageQuery reads a page's ?after= (a previous page's next; none for the
// first page) and ?limit=.
func pageQuery(c echo.Context, p paging) (after int64, limit int, err error) {
	if raw := c.QueryParam("after"); raw != "" {
		after, err = strconv.ParseInt(raw, 10, 64)
		if err != nil || after < 0 {
			return 0, 0, fail(kindMalformed, "after must be a cursor from a previous page's next")
		}
	}
	limit = p.limit
	if raw := c.QueryParam("limit"); raw != "" {
		limit, err = strconv.Atoi(raw)
		if err != nil || limit < 1 || limit > p.max {
			return 0, 0, fail(kindMalformed, fmt.Sprintf("limit must be a whole number from 1 to %d", p.max))
		}
	}
	return after, limit, nil
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

// getReceipt serves GET /v1/tables/:tableId/receipt: the night receipt, a
// signed file that `tallyd verify` checks offline.
func (s *server) getReceipt(c echo.Context) error {
	a := auth(c)
	file, err := s.tables.Receipt(c.Request().Context(), a)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="tally-table-%d-receipt.txt"`, a.TableID))
	return c.Blob(http.StatusOK, "text/plain; charset=utf-8", file)
}

// receiptKey serves GET /v1/receipt-key: the key night receipts are signed
// with, for `tallyd verify --key`.
func (s *server) receiptKey(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"publicKey": s.tables.ReceiptKey()})
}
