package browsertest

import (
	"fmt"
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
	const frame = "testdata/throw-5-dice.jpg" // the frame TestCameraReadsAThrow reads
	srv := startSecureServer(t)
	opts := append(cameraFeed(t, frame), srv.browserOptions()...)
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
	host.tap(`[data-testid=camera]`)
	host.waitFor("the camera's reading or refusal", `(p => !!p && (!!p.dataset.read || p.dataset.refused === 'true'))(document.querySelector('[data-testid=camera-panel]'))`)
	if eval[bool](host, `!document.querySelector('[data-testid=camera-panel]').dataset.read`) {
		host.shot("camera-https-small-refused")
		t.Fatalf("the camera refused a readable throw of %v: %q", cameraThrows[frame], host.text(`[data-testid=camera-status]`))
	}
	want := slices.Sorted(slices.Values(cameraThrows[frame]))
	if got := slices.Sorted(slices.Values(eval[[]int](host, trayJS))); !slices.Equal(got, want) {
		t.Fatalf("the camera put %v in the tray, the throw is %v", got, want)
	}
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

	var round struct {
		Turns []struct {
			Outcome struct {
				Rolls []struct {
					Roll struct{ Dice []int }
				}
			}
		}
	}
	getAs(t, srv.URL, m.HostToken, fmt.Sprintf("/v1/tables/%d/rounds/1", m.Table.ID), &round)
	var recorded []int
	for _, turn := range round.Turns {
		for _, r := range turn.Outcome.Rolls {
			recorded = append(recorded, r.Roll.Dice...)
		}
	}
	if slices.Sort(recorded); !slices.Equal(recorded, want) {
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
