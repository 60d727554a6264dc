package receipt

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger"
	"github.com/tally-dice/tally/seal"
)

// night is a small table's history: made, a buy-in, a payment.
func night(t *testing.T) (db.Table, []chain.Event, []db.JournalEntry, []db.Account) {
	t.Helper()
	at := time.Date(2026, 11, 20, 21, 0, 0, 0, time.UTC)
	head := chain.Start()
	var events []chain.Event
	add := func(kind string, payload any) {
		e, err := head.Append(7, kind, payload, at)
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	add("table.created", map[string]any{"name": "Friday"})
	add("ledger.deposit", ledger.Event{Postings: []ledger.EventPosting{{Account: "player:1", Amount: 5}, {Account: "world", Amount: -5}}})
	add("ledger.settlement", ledger.Event{Postings: []ledger.EventPosting{{Account: "player:1", Amount: -2}, {Account: "player:2", Amount: 2}}})
	journal := []db.JournalEntry{
		{ID: 1, Kind: "deposit", EventSeq: 2, Postings: []db.Posting{
			{AccountID: 3, Kind: db.AccountPlayer, Player: 1, Amount: 5}, {AccountID: 2, Kind: db.AccountWorld, Amount: -5}}},
		{ID: 2, Kind: "settlement", EventSeq: 3, Postings: []db.Posting{
			{AccountID: 3, Kind: db.AccountPlayer, Player: 1, Amount: -2}, {AccountID: 4, Kind: db.AccountPlayer, Player: 2, Amount: 2}}},
	}
	accounts := []db.Account{{ID: 1, Kind: db.AccountPot}, {ID: 2, Kind: db.AccountWorld, Balance: -5},
		{ID: 3, Kind: db.AccountPlayer, Player: 1, Balance: 3}, {ID: 4, Kind: db.AccountPlayer, Player: 2, Balance: 2}}
	return db.Table{ID: 7, Name: "Friday", Currency: "units", Status: db.TableOpen, Head: head}, events, journal, accounts
}

func signed(t *testing.T, k *seal.Keys, r Receipt) []byte {
	t.Helper()
	file, err := Sign(r, k.Sign)
	if err != nil {
		t.Fatal(err)
	}
	return file
}

// TestAnUntouchedReceiptVerifiesAndAnyChangedByteDoesNot flips each bit
// of every byte of a receipt in turn: every change is refused.
func TestAnUntouchedReceiptVerifiesAndAnyChangedByteDoesNot(t *testing.T) {
	k := seal.Random()
	tbl, events, journal, accounts := night(t)
	file := signed(t, k, Build(tbl, events, journal, accounts, k.PublicKey(), time.Now()))
	v, err := Verify(file, hex.EncodeToString(k.PublicKey()))
	if err != nil || v.Receipt.Head.Seq != 3 || len(v.Receipt.Journal) != 2 {
		t.Fatalf("untouched receipt: %+v, %v", v, err)
	}
	everyChangeRefused(t, file)
}

// everyChangeRefused flips each of three bits of every byte of a good
// receipt file in turn, adds a byte, cuts one, the signature and
// everything: every change is refused.
func everyChangeRefused(t *testing.T, file []byte) {
	t.Helper()
	for i := range file {
		for _, bit := range []byte{0x01, 0x20, 0x80} {
			changed := bytes.Clone(file)
			changed[i] ^= bit
			if _, err := Verify(changed, ""); !errors.Is(err, ErrInvalid) {
				t.Fatalf("byte %d (%q) xor %#x: err = %v, want ErrInvalid", i, file[i], bit, err)
			}
		}
	}
	for name, f := range map[string][]byte{
		"a byte added":      append(bytes.Clone(file), '\n'),
		"the last byte cut": file[:len(file)-1],
		"no signature":      file[:bytes.LastIndex(file, []byte(signatureLine))],
		"empty":             nil,
	} {
		if _, err := Verify(f, ""); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
}

// TestAReceiptSignedByAnotherKey: books rewritten and signed again with
// another key verify only when no key is pinned, and say whose key it is.
func TestAReceiptSignedByAnotherKey(t *testing.T) {
	server, forger := seal.Random(), seal.Random()
	tbl, events, journal, accounts := night(t)
	file := signed(t, forger, Build(tbl, events, journal, accounts, forger.PublicKey(), time.Now()))
	if _, err := Verify(file, hex.EncodeToString(server.PublicKey())); err == nil || !strings.Contains(err.Error(), "not the expected") {
		t.Fatalf("pinned to the server's key: %v", err)
	}
	if v, err := Verify(file, ""); err != nil || v.Key != hex.EncodeToString(forger.PublicKey()) {
		t.Fatalf("unpinned: %+v %v", v, err)
	}
}

// TestAReceiptOfBrokenBooksDoesNotVerify: a receipt signed over books
// that do not add up (a balance moved, a posting changed behind its event,
// an event edited) is refused even with a good signature.
func TestAReceiptOfBrokenBooksDoesNotVerify(t *testing.T) {
	k := seal.Random()
	for name, c := range map[string]struct {
		edit func(*Receipt)
		want string
	}{
		"a balance moved": {func(r *Receipt) { r.Balances[2].Balance += 100; r.Balances[3].Balance -= 100 }, "postings sum to"},
		"a posting changed behind its event": {func(r *Receipt) {
			r.Journal[1].Postings[0].Amount, r.Journal[1].Postings[1].Amount = -3, 3
			r.Balances[2].Balance, r.Balances[3].Balance = 2, 3
		}, "differs from event 3"},
		"an event edited":    {func(r *Receipt) { r.Events[0].Payload = []byte(`{"name":"Eve"}`) }, "event 1"},
		"the last event cut": {func(r *Receipt) { r.Events = r.Events[:2] }, "head says 3"},
	} {
		tbl, events, journal, accounts := night(t)
		r := Build(tbl, events, journal, accounts, k.PublicKey(), time.Now())
		c.edit(&r)
		if _, err := Verify(signed(t, k, r), ""); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want ErrInvalid saying %q", name, err, c.want)
		}
	}
}
