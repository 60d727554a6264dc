package ledger

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// Transaction is a journal transaction as a statement shows it.
type Transaction struct {
	ID        int64          `json:"id"`
	TableID   int64          `json:"tableId"`
	Kind      Kind           `json:"kind"`
	RoundID   *int64         `json:"roundId,omitempty"`
	Memo      string         `json:"memo,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	CreatedAt time.Time      `json:"createdAt"`
	// EventSeq is the audit event that recorded it: what a reversal names.
	EventSeq int64     `json:"eventSeq,omitempty"`
	Postings []Posting `json:"postings"`
}

// Posting is one line of a Transaction.
type Posting struct {
	AccountID int64         `json:"accountId"`
	Account   string        `json:"account"`            // "player", "pot" or "world"
	PlayerID  game.PlayerID `json:"playerId,omitempty"` // set for player accounts
	Name      string        `json:"name,omitempty"`     // the player's name
	Amount    int64         `json:"amount"`
}

// Statement is a table's journal in order, each transaction with its
// postings and the players' names.
func Statement(tableID int64, journal []db.JournalEntry, players []db.Player) ([]Transaction, error) {
	names := make(map[game.PlayerID]string, len(players))
	for _, p := range players {
		names[p.ID] = p.Name
	}
	out := make([]Transaction, 0, len(journal))
	for _, j := range journal {
		t := Transaction{ID: j.ID, TableID: tableID, Kind: Kind(j.Kind), RoundID: j.RoundID, Memo: j.Memo, EventSeq: j.EventSeq,
			CreatedAt: j.CreatedAt, Postings: make([]Posting, 0, len(j.Postings))}
		if len(j.Metadata) > 0 {
			if err := json.Unmarshal(j.Metadata, &t.Metadata); err != nil {
				return nil, fmt.Errorf("metadata of transaction %d: %w", j.ID, err)
			}
		}
		for _, p := range j.Postings {
			posting := Posting{AccountID: p.AccountID, Account: p.Kind, Amount: p.Amount, Name: p.Kind}
			if p.Kind == db.AccountPlayer {
				posting.PlayerID, posting.Name = p.Player, names[p.Player]
			}
			t.Postings = append(t.Postings, posting)
		}
		out = append(out, t)
	}
	return out, nil
}

// csvHeader names the columns WriteCSV writes.
var csvHeader = []string{"transaction_id", "created_at", "kind", "round_id", "memo", "account", "player_id", "name", "amount"}

// WriteCSV writes a statement as CSV, one row per posting (a transaction
// with no postings, a carry-over marker, gets one row with an empty
// account), so it opens in any spreadsheet. Names and memos that a
// spreadsheet would run as a formula are written with a leading apostrophe
// (textCell).
func WriteCSV(w io.Writer, statement []Transaction) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, t := range statement {
		round := ""
		if t.RoundID != nil {
			round = strconv.FormatInt(*t.RoundID, 10)
		}
		head := []string{strconv.FormatInt(t.ID, 10), t.CreatedAt.UTC().Format(time.RFC3339Nano), string(t.Kind), round, textCell(t.Memo)}
		if len(t.Postings) == 0 {
			if err := cw.Write(append(head, "", "", "", "0")); err != nil {
				return err
			}
		}
		for _, p := range t.Postings {
			player := ""
			if p.PlayerID != 0 {
				player = p.PlayerID.String()
			}
			row := append(head[:len(head):len(head)], p.Account, player, textCell(p.Name), strconv.FormatInt(p.Amount, 10))
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// textCell makes a text cell safe to open in a spreadsheet: players choose
// their own names, and a cell starting with =, +, -, @, a tab or a carriage
// return is run as a formula by Excel, LibreOffice and Sheets (CSV
// injection). Such a cell gets a leading apostrophe, which spreadsheets
// show as text; amounts are numbers and are written as they are.
func textCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
