package receipt

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger"
)

// ErrInvalid is wrapped by every reason a receipt does not verify.
var ErrInvalid = errors.New("receipt does not verify")

// Verified is what a good receipt says.
type Verified struct {
	Receipt Receipt
	Key     string // the signing key, hex
}

// Verify checks a receipt file: its signature (under wantKey, hex, when
// not empty), its hash chain and its books. It reads receipts of either
// format (Format, and the older formatV1).
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
	if r.Format != Format && r.Format != formatV1 {
		return Verified{}, fmt.Errorf("%w: format %q, want %q (or the older %q)", ErrInvalid, r.Format, Format, formatV1)
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
		e := db.JournalEntry{ID: j.ID, Kind: j.Kind, Round: j.Round, Memo: j.Memo, Metadata: j.Metadata, EventSeq: j.EventSeq}
		if r.Format == formatV1 {
			if j.Metadata != nil {
				return fmt.Errorf("%w: journal transaction %d: a %s receipt carries no metadata", ErrInvalid, j.ID, formatV1)
			}
			e.Metadata = eventMetadata(events, j.EventSeq)
		}
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

// eventMetadata is the metadata the ledger event seq records, or nil. A
// receipt of the first format carries no journal metadata, so its
// transactions are taken to hold what their events say they hold (as the
// server wrote them: ledger.Books.Post) and what each reversal undoes is
// read from its event, which the chain and the signature hold; the
// reversals are then checked as in a receipt that carries it.
func eventMetadata(events []chain.Event, seq int64) []byte {
	if seq < 1 || seq > int64(len(events)) {
		return nil
	}
	var ev ledger.Event
	if json.Unmarshal(events[seq-1].Payload, &ev) != nil || ev.Metadata == nil {
		return nil
	}
	meta, err := json.Marshal(ev.Metadata)
	if err != nil {
		return nil
	}
	return meta
}
