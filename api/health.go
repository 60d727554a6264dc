package api

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// health is the body of /healthz and /readyz.
type health struct {
	Status string `json:"status"`
}

// healthz says the process is up; it touches nothing else.
func (s *server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, health{Status: "ok"})
}

// readyz says the database answers within two seconds.
func (s *server) readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.tables.Ready(ctx); err != nil {
		s.log.Warn("readiness: the database is not reachable", "err", err)
		return fail(kindUnavailable, "the database is not reachable")
	}
	return c.JSON(http.StatusOK, health{Status: "ready"})
}
