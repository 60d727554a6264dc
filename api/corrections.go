package api

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// takeBack serves POST /v1/tables/:tableId/rounds/:number/take-back: the
// host takes back the last action standing of the latest round.
func (s *server) takeBack(c echo.Context) error {
	return correctRound(c, s.tables.TakeBack)
}

// reverseRound serves POST /v1/tables/:tableId/rounds/:number/reverse:
// the host reverses the latest round and its money.
func (s *server) reverseRound(c echo.Context) error {
	return correctRound(c, s.tables.ReverseRound)
}

func correctRound(c echo.Context, correct func(context.Context, table.Auth, table.Key, int, table.CorrectionInput) (table.Reply, error)) error {
	n, err := roundNumber(c)
	if err != nil {
		return err
	}
	var in table.CorrectionInput
	k, err := optionalWrite(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := correct(c.Request().Context(), auth(c), k, n, in)
	return reply(c, r, err)
}

// reverseEntry serves POST /v1/tables/:tableId/ledger/:number/reverse: the
// host reverses the buy-in, cash-out or payment that ledger event seq
// recorded.
func (s *server) reverseEntry(c echo.Context) error {
	seq, err := pathNumber(c, "event")
	if err != nil {
		return err
	}
	var in table.CorrectionInput
	k, err := optionalWrite(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := s.tables.ReverseEntry(c.Request().Context(), auth(c), k, int64(seq), in)
	return reply(c, r, err)
}
