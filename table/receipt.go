package table

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/receipt"
)

// Receipt is the table's night receipt: its whole history in one file
// signed with the server's key (package receipt), which `tallyd verify`
// checks offline. Anyone at the table may have it, except while a throw
// the caller may not see is still under the cup (the receipt holds every
// throw): then it is ErrRoundPlaying, until the round is settled.
func (s *Service) Receipt(ctx context.Context, a Auth) ([]byte, error) {
	var (
		events  []chain.Event
		journal []db.JournalEntry
	)
	r, who, err := s.read(ctx, a, readPlan{accounts: true, round: true, history: func(b *db.Batch) {
		b.EventList(a.TableID, &events)
		b.JournalList(a.TableID, &journal)
	}})
	if err != nil {
		return nil, err
	}
	st, err := r.state()
	if err != nil {
		return nil, err
	}
	sealed, err := st.sealedEvents(who)
	if err != nil {
		return nil, err
	}
	if len(sealed) > 0 {
		return nil, fmt.Errorf("%w: round %d has throws still under the cup, and a receipt holds every throw; download it once the round is settled",
			ErrRoundPlaying, st.dice().last.row.Number)
	}
	// The server signs only a history it can vouch for: whole, and every
	// event and the head under its seal.
	au := &audit{keys: s.keys, row: r.row, events: events}
	au.chain()
	au.seals()
	if !au.rep.ChainOK || !au.rep.SealsOK {
		return nil, fmt.Errorf("%w: it fails its audit (%s), so no receipt is signed for it", ErrHistoryBroken,
			strings.Join(au.problems, "; "))
	}
	rc := receipt.Build(r.row, events, journal, r.Accounts, s.keys.PublicKey(), s.now())
	return receipt.Sign(rc, s.keys.Sign)
}

// ReceiptKey is the key this server signs receipts with (Ed25519, hex),
// which readers pin with `tallyd verify --key`.
func (s *Service) ReceiptKey() string { return hex.EncodeToString(s.keys.PublicKey()) }
