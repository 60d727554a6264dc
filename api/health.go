package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// health is the body of /healthz and /readyz.
type health struct {
	Status string `json:"status"`
}

// healthz says the process is up; it touches nothing else.
func (s *server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, health{Status: "ok"})
}

// readyz says the service can take writes: the database answers within two
// seconds, can run the functions every write calls and is not short of
// disk space (table.Service.Ready).
func (s *server) readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.tables.Ready(ctx); err != nil {
		s.log.Warn("readiness: not ready", "err", err)
		if errors.Is(err, table.ErrDiskFull) {
			return err
		}
		return fail(kindUnavailable, "the database is not reachable, or cannot run the functions every write calls")
	}
	return c.JSON(http.StatusOK, health{Status: "ready"})
}
