package browsertest

import (
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestCameraOnTheBarsWifi reads a throw with the camera as a phone on the
// bar's wifi does: at the app's https address (tallyd's certificate, here
// from Pebble, a real ACME CA), not localhost, on the smallest phone screen
// (360x640), where what it read, the faces in the tray and Record must be
// in view together. The same app at the bar's plain-http address is not
// a secure context, so the phone may not use its camera: the pad offers
// no camera button there and takes taps as before, and the phone's notice
// about the address says the camera is one of the things it lacks.
func TestCameraOnTheBarsWifi(t *testing.T) {
	srv := startSecureServer(t)
	opts := append(cameraFeed(t, readableFrame), srv.browserOptions()...)
	// Both names reach the test servers: tally.test over https, tally.lan
	// over plain http.
	opts = append(opts, chromedp.Flag("host-resolver-rules", "MAP tally.test 127.0.0.1, MAP tally.lan 127.0.0.1"))
	browser := startBrowser(t, opts...)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})

	host := newPhoneOn(t, browser, srv.origin, "host", screens[1])
	host.hostOf(m)
	if !eval[bool](host, `window.isSecureContext && location.protocol === 'https:' && location.hostname === 'tally.test'`) {
		t.Fatalf("the host's phone is not on the https address: %s", eval[string](host, `location.href`))
	}
	host.tap(`[data-testid=start-round]`)
	host.waitText(`[data-testid=whose-turn]`, "Ann")
	want := readWithCamera(t, host, readableFrame)
	// What was read, the faces in the tray and Record are in view on the
	// small screen, between the header and the tab bar, without the player
	// scrolling: the phone brought them there, and at least half of the
	// frame they came from is in view above them.
	inView := `(() => { const top = document.querySelector('header.top').getBoundingClientRect().bottom;
	  const bottom = document.querySelector('nav.tabs').getBoundingClientRect().top;
	  const still = document.querySelector('[data-testid=camera-still]').getBoundingClientRect();
	  return still.bottom - Math.max(still.top, top) >= still.height / 2 &&
	    ['[data-testid=camera-status]', '[data-testid=tray]', '[data-testid=send]'].every(s => {
	    const r = document.querySelector(s).getBoundingClientRect();
	    return r.height > 0 && r.top >= top - 1 && r.bottom <= bottom + 1; }); })()`
	host.waitFor("what was read, the faces and Record in view", inView)
	host.view("camera-https-small-read") // the screen as the phone scrolled it
	host.waitText(`[data-testid=send]`, "Record 5 dice")
	host.tap(`[data-testid=send]`)
	host.waitFor("the verdict", `!!document.querySelector('[data-testid=verdict]')`)

	if recorded := recordedDice(t, srv.URL, m.HostToken, m.Table.ID); !slices.Equal(recorded, want) {
		t.Fatalf("the server's round has %v, the camera read %v", recorded, want)
	}

	// The host's table opened at the bar's plain-http address: no camera,
	// taps as ever.
	lan := newPhoneOn(t, browser, lanAddress(srv.server, "tally.lan"), "host-lan", screens[1])
	lan.hostOf(m)
	if eval[bool](lan, `window.isSecureContext`) {
		t.Fatal("the plain-http LAN address is a secure context; this test needs one that is not")
	}
	lan.waitText(`[data-testid=whose-turn]`, "Ann")
	if eval[bool](lan, `!!document.querySelector('[data-testid=camera]')`) {
		t.Fatal("a phone on plain http offers the camera, which it may not use")
	}
	lan.waitText(`[data-testid=insecure]`, "read dice with the camera")
	lan.tap(`.faces button[data-face="6"]`)
	if got := eval[[]int](lan, trayJS); !slices.Equal(got, []int{6}) {
		t.Fatalf("a tap on 6 on the plain-http phone left %v in the tray", got)
	}
	lan.shot("camera-none-plain-http-small")
}
