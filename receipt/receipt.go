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
// the sum of its postings (ledger.Reconcile). Changing any byte of the
// file fails one of them.
//
// The signature proves which key signed; whether that key is the server's
// is for the reader to compare (Verify reports it, and `tallyd verify
// --key` pins it).
package receipt

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger"
)

// Format names this layout of a receipt.
const Format = "tally-receipt/1"

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

// Entry is one journal transaction with its postings.
type Entry struct {
	ID       int64     `json:"id"`
	Kind     string    `json:"kind"`
	Round    int       `json:"round,omitempty"`
	RoundID  int64     `json:"roundId,omitempty"`
	Memo     string    `json:"memo,omitempty"`
	EventSeq int64     `json:"eventSeq"`
	Postings []Posting `json:"postings"`
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

// ErrInvalid is wrapped by every reason a receipt does not verify.
var ErrInvalid = errors.New("receipt does not verify")

// Verified is what a good receipt says.
type Verified struct {
	Receipt Receipt
	Key     string // the signing key, hex
}

// Verify checks a receipt file: its signature (under wantKey, hex, when
// not empty), its hash chain and its books.
func Verify(file []byte, wantKey string) (Verified, error) {
	body, sigHex, err := split(file)
	if err != nil {
		return Verified{}, err
	}
	var r Receipt
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Verified{}, fmt.Errorf("%w: the receipt does not read: %w", ErrInvalid, err)
	}
	if r.Format != Format {
		return Verified{}, fmt.Errorf("%w: format %q, want %q", ErrInvalid, r.Format, Format)
	}
	pub, err := hex.DecodeString(r.PublicKey)
	if err != nil || len(pub) != ed25519.PublicKeySize || hex.EncodeToString(pub) != r.PublicKey {
		return Verified{}, fmt.Errorf("%w: publicKey is not an Ed25519 key in lower-case hex", ErrInvalid)
	}
	if wantKey != "" && !strings.EqualFold(wantKey, r.PublicKey) {
		return Verified{}, fmt.Errorf("%w: signed by key %s, not the expected %s", ErrInvalid, r.PublicKey, wantKey)
	}
	sig, err := hex.DecodeString(sigHex)
	if err != nil || len(sig) != ed25519.SignatureSize || hex.EncodeToString(sig) != sigHex {
		return Verified{}, fmt.Errorf("%w: the signature is not %d bytes in lower-case hex", ErrInvalid, ed25519.SignatureSize)
	}
	if !ed25519.Verify(pub, body, sig) {
		return Verified{}, fmt.Errorf("%w: the signature does not match the receipt: it was changed after it was signed", ErrInvalid)
	}
	if err := check(r); err != nil {
		return Verified{}, err
	}
	return Verified{Receipt: r, Key: r.PublicKey}, nil
}

// split separates a receipt file into the signed body and the signature.
func split(file []byte) (body []byte, sig string, err error) {
	i := bytes.LastIndex(file, []byte("\n"+signatureLine))
	if i < 0 || !bytes.HasSuffix(file, []byte("\n")) {
		return nil, "", fmt.Errorf("%w: no signature line (%q…) at its end", ErrInvalid, signatureLine)
	}
	body, last := file[:i+1], file[i+1+len(signatureLine):len(file)-1]
	if bytes.ContainsAny(last, "\n\r ") {
		return nil, "", fmt.Errorf("%w: the signature line is not one line", ErrInvalid)
	}
	return body, string(last), nil
}

// check verifies a receipt's chain and books.
func check(r Receipt) error {
	events := make([]chain.Event, len(r.Events))
	for i, e := range r.Events {
		prev, err1 := hex.DecodeString(e.PrevHash)
		hash, err2 := hex.DecodeString(e.Hash)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("%w: event %d: hashes are not hex", ErrInvalid, e.Seq)
		}
		events[i] = chain.Event{TableID: r.Table.ID, Seq: e.Seq, Kind: e.Kind, Payload: e.Payload, CreatedAt: e.CreatedAt,
			PrevHash: prev, Hash: hash}
	}
	rep := chain.Verify(events)
	if !rep.OK {
		return fmt.Errorf("%w: event %d: %s", ErrInvalid, rep.BrokenAt, rep.Problem)
	}
	if int64(len(events)) != r.Head.Seq || hex.EncodeToString(rep.Head) != r.Head.Hash && len(events) > 0 {
		return fmt.Errorf("%w: the events end at %d, the head says %d (%s)", ErrInvalid, len(events), r.Head.Seq, r.Head.Hash)
	}
	ids := map[string]int64{}
	id := func(account string) (int64, ledger.Account, error) {
		a, err := ledger.ParseAccount(account)
		if _, ok := ids[account]; !ok {
			ids[account] = int64(len(ids) + 1)
		}
		return ids[account], a, err
	}
	journal := make([]db.JournalEntry, len(r.Journal))
	for i, j := range r.Journal {
		e := db.JournalEntry{ID: j.ID, Kind: j.Kind, Round: j.Round, Memo: j.Memo, EventSeq: j.EventSeq}
		if j.RoundID != 0 {
			e.RoundID = &j.RoundID
		}
		for _, p := range j.Postings {
			n, a, err := id(p.Account)
			if err != nil {
				return fmt.Errorf("%w: journal transaction %d: %w", ErrInvalid, j.ID, err)
			}
			e.Postings = append(e.Postings, db.Posting{AccountID: n, Kind: a.Kind, Player: a.Player, Amount: p.Amount})
		}
		journal[i] = e
	}
	accounts := make([]db.Account, len(r.Balances))
	for i, b := range r.Balances {
		n, a, err := id(b.Account)
		if err != nil {
			return fmt.Errorf("%w: balance: %w", ErrInvalid, err)
		}
		accounts[i] = db.Account{ID: n, Kind: a.Kind, Player: a.Player, Balance: b.Balance}
	}
	if problems := ledger.Reconcile(events, journal, accounts); len(problems) > 0 {
		return fmt.Errorf("%w: %s", ErrInvalid, strings.Join(problems, "; "))
	}
	return nil
}
