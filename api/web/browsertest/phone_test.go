package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// phone is one phone at the table: its own browser context (so its own
// localStorage and tokens) with a 390x844 mobile viewport.
type phone struct {
	t     *testing.T
	name  string
	ctx   context.Context
	base  string
	shots string
}

// stepTimeout bounds every step, so a broken page fails instead of hanging.
const stepTimeout = 20 * time.Second

// shotCount numbers each test's screenshots in the order they were taken.
var (
	shotMu    sync.Mutex
	shotCount = map[string]int{}
)

// newPhone opens a tab for a phone in a browser context of its own (its
// own storage, as incognito), at a phone's viewport.
func newPhone(t *testing.T, browser context.Context, base, name string) *phone {
	t.Helper()
	return newPhoneOn(t, browser, base, name, screens[0])
}

// newPhoneOn is newPhone with the viewport of sc.
func newPhoneOn(t *testing.T, browser context.Context, base, name string, sc screen) *phone {
	t.Helper()
	return newTab(t, browser, base, name, sc, chromedp.WithNewBrowserContext())
}

// newTab opens a tab for a phone at the viewport of sc, in the browser
// context opts say (the browser's own, which alone may install an app,
// when none). The phone's browser watches for anything against the
// server's security headers (policyWatch): the test fails at its end if
// it saw any.
func newTab(t *testing.T, browser context.Context, base, name string, sc screen, opts ...chromedp.ContextOption) *phone {
	t.Helper()
	watch := &policyWatch{}
	ctx, cancel := chromedp.NewContext(browser, append(opts, chromedp.WithListener(watch.listen))...)
	t.Cleanup(cancel)
	p := &phone{t: t, name: name, ctx: ctx, base: base, shots: screenshotDir(t)}
	// The first run makes the tab, which lives as long as the context of that
	// run: it must be the phone's own context, not one with a step timeout.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(sc.width), int64(sc.height), chromedp.EmulateScale(2),
		chromedp.EmulateMobile, chromedp.EmulateTouch), watch.install(), chromedp.Navigate("data:text/html,")); err != nil {
		t.Fatalf("%s: opening a tab: %v", name, err)
	}
	// Cleanups run last-in first-out: this one, before the tab closes.
	t.Cleanup(func() { watch.check(t, name) })
	return p
}

// do runs steps, failing the test with the phone's name on error.
func (p *phone) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("%s: %v", p.name, err)
	}
}

// open loads a path of the app.
func (p *phone) open(path string) {
	p.t.Helper()
	p.do(chromedp.Navigate(p.base+path), chromedp.WaitVisible(chromedp.CSS("main")))
}

// tap taps the first visible element matching a CSS selector. As a thumb
// waits for a screen that is still changing, it waits first until the page
// has not changed for a moment (settle): an answer or a live update that
// redraws the page moves buttons, and a tap aimed before it lands on what
// is there after. A redraw between finding and tapping the element finds
// it again.
func (p *phone) tap(sel string) {
	p.t.Helper()
	p.settle()
	for try := 1; ; try++ {
		// A thumb scrolls the button to the middle of the screen first, clear
		// of the sticky header and the tab bar.
		eval[bool](p, fmt.Sprintf(`(document.querySelector(%q)?.scrollIntoView({block: 'center'}), true)`, sel))
		ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
		err := chromedp.Do(ctx, chromedp.Tap(chromedp.CSS(sel)))
		cancel()
		if err == nil {
			return
		}
		if try == 3 || !redrawn(err) {
			p.t.Fatalf("%s: tap %s: %v", p.name, sel, err)
		}
	}
}

// settleJS resolves once the page has gone 150 ms without a change to its
// DOM, or after 3 s of a page that keeps changing (a ticking clock).
const settleJS = `new Promise((done) => {
  let quiet;
  const give = setTimeout(() => { obs.disconnect(); done(true); }, 3000);
  const obs = new MutationObserver(() => { clearTimeout(quiet); quiet = setTimeout(finish, 150); });
  const finish = () => { obs.disconnect(); clearTimeout(give); done(true); };
  obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  quiet = setTimeout(finish, 150);
})`

