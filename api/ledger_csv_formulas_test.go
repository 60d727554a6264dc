package api

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"
)

// Attacks on the money and its exports.

// TestLedgerCSVNoFormulas: anyone with the join code picks their own
// name, and the host opens ledger.csv in a spreadsheet. A name such as
// =HYPERLINK(...) was written as is, so the spreadsheet ran it as a
// formula (CSV injection). Text cells that a spreadsheet would read as a
// formula now start with a quote; amounts stay plain numbers.
func TestLedgerCSVNoFormulas(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"players": []string{"Ann"}})
	names := []string{`=HYPERLINK("http://x.example","y")`, "+1+2", "-3+4", "@SUM(1)"}
	for _, n := range names {
		s.join(n)
	}
	var tb struct {
		Players []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"players"`
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path(""), token: s.tb.Host}, &tb)
	for _, p := range tb.Players {
		s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host,
			body: map[string]any{"player": p.ID, "amount": 3}}, nil)
	}
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/withdrawals"), token: s.tb.Host,
		body: map[string]any{"player": tb.Players[0].ID, "amount": 1}}, nil)
	out := s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/ledger.csv"), token: s.tb.Audit}, nil)
	rows, err := csv.NewReader(strings.NewReader(string(out.body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	negative := false
	for _, row := range rows[1:] {
		for i, cell := range row {
			if i == len(row)-1 {
				negative = negative || strings.HasPrefix(cell, "-")
				continue // the amount: a number, which may be negative
			}
			if cell != "" && strings.ContainsRune("=+-@", rune(cell[0])) {
				t.Errorf("cell %q of row %v would run as a spreadsheet formula", cell, row)
			}
		}
		seen[strings.TrimPrefix(row[7], "'")] = true
	}
	for _, n := range names {
		if !seen[n] {
			t.Errorf("the statement lost the name %q: %v", n, rows)
		}
	}
	if !negative {
		t.Error("negative amounts should stay plain numbers")
	}
}
