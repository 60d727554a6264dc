package browsertest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// policyWatch holds what a phone's browser said against the server's
// security headers while the test ran: every Content-Security-Policy
// violation, reported by the page (its securitypolicyviolation events, with
// the directive and what was blocked) and by the browser's own security log
// (which also holds the loads refused before the page could tell), and any
// complaint about the headers themselves, such as a Permissions-Policy
// feature the browser does not know. The app must run under its headers
// without one: a test that meets any fails.
type policyWatch struct {
	mu   sync.Mutex
	seen []string
}

// violationJS reports each violation in every document the phone opens to
// the test, through the function exposed as tallyPolicyViolation.
const violationJS = `document.addEventListener('securitypolicyviolation', (e) => {
  window.tallyPolicyViolation({directive: e.violatedDirective, blocked: e.blockedURI, source: e.sourceFile,
    line: e.lineNumber, sample: e.sample}).catch(() => {});
}, true)`

// violation is what the page says of one violation.
type violation struct {
	Directive string `json:"directive"`
	Blocked   string `json:"blocked"`
	Source    string `json:"source"`
	Line      int    `json:"line"`
	Sample    string `json:"sample"`
}

// listen takes the browser's security log; it is a chromedp.WithListener.
func (w *policyWatch) listen(ev any) {
	if e, ok := ev.(*log.EventEntryAdded); ok && e.Entry.Source == log.EntrySourceSecurity {
		w.add(fmt.Sprintf("the browser's security log (%s): %s (%s)", e.Entry.Level, e.Entry.Text, e.Entry.URL))
	}
}

func (w *policyWatch) add(what string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen = append(w.seen, what)
}

// install makes every document of the phone report its violations.
func (w *policyWatch) install() chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.ExposeFunc("tallyPolicyViolation", func(_ context.Context, v violation) (chromedp.Void, error) {
			w.add(fmt.Sprintf("the page: %s blocked %q at %s:%d %q", v.Directive, v.Blocked, v.Source, v.Line, v.Sample))
			return chromedp.Void{}, nil
		}),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: violationJS})
			return err
		}))
}

// check fails the test with everything the phone's browser reported.
func (w *policyWatch) check(t *testing.T, name string) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range w.seen {
		t.Errorf("%s: against the security headers: %s", name, s)
	}
}
