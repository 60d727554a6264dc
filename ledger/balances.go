package ledger

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tally-dice/tally/db"
)

// PlayerBalance is a player's position at a table: positive means the table
// owes them, negative means they owe the table.
type PlayerBalance struct {
	PlayerID int64  `json:"playerId"`
	Name     string `json:"name"`
	Seat     int    `json:"seat"`
	Left     bool   `json:"left,omitempty"`
	Balance  int64  `json:"balance"`
}

// BalanceSheet is every balance of a table. Players + Pot + World is always
// zero.
type BalanceSheet struct {
	TableID  int64           `json:"tableId"`
	Currency string          `json:"currency"`
	Players  []PlayerBalance `json:"players"`
	Pot      int64           `json:"pot"`
	World    int64           `json:"world"`
}

// Balances reads a table's balance sheet, listing every player ever seated
// (by seat), with 0 for those who never moved money.
func Balances(ctx context.Context, q db.DBTX, tableID int64) (BalanceSheet, error) {
	tbl, err := db.TableGet(ctx, q, tableID)
	if err != nil {
		return BalanceSheet{}, tableErr(tableID, err)
	}
	players, err := db.PlayerList(ctx, q, tableID)
	if err != nil {
		return BalanceSheet{}, err
	}
	accts, err := db.AccountList(ctx, q, tableID)
	if err != nil {
		return BalanceSheet{}, err
	}
	sheet := BalanceSheet{TableID: tableID, Currency: tbl.Currency, Players: []PlayerBalance{}}
	byPlayer := map[int64]int64{}
	for _, a := range accts {
		switch a.Kind {
		case db.AccountPot:
			sheet.Pot = a.Balance
		case db.AccountWorld:
			sheet.World = a.Balance
		case db.AccountPlayer:
			byPlayer[*a.PlayerID] = a.Balance
		}
	}
	for _, p := range players {
		sheet.Players = append(sheet.Players, PlayerBalance{PlayerID: p.ID, Name: p.Name, Seat: p.Seat,
			Left: p.LeftAt != nil, Balance: byPlayer[p.ID]})
	}
	return sheet, nil
}

// Statement returns a table's journal in order, each transaction with its
// postings and the players' names, ready to serve as JSON.
func Statement(ctx context.Context, q db.DBTX, tableID int64) ([]Transaction, error) {
	if _, err := db.TableGet(ctx, q, tableID); err != nil {
		return nil, tableErr(tableID, err)
	}
	rows, err := db.JournalList(ctx, q, tableID)
	if err != nil {
		return nil, err
	}
	players, err := db.PlayerList(ctx, q, tableID)
	if err != nil {
		return nil, err
	}
	names := make(map[int64]string, len(players))
	for _, p := range players {
		names[p.ID] = p.Name
	}
	out := make([]Transaction, 0, len(rows))
	for _, r := range rows {
		t := Transaction{ID: r.ID, TableID: r.TableID, Kind: Kind(r.Kind), RoundID: r.RoundID, Memo: r.Memo, CreatedAt: r.CreatedAt, Postings: []Posting{}}
		if err := json.Unmarshal(r.Metadata, &t.Metadata); err != nil {
			return nil, fmt.Errorf("metadata of transaction %d: %w", r.ID, err)
		}
		for _, p := range r.Postings {
			posting := Posting{AccountID: p.AccountID, Account: p.AccountKind, Amount: p.Amount, Name: p.AccountKind}
			if p.PlayerID != nil {
				posting.PlayerID, posting.Name = *p.PlayerID, names[*p.PlayerID]
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
				player = strconv.FormatInt(p.PlayerID, 10)
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

// tableErr turns a missing table into ErrTableNotFound.
func tableErr(tableID int64, err error) error {
	if errorsIsNotFound(err) {
		return fmt.Errorf("%w: %d", ErrTableNotFound, tableID)
	}
	return err
}
