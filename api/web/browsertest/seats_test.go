package browsertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// This file tests seats and money between phones: a player records money
// received and both phones see what is owed change; History lists the
// payments and who recorded them; the host is told of every phone joining
// with the code and frees a seat in one tap; the freed phone is told and
// rejoins; the host role moves to another phone with a recovery code.

// playRound plays one round through the API as the host: the first player
// in the order scores 11, the second 2, so the first wins the antes.
func playRound(t *testing.T, base string, m made) {
	t.Helper()
	var rd struct {
		Number  int     `json:"number"`
		Players []int64 `json:"players"`
	}
	post(t, base, m.HostToken, fmt.Sprintf("/v1/tables/%d/rounds", m.Table.ID), nil, &rd)
	for k, p := range rd.Players {
		cargo := [][]int{{6, 5}, {1, 1}}[k]
		post(t, base, m.HostToken, fmt.Sprintf("/v1/tables/%d/rounds/%d/turns", m.Table.ID, rd.Number),
			map[string]any{"player": p, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, cargo[0], cargo[1]}}}}, nil)
	}
}

// TestPlayerRecordsAPaymentReceived: Ann won Bob's ante. Bob's phone says
// "You owe Ann 2 chips", Ann's "Bob owes you 2 chips" with "Bob paid me 2";
// Ann confirms it, and both phones say they are square. History lists the
// buy-in, the cash-out and the payment, each with who recorded it.
func TestPlayerRecordsAPaymentReceived(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"},
		"currency": "chips", "name": "Friday", "options": map[string]any{"ante": 2}})
	browser := startBrowser(t)
	ann := newPhone(t, browser, srv.URL, "ann")
	ann.joinBySeat(m.JoinCode, "Ann")
	bob := newPhone(t, browser, srv.URL, "bob")
	bob.joinBySeat(m.JoinCode, "Bob")
	ann.tap(`[data-testid=go-money]`)
	bob.tap(`[data-testid=go-money]`)

	// The host takes a buy-in from Ann and cashes her out again, then a
	// round is played: Ann wins Bob's ante.
	path := fmt.Sprintf("/v1/tables/%d", m.Table.ID)
	post(t, srv.URL, m.HostToken, path+"/deposits", map[string]any{"player": annID(t, srv.URL, m), "amount": 10}, nil)
	post(t, srv.URL, m.HostToken, path+"/withdrawals", map[string]any{"player": annID(t, srv.URL, m), "amount": 10}, nil)
	playRound(t, srv.URL, m)

	bob.waitText(`[data-testid=you-owe]`, "You owe Ann 2 chips")
	ann.waitText(`[data-testid=owed-you]`, "Bob owes you 2 chips")
	bob.shot("you-owe")
	ann.shot("owed-you")

	// Another amount is checked before it is confirmed.
	ann.tap(`[data-testid=other-payment]`)
	ann.tap(`[data-testid=record-received]`)
	ann.waitText(`[data-testid=paid-error]`, "Type the amount in whole chips, 1 or more.")
	ann.tap(`[data-testid=paid-me][data-payer="Bob"]`)
	ann.waitText(`[data-testid=paid-confirm]`, "Record that Bob paid you 2 chips?")
	ann.shot("paid-confirm")
	ann.tap(`[data-testid=paid-yes]`)
	ann.waitText(`[data-testid=paid-done]`, "Recorded: Bob paid you 2 chips.")
	ann.waitText(`[data-testid=square]`, "You are square")
	bob.waitText(`[data-testid=square]`, "You are square")
	if eval[bool](bob, `!!document.querySelector('[data-testid=you-owe]')`) {
		t.Fatal("Bob's phone still says he owes Ann after she recorded the payment")
	}
	ann.shot("paid")

	for _, p := range []*phone{ann, bob} {
		p.tap(`[data-testid=go-history]`)
		p.waitText(`[data-testid=table-log]`, "Bob paid Ann 2 chips (recorded by Ann).")
	}
	log := ann.text(`[data-testid=table-log]`)
	for _, want := range []string{"Ann bought in 10 chips (recorded by the host).", "Ann cashed out 10 chips (recorded by the host).",
		"Ann joined with the code.", "Bob joined with the code."} {
		if !strings.Contains(log, want) {
			t.Fatalf("History's log does not say %q: %s", want, log)
		}
	}
	ann.shot("history")
}

