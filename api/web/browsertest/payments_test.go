package browsertest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/tally-dice/tally/pay/qrtest"
)

// These tests are settling with real money (issue 26, docs/payments.md):
// what a chip is worth, the payee's ways to be paid, and a payment both
// sides confirm.

// catchLinksJS keeps the address of every link the page opens instead of
// opening it: the payment app's link is captured where the tap sends it.
const catchLinksJS = `(window.opened = [], document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[href]');
  if (a && /^(https?|upi):/.test(a.href) && new URL(a.href).origin !== location.origin) { window.opened.push(a.href); e.preventDefault(); }
}, true), true)`

// TestBobPaysAnnFromSettleUp: Ann won a night of chips from Bob. The host
// says a chip is worth £0.25; Ann's phone adds her Monzo.me and her bank
// account; Bob's settle-up shows "Pay Ann £2.00" and the Monzo link that
// his tap opens carries the amount and the table's name. The host changes
// the value to €0.25 and Bob's phone shows the EPC QR code, which a QR
// decoder reads back as the transfer. Bob says "I've sent it"; Ann says it
// did not arrive, with a reason, and the ledger does not move; Bob says it
// again, Ann says yes, and both phones and the ledger show them square.
func TestBobPaysAnnFromSettleUp(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"name": "Friday night", "preset": "bar", "currency": "chips",
		"options": map[string]any{"ante": 8}, "players": []string{"Ann", "Bob"}})
	ann, bob := m.id(t, "Ann"), m.id(t, "Bob")
	base := fmt.Sprintf("/v1/tables/%d", m.Table.ID)
	var rd struct {
		Number  int
		Players []int64
	}
	post(t, srv.URL, m.HostToken, base+"/rounds", nil, &rd)
	for _, p := range rd.Players {
		dice := map[int64][]int{ann: {6, 5, 4, 6, 5}, bob: {6, 5, 4, 1, 1}}[p]
		post(t, srv.URL, m.HostToken, fmt.Sprintf("%s/rounds/%d/turns", base, rd.Number),
			map[string]any{"player": p, "rolls": []any{map[string]any{"dice": dice}}}, nil)
	}

	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	host.tap(`[data-testid=go-money]`)
	setUnitValue(host, "GBP", "0.25", "1 chip = £0.25")

	annPhone := newPhone(t, browser, srv.URL, "ann")
	annPhone.joinBySeat(m.JoinCode, "Ann")
	annPhone.tap(`[data-testid=go-money]`)
	annPhone.addHandle("Monzo", map[string]string{"handle": "annsmith"})
	annPhone.waitFor("Ann's Monzo.me", `!!document.querySelector('[data-testid=handles] li[data-method=monzo]')`)
	annPhone.addHandle("Bank transfer", map[string]string{"handle": "DE89 3704 0044 0532 0130 01", "name": "Ann Smith"})
	annPhone.waitText(`[data-testid=handle-error]`, "checksum")
	annPhone.typeInto(`[data-testid=handles] input[name=handle]`, "DE89 3704 0044 0532 0130 00")
	annPhone.tap(`[data-testid=add-handle]`)
	annPhone.waitFor("Ann's bank account", `!!document.querySelector('[data-testid=handles] li[data-method=sepa]')`)
	annPhone.shot("handles")

	bobPhone := newPhone(t, browser, srv.URL, "bob")
	bobPhone.joinBySeat(m.JoinCode, "Bob")
	bobPhone.tap(`[data-testid=go-money]`)
	bobPhone.waitText(`[data-testid=pay]`, "Pay Ann £2.00")
	bobPhone.waitText(`[data-testid=pay]`, "8 chips = £2.00")
	eval[bool](bobPhone, catchLinksJS)
	bobPhone.tap(`[data-testid=pay-link][data-method=monzo]`)
	opened := eval[[]string](bobPhone, `window.opened`)
	if len(opened) != 1 || opened[0] != "https://monzo.me/annsmith/2.00?d=Tally%3A%20Friday%20night" {
		t.Fatalf("the Monzo link opened %q", opened)
	}
	bobPhone.shot("settle-up-pay")

	// In euros, the bank transfer's QR code.
	setUnitValue(host, "EUR", "0.25", "1 chip = €0.25")
	bobPhone.waitText(`[data-testid=pay]`, "Pay Ann €2.00")
	bobPhone.tap(`[data-testid=show-qr]`)
	bobPhone.waitFor("the EPC QR code", `document.querySelector('[data-testid=epc-qr]')?.width > 0`)
	want := "BCD\n002\n1\nSCT\n\nAnn Smith\nDE89370400440532013000\nEUR2.00\n\n\nTally: Friday night"
	if got := decodeScreenQR(t, bobPhone); got != want {
		t.Fatalf("the QR code on Bob's screen reads\n%q\nwant\n%q", got, want)
	}
	bobPhone.shot("epc-qr")

	// "I've sent it"; Ann says no.
	bobPhone.tap(`[data-testid=sent-it]`)
	bobPhone.waitText(`[data-testid=claim-waiting]`, "You said you sent Ann €2.00. Waiting for Ann to confirm.")
	annPhone.waitText(`[data-testid=claim]`, "Bob says they sent you €2.00. Received?")
	annPhone.shot("claim-received")
	annPhone.tap(`[data-testid=claim-no]`)
	annPhone.typeInto(`input[name=refusal]`, "Nothing in my account yet")
	annPhone.tap(`[data-testid=claim-refuse-send]`)
	bobPhone.waitText(`[data-testid=claim-refused]`, "Ann says your €2.00 did not arrive: “Nothing in my account yet”.")
	bobPhone.shot("claim-refused")
	eval[bool](bobPhone, `(document.querySelector('[data-testid=claim-refused]').scrollIntoView({block: 'center'}), true)`)
	bobPhone.view("claim-refused-in-view")
	if b := balances(t, srv.URL, m); b["Ann"] != 8 || b["Bob"] != -8 {
		t.Fatalf("after Ann's no the ledger moved: %v", b)
	}

	// Again; Ann says yes.
	bobPhone.tap(`[data-testid=sent-it]`)
	annPhone.waitText(`[data-testid=claim]`, "Bob says they sent you €2.00. Received?")
	annPhone.tap(`[data-testid=claim-yes]`)
	annPhone.waitText(`[data-testid=your-money]`, "You are square")
	bobPhone.waitText(`[data-testid=your-money]`, "You are square")
	bobPhone.waitText(`[data-testid=claim-confirmed]`, "Ann confirmed your €2.00 arrived.")
	bobPhone.shot("settled")
	annPhone.shot("settled")
	if b := balances(t, srv.URL, m); b["Ann"] != 0 || b["Bob"] != 0 {
		t.Fatalf("after Ann's yes the ledger shows %v", b)
	}
	var page struct {
		Transactions []struct {
			Kind     string
			Metadata map[string]any
		}
	}
	getAs(t, srv.URL, m.HostToken, base+"/ledger?limit=500", &page)
	last := page.Transactions[len(page.Transactions)-1]
	if last.Kind != "settlement" || last.Metadata["claim"] == nil || last.Metadata["recordedBy"] != fmt.Sprintf("player:%d", ann) {
		t.Fatalf("the payment's ledger entry: %+v", last)
	}

	// History tells it.
	annPhone.tap(`[data-testid=go-history]`)
	annPhone.waitText(`[data-testid=table-log]`, "Refused by Ann: Bob’s 8 chips to Ann did not arrive, “Nothing in my account yet”.")
	annPhone.waitText(`[data-testid=table-log]`, "Confirmed by Ann: Bob’s 8 chips to Ann arrived.")
	annPhone.waitText(`[data-testid=table-log]`, "The host set one chip to be worth €0.25.")
	annPhone.shot("history")
}

