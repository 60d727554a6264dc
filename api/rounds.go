package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/ledger/play"
)

// roundNumber parses the :number path parameter.
func roundNumber(c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("number"))
	if err != nil || n < 1 {
		return 0, fail(kindNotFound, fmt.Sprintf("round %q is not a round number (1, 2, ...)", c.Param("number")))
	}
	return n, nil
}

// listRounds serves GET /v1/tables/:tableId/rounds.
func (s *server) listRounds(c echo.Context) error {
	v, err := play.Rounds(c.Request().Context(), s.pool, principal(c))
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
	v, err := play.Round(c.Request().Context(), s.pool, principal(c), n)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// startRound serves POST /v1/tables/:tableId/rounds. The body is optional.
func (s *server) startRound(c echo.Context) error {
	body, err := readBody(c)
	if err != nil {
		return err
	}
	var in play.StartRoundInput
	if body != nil {
		if err := decodeStrict(body, &in); err != nil {
			return err
		}
	}
	return s.commit(c, body, http.StatusCreated, func(ctx context.Context, tx pgx.Tx) (any, error) {
		return play.StartRound(ctx, tx, principal(c), in)
	})
}

// recordAction serves POST /v1/tables/:tableId/rounds/:number/actions.
func (s *server) recordAction(c echo.Context) error {
	return recordInRound(s, c, play.Act)
}

// recordTurn serves POST /v1/tables/:tableId/rounds/:number/turns.
func (s *server) recordTurn(c echo.Context) error {
	return recordInRound(s, c, play.SubmitTurn)
}

// recordInRound decodes a body of type T and records it in the round named
// by the path, answering with the round after it.
func recordInRound[T any](s *server, c echo.Context, record func(context.Context, pgx.Tx, play.Principal, int, T) (play.RoundView, error)) error {
	n, err := roundNumber(c)
	if err != nil {
		return err
	}
	body, err := readBody(c)
	if err != nil {
		return err
	}
	var in T
	if err := decodeStrict(body, &in); err != nil {
		return err
	}
	return s.commit(c, body, http.StatusCreated, func(ctx context.Context, tx pgx.Tx) (any, error) {
		return record(ctx, tx, principal(c), n, in)
	})
}
