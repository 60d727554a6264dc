// Package web is the phone web app that tallyd serves at /: hand-written
// HTML, CSS and JavaScript modules (no framework, no build step) embedded in
// the binary. The app talks only to the public API described by
// openapi.yaml, exactly as any other client would. Why it behaves as it
// does (offline, idempotency, caching, who may press what) is written up
// in docs/webapp.md.
//
// # Serving
//
// This package serves GET / (index.html, with the --public-url written
// into its tally-public-url meta tag) and GET /app/<file>, only files of a
// known content type, each with a strong ETag and `Cache-Control:
// no-cache`, gzipped once at start-up. The service worker (app/sw.js) is
// written into at start-up with a version made from every other file and
// the list of them (worker.go), so a deployment is a new worker. The
// security headers, a strict Content-Security-Policy among them (no inline
// script, no eval), are the API's (api/headers.go).
//
// # The app, by concern
//
// The app (app/*.js, one ES module per concern, each opening with what it
// does) is organised in layers, each importing only from those below:
//
//   - The door to the API: api.js holds every endpoint of openapi.yaml the
//     app calls (split by concern under app/api/, which only api.js
//     imports), as typed functions; a read returns the answer, a write a
//     Write that keeps its Idempotency-Key across retries. Nothing else
//     builds an API path. The types come from openapi.yaml
//     (types/openapi.d.ts, generated: `make types`).
//   - What the phone keeps: store.js (tokens and each table's last view, in
//     localStorage) and outbox.js (the writes not sent yet, in IndexedDB);
//     live.js keeps a table's event stream open.
//   - Drawing: dom.js builds elements and formats money and times; the
//     other modules draw cards from what they are given.
//   - Pages: app.js routes on the URL's hash (#new, #join=CODE, #c=ID, and
//     #t=ID&tab=play|money|history|invite) and holds Session, the open
//     table; crew.js holds CrewPage, the open crew. Both implement Page
//     (page.js), the one interface the shared cards (money and what is
//     owed) draw against, and keep their cards' state in a typed UI bag.
//   - Tabs and cards: each tab of a table and each screen of a crew has
//     its module, named after what it shows (the dice game's play and
//     result, a Battleship Royale game's, money, history and the audit,
//     invitations and seats, the host's actions, corrections, sharing a
//     night); a module that grows past a screen's worth of concerns is
//     split by concern.
//   - The phone itself: installing and updating (pwa.js, sw.js), keeping
//     the screen awake, warnings about an insecure address or a connection
//     lost.
//
// # Checks
//
// Every module is type-checked under strict (// @ts-check, JSDoc; tsc
// over jsconfig.json and jsconfig.worker.json at the repository's root;
// docs/webapp.md says how to type a module) and
// linted (eslint.config.js) by `make test`. The browser tests
// (browsertest) drive headless Chromium against the real API on a real
// PostgreSQL, check every request and answer against openapi.yaml, run
// axe-core on every screen they save, and watch for CSP violations.
package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

//go:embed index.html app
var files embed.FS

// contentTypes are the types of the files the app is made of; a file of any
// other kind is not served.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".webmanifest": "application/manifest+json",
	".bin":         "application/octet-stream", // the dice model's weights (app/dice.bin)
}

// publicURLLine is the line of index.html the server fills in with the
// public address (--public-url); left empty, the app builds its links from
// the address its page was opened with.
var publicURLLine = []byte(`<meta name="tally-public-url" content="">`)

// asset is one embedded file ready to send.
type asset struct {
	body        []byte
	gzipped     []byte // nil when compressing does not make it smaller
	contentType string
	etag        string
}

// Handler serves the app: GET / is index.html and GET /app/<file> the
// assets. It answers 404 for anything else.
type Handler struct {
	assets map[string]asset // by URL path
}

// NewHandler loads the embedded files. publicURL, when not empty, is the
// address the app puts in its join, share and recovery links (such as
// https://tally.example.com); it is written into index.html, so a phone
// that opens the app from its service worker, offline, still has it. It
// panics only if the embedded files are unreadable or index.html lacks the
// line to fill in, which would be a build defect.
func NewHandler(publicURL string) *Handler {
	h := &Handler{assets: map[string]asset{}}
	err := fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ct, ok := contentTypes[path.Ext(name)]
		if !ok {
			return nil
		}
		body, err := files.ReadFile(name)
		if err != nil {
			return err
		}
		url := "/" + name
		if name == "index.html" {
			url = "/"
		}
		h.assets[url] = newAsset(body, ct)
		return nil
	})
	if err != nil {
		panic("web: reading the embedded app: " + err.Error())
	}
	addressPage(h.assets, publicURL)
	versionWorker(h.assets)
	return h
}

// addressPage writes the public address into index.html. It runs before
// versionWorker, so that a new address is a new version of the app, which
// phones fetch as they would a new deployment.
func addressPage(assets map[string]asset, publicURL string) {
	page := assets["/"]
	if !bytes.Contains(page.body, publicURLLine) {
		panic("web: index.html lacks the tally-public-url line the server fills in")
	}
	if publicURL == "" {
		return
	}
	line := []byte(`<meta name="tally-public-url" content="` + html.EscapeString(publicURL) + `">`)
	assets["/"] = newAsset(bytes.Replace(page.body, publicURLLine, line, 1), page.contentType)
}

// newAsset computes the ETag and the gzipped form of a file.
func newAsset(body []byte, contentType string) asset {
	sum := sha256.Sum256(body)
	a := asset{body: body, contentType: contentType, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(body)
	_ = zw.Close()
	if buf.Len() < len(body) {
		a.gzipped = buf.Bytes()
	}
	return a
}

// ServeHTTP sends the asset at the request's path.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	a, ok := h.assets[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", a.contentType)
	hd.Set("Cache-Control", "no-cache")
	hd.Set("ETag", a.etag)
	hd.Set("Vary", "Accept-Encoding")
	if r.URL.Path == workerPath {
		hd.Set("Service-Worker-Allowed", "/")
	}
	if etagMatches(r.Header.Get("If-None-Match"), a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := a.body
	if a.gzipped != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		hd.Set("Content-Encoding", "gzip")
		body = a.gzipped
	}
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write(body)
	}
}

// etagMatches reports whether an If-None-Match header names etag.
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			return strings.ReplaceAll(strings.TrimSpace(params), " ", "") != "q=0"
		}
	}
	return false
}
