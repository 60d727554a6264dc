package api

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/tally-dice/tally/pay/qrtest"
)

// paymentScene is a table where Bob owes Ann 3 units (Ann won a round of
// bar with ante 3), with both phones joined.
func paymentScene(t *testing.T) (s *scene, ann, bob string) {
	t.Helper()
	s = newScene(t, map[string]any{"name": "Friday night", "preset": "bar", "options": map[string]any{"ante": 3},
		"players": []string{"Ann", "Bob"}})
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 6, 5})
	s.turn(1, "Bob", miss...)
	s.expectMoney(0, map[string]int64{"Ann": 3, "Bob": -3})
	return s, s.join("Ann"), s.join("Bob")
}

type apiClaim struct {
	ID     int64  `json:"id"`
	From   int64  `json:"from"`
	To     int64  `json:"to"`
	Amount int64  `json:"amount"`
	Status string `json:"status"`
	Reason string `json:"reason"`
	Money  *struct {
		Text string `json:"text"`
	} `json:"money"`
}

type apiSettle struct {
	Owes      []string `json:"owes"`
	Transfers []struct {
		From, To, Amount int64
		Money            *struct{ Currency, Text string }
		Note             string
		Methods          []struct {
			Method, Handle, Link string
			WithAmount           bool
			EPCQR                bool `json:"epcQr"`
		}
	} `json:"transfers"`
	Claims []apiClaim `json:"claims"`
}

