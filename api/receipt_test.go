package api

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/receipt"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

// TestTheNightReceipt: anyone at the table downloads the receipt, which
// verifies offline under the server's key; while a throw is under the cup,
// only a token that may see every throw gets it.
func TestTheNightReceipt(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob", "Cy"}})
	bobTok, cyTok := s.join("Bob"), s.join("Cy")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 3, 3})
	s.act(bobTok, 1, roll(6, 5, 4, 1, 2))
	s.act(bobTok, 1, roll(5, 3)) // under the cup
	key := hex.EncodeToString(s.keys.PublicKey())
	var published struct {
		PublicKey string `json:"publicKey"`
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: "/v1/receipt-key"}, &published)
	if published.PublicKey != key {
		t.Fatalf("GET /v1/receipt-key: %q, want the server's %q", published.PublicKey, key)
	}

	for who, tok := range map[string]string{"Cy": cyTok, "host": s.tb.Host, "audit": s.tb.Audit} {
		r := s.c.do(t, req{method: http.MethodGet, path: s.tb.path("/receipt"), token: tok})
		if p := r.problem(t); r.status != http.StatusConflict || !strings.Contains(p.Detail, "under the cup") {
			t.Fatalf("receipt for %s while Bob's throw is sealed: %d %+v", who, r.status, p)
		}
	}
	// Bob sees every throw so far: his own.
	r := s.c.do(t, req{method: http.MethodGet, path: s.tb.path("/receipt"), token: bobTok})
	if r.status != http.StatusOK {
		t.Fatalf("Bob's receipt: %d %s", r.status, r.body)
	}
	if _, err := receipt.Verify(r.body, key); err != nil {
		t.Fatalf("Bob's receipt: %v", err)
	}

	s.act(bobTok, 1, map[string]any{"kind": "stand"})
	s.turn(1, "Cy", []int{6, 5, 4, 1, 1})
	for who, tok := range map[string]string{"Cy": cyTok, "host": s.tb.Host, "audit": s.tb.Audit} {
		r := s.c.do(t, req{method: http.MethodGet, path: s.tb.path("/receipt"), token: tok})
		if r.status != http.StatusOK || !strings.Contains(r.header.Get("Content-Disposition"), "receipt") {
			t.Fatalf("receipt for %s: %d %s", who, r.status, r.body)
		}
		v, err := receipt.Verify(r.body, key)
		if err != nil {
			t.Fatalf("receipt for %s: %v", who, err)
		}
		if v.Receipt.Table.ID != s.tb.ID || len(v.Receipt.Journal) < 2 || len(v.Receipt.Events) != int(v.Receipt.Head.Seq) {
			t.Fatalf("receipt for %s holds %+v, %d events", who, v.Receipt.Table, len(v.Receipt.Events))
		}
		rep := s.audit(fmt.Sprintf("witness=%d:%s", v.Receipt.Head.Seq, v.Receipt.Head.Hash))
		if !rep.OK || !rep.WitnessOK {
			t.Fatalf("the receipt's head is not the audit's: %+v", rep)
		}
	}
}

// TestHeavyReadsAreLimitedPerToken: a token looping the audit is slowed
// (429 with Retry-After) while another token of the table is not.
func TestHeavyReadsAreLimitedPerToken(t *testing.T) {
	t.Parallel()
	c := newClient(t, New(Config{Tables: table.New(dbtest.Pool(t), seal.Random(), nil),
		HeavyLimits: HeavyLimits{Burst: 3, Every: time.Hour}}))
	tb := makeTable(t, c, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	for i := range 3 {
		if r := c.do(t, req{method: http.MethodGet, path: tb.path("/audit"), token: tb.Audit}); r.status != http.StatusOK {
			t.Fatalf("audit %d: %d %s", i+1, r.status, r.body)
		}
	}
	for _, path := range []string{"/audit", "/receipt", "/ledger.csv"} {
		r := c.do(t, req{method: http.MethodGet, path: tb.path("%s", path), token: tb.Audit})
		if p := r.problem(t); r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || p.Type != "/problems/too-many-requests" {
			t.Fatalf("%s after the burst: %d %+v", path, r.status, p)
		}
	}
	if r := c.do(t, req{method: http.MethodGet, path: tb.path("/audit"), token: tb.Host}); r.status != http.StatusOK {
		t.Fatalf("another token's audit: %d %s", r.status, r.body)
	}
}
