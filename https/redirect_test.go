package https

import (
	"crypto/tls"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"golang.org/x/crypto/acme/autocert"
)

// TestPlainHTTPSendsToHTTPS: the plain-http listener answers the health
// probes itself and sends everything else, method and body kept, to the
// same path on https, on the https listener's port (none for 443).
func TestPlainHTTPSendsToHTTPS(t *testing.T) {
	t.Parallel()
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("app")) })
	for _, c := range []struct {
		addr, method, host, target string
		want                       int
		location                   string
	}{
		{":443", http.MethodGet, "tally.test", "/v1/presets?x=1", http.StatusPermanentRedirect, "https://tally.test/v1/presets?x=1"},
		{":443", http.MethodGet, "tally.test:80", "/", http.StatusPermanentRedirect, "https://tally.test/"},
		{":443", http.MethodPost, "tally.test", "/v1/tables", http.StatusPermanentRedirect, "https://tally.test/v1/tables"},
		{":8443", http.MethodGet, "192.168.1.20:8080", "/join/ABC", http.StatusPermanentRedirect, "https://192.168.1.20:8443/join/ABC"},
		{":443", http.MethodGet, "[fd00::1]:80", "/", http.StatusPermanentRedirect, "https://[fd00::1]/"},
		{":8443", http.MethodGet, "[fd00::1]", "/", http.StatusPermanentRedirect, "https://[fd00::1]:8443/"},
		{":443", http.MethodGet, "tally.test", "/healthz", http.StatusOK, ""},
		{":443", http.MethodGet, "tally.test", "/readyz", http.StatusOK, ""},
	} {
		site, err := New(Config{Domains: []string{"tally.test"}, Addr: c.addr, Cache: autocert.DirCache(t.TempDir()),
			Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(c.method, "http://"+c.host+c.target, nil)
		req.Host = c.host
		rec := httptest.NewRecorder()
		site.Plain(app).ServeHTTP(rec, req)
		if rec.Code != c.want || rec.Header().Get("Location") != c.location {
			t.Errorf("%s %s%s (https on %s): %d %q, want %d %q", c.method, c.host, c.target, c.addr,
				rec.Code, rec.Header().Get("Location"), c.want, c.location)
		}
		if rec.Header().Get("Strict-Transport-Security") != "" {
			t.Errorf("%s %s%s: HSTS over plain http", c.method, c.host, c.target)
		}
	}
}

// TestHSTSOnlyOverHTTPS: an answer over https carries
// Strict-Transport-Security; one that did not come over TLS does not.
func TestHSTSOnlyOverHTTPS(t *testing.T) {
	t.Parallel()
	site, err := New(Config{Domains: []string{"tally.test"}, Addr: ":443", Cache: autocert.DirCache(t.TempDir())})
	if err != nil {
		t.Fatal(err)
	}
	h := site.Secure(http.NotFoundHandler())
	req := httptest.NewRequest(http.MethodGet, "https://tally.test/", nil)
	req.TLS = &tls.ConnectionState{}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if got := rec.Header().Get("Strict-Transport-Security"); got != "max-age=31536000" {
		t.Errorf("over https: HSTS %q", got)
	}
	req.TLS = nil
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if got := rec.Header().Get("Strict-Transport-Security"); got != "" {
		t.Errorf("not over TLS: HSTS %q", got)
	}
}
