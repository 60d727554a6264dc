package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// offerRecovery serves POST /v1/tables/:tableId/host-recovery: the host
// phone's one-time code that moves the host role to another phone. It
// takes no body.
func (s *server) offerRecovery(c echo.Context) error {
	k, err := emptyWrite(c, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := s.tables.OfferRecovery(c.Request().Context(), auth(c), k)
	return reply(c, r, err)
}

// recoverHost serves POST /v1/host-recovery: another phone redeems the
// code and becomes the host. Like a join code, the code is all a stranger
// needs, so guessing it is limited with the join codes (joinLimiter).
func (s *server) recoverHost(c echo.Context) error {
	var in table.RecoverInput
	k, err := anonymousKey(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := s.tables.Recover(c.Request().Context(), k, in)
	return reply(c, r, err)
}
