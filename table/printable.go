package table

import (
	"bytes"
	"context"
	"embed"
	"html/template"
	"time"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger"
	"github.com/tally-dice/tally/pay"
)

// This file is the printable statement (issue 26): a night's, or a crew's
// season's (a crew is a table whose journal holds each night it rolled
// up), as an HTML page made for printing or saving as PDF, beside the CSV
// (StatementCSV) and readable with the same tokens. Its style is the app's
// statement.css, which CSP allows ('self'); the page has no script.

//go:embed printable.html
var printableFS embed.FS

var printable = template.Must(template.New("printable.html").Funcs(template.FuncMap{
	"units": ledger.Units,
	"date":  func(t time.Time) string { return t.UTC().Format("2 Jan 2006 15:04 UTC") },
}).ParseFS(printableFS, "printable.html"))

// printablePage is what printable.html shows.
type printablePage struct {
	Table      db.Table
	Season     bool // a crew's statement
	Value      *UnitValueView
	Balances   []printableBalance
	Owes       []string // who pays whom to settle, or why not yet
	Claims     []ClaimView
	Journal    []ledger.Transaction
	PrintedAt  time.Time
	Currency   string
	SettleNote string
}

type printableBalance struct {
	Name    string
	Balance int64
	Worth   *pay.Money
}

// StatementHTML is the table's statement as a printable HTML page: the
// balances (with their worth, when units have a value), how to settle,
// the payment claims, and every movement of the journal.
func (s *Service) StatementHTML(ctx context.Context, a Auth) ([]byte, error) {
	var journal []db.JournalEntry
	var claims []db.PaymentClaim
	r, _, err := s.read(ctx, a, readPlan{accounts: true, history: func(b *db.Batch) {
		b.JournalList(a.TableID, &journal)
		b.PaymentClaimList(a.TableID, &claims)
	}})
	if err != nil {
		return nil, err
	}
	statement, err := ledger.Statement(a.TableID, journal, r.Players)
	if err != nil {
		return nil, err
	}
	sheet := ledger.Sheet(r.row.Currency, r.Accounts, r.Players)
	p := printablePage{Table: r.row, Season: r.row.Game == db.GameCrew, Value: unitValueView(r.row), Journal: statement,
		PrintedAt: s.now(), Currency: r.row.Currency}
	for _, b := range sheet.Players {
		p.Balances = append(p.Balances, printableBalance{Name: b.Name, Balance: b.Balance, Worth: worth(r.row, b.Balance)})
	}
	if plan, err := ledger.SettleUp(a.TableID, sheet); err != nil {
		p.SettleNote = "Settle up once the pot is empty."
	} else {
		p.Owes = plan.WhoOwesWhom()
		for i, pay := range plan.Payments {
			if m := worth(r.row, pay.Amount); m != nil {
				p.Owes[i] += " = " + m.Text
			}
		}
	}
	names := playerNames(r.Players)
	for _, c := range claims {
		p.Claims = append(p.Claims, claimView(r.row, names, c))
	}
	var buf bytes.Buffer
	err = printable.Execute(&buf, p)
	return buf.Bytes(), err
}
