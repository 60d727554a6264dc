package api

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/ledger"
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

// TestReceiptsWithCorrectionsVerify: a night with a correction in it (a
// buy-in or a payment reversed, a round reversed, a settled round
// reopened by taking back its last action) has a receipt that verifies
// offline under the server's key, as its audit is in order, and whose
// reversals name the transactions they undo.
func TestReceiptsWithCorrectionsVerify(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		correct  func(s *scene)
		reverses []string // the kinds of transaction undone, in order
	}{
		{"a buy-in reversed", func(s *scene) {
			s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host,
				body: map[string]any{"player": s.id("Ann"), "amount": 5}}, nil)
			s.correct(fmt.Sprintf("/ledger/%d/reverse", s.ledgerEvent("deposit")), "5 typed for Bob's", nil)
		}, []string{"deposit"}},
		{"a payment reversed", func(s *scene) {
			s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/payments"), token: s.tb.Host,
				body: map[string]any{"from": s.id("Bob"), "to": s.id("Ann"), "amount": 7}}, nil)
			s.correct(fmt.Sprintf("/ledger/%d/reverse", s.ledgerEvent("settlement")), "marked by mistake", nil)
		}, []string{"settlement"}},
		{"a round reversed", func(s *scene) {
			s.start(nil)
			s.turn(1, "Ann", []int{6, 5, 4, 6, 6})
			s.turn(1, "Bob", []int{6, 5, 4, 3, 3})
			s.turn(1, "Cy", []int{6, 5, 4, 1, 2})
			s.correct("/rounds/1/reverse", "the wrong cup", nil)
		}, []string{"round_settle", "ante"}},
		{"a settled round taken back", func(s *scene) {
			s.start(nil)
			s.turn(1, "Ann", []int{6, 5, 4, 5, 5})
			s.turn(1, "Bob", []int{6, 5, 4, 3, 3})
			s.turn(1, "Cy", []int{6, 5, 4, 1, 2})
			s.correct("/rounds/1/take-back", "Cy wanted to throw again", nil)
		}, []string{"round_settle"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := correctionScene(t, nil)
			c.correct(s)
			s.auditOK()
			r := s.c.do(t, req{method: http.MethodGet, path: s.tb.path("/receipt"), token: s.tb.Audit})
			if r.status != http.StatusOK {
				t.Fatalf("receipt: %d %s", r.status, r.body)
			}
			v, err := receipt.Verify(r.body, hex.EncodeToString(s.keys.PublicKey()))
			if err != nil {
				t.Fatalf("the receipt does not verify: %v", err)
			}
			kinds := map[int64]string{}
			var reversed []string
			for _, j := range v.Receipt.Journal {
				kinds[j.EventSeq] = j.Kind
				if j.Kind != string(ledger.KindReversal) {
					continue
				}
				var m ledger.ReversalMeta
				if err := json.Unmarshal(j.Metadata, &m); err != nil {
					t.Fatalf("reversal %d's metadata in the receipt: %s: %v", j.ID, j.Metadata, err)
				}
				reversed = append(reversed, kinds[m.Reverses])
			}
			if !slices.Equal(reversed, c.reverses) {
				t.Fatalf("the receipt's reversals undo %q, want %q", reversed, c.reverses)
			}
		})
	}
}
