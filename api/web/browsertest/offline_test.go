package browsertest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// setOffline takes this phone's network away (or gives it back) as flight
// mode does: every request of the page fails and the page is told
// (navigator.onLine, the offline and online events). The server and the
// other phones keep theirs.
func (p *phone) setOffline(off bool) {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, emulateNetworkConditions, map[string]any{
			"offline": off, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}); err != nil {
			return fmt.Errorf("emulate: %w", err)
		}
		return nil
	}))
	p.waitFor("the page to know", fmt.Sprintf(`navigator.onLine === %t`, !off))
}

// emulateNetworkConditions is Network.emulateNetworkConditions, which cuts
// the page's requests and tells the page it is offline; cdproto knows only
// its successor, which this Chromium does not take in the same shape.
var emulateNetworkConditions = cdp.Command[map[string]any, cdp.Empty]{Method: "Network.emulateNetworkConditions"}

// spyJS counts the phone's buzzes (navigator.vibrate) and keeps the screen
// wake locks it was given, around the browser's own functions, so a test
// can tell when the app asked for them.
const spyJS = `
window.buzzes = 0;
window.locks = [];
if (navigator.vibrate) {
  const vibrate = navigator.vibrate.bind(navigator);
  navigator.vibrate = (pattern) => { window.buzzes++; return vibrate(pattern); };
}
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = async (type) => { const lock = await request(type); window.locks.push(lock); return lock; };
}`

// spy installs spyJS on every page the phone opens from now on.
func (p *phone) spy() {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: spyJS})
		return err
	}))
}

// reload reloads the page, as a phone's browser does after a swipe down.
func (p *phone) reload() {
	p.t.Helper()
	p.do(chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("main")))
}

// awake says whether the page holds a screen wake lock it was given.
const awake = `window.locks.some((l) => !l.released)`

// actionKeys copies the Idempotency-Keys of the actions that reached the
// server, with how often each arrived.
func (s *server) actionKeys() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, n := range s.keys {
		out[k] = n
	}
	return out
}

// onceEach fails the test unless exactly want action keys reached the
// server, each once.
func onceEach(t *testing.T, s *server, want int) {
	t.Helper()
	keys := s.actionKeys()
	if len(keys) != want {
		t.Fatalf("%d action keys reached the server, want %d: %v", len(keys), want, keys)
	}
	for k, n := range keys {
		if k == "" || n != 1 {
			t.Fatalf("action key %q arrived %d times, want once: %v", k, n, keys)
		}
	}
}

