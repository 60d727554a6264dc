package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/api"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

// TestMain runs the tests against a private PostgreSQL and stops it after.
func TestMain(m *testing.M) { dbtest.Main(m) }

// howToInstall ends every "no Chromium" failure.
const howToInstall = "install Chromium (Debian/Ubuntu as root: apt-get update && apt-get install -y chromium; " +
	"`make test` does this when run as root) or set CHROMIUM to the browser's path"

// chromiumPath finds the browser or fails the test with how to install it.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("CHROMIUM=%s: %v; %s", p, err, howToInstall)
		}
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatalf("the browser tests need Chromium and none was found: %s", howToInstall)
	return ""
}

// server is the real API on a fresh database, behind a switch that can cut
// the network the way bar wifi does. It keeps the database and the
// server's keys, for tests that tamper with history as someone holding
// both would.
type server struct {
	*httptest.Server
	api      http.Handler
	contract *contract // checks every exchange against openapi.yaml
	pool     *pgxpool.Pool
	sealKeys *seal.Keys

	down atomic.Bool  // every request fails as if the wifi dropped
	lose atomic.Int32 // the next n actions are recorded but their answers lost

	mu      sync.Mutex
	gate    *gate // holds actions until several have arrived (together)
	streams map[*http.Request]context.CancelFunc
	keys    map[string]int  // Idempotency-Keys of POST .../actions and how often each arrived
	audits  []string        // the query of every GET .../audit, in order
	muted   map[string]bool // tokens whose live stream is refused
}

// startServer serves api.New on a test server until the test ends.
func startServer(t *testing.T) *server {
	t.Helper()
	return startServerWith(t, api.Config{})
}

// startServerWith is startServer with the settings of cfg (its table
// service and Done are the test's).
func startServerWith(t *testing.T, cfg api.Config) *server {
	t.Helper()
	done := make(chan struct{})
	pool, sealKeys := dbtest.Pool(t), seal.Random()
	cfg.Tables, cfg.Done = table.New(pool, sealKeys, nil), done
	s := &server{api: api.New(cfg), contract: newContract(t), pool: pool, sealKeys: sealKeys,
		streams: map[*http.Request]context.CancelFunc{}, keys: map[string]int{}, muted: map[string]bool{}}
	s.Server = httptest.NewServer(s)
	t.Cleanup(s.Close)
	// Cleanups run last-in first-out: the live streams end before Close
	// waits for the connections.
	t.Cleanup(func() { close(done) })
	return s
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.down.Load() {
		drop(w)
		return
	}
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/actions") {
		s.mu.Lock()
		s.keys[r.Header.Get("Idempotency-Key")]++
		g := s.gate
		if g != nil && g.arrive() {
			s.gate = nil
		}
		s.mu.Unlock()
		if g != nil {
			<-g.open
		}
		if s.lose.Add(-1) >= 0 {
			// The server records the action, but the phone never hears back.
			s.contract.serve(s.api, httptest.NewRecorder(), r)
			drop(w)
			return
		}
	}
	if strings.HasSuffix(r.URL.Path, "/audit") {
		s.mu.Lock()
		s.audits = append(s.audits, r.URL.RawQuery)
		s.mu.Unlock()
	}
	if strings.HasSuffix(r.URL.Path, "/stream") {
		s.mu.Lock()
		muted := s.muted[r.URL.Query().Get("access_token")]
		s.mu.Unlock()
		if muted {
			http.Error(w, "this phone's stream is off for the test", http.StatusServiceUnavailable)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		r = r.WithContext(ctx)
		s.mu.Lock()
		s.streams[r] = cancel
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			delete(s.streams, r)
			s.mu.Unlock()
			cancel()
		}()
	}
	s.contract.serve(s.api, w, r)
}

// gate holds the actions that arrive until n have, then lets them all go.
type gate struct {
	n    int
	open chan struct{}
}

// arrive counts one more action, and opens the gate on the last.
func (g *gate) arrive() bool {
	g.n--
	if g.n == 0 {
		close(g.open)
	}
	return g.n == 0
}

// together holds the next n actions at the server until all n have
// arrived, then lets them go at once: phones that tap at the same moment,
// each against the screen it had, none told of another's tap before its
// own is sent.
func (s *server) together(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gate = &gate{n: n, open: make(chan struct{})}
}

// setDown cuts (or restores) the network; cutting it ends the live streams.
func (s *server) setDown(down bool) {
	s.down.Store(down)
	if !down {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, cancel := range s.streams {
		cancel()
	}
}

// mute refuses the live stream to a token, so that what its phone learns
// comes only from the answers to its own requests.
func (s *server) mute(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.muted[token] = true
}

// auditQueries are the queries of the audits asked so far.
func (s *server) auditQueries() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.audits...)
}

// retriedKeys counts the action keys that arrived more than once.
func (s *server) retriedKeys() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for k, c := range s.keys {
		if k != "" && c > 1 {
			n++
		}
	}
	return n
}

// drop closes the connection without an answer.
func drop(w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		_ = conn.Close()
	}
}

// startBrowser launches headless Chromium for the test, with extra
// options after the usual ones; phones are separate browser contexts in
// it, so each has its own localStorage.
func startBrowser(t *testing.T, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		// Names that reach the test server as a bar's LAN address would:
		// over plain http and not localhost, so not a secure context.
		chromedp.Flag("host-resolver-rules", "MAP tally.lan 127.0.0.1, MAP other.lan 127.0.0.1"),
	)
	opts = append(opts, extra...)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	browser, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("starting Chromium: %v; %s", err, howToInstall)
	}
	return browser
}

// screenshotDir is artifacts/screenshots at the repository root, made if
// missing.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
	out := filepath.Join(dir, "artifacts", "screenshots")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	return out
}