// settle waits until the page stops changing (settleJS).
func (p *phone) settle() {
	p.t.Helper()
	eval[bool](p, settleJS, chromedp.EvalAwaitPromise)
}

// typeInto replaces an input's value by typing, as a thumb would. Like tap,
// it finds the field again if a redraw replaced it before the typing began.
func (p *phone) typeInto(sel, text string) {
	p.t.Helper()
	for try := 1; ; try++ {
		ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
		err := chromedp.Do(ctx, chromedp.Clear(chromedp.CSS(sel)), typeKeys(sel, text))
		cancel()
		if err == nil {
			return
		}
		if try == 3 || !redrawn(err) {
			p.t.Fatalf("%s: type into %s: %v", p.name, sel, err)
		}
	}
}

// typeKeys focuses the first visible node sel finds and types text into it:
// what chromedp.SendKeys does for a text field, without reading the node's
// attributes, which SendKeys (chromedp v0.23.0) reads unlocked while the
// page's DOM events may be changing them (the race detector caught it as
// the app set an attribute during typing).
func typeKeys(sel, text string) chromedp.Action[chromedp.Void] {
	return chromedp.QueryAfter(chromedp.CSS(sel), func(ctx context.Context, t *chromedp.Target, nodes []*chromedp.Node) (chromedp.Void, error) {
		if len(nodes) == 0 {
			return chromedp.Void{}, fmt.Errorf("no node matches %s", sel)
		}
		_, err := chromedp.KeyEventNode(nodes[0], text)(ctx, t)
		return chromedp.Void{}, err
	}, chromedp.NodeVisible)
}

// redrawn says whether a step failed because the node it found was
// replaced by a redraw.
func redrawn(err error) bool {
	return strings.Contains(err.Error(), "Could not find node") || strings.Contains(err.Error(), "No node with given id")
}

// enter taps dice faces on the entry pad.
func (p *phone) enter(faces ...int) {
	p.t.Helper()
	tray := `[...document.querySelectorAll('[data-testid=tray] .traydie')].map((d) => +d.dataset.face)`
	base := len(eval[[]int](p, tray)) // dice entered before
	for k, f := range faces {
		i := base + k
		for try := 1; ; try++ {
			p.tap(`.faces button[data-face="` + strconv.Itoa(f) + `"]`)
			// A tap lands where the face was when it was aimed: a redraw
			// that moves the faces meanwhile (a live notice arriving) can
			// put another face under it, or nothing. A thumb looks at the
			// tray, taps a wrong die away and taps again.
			got := p.trayAfter(tray, i)
			if len(got) == i+1 && got[i] == f {
				break
			}
			if try == 3 {
				p.t.Fatalf("%s: entering %v, the tray shows %v", p.name, faces, got)
			}
			for len(got) > i {
				p.tap(fmt.Sprintf(`[data-testid=tray] .traydie:nth-child(%d)`, len(got)))
				got = p.trayAfter(tray, len(got))
			}
		}
	}
}