func TestUnitValueIsTheHostsAndShownBesideUnits(t *testing.T) {
	t.Parallel()
	s, ann, _ := paymentScene(t)
	path := s.tb.path("/unit-value")
	s.refused(req{method: http.MethodPut, path: path, token: ann, body: map[string]any{"currency": "EUR", "perUnit": 25}},
		http.StatusForbidden, "/problems/forbidden", "only the host")
	s.refused(req{method: http.MethodPut, path: path, token: s.tb.Host, body: map[string]any{"currency": "EUX", "perUnit": 25}},
		http.StatusUnprocessableEntity, "/problems/invalid-request", "ISO 4217")
	s.refused(req{method: http.MethodPut, path: path, token: s.tb.Host, body: map[string]any{"currency": "EUR", "perUnit": 0}},
		http.StatusUnprocessableEntity, "/problems/invalid-request", "perUnit")
	var tv struct {
		UnitValue struct{ Currency, Text, Rounding string } `json:"unitValue"`
	}
	s.must(http.StatusOK, req{method: http.MethodPut, path: path, token: s.tb.Host, key: "v1",
		body: map[string]any{"currency": "EUR", "perUnit": 25}}, &tv)
	if tv.UnitValue.Currency != "EUR" || tv.UnitValue.Text != "1 unit = €0.25" || !strings.Contains(tv.UnitValue.Rounding, "nothing is rounded") {
		t.Fatalf("unit value = %+v", tv.UnitValue)
	}
	var b struct {
		Worth []struct{ Text string } `json:"worth"`
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/balances"), token: ann}, &b)
	if len(b.Worth) != 2 || b.Worth[0].Text != "€0.75" || b.Worth[1].Text != "-€0.75" {
		t.Fatalf("balances' worth = %+v", b.Worth)
	}
	var plan apiSettle
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/settle-up"), token: ann}, &plan)
	if plan.Owes[0] != "Bob pays Ann 3 units = €0.75" {
		t.Fatalf("owes = %q", plan.Owes)
	}
	// Japanese yen have no minor unit: 3 units at ¥100 are ¥300.
	s.must(http.StatusOK, req{method: http.MethodPut, path: path, token: s.tb.Host, body: map[string]any{"currency": "JPY", "perUnit": 100}}, nil)
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/settle-up"), token: ann}, &plan)
	if plan.Owes[0] != "Bob pays Ann 3 units = ¥300" {
		t.Fatalf("owes = %q", plan.Owes)
	}
}

func TestHandlesAreTheirOwnersAndShownOnlyAtTheTable(t *testing.T) {
	t.Parallel()
	s, ann, bob := paymentScene(t)
	put := func(token, method string, body map[string]any) req {
		return req{method: http.MethodPut, path: s.tb.path("/handles/%s", method), token: token, body: body}
	}
	s.refused(put(ann, "sepa", map[string]any{"handle": "DE89 3704 0044 0532 0130 01", "name": "Ann Smith"}),
		http.StatusUnprocessableEntity, "/problems/invalid-request", "checksum")
	zelle := put(ann, "zelle", map[string]any{"handle": "ann"})
	zelle.invalid = true // the contract lists the methods
	s.refused(zelle, http.StatusUnprocessableEntity, "/problems/invalid-request", "not a payment method")
	s.refused(put(ann, "paypal", map[string]any{"handle": "ann smith"}), http.StatusUnprocessableEntity, "/problems/invalid-request", "PayPal.Me")
	s.refused(put(s.tb.Audit, "paypal", map[string]any{"handle": "AnnSmith"}), http.StatusForbidden, "/problems/forbidden")
	s.refused(put(s.tb.Host, "paypal", map[string]any{"handle": "AnnSmith"}), http.StatusForbidden, "/problems/forbidden", "own player's phone")
	var h struct{ Player int64 }
	s.must(http.StatusOK, put(ann, "paypal", map[string]any{"handle": "AnnSmith"}), &h)
	if h.Player != s.id("Ann") {
		t.Fatalf("Ann's handle is for player %d", h.Player)
	}
	s.must(http.StatusOK, put(ann, "sepa", map[string]any{"handle": "de89 3704 0044 0532 0130 00", "name": "Ann Smith"}), nil)
	s.must(http.StatusOK, put(bob, "venmo", map[string]any{"handle": "bob-the-payer"}), nil)

	var list []struct {
		Player         int64
		Method, Handle string
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/handles"), token: bob}, &list)
	if len(list) != 3 || list[0].Method != "paypal" || list[1].Method != "sepa" || list[1].Handle != "DE89370400440532013000" || list[2].Player != s.id("Bob") {
		t.Fatalf("handles = %+v", list)
	}
	s.refused(req{method: http.MethodGet, path: s.tb.path("/handles"), token: s.tb.Audit}, http.StatusForbidden, "/problems/forbidden")
	// A token of another table reads nothing of these.
	other := makeTable(t, s.c, map[string]any{"preset": "bar", "players": []string{"Cy"}})
	if r := s.c.do(t, req{method: http.MethodGet, path: s.tb.path("/handles"), token: other.Host}); r.status != http.StatusForbidden || bytes.Contains(r.body, []byte("AnnSmith")) {
		t.Fatalf("another table's host reads handles: %d %s", r.status, r.body)
	}

	// Removing a handle deletes it: no row is left.
	del := req{method: http.MethodDelete, path: s.tb.path("/handles/paypal"), token: ann}
	s.must(http.StatusOK, del, nil)
	var n int
	if err := s.pool.QueryRow(context.Background(), "SELECT count(*) FROM payment_handles WHERE table_id = $1 AND method = 'paypal'", s.tb.ID).Scan(&n); err != nil || n != 0 {
		t.Fatalf("a removed handle left %d rows (%v)", n, err)
	}
	s.refused(del, http.StatusNotFound, "/problems/not-found", "no paypal handle")
	// Bob cannot remove Ann's: his token removes only his own.
	s.refused(req{method: http.MethodDelete, path: s.tb.path("/handles/sepa"), token: bob}, http.StatusNotFound, "/problems/not-found")
	// Handles are not part of the record: no event names them.
	r := s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?limit=500"), token: s.tb.Host}, nil)
	if bytes.Contains(r.body, []byte("DE89")) || bytes.Contains(r.body, []byte("AnnSmith")) {
		t.Fatalf("the audit log names a handle: %s", r.body)
	}
}

func TestSettleUpOffersThePayeesMethodsAndTheEPCQR(t *testing.T) {
	t.Parallel()
	s, ann, bob := paymentScene(t)
	s.must(http.StatusOK, req{method: http.MethodPut, path: s.tb.path("/unit-value"), token: s.tb.Host, body: map[string]any{"currency": "EUR", "perUnit": 25}}, nil)
	s.must(http.StatusOK, req{method: http.MethodPut, path: s.tb.path("/handles/paypal"), token: ann, body: map[string]any{"handle": "AnnSmith"}}, nil)
	s.must(http.StatusOK, req{method: http.MethodPut, path: s.tb.path("/handles/sepa"), token: ann,
		body: map[string]any{"handle": "DE89370400440532013000", "name": "Ann Smith", "bic": "COBADEFFXXX"}}, nil)
	var plan apiSettle
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/settle-up"), token: bob}, &plan)
	tr := plan.Transfers[0]
	if tr.From != s.id("Bob") || tr.To != s.id("Ann") || tr.Amount != 3 || tr.Money.Text != "€0.75" || tr.Note != "Tally: Friday night" || len(tr.Methods) != 2 {
		t.Fatalf("transfer = %+v", tr)
	}
	if m := tr.Methods[0]; m.Method != "paypal" || m.Link != "https://paypal.me/AnnSmith" || m.WithAmount || m.EPCQR {
		t.Fatalf("PayPal = %+v", m)
	}
	if m := tr.Methods[1]; m.Method != "sepa" || m.Link != "" || !m.EPCQR {
		t.Fatalf("bank transfer = %+v", m)
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/settle-up"), token: s.tb.Audit}, &plan)
	if len(plan.Transfers[0].Methods) != 0 {
		t.Fatalf("the audit token sees handles: %+v", plan.Transfers[0].Methods)
	}

	r := s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/epc-qr?to=%d&amount=3", s.id("Ann")), token: bob}, nil)
	if r.header.Get("Content-Type") != "image/png" {
		t.Fatalf("EPC QR content type %q", r.header.Get("Content-Type"))
	}
	want := "BCD\n002\n1\nSCT\nCOBADEFFXXX\nAnn Smith\nDE89370400440532013000\nEUR0.75\n\n\nTally: Friday night"
	if got := decodeQR(t, r.body); got != want {
		t.Fatalf("the EPC QR code reads\n%q\nwant\n%q", got, want)
	}
	s.refused(req{method: http.MethodGet, path: s.tb.path("/epc-qr?to=%d&amount=3", s.id("Bob")), token: ann},
		http.StatusNotFound, "/problems/not-found", "no bank transfer handle")
	s.must(http.StatusOK, req{method: http.MethodPut, path: s.tb.path("/unit-value"), token: s.tb.Host, body: map[string]any{"currency": "GBP", "perUnit": 25}}, nil)
	s.refused(req{method: http.MethodGet, path: s.tb.path("/epc-qr?to=%d&amount=3", s.id("Ann")), token: bob},
		http.StatusUnprocessableEntity, "/problems/invalid-request", "euros")
}

// decodeQR reads a PNG's QR code with ZXing's decoder (gozxing).
func decodeQR(t *testing.T, raw []byte) string {
	t.Helper()
	text, err := qrtest.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func TestTheStatementPrintsWithTheCSVsTokens(t *testing.T) {
	t.Parallel()
	s, ann, bob := paymentScene(t)
	s.must(http.StatusOK, req{method: http.MethodPut, path: s.tb.path("/unit-value"), token: s.tb.Host, body: map[string]any{"currency": "EUR", "perUnit": 25}}, nil)
	s.must(http.StatusCreated, claim(s, bob, s.id("Ann"), 2), nil)
	for _, token := range []string{s.tb.Host, s.tb.Audit, ann} {
		r := s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/statement.html"), token: token}, nil)
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("statement content type %q", ct)
		}
		if !contains(r.body, `<link rel="stylesheet" href="/app/statement.css">`, "<h1>Friday night</h1>", "1 unit = €0.25",
			"nothing is rounded", "Bob pays Ann 3 units = €0.75", "<td>Bob</td><td>Ann</td><td class=\"num\">2 (€0.50)</td><td>sent</td>",
			"round_settle, round 1") {
			t.Fatalf("statement:\n%s", r.body)
		}
	}
	if r := s.c.do(t, req{method: http.MethodGet, path: s.tb.path("/statement.html")}); r.status != http.StatusUnauthorized {
		t.Fatalf("no token: %d", r.status)
	}
}
