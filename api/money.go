package api

import (
	"bytes"
	"context"
	"fmt"
	"net/http"

	"github.com/jackc/pgx/v5"
	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/ledger"
	"github.com/tally-dice/tally/ledger/play"
)

// balancesView is GET /v1/tables/:tableId/balances: the ledger's balance
// sheet, with the world account called the bank.
type balancesView struct {
	Currency string                 `json:"currency"`
	Pot      int64                  `json:"pot"`
	Bank     int64                  `json:"bank"`
	Players  []ledger.PlayerBalance `json:"players"`
}

func balancesOf(sheet ledger.BalanceSheet) balancesView {
	return balancesView{Currency: sheet.Currency, Pot: sheet.Pot, Bank: sheet.World, Players: sheet.Players}
}

// getBalances serves GET /v1/tables/:tableId/balances.
func (s *server) getBalances(c echo.Context) error {
	sheet, err := ledger.Balances(c.Request().Context(), s.pool, principal(c).TableID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, balancesOf(sheet))
}

// getLedger serves GET /v1/tables/:tableId/ledger.
func (s *server) getLedger(c echo.Context) error {
	txns, err := ledger.Statement(c.Request().Context(), s.pool, principal(c).TableID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, txns)
}

// exportLedger serves GET /v1/tables/:tableId/ledger.csv.
func (s *server) exportLedger(c echo.Context) error {
	id := principal(c).TableID
	txns, err := ledger.Statement(c.Request().Context(), s.pool, id)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := ledger.WriteCSV(&buf, txns); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="tally-table-%d.csv"`, id))
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
}

// cashRequest is the body of deposits and withdrawals.
type cashRequest struct {
	Player int64 `json:"player"`
	Amount int64 `json:"amount"`
}

// deposit serves POST /v1/tables/:tableId/deposits: the host, who holds the
// bank, records a player's buy-in.
func (s *server) deposit(c echo.Context) error {
	return s.cash(c, "record a buy-in", ledger.Deposit)
}

// withdraw serves POST /v1/tables/:tableId/withdrawals: the host records a
// player's cash-out.
func (s *server) withdraw(c echo.Context) error {
	return s.cash(c, "record a cash-out", ledger.Withdraw)
}

func (s *server) cash(c echo.Context, what string, move func(context.Context, pgx.Tx, int64, int64, int64) (ledger.Transaction, error)) error {
	if err := requireHost(c, what); err != nil {
		return err
	}
	body, err := readBody(c)
	if err != nil {
		return err
	}
	var in cashRequest
	if err := decodeStrict(body, &in); err != nil {
		return err
	}
	id := principal(c).TableID
	return s.commit(c, body, http.StatusCreated, func(ctx context.Context, tx pgx.Tx) (any, error) {
		if err := play.Seated(ctx, tx, id, false, in.Player); err != nil {
			return nil, err
		}
		if _, err := move(ctx, tx, id, in.Player, in.Amount); err != nil {
			return nil, err
		}
		sheet, err := ledger.Balances(ctx, tx, id)
		return balancesOf(sheet), err
	})
}

// paymentRequest is the body of POST /v1/tables/:tableId/payments.
type paymentRequest struct {
	From   int64 `json:"from"`
	To     int64 `json:"to"`
	Amount int64 `json:"amount"`
}

// recordPayment serves POST /v1/tables/:tableId/payments: a settlement
// payment, recorded by the host or by the player who received the money
// (so nobody can wipe out their own debt by saying they paid).
func (s *server) recordPayment(c echo.Context) error {
	body, err := readBody(c)
	if err != nil {
		return err
	}
	var in paymentRequest
	if err := decodeStrict(body, &in); err != nil {
		return err
	}
	p := principal(c)
	switch {
	case p.Role == play.RoleHost:
	case p.Role == play.RolePlayer && p.PlayerID == in.To:
	case p.Role == play.RolePlayer:
		return fail(kindForbidden, "a payment is recorded by the host or by the player who received it")
	default:
		return fail(kindForbidden, "the audit token can read but not write")
	}
	return s.commit(c, body, http.StatusCreated, func(ctx context.Context, tx pgx.Tx) (any, error) {
		if err := play.Seated(ctx, tx, p.TableID, true, in.From, in.To); err != nil {
			return nil, err
		}
		if _, err := ledger.SettlementPayment(ctx, tx, p.TableID, in.From, in.To, in.Amount); err != nil {
			return nil, err
		}
		sheet, err := ledger.Balances(ctx, tx, p.TableID)
		return balancesOf(sheet), err
	})
}

// settleUpView is GET /v1/tables/:tableId/settle-up.
type settleUpView struct {
	ledger.SettlePlan
	Owes []string `json:"owes"`
}

// settleUp serves GET /v1/tables/:tableId/settle-up.
func (s *server) settleUp(c echo.Context) error {
	plan, err := ledger.SettleUp(c.Request().Context(), s.pool, principal(c).TableID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, settleUpView{SettlePlan: plan, Owes: plan.WhoOwesWhom()})
}
