package table

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
	"github.com/tally-dice/tally/pay"
)

// This file is payments both sides confirm (issue 26, docs/payments.md):
// the payer says "I've sent it" (a claim), and only the payee's yes, or the
// host's, records the payment in the ledger, exactly as "Bob paid me"
// (Pay) does; a no clears the claim with a reason and moves no money. Each
// step is an event of the table's audit chain (claim.sent, claim.confirmed,
// claim.refused), so History shows them; the payment_claims row is what the
// phones read.

var (
	// ErrNotOwed refuses a claim of more than its payer owes its payee now
	// (less what the payer's other open claims to them already say).
	ErrNotOwed = errors.New("not owed")
	// ErrClaimResolved refuses confirming or refusing a claim that was
	// confirmed or refused already (by another phone, or this one under
	// another Idempotency-Key).
	ErrClaimResolved = errors.New("the claim was answered already")
)

// ClaimInput is a payer's "I've sent it": to whom, and how many units.
type ClaimInput struct {
	To     game.PlayerID `json:"to"`
	Amount int64         `json:"amount"`
}

// RefusalInput is a payee's "No, not received", and why.
type RefusalInput struct {
	Reason string `json:"reason"`
}

// maxRefusal bounds a refusal's reason (migration 15).
const maxRefusal = 200

// ClaimView is a payment claim as the table's phones see it.
type ClaimView struct {
	ID         int64         `json:"id"`
	From       game.PlayerID `json:"from"`
	FromName   string        `json:"fromName"`
	To         game.PlayerID `json:"to"`
	ToName     string        `json:"toName"`
	Amount     int64         `json:"amount"`
	Money      *pay.Money    `json:"money,omitempty"`
	Status     string        `json:"status"`
	Reason     string        `json:"reason,omitempty"`
	ResolvedBy string        `json:"resolvedBy,omitempty"`
	CreatedAt  time.Time     `json:"createdAt"`
	ResolvedAt *time.Time    `json:"resolvedAt,omitempty"`
}

func claimView(t db.Table, names map[game.PlayerID]string, c db.PaymentClaim) ClaimView {
	return ClaimView{ID: c.ID, From: c.Payer, FromName: names[c.Payer], To: c.Payee, ToName: names[c.Payee],
		Amount: c.Amount, Money: worth(t, c.Amount), Status: c.Status, Reason: c.Reason, ResolvedBy: c.ResolvedBy,
		CreatedAt: c.CreatedAt, ResolvedAt: c.ResolvedAt}
}

// The claim events' payloads. A claim's id is its claim.sent event's
// sequence number.
type (
	claimSent struct {
		From   game.PlayerID `json:"from"`
		To     game.PlayerID `json:"to"`
		Amount int64         `json:"amount"`
	}
	claimAnswered struct {
		Claim  int64  `json:"claim"`
		By     string `json:"by"`
		Reason string `json:"reason,omitempty"`
	}
	// claimedMeta is the journal metadata of a payment a claim recorded.
	claimedMeta struct {
		RecordedBy string `json:"recordedBy"`
		Claim      int64  `json:"claim"`
	}
)

// Claim records the caller's "I've sent it": a payment to another player
// of at most what the caller owes them now, waiting for their yes.
func (s *Service) Claim(ctx context.Context, a Auth, k Key, in ClaimInput) (Reply, error) {
	return s.claimWrite(ctx, a, k, func(w *writer, claims []db.PaymentClaim) (any, error) {
		me := w.who.self()
		switch {
		case w.who.Role == RoleAudit:
			return nil, errAuditReadsOnly
		case me == 0:
			return nil, fmt.Errorf("%w: a payment is claimed from the payer's own phone; the host does not play a seat here", ErrForbidden)
		case in.To == me:
			return nil, fmt.Errorf("%w: to: a player does not pay themselves", ErrInvalid)
		case in.Amount < 1:
			return nil, fmt.Errorf("%w: amount: a payment is at least 1 unit", ErrInvalid)
		}
		if err := w.nightOver(); err != nil {
			return nil, err
		}
		if _, err := w.st.player(in.To); err != nil {
			return nil, err
		}
		owed, err := w.owed(me, in.To)
		if err != nil {
			return nil, err
		}
		for _, c := range claims {
			if c.Status == db.ClaimSent && c.Payer == me && c.Payee == in.To {
				owed -= c.Amount
			}
		}
		if in.Amount > owed {
			return nil, fmt.Errorf("%w: you owe %s %s now, less what your open claims to them say; a claim of %s is more",
				ErrNotOwed, w.st.playerName(in.To), ledger.Units(max(owed, 0), w.st.row.Currency), ledger.Units(in.Amount, w.st.row.Currency))
		}
		ev, err := w.emit("claim.sent", claimSent{From: me, To: in.To, Amount: in.Amount})
		if err != nil {
			return nil, err
		}
		c := db.PaymentClaim{ID: ev.Seq, Payer: me, Payee: in.To, Amount: in.Amount, Status: db.ClaimSent, CreatedAt: w.now}
		w.out.PaymentClaimInsert(w.st.row.ID, c)
		return claimView(w.st.row, playerNames(w.st.players), c), nil
	})
}

