package api

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
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

// auditTable serves GET /v1/tables/:tableId/audit.
func (s *server) auditTable(c echo.Context) error {
	rep, err := s.tables.Audit(c.Request().Context(), auth(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rep)
}
