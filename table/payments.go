package table

import (
	"context"
	"fmt"
	"slices"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
	"github.com/tally-dice/tally/pay"
)

// This file is what a unit is worth and how players like to be paid
// (issue 26, docs/payments.md). The value is the host's setting and part
// of the table's record (a table.unit_value event); handles are each
// player's own and no part of it: no event names them, and removing one
// deletes it.

// Rounding is the rule the service states beside every converted amount.
const Rounding = "A unit's value is a whole number of the currency's minor units, so every amount converts exactly " +
	"(units × value); nothing is rounded."

// UnitValueView is what one unit is worth, as the phones show it.
type UnitValueView struct {
	pay.Value
	Text     string `json:"text"` // "1 chip = €0.25"
	Rounding string `json:"rounding"`
}

// unitValue is the table's unit value, or nil when it has none.
func unitValue(t db.Table) *pay.Value {
	if t.Unit.Currency == "" {
		return nil
	}
	return &pay.Value{Currency: t.Unit.Currency, PerUnit: t.Unit.Minor}
}

// unitValueView is the view of the table's unit value, or nil.
func unitValueView(t db.Table) *UnitValueView {
	v := unitValue(t)
	if v == nil {
		return nil
	}
	return &UnitValueView{Value: *v, Text: ledger.Units(1, t.Currency) + " = " + pay.Format(v.Currency, v.PerUnit), Rounding: Rounding}
}

// worth is units of the table in its unit value's currency, or nil when
// the table has none (or the amount overflows, which a real table's never
// does).
func worth(t db.Table, units int64) *pay.Money {
	v := unitValue(t)
	if v == nil {
		return nil
	}
	m, err := v.Of(units)
	if err != nil {
		return nil
	}
	return &m
}

// UnitValueInput sets what one unit is worth; an empty currency clears it.
type UnitValueInput struct {
	Currency string `json:"currency"`
	PerUnit  int64  `json:"perUnit"`
}

// unitValueSet is the table.unit_value event: the value set, or none.
type unitValueSet struct {
	Currency string `json:"currency,omitempty"`
	PerUnit  int64  `json:"perUnit,omitempty"`
}

// SetUnitValue sets what one of the table's units is worth: the host's
// say, as the table's currency is.
func (s *Service) SetUnitValue(ctx context.Context, a Auth, k Key, in UnitValueInput) (Reply, error) {
	return s.tableWrite(ctx, a, k, func(w *writer) (any, error) {
		if err := w.who.mustHost("set what a unit is worth"); err != nil {
			return nil, err
		}
		v := db.UnitValue{Currency: in.Currency, Minor: in.PerUnit}
		if in.Currency != "" || in.PerUnit != 0 {
			if err := (pay.Value{Currency: in.Currency, PerUnit: in.PerUnit}).Check(); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
			}
		}
		if _, err := w.emit("table.unit_value", unitValueSet{Currency: v.Currency, PerUnit: v.Minor}); err != nil {
			return nil, err
		}
		w.out.TableUnitValueSet(w.st.row.ID, v)
		w.st.row.Unit = v
		return w.st.view(w.who), nil
	})
}

// HandleView is a player's payment handle as the table's phones see it.
type HandleView struct {
	Player game.PlayerID `json:"player"`
	pay.Handle
}

// self is the seat a token speaks for: a player's own, or the host's own
// seat when the host plays; 0 for none.
func (p Principal) self() game.PlayerID {
	if p.Role == RolePlayer || p.Role == RoleHost {
		return p.Player
	}
	return 0
}

// mayReadHandles refuses the audit token: handles are for the people at
// the table, who pay each other.
func (p Principal) mayReadHandles() error {
	if p.Role == RoleAudit {
		return fmt.Errorf("%w: payment handles are shown to the table's players and host, not to the audit token", ErrForbidden)
	}
	return nil
}

// Handles lists the payment handles of the table's players: how each likes
// to be paid.
func (s *Service) Handles(ctx context.Context, a Auth) ([]HandleView, error) {
	var hs []db.PaymentHandle
	_, who, err := s.read(ctx, a, readPlan{queue: func(b *db.Batch) { b.PaymentHandleList(a.TableID, &hs) }})
	if err != nil {
		return nil, err
	}
	if err := who.mayReadHandles(); err != nil {
		return nil, err
	}
	return handleViews(hs), nil
}

func handleViews(hs []db.PaymentHandle) []HandleView {
	out := make([]HandleView, len(hs))
	for i, h := range hs {
		out[i] = HandleView{Player: h.Player, Handle: pay.Handle{Method: h.Method, Handle: h.Handle, Name: h.Name, BIC: h.BIC}}
	}
	return out
}

// HandleRemoved is the answer to removing a handle.
type HandleRemoved struct {
	Player  game.PlayerID `json:"player"`
	Method  string        `json:"method"`
	Removed bool          `json:"removed"`
}

// HandleInput is a handle a player adds for one method (the path's).
type HandleInput struct {
	Handle string `json:"handle"`
	Name   string `json:"name,omitempty"`
	BIC    string `json:"bic,omitempty"`
}

// PutHandle adds (or replaces) the caller's own handle for a method. Only
// the token of the seat it is for may: nobody sets where another player's
// money goes.
func (s *Service) PutHandle(ctx context.Context, a Auth, k Key, method string, in HandleInput) (Reply, error) {
	for _, f := range []struct{ text, what string }{{in.Handle, "handle"}, {in.Name, "name"}, {in.BIC, "bic"}} {
		if _, err := cleanText(f.text, f.what, 100); err != nil {
			return Reply{}, err
		}
	}
	h, err := pay.Handle{Method: method, Handle: in.Handle, Name: in.Name, BIC: in.BIC}.Normalize()
	if err != nil {
		return Reply{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return s.handleWrite(ctx, a, k, func(w *writer, me game.PlayerID) (any, error) {
		w.out.PaymentHandlePut(w.st.row.ID, db.PaymentHandle{Player: me, Method: h.Method, Handle: h.Handle, Name: h.Name,
			BIC: h.BIC, UpdatedAt: w.now})
		return HandleView{Player: me, Handle: h}, nil
	})
}

// DeleteHandle removes the caller's own handle for a method: the row is
// deleted, and nothing of it stays. Removing a handle that is not there
// is not found.
func (s *Service) DeleteHandle(ctx context.Context, a Auth, k Key, method string) (Reply, error) {
	if !slices.Contains(pay.Methods, method) {
		return Reply{}, fmt.Errorf("%w: method: %q is not a payment method", ErrInvalid, method)
	}
	var deleted bool
	return s.handleWrite(ctx, a, k, func(w *writer, me game.PlayerID) (any, error) {
		w.out.PaymentHandleDelete(w.st.row.ID, me, method, &deleted)
		if err := w.flush(); err != nil {
			return nil, err
		}
		if !deleted {
			return nil, fmt.Errorf("%w: you have no %s handle at table %d", ErrNotFound, method, w.st.row.ID)
		}
		return HandleRemoved{Player: me, Method: method, Removed: true}, nil
	})
}

// handleWrite runs a write of the caller's own handles.
func (s *Service) handleWrite(ctx context.Context, a Auth, k Key, do func(w *writer, me game.PlayerID) (any, error)) (Reply, error) {
	return s.tableWrite(ctx, a, k, func(w *writer) (any, error) {
		me := w.who.self()
		switch {
		case w.who.Role == RoleAudit:
			return nil, errAuditReadsOnly
		case me == 0:
			return nil, fmt.Errorf("%w: a payment handle is added from its own player's phone; the host does not play a seat here", ErrForbidden)
		}
		return do(w, me)
	})
}
