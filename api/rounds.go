package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// roundNumber parses the :number path parameter of a round.
func roundNumber(c echo.Context) (int, error) { return pathNumber(c, "round") }

// pathNumber parses the :number path parameter, naming what it numbers (a
// round, a game) when it is not 1, 2, ...
func pathNumber(c echo.Context, what string) (int, error) {
	n, err := strconv.Atoi(c.Param("number"))
	if err != nil || n < 1 {
		return 0, fail(kindNotFound, fmt.Sprintf("%s %q is not a %s number (1, 2, ...)", what, c.Param("number"), what))
	}
	return n, nil
}

// listRounds serves GET /v1/tables/:tableId/rounds.
func (s *server) listRounds(c echo.Context) error {
	after, limit, err := pageQuery(c, pageRounds)
	if err != nil {
		return err
	}
	v, err := s.tables.Rounds(c.Request().Context(), auth(c), int(after), limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// getRound serves GET /v1/tables/:tableId/rounds/:number.
func (s *server) getRound(c echo.Context) error {
	n, err := roundNumber(c)
	if err != nil {
		return err
	}
	v, err := s.tables.Round(c.Request().Context(), auth(c), n)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// startRound serves POST /v1/tables/:tableId/rounds. The body is optional.
func (s *server) startRound(c echo.Context) error {
	var in table.StartRoundInput
	k, err := optionalWrite(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := s.tables.StartRound(c.Request().Context(), auth(c), k, in)
	return reply(c, r, err)
}

// recordAction serves POST /v1/tables/:tableId/rounds/:number/actions.
func (s *server) recordAction(c echo.Context) error {
	return recordInRound(s, c, s.tables.Act)
}

// recordTurn serves POST /v1/tables/:tableId/rounds/:number/turns.
func (s *server) recordTurn(c echo.Context) error {
	return recordInRound(s, c, s.tables.SubmitTurn)
}

// recordInRound decodes a body of type T and records it in the round named
// by the path, answering with the round after it.
func recordInRound[T any](s *server, c echo.Context, record func(context.Context, table.Auth, table.Key, int, T) (table.Reply, error)) error {
	n, err := roundNumber(c)
	if err != nil {
		return err
	}
	var in T
	k, err := decodeWrite(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := record(c.Request().Context(), auth(c), k, n, in)
	return reply(c, r, err)
}
