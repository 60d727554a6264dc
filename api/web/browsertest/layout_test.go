package browsertest

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// screen is a phone's viewport in CSS pixels.
type screen struct {
	name          string
	width, height int
}

// screens are the phones the play screen must work on: a tall phone, a
// small one, and both on their side.
var screens = []screen{
	{"portrait", 390, 844},
	{"small", 360, 640},
	{"landscape", 844, 390},
	{"small-landscape", 640, 360},
}

// inViewJS says why the element matching the selector is not where a thumb
// can reach it (empty when it is): missing, out of the screen, under the
// sticky header or the tab bar, or covered where it would be tapped.
const inViewJS = `((sel) => {
  const el = document.querySelector(sel);
  if (!el) return 'missing';
  const r = el.getBoundingClientRect();
  const top = document.querySelector('header.top')?.getBoundingClientRect().bottom ?? 0;
  const bottom = document.querySelector('nav.tabs')?.getBoundingClientRect().top ?? innerHeight;
  if (r.top < top - 0.5) return 'under the header (top ' + r.top + ', header ends at ' + top + ')';
  if (r.bottom > bottom + 0.5) return 'under the tab bar or below the screen (bottom ' + r.bottom + ', tab bar at ' + bottom + ')';
  if (r.left < 0 || r.right > innerWidth) return 'off the side of the screen';
  for (const [x, y] of [[0.5, 0.5], [0.1, 0.1], [0.9, 0.9], [0.1, 0.9], [0.9, 0.1]]) {
    const hit = document.elementFromPoint(r.left + r.width * x, r.top + r.height * y);
    if (!el.contains(hit)) return 'covered by ' + (hit ? hit.outerHTML.slice(0, 80) : 'nothing');
  }
  return '';
})(%q)`

// inView fails the test unless the element matching sel is in full view
// and on top, as the page stands (nothing is scrolled to it).
func (p *phone) inView(sel, what string) {
	p.t.Helper()
	if why := eval[string](p, fmt.Sprintf(inViewJS, sel)); why != "" {
		body := eval[string](p, `document.body.innerText`)
		p.t.Fatalf("%s: %s (%s) is not in view: %s\nscreen:\n%s", p.name, what, sel, why, body)
	}
}

// thumb taps the element matching sel where it stands, as a thumb does: it
// must be in view, since nothing scrolls to it first.
func (p *phone) thumb(sel, what string) {
	p.t.Helper()
	p.inView(sel, what)
	xy := eval[[]float64](p, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel))
	p.do(chromedp.MouseClickXY(xy[0], xy[1]))
}

