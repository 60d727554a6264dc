package api

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/table"
)

// This file is real money (docs/payments.md): what a unit is worth, the
// players' payment handles, the EPC QR code and payment claims.

// setUnitValue serves PUT /v1/tables/:tableId/unit-value.
func (s *server) setUnitValue(c echo.Context) error {
	var in table.UnitValueInput
	k, err := decodeWrite(c, &in, http.StatusOK)
	if err != nil {
		return err
	}
	r, err := s.tables.SetUnitValue(c.Request().Context(), auth(c), k, in)
	return reply(c, r, err)
}

// listHandles serves GET /v1/tables/:tableId/handles.
func (s *server) listHandles(c echo.Context) error {
	v, err := s.tables.Handles(c.Request().Context(), auth(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// putHandle serves PUT /v1/tables/:tableId/handles/:method: the caller's
// own handle.
func (s *server) putHandle(c echo.Context) error {
	var in table.HandleInput
	k, err := decodeWrite(c, &in, http.StatusOK)
	if err != nil {
		return err
	}
	r, err := s.tables.PutHandle(c.Request().Context(), auth(c), k, c.Param("method"), in)
	return reply(c, r, err)
}

// deleteHandle serves DELETE /v1/tables/:tableId/handles/:method.
func (s *server) deleteHandle(c echo.Context) error {
	k, err := emptyWrite(c, http.StatusOK)
	if err != nil {
		return err
	}
	r, err := s.tables.DeleteHandle(c.Request().Context(), auth(c), k, c.Param("method"))
	return reply(c, r, err)
}

// epcQR serves GET /v1/tables/:tableId/epc-qr?to=&amount=: a PNG.
func (s *server) epcQR(c echo.Context) error {
	to, err1 := strconv.ParseInt(c.QueryParam("to"), 10, 64)
	amount, err2 := strconv.ParseInt(c.QueryParam("amount"), 10, 64)
	if err1 != nil || err2 != nil || to < 1 || amount < 1 {
		return fail(kindMalformed, fmt.Sprintf("to and amount are a player id and a number of units (1, 2, ...), not %q and %q",
			c.QueryParam("to"), c.QueryParam("amount")))
	}
	png, _, err := s.tables.EPCQR(c.Request().Context(), auth(c), game.PlayerID(to), amount)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, "image/png", png)
}

// sendClaim serves POST /v1/tables/:tableId/claims: "I've sent it".
func (s *server) sendClaim(c echo.Context) error {
	var in table.ClaimInput
	k, err := decodeWrite(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := s.tables.Claim(c.Request().Context(), auth(c), k, in)
	return reply(c, r, err)
}

// confirmClaim serves POST /v1/tables/:tableId/claims/:number/confirm.
func (s *server) confirmClaim(c echo.Context) error {
	n, err := pathNumber(c, "claim")
	if err != nil {
		return err
	}
	k, err := emptyWrite(c, http.StatusOK)
	if err != nil {
		return err
	}
	r, err := s.tables.ConfirmClaim(c.Request().Context(), auth(c), k, int64(n))
	return reply(c, r, err)
}

// refuseClaim serves POST /v1/tables/:tableId/claims/:number/refuse.
func (s *server) refuseClaim(c echo.Context) error {
	n, err := pathNumber(c, "claim")
	if err != nil {
		return err
	}
	var in table.RefusalInput
	k, err := decodeWrite(c, &in, http.StatusOK)
	if err != nil {
		return err
	}
	r, err := s.tables.RefuseClaim(c.Request().Context(), auth(c), k, int64(n), in)
	return reply(c, r, err)
}
