// Package web is the phone web app that tallyd serves at /: hand-written
// HTML, CSS and JavaScript modules (no framework, no build step) embedded in
// the binary. The app talks only to the public API described by
// openapi.yaml, exactly as any other client would.
//
// The app (app/*.js) in short: app.js routes on the URL's hash (#new,
// #join=CODE, #t=ID&tab=play|money|history|invite) and runs the open table's
// session; api.js is the only door to the API; live.js keeps the table's
// server-sent event stream open and refetches on every change; play.js,
// start.js, money.js, history.js and invite.js are the tabs; the header with
// the pot, the point and the hammer stays on every tab. host.js holds the
// host's money actions (buy-ins, cash-outs, closing the table), seats.js
// the seat changes (seating a latecomer, leaving) and audit.js the History
// tab's audit, its alarm and the night receipt. royale.js is the Play and
// History tabs of a Battleship Royale table: the start of a game, the hand
// and its discards (or the cards typed from the box), the board with 48px
// cells that scrolls sideways on a narrow phone, the turn, and the result
// with every revealed fleet checked in the browser against its commitment.
// outbox.js keeps the writes not sent yet (waiting.js shows them), pwa.js
// registers the service worker (sw.js), insecure.js says when the page is
// not at a secure address, and awake.js holds the screen on and buzzes on a
// player's turn; address.js is where the app's links point. The crew
// screens (#c=ID) are crew.js (the crew's page, drawing its balances and
// settle-up with the Money tab's cards), crewstart.js, nights.js,
// nightform.js and crewstats.js (the figures and the dice fairness card);
// share.js shares a closed night as a picture and a text.
//
// Decisions where the task was silent:
//   - Serving: GET / is index.html and GET /app/... are the assets; nothing
//     else is served here.
//     Only files with a known content type are served (the vendored code's
//     README is not). The security headers (a Content-Security-Policy that
//     allows only this origin's own scripts and styles, nothing inline,
//     nosniff and the rest) are the server's, on every response
//     (api/headers.go): the app runs under them without a violation, which
//     the browser tests check.
//   - Caching: the asset names carry no content hash (there is no build
//     step), so every response is `Cache-Control: no-cache` with a strong
//     ETag made from the content: a phone revalidates each load with a tiny
//     304 and never runs an app.js older than the index.html it came with.
//     Assets are gzipped once at start-up for browsers that accept it,
//     because bar wifi is slow and the QR encoder is 50 KB.
//   - QR code: drawn in the browser by a vendored, unchanged copy of the
//     MIT-licensed qrcode-generator 2.0.4 (app/vendor), so there is no CDN and
//     no extra API route.
//   - Public address: the join, share and recovery links are built on the
//     address tallyd was given with --public-url, which the server writes
//     into index.html's tally-public-url meta tag (no inline script, no
//     extra request, and there offline too, from the cached shell);
//     without it, on the address the page was opened with (address.js).
//     The Invite tab also says it in words, for a phone with no camera.
//   - Plain http: a page at an address that is not a secure context (plain
//     http from another machine) registers no service worker and offers no
//     install, since the browser allows neither, and says so once on every
//     phone in plain words, until dismissed on that address (insecure.js).
//   - Join link: the host's QR link carries the names of the unclaimed seats
//     (#join=CODE&seat=Ann&seat=Bob), so a phone that scans it offers them at
//     once and claims one with a tap. A typed code asks the API for the open
//     seats (GET /v1/join/{code}) and offers them the same way; a typed name
//     claims a host-made seat of that name (any case) or takes a new one.
//   - Tokens: kept in localStorage under "tally.tables", one entry per table
//     with its role, so a reload or a phone back from sleep resumes.
//   - Entry pad: up to five dice may be entered whatever the throw needs (the
//     empty slots show how many it needs); the engine, not the pad, judges a
//     throw, and a wrong count comes back with its reason, highlighted die
//     and all, for the player to correct.
//   - Idempotency: a write's key is made once per intended action and kept
//     across retries (network failures, timeouts after 10 s, 502-504; a
//     retry of a request still in flight waits for it and replays its
//     answer); a refusal from the rules drops the key, since the
//     corrected entry is a new intention.
//   - Offline: the game actions (a round's throws, stands, claims and cups;
//     a Battleship Royale game's actions) go through the outbox: stored in
//     IndexedDB with their key before they are first sent, and sent one at
//     a time in the order made. One that gets no answer after two tries
//     (or is made while the phone knows it is offline, or behind one that
//     waits) waits on the phone, "N waiting to send" on every screen, and
//     the pad is free for the next throw; they go by themselves on the
//     online event, when the live stream reopens, and on a retry every 0.5
//     to 4 s, never on a tap. A refusal of a write that waited (409, 422:
//     another phone recorded first) drops it and the later writes of its
//     table, which assumed it, and says so with the server's words until
//     dismissed. Other writes (money, seats, starting) still need the
//     network, as their answers decide what comes next.
//   - Installable: a manifest with PNG icons (192 and 512, plain and
//     maskable, drawn once from icon.svg) and a service worker at
//     /app/sw.js whose scope is the whole site (Service-Worker-Allowed).
//     The server writes into sw.js, at start-up, a version (a hash of every
//     other file) and the list of those files: the worker caches them all
//     under that version and serves them cache-first, so the app opens with
//     no network and never mixes two versions; the API is never cached. A
//     new deployment is a new worker, found on the next visit or when the
//     phone wakes: it replaces the cache and the page reloads once (after
//     the field being typed in is left). Each table's last view is kept in
//     localStorage, so a table opened offline shows as it last was.
//   - Awake: the Screen Wake Lock is held while a round or a game is open
//     and asked for again when the page is visible again; a player's phone
//     (not the host's, which plays for everyone) buzzes once when its turn
//     comes, not for a turn already there when the table is opened.
//   - Live updates: the app refetches the table and the current round on
//     each "change", on a "sync" whose sequence number it has not seen (which
//     is what a reconnect sends first), when the phone wakes and when it comes
//     back online; it redraws only when what it fetched differs, so a button
//     is not replaced under a thumb for nothing.
//   - Redraws while typing: a redraw from the live stream leaves the tab
//     alone while one of its fields has the focus (only the header is
//     redrawn), so an amount or a name being typed is not wiped and the
//     keyboard stays open; the tab is redrawn once the field is left. The
//     Money and History tabs draw from what they fetched last and redraw
//     only when a new answer differs, so they neither flicker nor jump.
//   - Seats: they change only between rounds (the API refuses a leave
//     during a round, and any change during a game of rounds); the app greys
//     the buttons out and says why. The host seats a latecomer on the Invite
//     tab and may take anyone off; a player's phone may take only itself
//     off. Leaving asks for a confirmation first, since it cannot be undone;
//     a player who left keeps their balance for settling up and their phone
//     reads on, marked "(left)". The host may free a seat a phone has
//     claimed ("Free seat", after a confirmation): that phone is locked out
//     at once and the seat is open again, the remedy when someone joined as a
//     player the host plays for.
//   - Money: the host records buy-ins (cash handed to the host, who holds
//     the bank) and cash-outs on the Money tab, for any player, including one
//     who left. The balances say how much cash the bank holds. A write waits
//     for the balances to be read again before it says "Recorded", so a paid
//     debt is never offered for payment twice; a "Recorded" note is dropped
//     when the tab changes. A refused ante at a no-overdraft table tells the
//     host to record a buy-in first.
//   - Closing: only the host closes, from the Money tab (the Play tab links
//     there after a round), never during a round, and only after a second
//     tap on a confirmation that says what closing does (the pot goes back
//     to the last round's players; no more rounds, buy-ins or joins;
//     cash-outs and settle-up payments still allowed). A closed table shows
//     "Closed" in the header of every phone, the final balances and settle-up
//     on Money, a closed card instead of the start button on Play, no QR
//     code on Invite, cash-outs only, and "closed" on the home screen.
//   - A table the server no longer knows (404) or whose token it no longer
//     takes (401) can be removed from the phone's list.
//   - Crews: a crew's entry in "tally.tables" has kind "crew" and the
//     member's token (the phone that started it also keeps the crew's host
//     token and claims its own member's seat, so it is told what it owes
//     like every member). A crew's code is joined on the same join screen
//     and opens the crew's page. The page asks again every 15 seconds while
//     open, since a night made for the crew is not in the crew's stream. A
//     member taps "Join tonight" to claim their seat at an open night by
//     name; a closed night's Money tab sends its players to the crew to
//     settle up, and offers to share the night: a canvas picture drawn in
//     the browser and a text, through the share sheet (the picture when
//     files can be shared), "Copy text" or "Download picture".
//   - Witnessed heads: the phone keeps, per table in its localStorage entry,
//     the latest chain head it saw ("SEQ:HASH", the highest sequence number
//     wins; a later head of the same event does not replace the first) from
//     every answer carrying Tally-Head and every sync and change of the live
//     stream, and sends it with the audit (?witness=). An audit that is not
//     ok, or whose history no longer holds that head, puts a red alarm
//     (data-testid audit-alarm) at the top of the History tab, in plain
//     words. The audit is asked as often as before: once per settled round
//     or closing, with the head kept at that moment.
//   - Night receipt: any phone downloads it from the History tab with its
//     token (saved as a file under the server's name for it); while a throw
//     it may not see is under the cup, the server's reason is shown instead.
//   - Who may press what: the host's phone records for whoever's turn it is;
//     a player's phone only for its own turns and its own claims; the audit
//     token reads only. The advisor is shown only on the phone that records
//     the turn, and its cargo for a sealed re-roll comes from what the API
//     offers that phone to re-roll.
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