// press taps the element matching sel once it is there and enabled and
// the page has settled, scrolled to the middle of the screen as tap does.
// It finds the element and where it stands in the page itself, so a redraw
// between finding and tapping (which can leave chromedp waiting on a node
// that is gone) lands the tap on the button drawn in its place.
func (p *phone) press(sel string) {
	p.t.Helper()
	p.waitFor(sel+" to tap", fmt.Sprintf(`(() => { const el = document.querySelector(%q); return !!el && !el.disabled; })()`, sel))
	p.settled()
	xy := eval[[]float64](p, fmt.Sprintf(`(() => { const el = document.querySelector(%q);
  el.scrollIntoView({block: 'center'}); const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel))
	p.do(chromedp.MouseClickXY(xy[0], xy[1]))
}

// settled waits until the page has not changed for 300ms: the refetch
// that follows a write has redrawn it, so no redraw lands between the two
// halves of the next tap.
func (p *phone) settled() {
	p.t.Helper()
	p.waitFor("the page to settle", `(() => {
  if (!window.lastChange) {
    window.lastChange = performance.now();
    new MutationObserver(() => { window.lastChange = performance.now(); }).observe(document.body, {childList: true, subtree: true, characterData: true});
  }
  return performance.now() - window.lastChange > 300;
})()`)
}

// standOn records a first throw that puts to sea and stands on it.
func (p *phone) standOn(faces ...int) {
	p.t.Helper()
	p.settled()
	p.enter(faces...)
	p.press(`[data-testid=send]`)
	p.press(`[data-testid=stand]`)
}

// thumbDice taps faces on the entry pad where they stand.
func (p *phone) thumbDice(faces ...int) {
	p.t.Helper()
	for _, f := range faces {
		p.thumb(`.faces button[data-face="`+strconv.Itoa(f)+`"]`, "the face "+strconv.Itoa(f))
	}
}

// facesInOneRow fails the test unless the six faces of the entry pad sit
// side by side on one row, all on the screen.
func (p *phone) facesInOneRow() {
	p.t.Helper()
	why := eval[string](p, `(() => {
  const f = [...document.querySelectorAll('.faces .face')].map((b) => b.getBoundingClientRect());
  if (f.length !== 6) return f.length + ' faces';
  if (f.some((r) => Math.abs(r.top - f[0].top) > 1)) return 'the faces wrap: tops ' + f.map((r) => r.top).join(', ');
  if (f.some((r) => r.left < 0 || r.right > innerWidth)) return 'a face is off the screen';
  return '';
})()`)
	if why != "" {
		p.t.Fatalf("%s: the six faces are not on one row: %s", p.name, why)
	}
}

// TestPlayScreenFitsEveryPhone records a bar turn with a re-roll on the
// host's phone at 390x844, 360x640 and on its side (844x390, 640x360),
// tapping only what is on screen without scrolling: the turn and its record
// button stay in view, clear of the header and the tab bar, after every
// throw, also when the tap came from further down the page; on its side
// the six faces fit on one row; and nothing ends under the tab bar.
func TestPlayScreenFitsEveryPhone(t *testing.T) {
	srv := startServer(t)
	browser := startBrowser(t)
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "currency": "quarters",
				"players": []string{"Ann", "Bob", "Cy"}, "name": "Friday night at the Anchor"})
			host := newPhoneOn(t, browser, srv.URL, "host-"+sc.name, sc)
			host.hostOf(m)
			host.thumb(`[data-testid=start-round]`, "the start button")
			host.waitText(`[data-testid=whose-turn]`, "Ann")
			host.settled()
			turn := func(step string) {
				t.Helper()
				host.inView(`[data-testid=whose-turn]`, "whose turn it is, "+step)
				host.inView(`[data-testid=next]`, "what to throw, "+step)
			}
			wide := sc.width > sc.height

			turn("at the start")
			if wide {
				host.facesInOneRow()
			}
			// Ann puts to sea at once, then re-rolls her cargo under the cup.
			host.thumbDice(6, 5, 4, 3, 3)
			host.shot("entered")
			host.thumb(`[data-testid=send]`, "Record 5 dice")
			host.waitText(`[data-testid=stand]`, "Stand on 6")
			host.settled()
			turn("once qualified")
			host.inView(`[data-testid=advisor]`, "the odds")
			host.inView(`[data-testid=reroll]`, "the re-roll button")
			host.shot("qualified")
			host.thumb(`[data-testid=reroll]`, "Re-roll both")
			turn("re-rolling")
			if wide {
				host.facesInOneRow()
			}
			host.thumbDice(6, 2)
			host.shot("reroll")
			host.thumb(`[data-testid=send]`, "Record 2 dice")
			host.waitText(`[data-testid=stand]`, "Stand on 8 — under the cup")
			host.settled()
			host.shot("under-the-cup")
			turn("after the closed re-roll")
			host.inView(`[data-testid=advisor]`, "the odds")
			host.thumb(`[data-testid=stand]`, "Stand on 8")

			// Bob banks the ship and the captain, then the crew.
			host.waitText(`[data-testid=whose-turn]`, "Bob")
			host.settled()
			turn("on the next player's turn")
			host.thumbDice(6, 5, 1, 1, 2)
			host.thumb(`[data-testid=send]`, "Record 5 dice")
			host.waitText(`[data-testid=next]`, "Throw 3 dice")
			host.settled()
			turn("after the first throw")
			host.shot("second-throw")
			host.thumbDice(4, 3, 3)
			host.thumb(`[data-testid=send]`, "Record 3 dice")
			host.waitText(`[data-testid=stand]`, "Stand on 6")
			host.settled()
			turn("once Bob is qualified")
			host.inView(`[data-testid=stand]`, "the stand button")
			host.shot("bob-qualified")

			// A thumb that taps a button further down the page (here, after
			// scrolling to the end of it) finds the next turn in view.
			eval[bool](host, `(window.scrollTo(0, document.body.scrollHeight), true)`)
			host.press(`[data-testid=stand]`)
			host.waitText(`[data-testid=whose-turn]`, "Cy")
			host.settled()
			turn("after standing from further down the page")
			host.inView(`[data-testid=send]`, "the record button")
			host.shot("cy")

			// At the end of the page the last card clears the tab bar.
			if why := eval[string](host, `(() => {
  window.scrollTo(0, document.body.scrollHeight);
  const last = [...document.querySelectorAll('main .card')].pop().getBoundingClientRect();
  const tabs = document.querySelector('nav.tabs').getBoundingClientRect();
  return last.bottom <= tabs.top ? '' : 'the last card ends at ' + last.bottom + ', under the tab bar at ' + tabs.top;
})()`); why != "" {
				t.Fatalf("%s: %s", host.name, why)
			}
		})
	}
}