// setUnitValue sets what a chip is worth on the host's Money tab.
func setUnitValue(host *phone, currency, worth, says string) {
	host.t.Helper()
	host.waitFor("the unit value card", `!!document.querySelector('input[name=unit-currency]')`)
	host.typeInto(`input[name=unit-currency]`, currency)
	host.typeInto(`input[name=unit-worth]`, worth)
	host.tap(`[data-testid=set-unit-value]`)
	host.waitText(`[data-testid=unit-value]`, says)
}

// addHandle fills in one of the phone's own payment handles on its Money
// tab, its method by the label the phone shows, and saves it.
func (p *phone) addHandle(label string, fields map[string]string) {
	p.t.Helper()
	p.waitFor("the handles card", `!!document.querySelector('[data-testid=handles] select[name=method]')`)
	p.choose(`[data-testid=handles] select[name=method]`, label)
	for _, name := range []string{"handle", "name", "bic"} {
		if v, ok := fields[name]; ok {
			p.typeInto(fmt.Sprintf(`[data-testid=handles] input[name=%s]`, name), v)
		}
	}
	p.tap(`[data-testid=add-handle]`)
}

// decodeScreenQR reads the EPC QR code the phone shows: the pixels of the
// canvas it is drawn on, decoded by ZXing's QR reader.
func decodeScreenQR(t *testing.T, p *phone) string {
	t.Helper()
	data := eval[string](p, `document.querySelector('[data-testid=epc-qr]').toDataURL('image/png')`)
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(data, "data:image/png;base64,"))
	if err != nil {
		t.Fatal(err)
	}
	text, err := qrtest.Decode(raw)
	if err != nil {
		t.Fatalf("the QR code on screen: %v", err)
	}
	return text
}

// balances are the players' balances by name, read through the API.
func balances(t *testing.T, base string, m made) map[string]int64 {
	t.Helper()
	var b struct {
		Players []struct {
			Name    string
			Balance int64
		}
	}
	getAs(t, base, m.HostToken, fmt.Sprintf("/v1/tables/%d/balances", m.Table.ID), &b)
	out := map[string]int64{}
	for _, p := range b.Players {
		out[p.Name] = p.Balance
	}
	return out
}

