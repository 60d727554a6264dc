package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// manifest is what the phone reads of the web app manifest.
type manifest struct {
	Name      string `json:"name"`
	ShortName string `json:"short_name"`
	StartURL  string `json:"start_url"`
	Scope     string `json:"scope"`
	Display   string `json:"display"`
	Icons     []struct{ Src, Sizes, Type, Purpose string }
}

// fetchBody GETs a URL and returns its content type and body.
func fetchBody(t *testing.T, url string) (string, []byte) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, res.StatusCode, err)
	}
	return res.Header.Get("Content-Type"), body
}

// TestAppIsInstallable: the page links a manifest served as
// application/manifest+json that parses, names the app and opens it at /
// standalone, with PNG icons of 192 and 512 pixels for any use and for
// masking, each served and of the size it claims. After one visit, the app
// opens with the server out of reach: the service worker has the shell.
func TestAppIsInstallable(t *testing.T) {
	srv := startServer(t)
	browser := startBrowser(t)
	p := newPhone(t, browser, srv.URL, "phone")
	p.open("/")
	p.waitText("main", "Start a table")
	href := eval[string](p, `document.querySelector('link[rel=manifest]')?.href ?? ''`)
	if href != srv.URL+"/app/manifest.webmanifest" {
		t.Fatalf("the page links the manifest %q", href)
	}
	ct, body := fetchBody(t, href)
	if ct != "application/manifest+json" {
		t.Errorf("the manifest is served as %q", ct)
	}
	var m manifest
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("the manifest does not parse: %v\n%s", err, body)
	}
	if m.Name != "Tally" || m.ShortName != "Tally" || m.StartURL != "/" || m.Scope != "/" || m.Display != "standalone" {
		t.Errorf("the manifest says %+v", m)
	}
	seen := map[string]bool{}
	for _, icon := range m.Icons {
		ct, img := fetchBody(t, srv.URL+icon.Src)
		cfg, err := png.DecodeConfig(bytes.NewReader(img))
		if err != nil || ct != "image/png" || icon.Type != "image/png" {
			t.Errorf("icon %s: %q %v", icon.Src, ct, err)
			continue
		}
		if got := fmt.Sprintf("%dx%d", cfg.Width, cfg.Height); got != icon.Sizes {
			t.Errorf("icon %s is %s, the manifest says %s", icon.Src, got, icon.Sizes)
		}
		seen[icon.Purpose+" "+icon.Sizes] = true
	}
	for _, want := range []string{"any 192x192", "any 512x512", "maskable 192x192", "maskable 512x512"} {
		if !seen[want] {
			t.Errorf("no %s icon in %v", want, seen)
		}
	}

	p.waitFor("the service worker in charge", `!!navigator.serviceWorker.controller`)
	srv.setDown(true)
	p.reload()
	p.waitText("main", "Start a table")
	p.shot("offline-home")
	srv.setDown(false)
}

// TestAppUpdatesItself: a phone that already runs the app by its service
// worker learns of a new version when it looks again (as it does when it
// wakes): the new worker caches the new shell, the old cache goes, and the
// page reloads once into the new version, with no tap.
func TestAppUpdatesItself(t *testing.T) {
	srv := startServer(t)
	// The next deployment differs from this one only in its worker's version.
	var deployed atomic.Bool
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/app/sw.js" || !deployed.Load() {
			srv.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app/sw.js", nil))
		w.Header().Set("Content-Type", rec.Header().Get("Content-Type"))
		w.Header().Set("Service-Worker-Allowed", rec.Header().Get("Service-Worker-Allowed"))
		_, _ = io.WriteString(w, strings.Replace(rec.Body.String(), "const VERSION = '", "const VERSION = 'next-", 1))
	}))
	t.Cleanup(front.Close)
	browser := startBrowser(t)
	p := newPhone(t, browser, front.URL, "phone")
	p.open("/")
	p.waitFor("the service worker in charge", `!!navigator.serviceWorker.controller`)
	caches := `caches.keys().then((k) => k.join(' '))`
	first := eval[string](p, caches, chromedp.EvalAwaitPromise)
	if !strings.HasPrefix(first, "tally-shell-") || strings.Contains(first, " ") {
		t.Fatalf("the caches after the first visit: %q", first)
	}
	eval[bool](p, `window.stillHere = true`)

	deployed.Store(true)
	eval[bool](p, `navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true)`, chromedp.EvalAwaitPromise)
	p.waitReloaded()
	p.waitFor("only the new version's cache", `caches.keys().then((k) => { window.cacheNames = k.join(' '); }), window.cacheNames === 'tally-shell-next-`+strings.TrimPrefix(first, "tally-shell-")+`'`)
	p.waitText("main", "Start a table")
}

// waitReloaded waits until the page has been loaded again (a mark left on
// the old page is gone). The reload may cut a check short; it is made again.
func (p *phone) waitReloaded() {
	p.t.Helper()
	deadline := time.Now().Add(stepTimeout)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(p.ctx, time.Second)
		gone, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.stillHere === undefined && !!document.querySelector('main')`))
		cancel()
		if err == nil && gone {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.t.Fatalf("%s: the page did not reload", p.name)
}
