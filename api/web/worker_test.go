package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// shellRE reads the lines of sw.js the server fills in.
var shellRE = regexp.MustCompile(`const VERSION = '([0-9a-f]{16})';\nconst SHELL = (\[[^\n]*\]);`)

// TestWorkerIsVersioned proves the served service worker carries the app's
// version and the URL of every file of the shell but its own, may take the
// whole site as its scope, and is served like any other script.
func TestWorkerIsVersioned(t *testing.T) {
	t.Parallel()
	h := NewHandler("")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, workerPath, nil))
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/javascript; charset=utf-8" ||
		res.Header.Get("Service-Worker-Allowed") != "/" {
		t.Fatalf("GET %s: %d %v", workerPath, res.StatusCode, res.Header)
	}
	m := shellRE.FindSubmatch(body)
	if m == nil {
		t.Fatalf("sw.js was not filled in:\n%s", body)
	}
	var shell []string
	if err := json.Unmarshal(m[2], &shell); err != nil {
		t.Fatal(err)
	}
	for url := range h.assets {
		if want := url != workerPath; slices.Contains(shell, url) != want {
			t.Errorf("%s in the shell: %t, want %t", url, !want, want)
		}
	}
	for _, url := range []string{"/", "/app/app.js", "/app/manifest.webmanifest", "/app/icon-512.png", "/app/maskable-512.png"} {
		if !slices.Contains(shell, url) {
			t.Errorf("the shell lacks %s", url)
		}
	}
	// The ETag is the filled-in worker's, so a new version is a new ETag.
	if a := newAsset(body, ""); a.etag != res.Header.Get("ETag") {
		t.Errorf("the worker's ETag %s is not its body's %s", res.Header.Get("ETag"), a.etag)
	}
}

// TestWorkerVersionFollowsEveryFile proves any change to any file of the
// app makes a new version of the worker, and nothing else does.
func TestWorkerVersionFollowsEveryFile(t *testing.T) {
	t.Parallel()
	worker := string(versionLine) + "\n" + string(shellLine) + "\n"
	version := func(files map[string]string) string {
		assets := map[string]asset{workerPath: newAsset([]byte(worker), "text/javascript")}
		for url, body := range files {
			assets[url] = newAsset([]byte(body), "text/plain")
		}
		versionWorker(assets)
		m := shellRE.FindStringSubmatch(string(assets[workerPath].body))
		if m == nil {
			t.Fatalf("not filled in: %s", assets[workerPath].body)
		}
		return m[1]
	}
	base := version(map[string]string{"/": "page", "/app/a.js": "a"})
	if again := version(map[string]string{"/app/a.js": "a", "/": "page"}); again != base {
		t.Errorf("the same files gave versions %s and %s", base, again)
	}
	for name, files := range map[string]map[string]string{
		"a changed file": {"/": "page", "/app/a.js": "b"},
		"a new file":     {"/": "page", "/app/a.js": "a", "/app/b.js": ""},
		"a renamed file": {"/": "page", "/app/c.js": "a"},
	} {
		if v := version(files); v == base {
			t.Errorf("%s kept the version %s", name, v)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "VERSION") {
			t.Errorf("a worker without its lines: recover() = %v", r)
		}
	}()
	versionWorker(map[string]asset{workerPath: newAsset([]byte("self.x = 1;"), "text/javascript")})
}
