package api

import (
	"context"
	"net/http"

	"github.com/jackc/pgx/v5"
	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/ledger/play"
)

// createTable serves POST /v1/tables.
func (s *server) createTable(c echo.Context) error {
	body, err := readBody(c)
	if err != nil {
		return err
	}
	var in play.NewTable
	if err := decodeStrict(body, &in); err != nil {
		return err
	}
	return s.commit(c, body, http.StatusCreated, func(ctx context.Context, tx pgx.Tx) (any, error) {
		return play.CreateTable(ctx, tx, in)
	})
}

// joinRequest is the body of POST /v1/join.
type joinRequest struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// joinTable serves POST /v1/join.
func (s *server) joinTable(c echo.Context) error {
	body, err := readBody(c)
	if err != nil {
		return err
	}
	var in joinRequest
	if err := decodeStrict(body, &in); err != nil {
		return err
	}
	return s.commit(c, body, http.StatusCreated, func(ctx context.Context, tx pgx.Tx) (any, error) {
		return play.Join(ctx, tx, in.Code, in.Name)
	})
}

// invite serves GET /v1/join/:code: the table and its open seats.
func (s *server) invite(c echo.Context) error {
	inv, err := play.Invite(c.Request().Context(), s.pool, c.Param("code"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, inv)
}

// getTable serves GET /v1/tables/:tableId.
func (s *server) getTable(c echo.Context) error {
	p := principal(c)
	v, err := play.Table(c.Request().Context(), s.pool, p.TableID, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// closeTable serves POST /v1/tables/:tableId/close.
func (s *server) closeTable(c echo.Context) error {
	body, err := readEmptyBody(c)
	if err != nil {
		return err
	}
	return s.commit(c, body, http.StatusOK, func(ctx context.Context, tx pgx.Tx) (any, error) {
		return play.Close(ctx, tx, principal(c))
	})
}

// seatRequest is the body of POST /v1/tables/:tableId/players.
type seatRequest struct {
	Name string `json:"name"`
}

// seatPlayer serves POST /v1/tables/:tableId/players.
func (s *server) seatPlayer(c echo.Context) error {
	if err := requireHost(c, "seat players"); err != nil {
		return err
	}
	body, err := readBody(c)
	if err != nil {
		return err
	}
	var in seatRequest
	if err := decodeStrict(body, &in); err != nil {
		return err
	}
	return s.commit(c, body, http.StatusCreated, func(ctx context.Context, tx pgx.Tx) (any, error) {
		return play.Seat(ctx, tx, principal(c).TableID, in.Name)
	})
}

// leaveTable serves POST /v1/tables/:tableId/players/:playerId/leave.
func (s *server) leaveTable(c echo.Context) error {
	return s.seatChange(c, play.Leave)
}

// releaseSeat serves POST /v1/tables/:tableId/players/:playerId/release.
func (s *server) releaseSeat(c echo.Context) error {
	return s.seatChange(c, play.Release)
}

// seatChange runs a change to the seat in the path; it takes no body.
func (s *server) seatChange(c echo.Context, change func(context.Context, pgx.Tx, play.Principal, int64) (play.PlayerView, error)) error {
	playerID, err := pathID(c, "playerId")
	if err != nil {
		return err
	}
	body, err := readEmptyBody(c)
	if err != nil {
		return err
	}
	return s.commit(c, body, http.StatusOK, func(ctx context.Context, tx pgx.Tx) (any, error) {
		return change(ctx, tx, principal(c), playerID)
	})
}
