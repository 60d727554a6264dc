package browsertest

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/tally-dice/tally/https"
	"github.com/tally-dice/tally/https/acmetest"
)

// secureServer is the test server (the real API and app, with its switch
// that cuts the network) served over HTTPS for tally.test as tallyd serves
// it (package https), with a certificate obtained from Pebble, a real ACME
// CA run by the test, and plain http beside it.
type secureServer struct {
	*server
	origin string            // https://tally.test:PORT
	plain  string            // http://tally.test:PORT
	leaf   *x509.Certificate // the certificate it serves
}

// startSecureServer serves a fresh test server over HTTPS until the test
// ends, once it has its certificate.
func startSecureServer(t *testing.T) *secureServer {
	t.Helper()
	srv := startServer(t)
	tlsL, plainL := listen(t), listen(t)
	ca := acmetest.Start(t, acmetest.Options{HTTPPort: portOf(plainL), TLSPort: portOf(tlsL)})
	site, err := https.New(https.Config{Domains: []string{"tally.test"}, Directory: ca.Directory,
		DirectoryClient: ca.DirectoryClient(), Cache: https.NewCache(srv.pool, srv.sealKeys, slog.New(slog.DiscardHandler)),
		Addr: tlsL.Addr().String(), Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	quiet := log.New(io.Discard, "", 0)
	secure := &http.Server{Handler: site.Secure(srv), TLSConfig: site.TLSConfig(), ReadHeaderTimeout: 10 * time.Second, ErrorLog: quiet}
	plain := &http.Server{Handler: site.Plain(srv), ReadHeaderTimeout: 10 * time.Second, ErrorLog: quiet}
	go func() { _ = secure.ServeTLS(tlsL, "", "") }()
	go func() { _ = plain.Serve(plainL) }()
	t.Cleanup(func() { _ = secure.Close(); _ = plain.Close() })
	leaf, err := ca.LeafWithin(tlsL.Addr().String(), "tally.test", 2*time.Minute)
	if err != nil {
		t.Fatalf("the server's certificate from Pebble: %v", err)
	}
	return &secureServer{server: srv, leaf: leaf,
		origin: "https://tally.test:" + strconv.Itoa(portOf(tlsL)), plain: "http://tally.test:" + strconv.Itoa(portOf(plainL))}
}

// browserOptions make Chromium reach tally.test at 127.0.0.1 and accept
// the server's certificate as valid: it trusts the certificate's public
// key (Pebble's root changes with every run, and Chromium reads trusted
// roots only from the system's store). The page is then a secure context,
// as with a certificate from a public CA.
func (s *secureServer) browserOptions() []chromedp.ExecAllocatorOption {
	spki := sha256.Sum256(s.leaf.RawSubjectPublicKeyInfo)
	return []chromedp.ExecAllocatorOption{
		chromedp.Flag("host-resolver-rules", "MAP tally.test 127.0.0.1"),
		chromedp.Flag("ignore-certificate-errors-spki-list", base64.StdEncoding.EncodeToString(spki[:])),
	}
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func portOf(l net.Listener) int { return l.Addr().(*net.TCPAddr).Port }

// TestAppOverHTTPSIsASecureContext opens the app on its HTTPS origin, as a
// phone at a bar does with tallyd's certificate: the page is a secure
// context, so the service worker takes charge, the screen lock is there,
// and Chromium finds nothing that stops it installing the app; it then
// opens with the server out of reach. The plain-http address lands on the
// https origin.
func TestAppOverHTTPSIsASecureContext(t *testing.T) {
	srv := startSecureServer(t)
	browser := startBrowser(t, srv.browserOptions()...)
	// The browser's own context: an incognito one never installs apps.
	p := newTab(t, browser, srv.origin, "phone", screens[0])
	p.open("/")
	p.waitText("main", "Start a table")
	if !eval[bool](p, `window.isSecureContext && location.origin === '`+srv.origin+`'`) {
		t.Fatalf("the app at %s is not a secure context on its origin (%s)", srv.origin, eval[string](p, `location.href`))
	}
	if !eval[bool](p, `'wakeLock' in navigator && 'serviceWorker' in navigator`) {
		t.Error("the screen lock or the service worker is missing from a secure context")
	}
	p.waitFor("the service worker in charge", `!!navigator.serviceWorker.controller`)
	var errs page.GetInstallabilityErrorsResult
	p.do(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		var err error
		errs, err = chromedp.Call(ctx, page.GetInstallabilityErrors, cdp.Empty{})
		return err
	}))
	for _, e := range errs.InstallabilityErrors {
		t.Errorf("Chromium will not install the app: %s %v", e.ErrorID, e.ErrorArguments)
	}
	p.shot("https-home")

	srv.setDown(true)
	p.reload()
	p.waitText("main", "Start a table")
	srv.setDown(false)

	other := newPhone(t, browser, srv.plain, "plain")
	other.open("/")
	other.waitText("main", "Start a table")
	if got := eval[string](other, `location.origin`); got != srv.origin {
		t.Errorf("the plain-http address opened %s, want %s", got, srv.origin)
	}
}