// get reads a path of the API with no token and decodes its answer.
func get(t *testing.T, base, path string, out any) {
	t.Helper()
	res, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", path, res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

// annID is the id of the table's player Ann, read through the API.
func annID(t *testing.T, base string, m made) int64 {
	t.Helper()
	var inv struct {
		Players []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"players"`
	}
	get(t, base, "/v1/join/"+m.JoinCode, &inv)
	for _, p := range inv.Players {
		if p.Name == "Ann" {
			return p.ID
		}
	}
	t.Fatal("no Ann at the table")
	return 0
}

// TestHostIsToldOfCodeJoinsAndFreesASeat: Dan joins with the code under a
// name the host did not seat. The host phone says so at once and frees the
// seat with one tap; Dan's phone is told in words and joins again.
func TestHostIsToldOfCodeJoinsAndFreesASeat(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}, "name": "Friday"})
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	if eval[bool](host, `!!document.querySelector('[data-testid=join-notices]')`) {
		t.Fatal("the host phone shows a join notice before anyone joined")
	}

	dan := newPhone(t, browser, srv.URL, "dan")
	dan.joinByCode(m.JoinCode, "Dan")
	host.waitText(`[data-testid=join-notices]`, "Dan joined with the code.")
	host.shot("join-notice")
	host.tap(`[data-testid=join-notices] [data-name="Dan"] [data-testid=notice-free]`)
	host.waitText(`[data-testid=notice-done]`, "Dan’s seat is free again")

	dan.waitText(`[data-testid=revoked]`, "The host freed your seat")
	dan.waitText(`[data-testid=revoked]`, "This phone no longer plays as Dan at “Friday”.")
	dan.shot("seat-freed")
	dan.tap(`[data-testid=rejoin]`)
	dan.waitSeats()
	dan.tap(`[data-testid=open-seats] button[data-name="Dan"]`)
	dan.waitText(`header .role`, "You: Dan")
	dan.shot("rejoined")

	host.waitText(`[data-testid=join-notices]`, "Dan joined with the code.")
	host.tap(`[data-testid=join-notices] [data-name="Dan"] [data-testid=notice-ok]`)
	host.waitFor("the notice gone", `!document.querySelector('[data-testid=join-notices] [data-name="Dan"]')`)
	host.tap(`[data-testid=go-history]`)
	host.waitText(`[data-testid=table-log]`, "The host freed Dan’s seat.")
	if log := host.text(`[data-testid=table-log]`); strings.Count(log, "Dan joined with the code.") != 2 {
		t.Fatalf("History's log should show Dan joining twice: %s", log)
	}
	host.shot("history")
}

// TestHostRoleMovesToAnotherPhone: the host phone shows a recovery code and
// its QR link; a second phone opens the link and becomes the host; the
// first phone is told at once that the host role moved.
func TestHostRoleMovesToAnotherPhone(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}, "name": "Friday"})
	browser := startBrowser(t)
	old := newPhone(t, browser, srv.URL, "old-host")
	old.hostOf(m)
	old.tap(`[data-testid=go-invite]`)
	// The card drawn before any code was asked for leaves out what it does
	// not have: no "undefined" where a code or an error would go.
	old.waitText(`[data-testid=recovery]`, "Move the host role to another phone")
	if got := old.text(`[data-testid=recovery]`); strings.Contains(got, "undefined") || strings.Contains(got, "null") {
		t.Errorf("the Invite tab's host role card reads %q", got)
	}
	old.shot("recovery-card")
	old.tap(`[data-testid=recovery-show]`)
	old.waitFor("the recovery code", `/^\d+-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{2}$/.test(document.querySelector('[data-testid=recovery-code]')?.textContent || '')`)
	old.waitText(`[data-testid=recovery]`, "Works once, until")
	old.shot("recovery-code")
	link := strings.TrimPrefix(eval[string](old, `document.querySelector('[data-testid=recovery-qr] svg').getAttribute('aria-label')`), "QR code for ")
	if !strings.HasPrefix(link, srv.URL+"/#recover=") {
		t.Fatalf("the QR code carries %q", link)
	}

	next := newPhone(t, browser, srv.URL, "new-host")
	next.open(strings.TrimPrefix(link, srv.URL))
	next.waitText(`[data-testid=recover]`, "makes this phone the host")
	next.shot("recover")
	next.tap(`[data-testid=recover-go]`)
	next.waitText(`header .role`, "Host phone")

	old.waitText(`[data-testid=revoked]`, "The host role moved to another phone")
	old.shot("host-moved")

	// The new host phone hosts: it seats a latecomer.
	next.tap(`[data-testid=go-invite]`)
	next.typeInto(`input[name=seat-name]`, "Cy")
	next.tap(`[data-testid=seat]`)
	next.waitText(`[data-testid=seat-done]`, "Cy sits in seat 3.")
	next.shot("new-host")

	// The code worked once.
	again := newPhone(t, browser, srv.URL, "again")
	again.open(strings.TrimPrefix(link, srv.URL))
	again.tap(`[data-testid=recover-go]`)
	again.waitText(`[data-testid=recover-error]`, "used already")
}