// TestOfflinePhoneKeepsItsThrows: the host's phone loses its network in the
// middle of Ann's turn and records two throws, which wait on screen ("2
// waiting to send"), then her stand, which ends her turn on that phone: no
// pad, no stand, "turn over" while it waits. All three survive a reload
// with no network (the app from the service worker, the writes from
// IndexedDB); back online, they arrive by themselves, in order, each
// exactly once, and Bob's turn comes. The screen stays on while the round
// is open and may sleep once it is settled.
func TestOfflinePhoneKeepsItsThrows(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.spy()
	host.hostOf(m)
	host.waitFor("the service worker in charge", `!!navigator.serviceWorker.controller`)
	if eval[bool](host, awake) {
		t.Fatal("the screen is held on with no round open")
	}
	host.tap(`[data-testid=start-round]`)
	host.waitText(`[data-testid=whose-turn]`, "Ann")
	host.waitFor("the screen kept on during the round", awake)
	// The browser lets the lock go when the page is hidden; shown again,
	// the page asks for it again.
	eval[bool](host, `(window.locks.at(-1).release(), document.dispatchEvent(new Event('visibilitychange')), true)`)
	host.waitFor("the screen kept on again", `window.locks.length === 2 && `+awake)

	// The phone's wifi goes (the page is told) and nothing it might still
	// send reaches the server: a page reloaded under Chromium's emulation
	// believes itself online for a moment.
	host.setOffline(true)
	srv.setDown(true)
	host.enter(6, 5, 1, 1, 2)
	host.tap(`[data-testid=send]`)
	host.waitText(`[data-testid=waiting]`, "1 waiting to send")
	host.waitText(`[data-testid=next]`, "Enter the next throw")
	host.enter(4, 3, 3)
	host.tap(`[data-testid=send]`)
	host.waitText(`[data-testid=waiting]`, "2 waiting to send")
	host.waitText(`[data-testid=waiting]`, "Ann: throw 6 5 1 1 2 · Ann: throw 4 3 3")
	host.shot("two-waiting")

	// Ann stands on her cargo, still offline: her turn is over on this
	// phone, which waits for Tally to say whose turn is next.
	host.tap(`[data-testid=stand]`)
	host.waitText(`[data-testid=waiting]`, "3 waiting to send")
	turnOver := func(shot string) {
		t.Helper()
		host.waitText(`[data-testid=whose-turn]`, "Ann stood")
		host.waitText(`[data-testid=next]`, "Ann: turn over. 3 waiting to send")
		if left := eval[[]string](host, `[...document.querySelectorAll('[data-testid=turn] button')].map((b) => b.textContent)`); len(left) != 0 {
			t.Errorf("%s: Ann's turn is over on this phone, yet its turn card offers %q", shot, left)
		}
		if eval[bool](host, `!!document.querySelector('.faces, [data-testid=send]')`) {
			t.Errorf("%s: the pad is open after Ann's stand", shot)
		}
		host.shot(shot)
	}
	turnOver("stand-waiting")

	// A reload with no network: the shell comes from the service worker and
	// the writes from IndexedDB.
	host.reload()
	host.waitText(`[data-testid=waiting]`, "Ann: throw 6 5 1 1 2 · Ann: throw 4 3 3 · Ann: stand")
	turnOver("offline-reload")

	srv.setDown(false)
	host.setOffline(false)
	host.waitFor("all three sent", `!document.querySelector('[data-testid=waiting]')`)
	host.waitFor("Ann's two throws on screen", row("Ann")+`?.querySelectorAll('.die').length === 8`)
	host.waitText(`[data-testid=whose-turn]`, "Bob")
	host.waitText(`[data-testid=next]`, "Throw 5 dice")
	host.waitFor("the connection banner gone", `document.getElementById('banner').hidden`)
	host.shot("all-sent")
	onceEach(t, srv, 3)
	host.standFirst(6, 5, 4, 1, 1)
	host.waitText(`[data-testid=result]`, "wins")
	host.waitFor("the screen free to sleep after the round", `window.locks.length > 0 && !(`+awake+`)`)
	if n := eval[int](host, `window.buzzes`); n != 0 {
		t.Errorf("the host's phone buzzed %d times; it plays for everyone and buzzes for nobody", n)
	}
}

// TestScreenStaysOnDuringAGame: a Battleship Royale table's phone holds
// the screen on from the deal until the game is abandoned.
func TestScreenStaysOnDuringAGame(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"game": "royale", "players": []string{"Ann", "Bob"},
		"royale": map[string]any{"mode": "standard", "fleet": "dealt", "die": "real", "ante": 0, "bounty": 0}})
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.spy()
	host.hostOf(m)
	host.tap(`[data-testid=start-game]`)
	host.waitFor("the fleets to choose", `!!document.querySelector('[data-testid=fleets]')`)
	host.waitFor("the screen kept on during the game", awake)
	host.tap(`[data-testid=abandon]`)
	host.tap(`[data-testid=abandon-yes]`)
	host.waitText(`[data-testid=royale-result]`, "Game 1 abandoned")
	host.waitFor("the screen free to sleep after the game", `window.locks.length > 0 && !(`+awake+`)`)
}

