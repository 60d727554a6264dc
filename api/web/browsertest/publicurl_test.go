package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tally-dice/tally/api"
)

// qrLink is the link the QR code matching sel carries, as its label says.
func (p *phone) qrLink(sel string) string {
	p.t.Helper()
	p.waitFor("the QR code", fmt.Sprintf(`!!document.querySelector(%q)`, sel))
	return strings.TrimPrefix(eval[string](p, fmt.Sprintf(`document.querySelector(%q).getAttribute('aria-label')`, sel)), "QR code for ")
}

// TestLinksCarryThePublicAddress: with a public address given (tallyd's
// --public-url), the host's Invite tab carries it, not the address the host
// opened, in the join QR code and in the address it says to open, and so
// does the QR code that moves the host role to another phone. The link
// works: a phone that opens it (here, its part after the address) joins in
// one tap.
func TestLinksCarryThePublicAddress(t *testing.T) {
	const public = "https://tally.example.com"
	srv := startServerWith(t, api.Config{PublicURL: public})
	m := makeTableFull(t, srv.URL, map[string]any{"name": "Friday", "players": []string{"Ann", "Bob"}})
	browser := startBrowser(t)

	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	host.tap(`[data-testid=go-invite]`)
	link := host.qrLink(`[data-testid=qr] svg`)
	if want := public + "/#join=" + m.JoinCode + "&seat=Ann&seat=Bob"; link != want {
		t.Errorf("the QR code carries %q, want %q", link, want)
	}
	if got := host.text(`[data-testid=app-address]`); got != public {
		t.Errorf("the Invite tab says to open Tally at %q, want %q", got, public)
	}
	host.shot("public-address")
	if card := host.text(`[data-testid=recovery]`); strings.Contains(card, "undefined") {
		t.Errorf("the host recovery card says %q", card)
	}
	host.tap(`[data-testid=recovery-show]`)
	if got := host.qrLink(`[data-testid=recovery-qr] svg`); !strings.HasPrefix(got, public+"/#recover=") {
		t.Errorf("the host recovery QR code carries %q, want %s/#recover=…", got, public)
	}

	bob := newPhone(t, browser, srv.URL, "bob")
	bob.open(strings.TrimPrefix(link, public))
	bob.tap(`button.seat[data-name="Bob"]`)
	bob.waitText(`header .role`, "You: Bob")
}
