package api

import (
	"context"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// getBalances serves GET /v1/tables/:tableId/balances.
func (s *server) getBalances(c echo.Context) error {
	v, err := s.tables.Balances(c.Request().Context(), auth(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// getLedger serves GET /v1/tables/:tableId/ledger.
func (s *server) getLedger(c echo.Context) error {
	after, limit, err := pageQuery(c, pageLedger)
	if err != nil {
		return err
	}
	v, err := s.tables.Ledger(c.Request().Context(), auth(c), after, limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// exportLedger serves GET /v1/tables/:tableId/ledger.csv.
func (s *server) exportLedger(c echo.Context) error {
	a := auth(c)
	csv, err := s.tables.StatementCSV(c.Request().Context(), a)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="tally-table-%d.csv"`, a.TableID))
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", csv)
}

// deposit serves POST /v1/tables/:tableId/deposits: the host, who holds the
// bank, records a player's buy-in.
func (s *server) deposit(c echo.Context) error { return s.cash(c, s.tables.Deposit) }

// withdraw serves POST /v1/tables/:tableId/withdrawals: the host records a
// player's cash-out.
func (s *server) withdraw(c echo.Context) error { return s.cash(c, s.tables.Withdraw) }

func (s *server) cash(c echo.Context, move func(context.Context, table.Auth, table.Key, table.CashInput) (table.Reply, error)) error {
	var in table.CashInput
	k, err := decodeWrite(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := move(c.Request().Context(), auth(c), k, in)
	return reply(c, r, err)
}

// recordPayment serves POST /v1/tables/:tableId/payments: a settlement
// payment, recorded by the host or by the player who received the money.
func (s *server) recordPayment(c echo.Context) error {
	var in table.PaymentInput
	k, err := decodeWrite(c, &in, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := s.tables.Pay(c.Request().Context(), auth(c), k, in)
	return reply(c, r, err)
}

// settleUp serves GET /v1/tables/:tableId/settle-up.
func (s *server) settleUp(c echo.Context) error {
	v, err := s.tables.SettleUp(c.Request().Context(), auth(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// printStatement serves GET /v1/tables/:tableId/statement.html: the
// statement as a page made for printing, read with the CSV's tokens.
func (s *server) printStatement(c echo.Context) error {
	page, err := s.tables.StatementHTML(c.Request().Context(), auth(c))
	if err != nil {
		return err
	}
	return c.HTMLBlob(http.StatusOK, page)
}