// owed is what payer owes payee now, as settle-up plans it: 0 when the
// plan has no payment between them.
func (w *writer) owed(payer, payee game.PlayerID) (int64, error) {
	sheet := ledger.Sheet(w.st.row.Currency, w.books().Accounts(), w.st.players)
	plan, err := ledger.SettleUp(w.st.row.ID, sheet)
	if err != nil {
		return 0, err
	}
	for _, p := range plan.Payments {
		if p.From.PlayerID == payer && p.To.PlayerID == payee {
			return p.Amount, nil
		}
	}
	return 0, nil
}

// ConfirmClaim is the payee's (or the host's) yes: the payment is recorded
// in the ledger as Pay records it, once, however many phones say yes.
func (s *Service) ConfirmClaim(ctx context.Context, a Auth, k Key, id int64) (Reply, error) {
	return s.answerClaim(ctx, a, k, id, func(w *writer, c *db.PaymentClaim, by string) error {
		owed, err := w.owed(c.Payer, c.Payee)
		if err != nil {
			return err
		}
		if c.Amount > owed {
			return fmt.Errorf("%w: %s owes %s %s now, less than the %s claimed (the debt changed since): refuse the claim, or record what was paid",
				ErrNotOwed, w.st.playerName(c.Payer), w.st.playerName(c.Payee), ledger.Units(owed, w.st.row.Currency),
				ledger.Units(c.Amount, w.st.row.Currency))
		}
		e, err := ledger.Payment(c.Payer, c.Payee, c.Amount)
		if err != nil {
			return err
		}
		e.Meta = claimedMeta{RecordedBy: w.who.recorded().RecordedBy, Claim: c.ID}
		if err := w.post(e); err != nil {
			return err
		}
		c.Status = db.ClaimConfirmed
		_, err = w.emit("claim.confirmed", claimAnswered{Claim: c.ID, By: by})
		return err
	})
}

// RefuseClaim is the payee's (or the host's) no: the claim is cleared with
// its reason, and no money moves.
func (s *Service) RefuseClaim(ctx context.Context, a Auth, k Key, id int64, in RefusalInput) (Reply, error) {
	if _, err := cleanText(in.Reason, "reason", maxRefusal); err != nil {
		return Reply{}, err
	}
	reason := strings.Join(strings.Fields(in.Reason), " ")
	if reason == "" || utf8.RuneCountInString(reason) > maxRefusal {
		return Reply{}, fmt.Errorf("%w: reason: say in 1 to %d characters why the payment was not received", ErrInvalid, maxRefusal)
	}
	return s.answerClaim(ctx, a, k, id, func(w *writer, c *db.PaymentClaim, by string) error {
		c.Status, c.Reason = db.ClaimRefused, reason
		_, err := w.emit("claim.refused", claimAnswered{Claim: c.ID, By: by, Reason: reason})
		return err
	})
}

// answerClaim runs a payee's answer to a claim still waiting for one.
func (s *Service) answerClaim(ctx context.Context, a Auth, k Key, id int64, do func(w *writer, c *db.PaymentClaim, by string) error) (Reply, error) {
	return s.claimWrite(ctx, a, k, func(w *writer, claims []db.PaymentClaim) (any, error) {
		var c *db.PaymentClaim
		for i := range claims {
			if claims[i].ID == id {
				c = &claims[i]
			}
		}
		if c == nil {
			return nil, fmt.Errorf("%w: table %d has no payment claim %d", ErrNotFound, w.st.row.ID, id)
		}
		switch p := w.who; {
		case p.Role == RoleHost:
		case p.Role == RolePlayer && p.Player == c.Payee:
		case p.Role == RolePlayer:
			return nil, fmt.Errorf("%w: a claim is answered by the player it says was paid, or by the host", ErrForbidden)
		default:
			return nil, errAuditReadsOnly
		}
		if c.Status != db.ClaimSent {
			return nil, fmt.Errorf("%w: claim %d was %s already", ErrClaimResolved, c.ID, c.Status)
		}
		by := w.who.recorded().RecordedBy
		if err := do(w, c, by); err != nil {
			return nil, err
		}
		now := w.now
		c.ResolvedBy, c.ResolvedAt = by, &now
		w.out.PaymentClaimResolve(w.st.row.ID, *c)
		return claimView(w.st.row, playerNames(w.st.players), *c), nil
	})
}

// claimWrite is tableWrite with the table's payment claims read in the
// same round trip as the table.
func (s *Service) claimWrite(ctx context.Context, a Auth, k Key, do func(w *writer, claims []db.PaymentClaim) (any, error)) (Reply, error) {
	t := tokenTarget(a)
	var claims []db.PaymentClaim
	t.also = func(b *db.Batch) {
		claims = nil
		b.PaymentClaimList(a.TableID, &claims)
	}
	return s.writeAt(ctx, t, a, k, func(w *writer) (any, error) { return do(w, claims) })
}
