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

// TransferView is one payment of a settle-up plan as the phones act on it:
// what it is worth, the note that names the table, and the payee's ways to
// be paid, each with the link that opens its app.
type TransferView struct {
	From    game.PlayerID `json:"from"`
	To      game.PlayerID `json:"to"`
	Amount  int64         `json:"amount"`
	Money   *pay.Money    `json:"money,omitempty"`
	Note    string        `json:"note"`
	Methods []PayOption   `json:"methods"`
}

// PayOption is one way to pay a transfer: the payee's handle, the link to
// open (none for a bank transfer) and whether it carries the amount, and
// whether an EPC QR code is offered (GET epc-qr: a bank transfer, in EUR).
type PayOption struct {
	pay.Handle
	Link       string `json:"link,omitempty"`
	WithAmount bool   `json:"withAmount"`
	EPCQR      bool   `json:"epcQr"`
}

// SettleUp plans the payments that settle the table and says, for each,
// what it is worth and how its payee likes to be paid; with the table's
// payment claims. The audit token sees no handles.
func (s *Service) SettleUp(ctx context.Context, a Auth) (SettleUpView, error) {
	var hs []db.PaymentHandle
	var claims []db.PaymentClaim
	r, who, err := s.read(ctx, a, readPlan{accounts: true, queue: func(b *db.Batch) {
		b.PaymentHandleList(a.TableID, &hs)
		b.PaymentClaimList(a.TableID, &claims)
	}})
	if err != nil {
		return SettleUpView{}, err
	}
	plan, err := ledger.SettleUp(a.TableID, ledger.Sheet(r.row.Currency, r.Accounts, r.Players))
	if err != nil {
		return SettleUpView{}, err
	}
	if who.mayReadHandles() != nil {
		hs = nil
	}
	v := SettleUpView{SettlePlan: plan, Owes: plan.WhoOwesWhom(), Value: unitValueView(r.row),
		Transfers: make([]TransferView, len(plan.Payments)), Claims: make([]ClaimView, len(claims))}
	for i, p := range plan.Payments {
		v.Transfers[i] = transferView(r.row, p, hs)
		if v.Transfers[i].Money != nil {
			v.Owes[i] += " = " + v.Transfers[i].Money.Text
		}
	}
	names := playerNames(r.Players)
	for i, c := range claims {
		v.Claims[i] = claimView(r.row, names, c)
	}
	return v, nil
}

// transferView is one payment of a plan with the payee's ways to be paid.
func transferView(t db.Table, p ledger.SettlePayment, hs []db.PaymentHandle) TransferView {
	v := TransferView{From: p.From.PlayerID, To: p.To.PlayerID, Amount: p.Amount, Money: worth(t, p.Amount),
		Note: "Tally: " + t.Name, Methods: []PayOption{}}
	req := pay.Request{Note: v.Note}
	if v.Money != nil {
		req.Currency, req.Minor = v.Money.Currency, v.Money.Minor
	}
	for _, h := range hs {
		if h.Player != p.To.PlayerID || p.To.PlayerID == ledger.Bank {
			continue
		}
		o := PayOption{Handle: pay.Handle{Method: h.Method, Handle: h.Handle, Name: h.Name, BIC: h.BIC}}
		o.Link, o.WithAmount, _ = o.Handle.Link(req)
		o.EPCQR = h.Method == pay.SEPA && req.Currency == "EUR"
		v.Methods = append(v.Methods, o)
	}
	return v
}

// playerNames are a table's players' names by id.
func playerNames(ps []db.Player) map[game.PlayerID]string {
	names := make(map[game.PlayerID]string, len(ps))
	for _, p := range ps {
		names[p.ID] = p.Name
	}
	return names
}

// EPCQR is the EPC QR code (docs/payments.md) of a bank transfer of units
// to player to, for a banking app to scan: a PNG image, and the payload it
// carries. It needs the table's units to be worth euros and the payee to
// have a bank transfer handle; the audit token gets none.
func (s *Service) EPCQR(ctx context.Context, a Auth, to game.PlayerID, units int64) (png []byte, payload string, err error) {
	var hs []db.PaymentHandle
	r, who, err := s.read(ctx, a, readPlan{queue: func(b *db.Batch) { b.PaymentHandleList(a.TableID, &hs) }})
	if err != nil {
		return nil, "", err
	}
	if err := who.mayReadHandles(); err != nil {
		return nil, "", err
	}
	if units < 1 {
		return nil, "", fmt.Errorf("%w: amount: a transfer is at least 1 unit", ErrInvalid)
	}
	m := worth(r.row, units)
	if m == nil || m.Currency != "EUR" {
		return nil, "", fmt.Errorf("%w: an EPC QR code is a transfer in euros: the host has not said the table's units are worth euros", ErrInvalid)
	}
	i := slices.IndexFunc(hs, func(h db.PaymentHandle) bool { return h.Player == to && h.Method == pay.SEPA })
	if i < 0 {
		return nil, "", fmt.Errorf("%w: player %d has no bank transfer handle at table %d", ErrNotFound, to, a.TableID)
	}
	h := hs[i]
	payload, err = pay.EPCTransfer{BIC: h.BIC, Name: h.Name, IBAN: h.Handle, Cents: m.Minor, Remittance: "Tally: " + r.row.Name}.Payload()
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	png, err = pay.QRPNG(payload, epcQRSize)
	return png, payload, err
}

// epcQRSize is the EPC QR image's side in pixels: large enough for a bank
// app's camera at arm's length on a phone's screen.
const epcQRSize = 320