// trayAfter is the tray's faces once they are no longer n long (or after
// two seconds, when a tap went nowhere).
func (p *phone) trayAfter(tray string, n int) []int {
	p.t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		got := eval[[]int](p, tray)
		if len(got) != n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// waitFor waits until a JavaScript expression is truthy. what says what
// was awaited, for the failure message.
func (p *phone) waitFor(what, expr string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond),
		chromedp.WithPollingTimeout(stepTimeout))); err != nil {
		body, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.body.innerText`))
		p.t.Fatalf("%s: waiting for %s: %v\nscreen:\n%s", p.name, what, err, body)
	}
}

// waitText waits until the element matching sel contains text.
func (p *phone) waitText(sel, text string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf("%q in %s", text, sel),
		fmt.Sprintf(`(document.querySelector(%q)?.textContent || '').includes(%q)`, sel, text))
}

// text reads the text of the first element matching sel. It reads in one
// script, so a live redraw between finding and reading cannot break it.
func (p *phone) text(sel string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`document.querySelector(%q)?.textContent ?? ''`, sel))
}

// eval evaluates a JavaScript expression (with chromedp.EvalAwaitPromise,
// the value a promise resolves to).
func eval[T any](p *phone, expr string, opts ...chromedp.EvaluateOption) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		p.t.Fatalf("%s: %s: %v", p.name, expr, err)
	}
	return v
}

// layoutJS finds what would hurt a one-thumb phone: a page wider than the
// screen (its width and the screen's), visible tap targets less than 48px
// high, anything drawn at the top of the screen for notices when there is
// none (the outbox and the connection banner both hidden), and a value a
// template let through ("undefined", "null", "NaN").
const layoutJS = `(() => {
  const small = [];
  for (const el of document.querySelectorAll('button, a.button, a.tab, a.home, input:not([type=checkbox]):not([type=radio]), select, label.toggle, label.preset')) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.height < 47.5) small.push(el.outerHTML.slice(0, 90) + ' h=' + r.height);
  }
  const top = document.querySelector('.top-notices');
  const empty = !!top && [...top.children].every((c) => c.hidden);
  const stray = (document.body.innerText.match(/\b(undefined|null|NaN)\b/) || [''])[0];
  return {width: document.documentElement.scrollWidth, screen: window.innerWidth, small,
    emptyNotices: empty ? top.getBoundingClientRect().height : 0, stray};
})()`

// shot saves a screenshot of the whole page and checks what is on screen:
// its layout, and everything axe-core checks (p.axe), so every screen a
// test saves is one axe has passed. The page is scrolled to the top first:
// a full-page capture of a scrolled page paints the sticky header halfway
// down.
func (p *phone) shot(name string) {
	p.t.Helper()
	eval[bool](p, `(window.scrollTo(0, 0), true)`)
	p.axe(name)
	layout := eval[struct {
		Width        int      `json:"width"`
		Screen       int      `json:"screen"`
		Small        []string `json:"small"`
		EmptyNotices float64  `json:"emptyNotices"`
		Stray        string   `json:"stray"`
	}](p, layoutJS)
	if layout.EmptyNotices != 0 {
		p.t.Errorf("%s %s: with no notice to show, the notices at the top are %vpx high", p.name, name, layout.EmptyNotices)
	}
	if layout.Stray != "" {
		p.t.Errorf("%s %s: the screen shows %q", p.name, name, layout.Stray)
	}
	if layout.Width > layout.Screen {
		p.t.Errorf("%s %s: the page is %dpx wide on a %dpx screen (sideways scrolling)", p.name, name, layout.Width, layout.Screen)
	}
	for _, s := range layout.Small {
		p.t.Errorf("%s %s: tap target under 48px: %s", p.name, name, s)
	}
	p.save(name, chromedp.FullScreenshot(100))
}

// view saves a screenshot of what is on the screen now, scrolled as it
// is, after axe has checked the page: what a thumb sees at that moment.
func (p *phone) view(name string) {
	p.t.Helper()
	p.axe(name)
	p.save(name, chromedp.CaptureScreenshot())
}

// save takes a screenshot and writes it under the test's next number.
func (p *phone) save(name string, capture chromedp.Action[[]byte]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, capture)
	if err != nil {
		p.t.Fatalf("%s: screenshot %s: %v", p.name, name, err)
	}
	shotMu.Lock()
	shotCount[p.t.Name()]++
	n := shotCount[p.t.Name()]
	shotMu.Unlock()
	file := filepath.Join(p.shots, fmt.Sprintf("%s-%02d-%s-%s.png", strings.ReplaceAll(strings.TrimPrefix(p.t.Name(), "Test"), "/", "-"), n, p.name, name))
	if err := os.WriteFile(file, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}
