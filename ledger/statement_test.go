package ledger_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

func TestSettleUpRefusesWhileThePotHoldsMoney(t *testing.T) {
	t.Parallel()
	f := newFixture(false, "Ann", "Bob")
	if err := f.post(ledger.Antes(1, []game.Amount{{Player: f.players[0], Amount: 3}})); err != nil {
		t.Fatal(err)
	}
	_, err := ledger.SettleUp(1, f.sheet())
	if !errors.Is(err, ledger.ErrPotNotEmpty) || !strings.Contains(err.Error(), "3 chips") {
		t.Fatalf("err = %v, want ErrPotNotEmpty naming 3 chips", err)
	}
}

// sheet is the fixture's balance sheet.
func (f *fixture) sheet() ledger.BalanceSheet {
	var players []db.Player
	for i, p := range f.players {
		players = append(players, db.Player{ID: p, Name: []string{"Ann", "Bob", "Cy", "Dee"}[i], Seat: i + 1})
	}
	return ledger.Sheet("chips", f.books.Accounts(), players)
}

// TestSettleUpPlanClearsTheBooks plays an evening with buy-ins and games,
// closes the table, then records every payment of the plan and checks that
// everyone, the bank included, ends at zero.
func TestSettleUpPlanClearsTheBooks(t *testing.T) {
	t.Parallel()
	f := newFixture(false, "Ann", "Bob", "Cy", "Dee")
	for i, s := range []step{
		deposit(0, 40), deposit(3, 25),
		ante(10, 10, 10, 10), settle(40, map[int]int64{1: 40}, [][3]int64{{2, 0, 7}}, 0),
		ante(3, 3), closeOut(6, 1, 0),
	} {
		e, err := s(f.players)
		if err == nil {
			err = f.post(e)
		}
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
	}
	plan, err := ledger.SettleUp(1, f.sheet())
	if err != nil {
		t.Fatal(err)
	}
	// Ann 40-10+7 = 37, Bob -10+40 = 30, Cy -17, Dee 15, bank -65.
	if len(plan.Parties) != 5 || plan.Parties[4].PlayerID != ledger.Bank || plan.Parties[4].Balance != -65 {
		t.Fatalf("parties %+v", plan.Parties)
	}
	if !plan.Exact || len(plan.Payments) > len(plan.Parties)-1 {
		t.Fatalf("plan %+v", plan)
	}
	if lines := plan.WhoOwesWhom(); len(lines) != len(plan.Payments) || !strings.Contains(strings.Join(lines, "\n"), " pays ") {
		t.Fatalf("who owes whom: %q", lines)
	}
	if standing := plan.Standing(); !strings.Contains(strings.Join(standing, "\n"), "Cy owes 17 chips") {
		t.Fatalf("standing: %q", standing)
	}
	for _, p := range plan.Payments {
		e, err := ledger.Payment(p.From.PlayerID, p.To.PlayerID, p.Amount)
		if err == nil {
			err = f.post(e)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := f.balances(); !slices.Equal(got, make([]int64, 6)) {
		t.Fatalf("balances after settling up: %v", got)
	}
	if after, err := ledger.SettleUp(1, f.sheet()); err != nil || len(after.Payments) != 0 {
		t.Fatalf("settled table still plans %+v (%v)", after.Payments, err)
	}
}

func TestStatementCSV(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)
	round := int64(7)
	journal := []db.JournalEntry{
		{ID: 1, Kind: "ante", RoundID: &round, Round: 1, CreatedAt: at, Postings: []db.Posting{
			{AccountID: 10, Kind: db.AccountPlayer, Player: 1, Amount: -2}, {AccountID: 11, Kind: db.AccountPlayer, Player: 2, Amount: -2},
			{AccountID: 100, Kind: db.AccountPot, Amount: 4}}},
		{ID: 2, Kind: "round_settle", RoundID: &round, Round: 1, Memo: "=all tie", CreatedAt: at,
			Metadata: []byte(`{"carried":4,"pot":4,"remainder":0,"winners":[]}`)},
	}
	statement, err := ledger.Statement(3, journal, []db.Player{{ID: 1, Name: "Ann"}, {ID: 2, Name: "Bob, Jr."}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := ledger.WriteCSV(&buf, statement); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("CSV does not parse back: %v\n%s", err, buf.String())
	}
	// header, three ante postings, one settlement with nothing to move
	if len(rows) != 5 {
		t.Fatalf("%d CSV rows:\n%v", len(rows), rows)
	}
	if rows[0][0] != "transaction_id" || rows[2][7] != "Bob, Jr." || rows[2][8] != "-2" || rows[3][5] != "pot" || rows[3][8] != "4" ||
		rows[1][3] != "7" {
		t.Errorf("unexpected rows: %v", rows)
	}
	if rows[4][2] != "round_settle" || rows[4][4] != "'=all tie" || rows[4][8] != "0" {
		t.Errorf("settlement row: %v (a memo a spreadsheet would run is quoted)", rows[4])
	}
	if statement[1].Metadata["carried"] != float64(4) || statement[0].TableID != 3 || statement[0].Postings[1].Name != "Bob, Jr." {
		t.Errorf("statement %+v", statement)
	}
}
