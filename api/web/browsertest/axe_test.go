package browsertest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
)

// axeSource is axe-core's script, vendored under testdata/axe (its README
// says which version and under what licence), read once.
var axeSource = sync.OnceValues(func() (string, error) {
	b, err := os.ReadFile("testdata/axe/axe.min.js")
	return string(b), err
})

// axeTimeout bounds one check of a screen: axe walks the whole page, and
// on a busy two-core machine that can take a few seconds.
const axeTimeout = 60 * time.Second

// axeRunJS checks the document with every rule axe runs by default (WCAG
// 2.x A and AA, colour contrast among them, and the best practices such as
// one h1, landmarks and a focusable scroll area) and gives each violation
// with its id, impact, summary and the elements it found.
//
// axe leaves for review ("incomplete"), rather than failing, text it is
// unsure is text, such as a single character: near-white digits "1", "2",
// "3" on cream buttons (1.02:1) came back as "Element content is too short
// to determine if it is actual text content". Here, text axe measured
// (both colours known, so a contrast ratio) under the ratio it expects is
// a violation all the same; what it could not measure (a background image,
// text over other elements) stays for review, as the app draws none.
const axeRunJS = `(async () => {
  const r = await axe.run(document, {resultTypes: ['violations', 'incomplete']});
  const node = (n, summary) => ({target: n.target.map(String).join(' '), summary, html: n.html.slice(0, 160)});
  const out = r.violations.map((v) => ({id: v.id, impact: v.impact || '', help: v.help,
    nodes: v.nodes.map((n) => node(n, n.failureSummary || ''))}));
  for (const v of r.incomplete.filter((v) => v.id === 'color-contrast')) {
    const low = v.nodes.flatMap((n) => n.any.filter((c) => c.data && c.data.contrastRatio > 0 &&
      c.data.contrastRatio < parseFloat(c.data.expectedContrastRatio)).map((c) => node(n,
        'axe left it for review (' + c.message + '), but measured ' + c.data.contrastRatio + ':1 (' + c.data.fgColor +
        ' on ' + c.data.bgColor + '), under ' + c.data.expectedContrastRatio)));
    if (low.length) out.push({id: v.id, impact: v.impact || 'serious', help: v.help, nodes: low});
  }
  return out;
})()`

// axeViolation is one rule a screen breaks, as axeRunJS reports it.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target  string `json:"target"`
		Summary string `json:"summary"`
		HTML    string `json:"html"`
	} `json:"nodes"`
}

// axe checks the screen as it is now with axe-core and fails the test
// (without stopping it) with every violation: its rule, impact, the
// elements and axe's summary of what is wrong with each. The script is
// injected through the DevTools protocol (Runtime.evaluate), which the
// page's Content-Security-Policy does not govern: the app itself allows
// only its own scripts, and ships no axe. A document that has it already
// (the same page, checked again) is not given it twice.
func (p *phone) axe(screen string) {
	p.t.Helper()
	for _, v := range p.axeFind(screen) {
		var b strings.Builder
		for _, n := range v.Nodes {
			fmt.Fprintf(&b, "\n    %s: %s\n      %s", n.Target, strings.ReplaceAll(n.Summary, "\n", "\n      "), n.HTML)
		}
		p.t.Errorf("%s %s: axe %s (%s): %s%s", p.name, screen, v.ID, v.Impact, v.Help, b.String())
	}
}

// axeFind runs axe-core on the screen as it is now and gives what it
// found (axeRunJS).
func (p *phone) axeFind(screen string) []axeViolation {
	p.t.Helper()
	p.settle()
	src, err := axeSource()
	if err != nil {
		p.t.Fatalf("reading axe-core: %v", err)
	}
	ctx, cancel := context.WithTimeout(p.ctx, axeTimeout)
	defer cancel()
	var found []axeViolation
	err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		loaded, err := chromedp.Evaluate[bool](`typeof axe === 'object'`)(ctx, t)
		if err != nil {
			return err
		}
		if !loaded {
			if _, err := chromedp.Evaluate[chromedp.Void](src)(ctx, t); err != nil {
				return fmt.Errorf("injecting axe-core: %w", err)
			}
		}
		found, err = chromedp.Evaluate[[]axeViolation](axeRunJS, chromedp.EvalAwaitPromise)(ctx, t)
		return err
	}))
	if err != nil {
		p.t.Fatalf("%s %s: running axe: %v", p.name, screen, err)
	}
	return found
}
