package db

import (
	"time"

	"github.com/tally-dice/tally/db/internal/dbsqlc"
	"github.com/tally-dice/tally/game"
)

// UnitValue is what one of a table's units is worth in a real currency
// (migration 15): an ISO 4217 code and an amount in its minor units. The
// zero UnitValue is none.
type UnitValue struct {
	Currency string
	Minor    int64
}

// PaymentHandle is how a player likes to be paid by one method: a
// username, a UPI address or an IBAN, with the account holder's name and
// BIC where the method has them.
type PaymentHandle struct {
	Player    game.PlayerID
	Method    string
	Handle    string
	Name      string
	BIC       string
	UpdatedAt time.Time
}

// Payment claim statuses.
const (
	ClaimSent      = "sent"
	ClaimConfirmed = "confirmed"
	ClaimRefused   = "refused"
)

// PaymentClaim is a payment its payer says was sent: its id is the
// sequence number of the claim.sent event that recorded it.
type PaymentClaim struct {
	ID         int64
	Payer      game.PlayerID
	Payee      game.PlayerID
	Amount     int64
	Status     string
	Reason     string
	ResolvedBy string
	CreatedAt  time.Time
	ResolvedAt *time.Time
}

// TableUnitValueSet queues setting what one of a table's units is worth;
// the zero UnitValue clears it.
func (b *Batch) TableUnitValueSet(tableID int64, v UnitValue) {
	p := dbsqlc.TableUnitValueSetParams{ID: tableID}
	if v.Currency != "" {
		p.UnitCurrency, p.UnitMinor = &v.Currency, &v.Minor
	}
	b.exec(func(q dbsqlc.DBTX) error { return queries.TableUnitValueSet(b.ctx, q, p) })
}

// PaymentHandleList queues reading every handle of a table's players.
func (b *Batch) PaymentHandleList(tableID int64, out *[]PaymentHandle) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.PaymentHandleList(b.ctx, q, tableID)
		if err != nil {
			return err
		}
		*out = make([]PaymentHandle, len(rows))
		for i, r := range rows {
			(*out)[i] = PaymentHandle{Player: game.PlayerID(r.PlayerID), Method: r.Method, Handle: r.Handle,
				Name: r.Name, BIC: r.Bic, UpdatedAt: r.UpdatedAt}
		}
		return nil
	})
}

// PaymentHandlePut queues adding a player's handle, or replacing the one
// they have for its method.
func (b *Batch) PaymentHandlePut(tableID int64, h PaymentHandle) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.PaymentHandlePut(b.ctx, q, dbsqlc.PaymentHandlePutParams{TableID: tableID, PlayerID: int64(h.Player),
			Method: h.Method, Handle: h.Handle, Name: h.Name, Bic: h.BIC, UpdatedAt: h.UpdatedAt})
	})
}

// PaymentHandleDelete queues deleting a player's handle for a method;
// deleted says whether there was one.
func (b *Batch) PaymentHandleDelete(tableID int64, player game.PlayerID, method string, deleted *bool) {
	b.queue(func(q dbsqlc.DBTX) error {
		n, err := queries.PaymentHandleDelete(b.ctx, q, dbsqlc.PaymentHandleDeleteParams{TableID: tableID,
			PlayerID: int64(player), Method: method})
		*deleted = n > 0
		return err
	})
}

// PaymentHandlesForget queues removing every handle of a player's seat.
func (b *Batch) PaymentHandlesForget(tableID int64, player game.PlayerID) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.PaymentHandlesForget(b.ctx, q, dbsqlc.PaymentHandlesForgetParams{TableID: tableID, PlayerID: int64(player)})
	})
}

// PaymentClaimList queues reading a table's payment claims, oldest first.
func (b *Batch) PaymentClaimList(tableID int64, out *[]PaymentClaim) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.PaymentClaimList(b.ctx, q, tableID)
		if err != nil {
			return err
		}
		*out = make([]PaymentClaim, len(rows))
		for i, r := range rows {
			(*out)[i] = PaymentClaim{ID: r.ID, Payer: game.PlayerID(r.Payer), Payee: game.PlayerID(r.Payee), Amount: r.Amount,
				Status: r.Status, Reason: r.Reason, ResolvedBy: r.ResolvedBy, CreatedAt: r.CreatedAt, ResolvedAt: r.ResolvedAt}
		}
		return nil
	})
}

// PaymentClaimInsert queues recording a claim, "sent".
func (b *Batch) PaymentClaimInsert(tableID int64, c PaymentClaim) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.PaymentClaimInsert(b.ctx, q, dbsqlc.PaymentClaimInsertParams{TableID: tableID, ID: c.ID,
			Payer: int64(c.Payer), Payee: int64(c.Payee), Amount: c.Amount, CreatedAt: c.CreatedAt})
	})
}

// PaymentClaimResolve queues confirming or refusing a claim still "sent";
// one resolved already fails the transaction (ErrNotFound).
func (b *Batch) PaymentClaimResolve(tableID int64, c PaymentClaim) {
	b.queue(func(q dbsqlc.DBTX) error {
		return queries.PaymentClaimResolve(b.ctx, q, dbsqlc.PaymentClaimResolveParams{TableID: tableID, ID: c.ID,
			Status: c.Status, Reason: c.Reason, ResolvedBy: c.ResolvedBy, ResolvedAt: c.ResolvedAt})
	})
}
