package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/tally-dice/tally/api"
	"github.com/tally-dice/tally/api/web"
)

// get sends one request to h and returns the response.
func get(t *testing.T, h http.Handler, method, target string, header map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func TestHandlerServesTheApp(t *testing.T) {
	t.Parallel()
	// The app is reached through the API's router, as tallyd serves it.
	h := api.New(api.Config{})
	for _, tc := range []struct {
		path, contentType, contains string
	}{
		{"/", "text/html; charset=utf-8", `<script type="module" src="/app/app.js">`},
		{"/app/app.js", "text/javascript; charset=utf-8", "import"},
		{"/app/style.css", "text/css; charset=utf-8", "--bg"},
		{"/app/icon.svg", "image/svg+xml", "<svg"},
		{"/app/vendor/qrcode.mjs", "text/javascript; charset=utf-8", "Licensed under the MIT license"},
		{"/app/manifest.webmanifest", "application/manifest+json", `"start_url": "/"`},
		{"/app/icon-192.png", "image/png", "\x89PNG"},
		{"/app/dice.bin", "application/octet-stream", "TDM1"},
	} {
		res := get(t, h, http.MethodGet, tc.path, nil)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != tc.contentType {
			t.Errorf("GET %s: %d %q, want 200 %q", tc.path, res.StatusCode, res.Header.Get("Content-Type"), tc.contentType)
		}
		if !strings.Contains(string(body), tc.contains) {
			t.Errorf("GET %s: body lacks %q", tc.path, tc.contains)
		}
		if res.Header.Get("Cache-Control") != "no-cache" || res.Header.Get("ETag") == "" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: cache headers %v", tc.path, res.Header)
		}
	}
	if csp := get(t, h, http.MethodGet, "/", nil).Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
		t.Errorf("index.html's CSP = %q", csp)
	}
}

func TestHandlerRefusesWhatIsNotTheApp(t *testing.T) {
	t.Parallel()
	h := web.NewHandler("")
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{http.MethodGet, "/app/vendor/README.md", http.StatusNotFound},
		{http.MethodGet, "/app/nope.js", http.StatusNotFound},
		{http.MethodGet, "/app/../web.go", http.StatusNotFound},
		{http.MethodGet, "/web.go", http.StatusNotFound},
		{http.MethodGet, "/index.html", http.StatusNotFound},
		{http.MethodPost, "/", http.StatusMethodNotAllowed},
	} {
		if res := get(t, h, tc.method, tc.path, nil); res.StatusCode != tc.status {
			t.Errorf("%s %s = %d, want %d", tc.method, tc.path, res.StatusCode, tc.status)
		}
	}
}

func TestHandlerRevalidatesAndCompresses(t *testing.T) {
	t.Parallel()
	h := web.NewHandler("")
	plain := get(t, h, http.MethodGet, "/app/vendor/qrcode.mjs", nil)
	want, _ := io.ReadAll(plain.Body)
	etag := plain.Header.Get("ETag")

	for _, inm := range []string{etag, `"other", ` + etag, "W/" + etag} {
		res := get(t, h, http.MethodGet, "/app/vendor/qrcode.mjs", map[string]string{"If-None-Match": inm})
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusNotModified || len(body) != 0 {
			t.Errorf("If-None-Match %s: %d with %d bytes, want an empty 304", inm, res.StatusCode, len(body))
		}
	}
	if res := get(t, h, http.MethodGet, "/app/vendor/qrcode.mjs", map[string]string{"If-None-Match": `"stale"`}); res.StatusCode != http.StatusOK {
		t.Errorf("a stale ETag got %d, want 200", res.StatusCode)
	}

	res := get(t, h, http.MethodGet, "/app/vendor/qrcode.mjs", map[string]string{"Accept-Encoding": "br, gzip"})
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Accept-Encoding gzip: Content-Encoding %q", res.Header.Get("Content-Encoding"))
	}
	raw, _ := io.ReadAll(res.Body)
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(zr)
	if !bytes.Equal(got, want) {
		t.Error("the gzipped body is not the file")
	}
	if len(raw) >= len(want) {
		t.Errorf("gzipped %d bytes, the file is %d", len(raw), len(want))
	}
	if res := get(t, h, http.MethodGet, "/app/vendor/qrcode.mjs", map[string]string{"Accept-Encoding": "gzip;q=0"}); res.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0 still got %q", res.Header.Get("Content-Encoding"))
	}
	head := get(t, h, http.MethodHead, "/", nil)
	if body, _ := io.ReadAll(head.Body); head.StatusCode != http.StatusOK || len(body) != 0 {
		t.Errorf("HEAD /: %d with %d bytes", head.StatusCode, len(body))
	}
}

// importRE finds the relative module imports of a JavaScript file.
var importRE = regexp.MustCompile(`(?m)^\s*import\s[^;]*?from\s+'(\./[^']+)'`)

// TestModulesResolve proves every module the app imports is served, so a
// renamed file cannot break the app at load time without a test failing.
func TestModulesResolve(t *testing.T) {
	t.Parallel()
	h := web.NewHandler("")
	root := os.DirFS("app")
	seen := 0
	err := fs.WalkDir(root, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(name) != ".js" {
			return err
		}
		src, err := fs.ReadFile(root, name)
		if err != nil {
			return err
		}
		for _, m := range importRE.FindAllStringSubmatch(string(src), -1) {
			seen++
			target := "/app/" + path.Join(path.Dir(name), m[1])
			if res := get(t, h, http.MethodGet, target, nil); res.StatusCode != http.StatusOK {
				t.Errorf("%s imports %s, which is not served (%d)", name, target, res.StatusCode)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 10 {
		t.Fatalf("found only %d imports; is the pattern still right?", seen)
	}
}

// TestPublicAddressIsWrittenIntoThePage: the public address given to the
// handler is written, escaped, into index.html's tally-public-url meta tag,
// where the app reads it for its links, and makes a new version of the
// service worker, so installed phones pick it up; without one, the tag is
// empty and the app uses the address it was opened at.
func TestPublicAddressIsWrittenIntoThePage(t *testing.T) {
	t.Parallel()
	page := func(h http.Handler, path string) string {
		body, _ := io.ReadAll(get(t, h, http.MethodGet, path, nil).Body)
		return string(body)
	}
	plain, public := web.NewHandler(""), web.NewHandler("https://tally.example.com")
	if p := page(plain, "/"); !strings.Contains(p, `<meta name="tally-public-url" content="">`) {
		t.Errorf("without a public address, index.html says:\n%s", p)
	}
	if p := page(public, "/"); !strings.Contains(p, `<meta name="tally-public-url" content="https://tally.example.com">`) {
		t.Errorf("with a public address, index.html says:\n%s", p)
	}
	if page(plain, "/app/sw.js") == page(public, "/app/sw.js") {
		t.Error("a new public address did not make a new version of the service worker")
	}
	odd := page(web.NewHandler(`https://x.example/"><script>alert(1)</script>`), "/")
	if strings.Contains(odd, "<script>alert") || !strings.Contains(odd, `content="https://x.example/&#34;&gt;&lt;script&gt;`) {
		t.Errorf("the address is not escaped:\n%s", odd)
	}
}
