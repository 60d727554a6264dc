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
	return correction(c, "round", correct)
}

// correction parses the number the path names (what it numbers, for the
// refusal) and the optional reason, and sends the correction.
func correction(c echo.Context, what string, correct func(context.Context, table.Auth, table.Key, int, table.CorrectionInput) (table.Reply, error)) error {
	n, err := pathNumber(c, what)
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
	return correction(c, "event", func(ctx context.Context, a table.Auth, k table.Key, seq int, in table.CorrectionInput) (table.Reply, error) {
		return s.tables.ReverseEntry(ctx, a, k, int64(seq), in)
	})
}