// owingTable makes a table where Bob owes Ann 8 chips (Ann won the one
// round played), worth €0.25 each.
func owingTable(t *testing.T, base string) made {
	t.Helper()
	m := makeTableFull(t, base, map[string]any{"name": "Friday night", "preset": "bar", "currency": "chips",
		"options": map[string]any{"ante": 8}, "players": []string{"Ann", "Bob"}})
	ann, bob := m.id(t, "Ann"), m.id(t, "Bob")
	path := fmt.Sprintf("/v1/tables/%d", m.Table.ID)
	var rd struct {
		Number  int
		Players []int64
	}
	post(t, base, m.HostToken, path+"/rounds", nil, &rd)
	for _, p := range rd.Players {
		dice := map[int64][]int{ann: {6, 5, 4, 6, 5}, bob: {6, 5, 4, 1, 1}}[p]
		post(t, base, m.HostToken, fmt.Sprintf("%s/rounds/%d/turns", path, rd.Number),
			map[string]any{"player": p, "rolls": []any{map[string]any{"dice": dice}}}, nil)
	}
	put(t, base, m.HostToken, path+"/unit-value", map[string]any{"currency": "EUR", "perUnit": 25})
	return m
}

// TestAClaimMadeOfflineIsSentLater: Bob's phone has no network when he
// taps "I've sent it": the claim waits on the phone, through a reload, and
// reaches Tally when the network is back, once; Ann's phone then asks her.
func TestAClaimMadeOfflineIsSentLater(t *testing.T) {
	srv := startServer(t)
	m := owingTable(t, srv.URL)
	browser := startBrowser(t)
	bobPhone := newPhone(t, browser, srv.URL, "bob")
	bobPhone.joinBySeat(m.JoinCode, "Bob")
	bobPhone.waitFor("the service worker in charge", `!!navigator.serviceWorker.controller`)
	bobPhone.tap(`[data-testid=go-money]`)
	bobPhone.waitText(`[data-testid=pay]`, "Pay Ann €2.00")

	bobPhone.setOffline(true)
	srv.setDown(true)
	bobPhone.tap(`[data-testid=sent-it]`)
	bobPhone.waitText(`[data-testid=claim-queued]`, "waits on this phone")
	bobPhone.waitText(`[data-testid=waiting]`, "I’ve sent Ann 8 chips")
	bobPhone.shot("claim-waiting-offline")
	bobPhone.reload()
	bobPhone.waitText(`[data-testid=waiting]`, "I’ve sent Ann 8 chips")

	srv.setDown(false)
	bobPhone.setOffline(false)
	bobPhone.waitFor("the claim sent", `!document.querySelector('[data-testid=waiting]')`)
	annPhone := newPhone(t, browser, srv.URL, "ann")
	annPhone.joinBySeat(m.JoinCode, "Ann")
	annPhone.tap(`[data-testid=go-money]`)
	annPhone.waitText(`[data-testid=claim]`, "Bob says they sent you €2.00. Received?")
	var plan struct {
		Claims []struct{ Status string }
	}
	getAs(t, srv.URL, m.HostToken, fmt.Sprintf("/v1/tables/%d/settle-up", m.Table.ID), &plan)
	if len(plan.Claims) != 1 || plan.Claims[0].Status != "sent" {
		t.Fatalf("after the phone came back, the claims are %+v", plan.Claims)
	}
}

// TestTheStatementPrints: the host's "Print the statement" opens the
// statement's page in a window of its own (the window it asks for is
// caught, and the page opened in the host's tab, whose storage holds the
// token), styled for paper.
func TestTheStatementPrints(t *testing.T) {
	srv := startServer(t)
	m := owingTable(t, srv.URL)
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	host.tap(`[data-testid=go-money]`)
	host.waitFor("the print button", `!!document.querySelector('[data-testid=print-statement]')`)
	eval[bool](host, `(window.opens = [], window.open = (url, name) => (window.opens.push([url, name]), {}), true)`)
	host.tap(`[data-testid=print-statement]`)
	opens := eval[[][]string](host, `window.opens`)
	want := fmt.Sprintf("/app/statement.html#t=%d", m.Table.ID)
	if len(opens) != 1 || opens[0][0] != want || opens[0][1] != "_blank" {
		t.Fatalf("the print button opened %q, want %s in a new window", opens, want)
	}
	host.open(want)
	host.waitText(`main.statement h1`, "Friday night")
	host.waitText(`main.statement`, "Bob pays Ann 8 chips = €2.00")
	host.waitText(`main.statement`, "1 chip = €0.25")
	host.waitFor("the print stylesheet", `getComputedStyle(document.body).backgroundColor === 'rgb(255, 255, 255)'`)
	if title := eval[string](host, `document.title`); title != "Friday night: statement" {
		t.Fatalf("the statement's title is %q", title)
	}
	host.axe("statement")
	host.save("statement", chromedp.FullScreenshot(100))
}

// put sends a PUT as the token's holder.
func put(t *testing.T, base, token, path string, body any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPut, base+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("PUT %s: %d", path, res.StatusCode)
	}
}