// TestPhoneRecoversAfterOutage (issue 13, item 4): the server goes down as
// the host's phone records a throw. The phone says the throw waits and
// keeps trying; long after it would once have given up and asked for a
// tap, the server comes back and the throw is recorded within seconds, the
// connection banner gone, with nobody touching the phone.
func TestPhoneRecoversAfterOutage(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	host.tap(`[data-testid=start-round]`)
	host.waitText(`[data-testid=whose-turn]`, "Ann")

	srv.setDown(true)
	host.enter(6, 5, 4, 3, 3)
	host.tap(`[data-testid=send]`)
	host.waitText(`[data-testid=waiting]`, "1 waiting to send")
	host.waitFor("the connection banner", `!document.getElementById('banner').hidden`)
	host.shot("server-down")
	// The old phone gave up after about 14 s of retries and waited for a tap.
	time.Sleep(16 * time.Second)
	srv.setDown(false)
	back := time.Now()
	host.waitText(`[data-testid=verdict]`, "banked 6-5-4")
	host.waitFor("the waiting throw sent and the banner gone",
		`!document.querySelector('[data-testid=waiting]') && document.getElementById('banner').hidden`)
	if d := time.Since(back); d > 8*time.Second {
		t.Errorf("the phone took %v to recover after the server came back", d.Round(time.Second))
	}
	host.shot("recovered")
	onceEach(t, srv, 1)
}

// TestQueuedThrowRefused: Bob's phone buzzes once when his turn comes, then
// loses its network and records a throw, a re-roll of three dice where his
// two cargo dice go back in the cup, and a stand. Back online, the throw
// arrives; the server refuses the re-roll (the rules), so it and the stand
// made after it are dropped: Bob's phone says so in plain words with the
// server's reason, names both, and shows the round as the server has it.
// (Another phone recording first is TestQueuedDuplicateIsDropped.)
func TestQueuedThrowRefused(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	browser := startBrowser(t)
	host := newPhone(t, browser, srv.URL, "host")
	host.hostOf(m)
	bob := newPhone(t, browser, srv.URL, "bob")
	bob.spy()
	bob.open("/#join=" + m.JoinCode + "&seat=Bob")
	bob.waitSeats()
	bob.tap(`button.seat[data-name="Bob"]`)
	bob.waitText(`header .role`, "You: Bob")

	host.tap(`[data-testid=start-round]`)
	bob.waitText(`[data-testid=whose-turn]`, "Ann’s turn")
	host.standFirst(6, 5, 4, 3, 3)
	bob.waitText(`[data-testid=whose-turn]`, "Your turn")
	bob.waitFor("one buzz for Bob's turn", `window.buzzes === 1`)

	bob.setOffline(true)
	bob.enter(6, 5, 4, 1, 1)
	bob.tap(`[data-testid=send]`)
	bob.waitText(`[data-testid=waiting]`, "1 waiting to send")
	bob.enter(2, 2, 2)
	bob.tap(`[data-testid=send]`)
	bob.waitText(`[data-testid=waiting]`, "2 waiting to send")
	bob.tap(`[data-testid=stand]`)
	bob.waitText(`[data-testid=waiting]`, "3 waiting to send")

	bob.setOffline(false)
	bob.waitText(`[data-testid=conflict]`, "Not recorded: Bob: throw 2 2 2.")
	bob.waitText(`[data-testid=conflict]`, "Tally said: roll 2: ")
	bob.waitText(`[data-testid=conflict]`, "Also not sent, since it was made after it: Bob: stand.")
	bob.waitFor("Bob's first throw on his phone", row("Bob")+`?.querySelectorAll('.die').length === 5`)
	host.waitFor("Bob's first throw on the host's phone", row("Bob")+`?.querySelectorAll('.die').length === 5`)
	bob.waitText(`[data-testid=next]`, "Stand or re-roll")
	bob.waitFor("nothing left waiting", `!document.querySelector('[data-testid=waiting]')`)
	bob.shot("conflict")
	reason := bob.text(`[data-testid=conflict]`)
	// Ann's throw and stand, Bob's throw and his refused re-roll reached
	// the server once each; the stand after it never did.
	onceEach(t, srv, 4)
	bob.tap(`[data-testid=conflict-ok]`)
	bob.waitFor("the notice dismissed", `!document.querySelector('[data-testid=conflict]')`)
	if n := eval[int](bob, `window.buzzes`); n != 1 {
		t.Errorf("Bob's phone buzzed %d times during one turn, want once", n)
	}
	t.Logf("the notice: %s", reason)
}
