package api

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// createTable serves POST /v1/tables.
func (s *server) createTable(c echo.Context) error {
	var in table.NewTable
	k, err := anonymousKey(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := s.tables.CreateTable(c.Request().Context(), k, in)
	return reply(c, r, err)
}

// joinTable serves POST /v1/join.
func (s *server) joinTable(c echo.Context) error {
	var in table.JoinInput
	k, err := anonymousKey(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := s.tables.Join(c.Request().Context(), k, in)
	return reply(c, r, err)
}

// invite serves GET /v1/join/:code: the table and its open seats.
func (s *server) invite(c echo.Context) error {
	inv, err := s.tables.Invite(c.Request().Context(), c.Param("code"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, inv)
}

// getTable serves GET /v1/tables/:tableId.
func (s *server) getTable(c echo.Context) error {
	v, err := s.tables.Table(c.Request().Context(), auth(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// closeTable serves POST /v1/tables/:tableId/close; it takes no body.
func (s *server) closeTable(c echo.Context) error {
	k, err := emptyWrite(c, http.StatusOK)
	if err != nil {
		return err
	}
	r, err := s.tables.Close(c.Request().Context(), auth(c), k)
	return reply(c, r, err)
}

// seatRequest is the body of POST /v1/tables/:tableId/players.
type seatRequest struct {
	Name string `json:"name"`
}

// seatPlayer serves POST /v1/tables/:tableId/players.
func (s *server) seatPlayer(c echo.Context) error {
	var in seatRequest
	k, err := decodeWrite(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := s.tables.Seat(c.Request().Context(), auth(c), k, in.Name)
	return reply(c, r, err)
}

// leaveTable serves POST /v1/tables/:tableId/players/:playerId/leave.
func (s *server) leaveTable(c echo.Context) error {
	return s.seatChange(c, s.tables.Leave)
}

// releaseSeat serves POST /v1/tables/:tableId/players/:playerId/release.
func (s *server) releaseSeat(c echo.Context) error {
	return s.seatChange(c, s.tables.Release)
}

// seatChange runs a change to the seat in the path; it takes no body.
func (s *server) seatChange(c echo.Context, change func(ctx context.Context, a table.Auth, k table.Key, player int64) (table.Reply, error)) error {
	playerID, err := pathID(c, "playerId")
	if err != nil {
		return err
	}
	k, err := emptyWrite(c, http.StatusOK)
	if err != nil {
		return err
	}
	r, err := change(c.Request().Context(), auth(c), k, playerID)
	return reply(c, r, err)
}
