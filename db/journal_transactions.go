package db

import (
	"time"

	"github.com/tally-dice/tally/db/internal/dbsqlc"
	"github.com/tally-dice/tally/game"
)

// JournalEntry is one movement of money: a row of the journal and its
// postings, which sum to zero.
type JournalEntry struct {
	ID        int64
	Kind      string
	RoundID   *int64 // the round's id, shown in statements
	Round     int    // the round's number; 0 for none
	Memo      string
	Metadata  []byte // JSON
	CreatedAt time.Time
	EventSeq  int64 // the audit event that recorded it; 0 when unknown
	Postings  []Posting
}

// Posting is one line of a journal entry: an amount added to (or,
// negative, taken from) one account.
type Posting struct {
	AccountID int64
	Kind      string        // the account's kind
	Player    game.PlayerID // for player accounts
	Amount    int64
}

// JournalInsert queues writing a journal entry with its postings and the
// balances they move, in one statement (Kind, Round, Memo, Metadata,
// EventSeq and the postings' AccountID and Amount are written). Postings
// that do not sum to zero fail it with ErrUnbalanced; an account of another
// table, with ErrNotFound.
func (b *Batch) JournalInsert(tableID int64, e JournalEntry) {
	p := dbsqlc.JournalInsertParams{TableID: tableID, Kind: e.Kind, Memo: e.Memo, Metadata: e.Metadata,
		EventSeq: e.EventSeq}
	if p.Metadata == nil {
		p.Metadata = []byte(`{}`)
	}
	if e.Round > 0 {
		round := int32(e.Round)
		p.Round = &round
	}
	for _, ps := range e.Postings {
		p.AccountIds = append(p.AccountIds, ps.AccountID)
		p.Amounts = append(p.Amounts, ps.Amount)
	}
	b.exec(func(q dbsqlc.DBTX) error { return queries.JournalInsert(b.ctx, q, p) })
}

// JournalList queues reading a table's journal in order, each entry with
// its postings in the order they were written. It queues two statements.
func (b *Batch) JournalList(tableID int64, out *[]JournalEntry) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.JournalListByTable(b.ctx, q, tableID)
		*out = toJournal(rows)
		return err
	})
	b.queue(func(q dbsqlc.DBTX) error {
		postings, err := queries.PostingListByTable(b.ctx, q, tableID)
		addPostings(*out, postings)
		return err
	})
}

// JournalPage queues reading at most max entries of a table's journal
// after the one whose id is after, in order, each with its postings. It
// queues two statements.
func (b *Batch) JournalPage(tableID, after int64, max int, out *[]JournalEntry) {
	p := dbsqlc.JournalPageByTableParams{TableID: tableID, After: after, Max: int32(max)}
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.JournalPageByTable(b.ctx, q, p)
		page := make([]dbsqlc.JournalListByTableRow, len(rows))
		for i, r := range rows {
			page[i] = dbsqlc.JournalListByTableRow(r)
		}
		*out = toJournal(page)
		return err
	})
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.PostingListByJournalPage(b.ctx, q, dbsqlc.PostingListByJournalPageParams(p))
		postings := make([]dbsqlc.PostingListByTableRow, len(rows))
		for i, r := range rows {
			postings[i] = dbsqlc.PostingListByTableRow(r)
		}
		addPostings(*out, postings)
		return err
	})
}

// toJournal is the journal's rows as entries, without their postings.
func toJournal(rows []dbsqlc.JournalListByTableRow) []JournalEntry {
	out := make([]JournalEntry, len(rows))
	for i, r := range rows {
		e := JournalEntry{ID: r.ID, Kind: r.Kind, RoundID: r.RoundID, Memo: r.Memo, Metadata: r.Metadata,
			CreatedAt: r.CreatedAt}
		if r.Round != nil {
			e.Round = int(*r.Round)
		}
		if r.EventSeq != nil {
			e.EventSeq = *r.EventSeq
		}
		out[i] = e
	}
	return out
}

// addPostings gives each entry its postings, in the order they come.
func addPostings(entries []JournalEntry, postings []dbsqlc.PostingListByTableRow) {
	byID := make(map[int64]*JournalEntry, len(entries))
	for i := range entries {
		byID[entries[i].ID] = &entries[i]
	}
	for _, p := range postings {
		if e := byID[p.TransactionID]; e != nil {
			e.Postings = append(e.Postings, Posting{AccountID: p.AccountID, Kind: p.Kind, Player: playerOf(p.PlayerID),
				Amount: p.Amount})
		}
	}
}

// JournalCorrectable queues reading what a correction needs of a table's
// journal, each entry with its postings: the entry that ledger event
// eventSeq recorded, round round's entries, and every reversal. It queues
// two statements.
func (b *Batch) JournalCorrectable(tableID, eventSeq int64, round int, out *[]JournalEntry) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.JournalListCorrectable(b.ctx, q, dbsqlc.JournalListCorrectableParams{TableID: tableID,
			EventSeq: &eventSeq, Round: int32(round)})
		page := make([]dbsqlc.JournalListByTableRow, len(rows))
		for i, r := range rows {
			page[i] = dbsqlc.JournalListByTableRow(r)
		}
		*out = toJournal(page)
		return err
	})
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.PostingListCorrectable(b.ctx, q, dbsqlc.PostingListCorrectableParams{TableID: tableID,
			EventSeq: &eventSeq, Round: int32(round)})
		postings := make([]dbsqlc.PostingListByTableRow, len(rows))
		for i, r := range rows {
			postings[i] = dbsqlc.PostingListByTableRow(r)
		}
		addPostings(*out, postings)
		return err
	})
}

// JournalRolledNights queues reading the nights a crew's journal has
// rolled in, in the order they rolled.
func (b *Batch) JournalRolledNights(tableID int64, out *[]int64) {
	b.queue(func(q dbsqlc.DBTX) error {
		nights, err := queries.JournalRolledNights(b.ctx, q, tableID)
		*out = nights
		return err
	})
}
