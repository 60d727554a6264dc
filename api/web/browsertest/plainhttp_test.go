package browsertest

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// insecureNotice is what a phone on plain http is told.
const insecureNotice = "This address isn't secure, so Tally can't be installed, keep working offline or read dice with the camera on this phone. " +
	"Ask the host for the https address."

// noticeShown says whether the plain-http notice is on screen.
const noticeShown = `(() => { const n = document.querySelector('[data-testid=insecure]');
  return !!n && !n.hidden && n.getBoundingClientRect().height > 0; })()`

// lanAddress is the test server at a name that is not localhost, over plain
// http, as a bar's LAN address is (the browser maps tally.lan, and
// other.lan, to 127.0.0.1): not a secure context.
func lanAddress(srv *server, name string) string {
	return fmt.Sprintf("http://%s:%d", name, srv.Listener.Addr().(*net.TCPAddr).Port)
}

// TestPlainHTTPSaysSo: the app opened at a LAN address over plain http
// says once, in plain words, on the host's phone and on a player's, that it
// can't be installed, work offline or read dice with the camera there, in a status region that stays
// until it is dismissed; dismissed, it stays away on that address (and only
// there). Such a phone registers no service worker and holds no wake lock.
// The join link and the address on the Invite tab are the page's own, as no
// public address was given. The same app at 127.0.0.1, a secure context,
// shows no notice and installs its service worker.
func TestPlainHTTPSaysSo(t *testing.T) {
	srv := startServer(t)
	lan := lanAddress(srv, "tally.lan")
	m := makeTableFull(t, srv.URL, map[string]any{"name": "Friday", "players": []string{"Ann", "Bob"}})
	browser := startBrowser(t)

	host := newPhone(t, browser, lan, "host")
	host.hostOf(m)
	host.waitText(`[data-testid=insecure]`, insecureNotice)
	if role := eval[string](host, `document.querySelector('[data-testid=insecure]').getAttribute('role')`); role != "status" {
		t.Errorf("the notice's role is %q, want status", role)
	}
	if eval[bool](host, `window.isSecureContext || 'wakeLock' in navigator || 'serviceWorker' in navigator`) {
		t.Error("a page on plain http at a LAN address is a secure context, or offers a wake lock or a service worker")
	}
	host.shot("plain-http")
	host.tap(`[data-testid=go-invite]`)
	link := host.qrLink(`[data-testid=qr] svg`)
	if want := lan + "/#join=" + m.JoinCode + "&seat=Ann&seat=Bob"; link != want {
		t.Errorf("the QR code carries %q, want %q", link, want)
	}
	if got := host.text(`[data-testid=app-address]`); got != lan {
		t.Errorf("the Invite tab says to open Tally at %q, want %q", got, lan)
	}
	if !eval[bool](host, noticeShown) {
		t.Error("the notice is gone from the host's Invite tab before it was dismissed")
	}
	host.shot("plain-http-invite")

	// Ann scans the code on a small phone: the notice is there too, and
	// stays gone once she dismisses it, on this address.
	ann := newPhoneOn(t, browser, lan, "ann", screens[1])
	ann.open(strings.TrimPrefix(link, lan))
	ann.waitText(`[data-testid=insecure]`, insecureNotice)
	ann.shot("plain-http-join")
	ann.tap(`button.seat[data-name="Ann"]`)
	ann.waitText(`header .role`, "You: Ann")
	ann.waitText(`[data-testid=insecure]`, insecureNotice)
	ann.shot("plain-http-player")
	ann.tap(`[data-testid=insecure-ok]`)
	ann.waitFor("the notice dismissed", `!`+noticeShown)
	ann.reload()
	ann.waitText(`header .role`, "You: Ann")
	ann.settle()
	if eval[bool](ann, noticeShown) {
		t.Error("the notice came back after a reload on the address where it was dismissed")
	}
	ann.shot("plain-http-dismissed")
	other := lanAddress(srv, "other.lan")
	ann.do(chromedp.Navigate(other+"/"), chromedp.WaitVisible(chromedp.CSS("main")))
	ann.waitText(`[data-testid=insecure]`, insecureNotice)

	// The same server at 127.0.0.1 is a secure context: no notice.
	local := newPhone(t, browser, srv.URL, "local")
	local.open("/")
	local.waitText("main", "Start a table")
	local.waitFor("the service worker in charge", `!!navigator.serviceWorker.controller`)
	if eval[bool](local, noticeShown) {
		t.Error("the notice shows at 127.0.0.1, a secure context")
	}
}
