package receipt

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger"
	"github.com/tally-dice/tally/seal"
)

// correctedNight is night with its payment (event 3) reversed by event 4,
// journal transaction 3: logged saying it undoes what logged names, and
// journaled saying it undoes what journaled names.
func correctedNight(t *testing.T, logged, journaled ledger.ReversalMeta) (db.Table, []chain.Event, []db.JournalEntry, []db.Account) {
	t.Helper()
	tbl, events, journal, accounts := night(t)
	e, err := tbl.Head.Append(7, "ledger.reversal", ledger.Event{Memo: "reverses a payment", Metadata: logged,
		Postings: []ledger.EventPosting{{Account: "player:1", Amount: 2}, {Account: "player:2", Amount: -2}}}, events[0].CreatedAt)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := json.Marshal(journaled)
	if err != nil {
		t.Fatal(err)
	}
	journal = append(journal, db.JournalEntry{ID: 3, Kind: "reversal", Memo: "reverses a payment", Metadata: meta, EventSeq: 4,
		Postings: []db.Posting{{AccountID: 3, Kind: db.AccountPlayer, Player: 1, Amount: 2},
			{AccountID: 4, Kind: db.AccountPlayer, Player: 2, Amount: -2}}})
	accounts[2].Balance, accounts[3].Balance = 5, 0
	return tbl, append(events, e), journal, accounts
}

// undoesThePayment is what the reversal of night's payment says it undoes.
var undoesThePayment = ledger.ReversalMeta{Reverses: 3, Kind: ledger.KindSettlement, Reason: "marked by mistake"}

// TestAReceiptWithAReversalVerifiesAndAnyChangedByteDoesNot: a receipt
// of a night with a payment reversed verifies, carries what the reversal
// undoes, and refuses every changed byte, those of that metadata too.
func TestAReceiptWithAReversalVerifiesAndAnyChangedByteDoesNot(t *testing.T) {
	k := seal.Random()
	tbl, events, journal, accounts := correctedNight(t, undoesThePayment, undoesThePayment)
	file := signed(t, k, Build(tbl, events, journal, accounts, k.PublicKey(), time.Now()))
	v, err := Verify(file, hex.EncodeToString(k.PublicKey()))
	if err != nil || v.Receipt.Format != Format || len(v.Receipt.Journal) != 3 {
		t.Fatalf("untouched receipt: %+v, %v", v, err)
	}
	var m ledger.ReversalMeta
	if err := json.Unmarshal(v.Receipt.Journal[2].Metadata, &m); err != nil || m != undoesThePayment {
		t.Fatalf("the reversal's metadata in the receipt: %s (%v), want %+v", v.Receipt.Journal[2].Metadata, err, undoesThePayment)
	}
	if v.Receipt.Journal[0].Metadata != nil {
		t.Fatalf("a buy-in without metadata has %s in the receipt", v.Receipt.Journal[0].Metadata)
	}
	everyChangeRefused(t, file)
}

// TestAReceiptOfBrokenCorrectionsDoesNotVerify: a receipt signed over a
// reversal the server's audit would not pass is refused even with a good
// signature: the receipt's check of the books is the audit's.
func TestAReceiptOfBrokenCorrectionsDoesNotVerify(t *testing.T) {
	k := seal.Random()
	undoesTheBuyIn := ledger.ReversalMeta{Reverses: 2, Kind: ledger.KindDeposit}
	undoesNoMoney := ledger.ReversalMeta{Reverses: 1, Kind: ledger.KindSettlement}
	for name, c := range map[string]struct {
		logged, journaled ledger.ReversalMeta
		edit              func(*Receipt)
		want              string
	}{
		"the journal says it undoes another entry than its event": {undoesThePayment, undoesTheBuyIn, nil,
			"journal transaction 3 differs from event 4"},
		"both say it undoes an entry it does not move back": {undoesTheBuyIn, undoesTheBuyIn, nil,
			"reversal 3 does not undo event 2 exactly"},
		"both say it undoes what moved no money": {undoesNoMoney, undoesNoMoney, nil,
			"reversal 3 names event 1, which recorded no movement of money"},
		"its metadata cut": {undoesThePayment, undoesThePayment, func(r *Receipt) { r.Journal[2].Metadata = nil },
			"journal transaction 3 differs from event 4"},
		"the first format, with metadata": {undoesThePayment, undoesThePayment, func(r *Receipt) { r.Format = formatV1 },
			"a tally-receipt/1 receipt carries no metadata"},
	} {
		tbl, events, journal, accounts := correctedNight(t, c.logged, c.journaled)
		r := Build(tbl, events, journal, accounts, k.PublicKey(), time.Now())
		if c.edit != nil {
			c.edit(&r)
		}
		if _, err := Verify(signed(t, k, r), ""); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want ErrInvalid saying %q", name, err, c.want)
		}
	}
}

// TestAFirstFormatReceiptWithCorrectionsVerifies: receipts signed before
// journal metadata was in them (tally-receipt/1) still verify, each
// reversal checked against what its event says it undoes. The one in
// testdata is a server's, of a night with a buy-in and a payment
// reversed, a settled round taken back and a round reversed.
func TestAFirstFormatReceiptWithCorrectionsVerifies(t *testing.T) {
	file, err := os.ReadFile("testdata/v1-corrections.txt")
	if err != nil {
		t.Fatal(err)
	}
	v, err := Verify(file, "")
	if err != nil || v.Receipt.Format != formatV1 {
		t.Fatalf("the server's first-format receipt: %+v, %v", v.Receipt.Format, err)
	}
	reversals := 0
	for _, j := range v.Receipt.Journal {
		if j.Kind == string(ledger.KindReversal) {
			reversals++
		}
	}
	if reversals != 5 {
		t.Fatalf("the server's first-format receipt has %d reversals, want 5", reversals)
	}
	changed := bytes.Replace(file, []byte(`"reason": "the wrong cup"`), []byte(`"reason": "the right cup"`), 1)
	if bytes.Equal(changed, file) {
		t.Fatal("the receipt gives no reason to change")
	}
	if _, err := Verify(changed, ""); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a reason changed: err = %v, want ErrInvalid", err)
	}

	// Signed again without the reversal's metadata: what it undoes is read
	// from its event, and checked.
	k := seal.Random()
	for _, c := range []struct {
		logged ledger.ReversalMeta
		want   string // "" when it verifies
	}{
		{undoesThePayment, ""},
		{ledger.ReversalMeta{Reverses: 1, Kind: ledger.KindSettlement}, "reversal 3 names event 1, which recorded no movement of money"},
	} {
		tbl, events, journal, accounts := correctedNight(t, c.logged, c.logged)
		r := Build(tbl, events, journal, accounts, k.PublicKey(), time.Now())
		r.Format = formatV1
		for i := range r.Journal {
			r.Journal[i].Metadata = nil
		}
		_, err := Verify(signed(t, k, r), "")
		if c.want == "" && err != nil || c.want != "" && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("a first-format receipt whose event says %+v: err = %v, want %q", c.logged, err, c.want)
		}
	}
}
