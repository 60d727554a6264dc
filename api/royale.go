package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// gameNumber parses the :number path parameter of a Battleship Royale game.
func gameNumber(c echo.Context) (int, error) { return pathNumber(c, "game") }

// startRoyale serves POST /v1/tables/:tableId/royale. The body is optional.
func (s *server) startRoyale(c echo.Context) error {
	var in table.RoyaleStartInput
	k, err := optionalWrite(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := s.tables.StartRoyale(c.Request().Context(), auth(c), k, in)
	return reply(c, r, err)
}

// getRoyale serves GET /v1/tables/:tableId/royale/:number.
func (s *server) getRoyale(c echo.Context) error {
	n, err := gameNumber(c)
	if err != nil {
		return err
	}
	v, err := s.tables.RoyaleGame(c.Request().Context(), auth(c), n)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// royaleAct serves POST /v1/tables/:tableId/royale/:number/actions.
func (s *server) royaleAct(c echo.Context) error {
	n, err := gameNumber(c)
	if err != nil {
		return err
	}
	var in table.RoyaleActionInput
	k, err := decodeWrite(c, &in, http.StatusOK)
	if err != nil {
		return err
	}
	r, err := s.tables.RoyaleAct(c.Request().Context(), auth(c), k, n, in)
	return reply(c, r, err)
}

// abandonRoyale serves POST /v1/tables/:tableId/royale/:number/abandon.
func (s *server) abandonRoyale(c echo.Context) error {
	n, err := gameNumber(c)
	if err != nil {
		return err
	}
	k, err := emptyWrite(c, http.StatusOK)
	if err != nil {
		return err
	}
	r, err := s.tables.AbandonRoyale(c.Request().Context(), auth(c), k, n)
	return reply(c, r, err)
}
