// Package receipt is a table's night receipt: its whole history in one
// signed file that anyone can check offline, with nothing but the file
// (`tallyd verify FILE`).
//
// A receipt file is the receipt's JSON (Receipt), a newline, and one line
//
//	-- tally signature ed25519 <signature, 128 lower-case hex digits>
//
// ending in a newline. The signature is Ed25519 over every byte before
// that line (the JSON and its newline), under the key the JSON names
// (publicKey), which is derived from the server's secret (package seal)
// and never stored in the database. Verify checks the signature, then the
// event hash chain from the first event to the head, then that every
// journal transaction matches the event recording it and every balance
// the sum of its postings, and that every reversal undoes exactly one
// earlier transaction: the checks the server's audit makes of its books
// (ledger.Reconcile). Changing any byte of the file fails one of them.
//
// The signature proves which key signed; whether that key is the server's
// is for the reader to compare (Verify reports it, and `tallyd verify
// --key` pins it).
package receipt

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger"
)

// Format names this layout of a receipt: the second, whose journal
// transactions carry their metadata (a reversal's names what it undoes).
const Format = "tally-receipt/2"

// formatV1 names the first layout, whose journal transactions carry no
// metadata. Receipts signed in it still verify (Verify).
const formatV1 = "tally-receipt/1"

// signatureLine starts the last line of a receipt file.
const signatureLine = "-- tally signature ed25519 "

// Receipt is a table's history as of its head.
type Receipt struct {
	Format    string    `json:"format"`
	IssuedAt  time.Time `json:"issuedAt"`
	PublicKey string    `json:"publicKey"` // Ed25519, hex
	Table     Table     `json:"table"`
	Head      Head      `json:"head"`
	Events    []Event   `json:"events"`
	Journal   []Entry   `json:"journal"`
	Balances  []Balance `json:"balances"`
}

// Table is what the receipt says of the table.
type Table struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Currency string `json:"currency"`
	Status   string `json:"status"`
}

// Head is the chain's head: the last event's sequence number and hash.
type Head struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

// Event is one audit event, as the chain hashes it.
type Event struct {
	Seq       int64           `json:"seq"`
	Kind      string          `json:"kind"`
	Payload   json.RawMessage `json:"payload"`
	CreatedAt time.Time       `json:"createdAt"`
	PrevHash  string          `json:"prevHash"`
	Hash      string          `json:"hash"`
}

// Entry is one journal transaction with its postings and its metadata,
// as stored: a reversal's names the event of the transaction it undoes
// (ledger.ReversalMeta), a round settlement's the pot it shared out.
// Metadata is absent when the transaction has none.
type Entry struct {
	ID       int64           `json:"id"`
	Kind     string          `json:"kind"`
	Round    int             `json:"round,omitempty"`
	RoundID  int64           `json:"roundId,omitempty"`
	Memo     string          `json:"memo,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
	EventSeq int64           `json:"eventSeq"`
	Postings []Posting       `json:"postings"`
}

// Posting is one line of a journal transaction: "player:7", "pot" or
// "world", and the amount.
type Posting struct {
	Account string `json:"account"`
	Amount  int64  `json:"amount"`
}

// Balance is an account's balance.
type Balance struct {
	Account string `json:"account"`
	Balance int64  `json:"balance"`
}

// Build makes a receipt from a table's stored history.
func Build(t db.Table, events []chain.Event, journal []db.JournalEntry, accounts []db.Account, pub ed25519.PublicKey, now time.Time) Receipt {
	r := Receipt{Format: Format, IssuedAt: now.UTC().Truncate(time.Second), PublicKey: hex.EncodeToString(pub),
		Table:  Table{ID: t.ID, Name: t.Name, Currency: t.Currency, Status: t.Status},
		Head:   Head{Seq: t.Head.Seq, Hash: hex.EncodeToString(t.Head.Hash)},
		Events: make([]Event, len(events)), Journal: make([]Entry, len(journal)), Balances: make([]Balance, len(accounts))}
	for i, e := range events {
		r.Events[i] = Event{Seq: e.Seq, Kind: e.Kind, Payload: e.Payload, CreatedAt: e.CreatedAt.UTC(),
			PrevHash: hex.EncodeToString(e.PrevHash), Hash: hex.EncodeToString(e.Hash)}
	}
	for i, j := range journal {
		en := Entry{ID: j.ID, Kind: j.Kind, Round: j.Round, Memo: j.Memo, EventSeq: j.EventSeq, Postings: make([]Posting, len(j.Postings))}
		if j.RoundID != nil {
			en.RoundID = *j.RoundID
		}
		if len(j.Metadata) > 0 && string(j.Metadata) != "{}" {
			en.Metadata = j.Metadata
		}
		for k, p := range j.Postings {
			en.Postings[k] = Posting{Account: ledger.Account{Kind: p.Kind, Player: p.Player}.String(), Amount: p.Amount}
		}
		r.Journal[i] = en
	}
	for i, a := range accounts {
		r.Balances[i] = Balance{Account: ledger.Account{Kind: a.Kind, Player: a.Player}.String(), Balance: a.Balance}
	}
	return r
}

// Sign encodes a receipt as a signed file.
func Sign(r Receipt, sign func([]byte) []byte) ([]byte, error) {
	body, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return nil, err
	}
	body = append(body, '\n')
	sig := sign(body)
	out := make([]byte, 0, len(body)+len(signatureLine)+2*len(sig)+1)
	out = append(out, body...)
	out = append(out, signatureLine...)
	out = hex.AppendEncode(out, sig)
	return append(out, '\n'), nil
}
