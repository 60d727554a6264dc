package api

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
)

// listEvents serves GET /v1/tables/:tableId/events.
func (s *server) listEvents(c echo.Context) error {
	after, limit, err := pageQuery(c, pageEvents)
	if err != nil {
		return err
	}
	page, err := s.tables.Events(c.Request().Context(), auth(c), after, limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, page)
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

// auditTable serves GET /v1/tables/:tableId/audit.
func (s *server) auditTable(c echo.Context) error {
	rep, err := s.tables.Audit(c.Request().Context(), auth(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rep)
}
