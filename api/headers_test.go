package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

// shellLineRE reads the app's files from the service worker, which lists
// every one of them but itself.
var shellLineRE = regexp.MustCompile(`(?m)^const SHELL = (\[.*\]);$`)

// TestEveryRouteSendsTheSecurityHeaders sends a request to every route of
// the router's table, with its parameters filled in for a real table and its
// host token, and to every file of the app (as the service worker lists
// them), to a path that is not routed and with a method that is not, and
// checks each answer for the security headers, whatever its status: the
// API's JSON, its problems, the live stream, the health and metrics
// endpoints, the app's page and files, 404s and 405s. A route added later is
// covered without a line of this test changing.
func TestEveryRouteSendsTheSecurityHeaders(t *testing.T) {
	t.Parallel()
	done := make(chan struct{})
	e := New(Config{Tables: table.New(dbtest.Pool(t), seal.Random(), nil), Done: done})
	c := newClient(t, e)
	t.Cleanup(func() { close(done) })
	tb := makeTable(t, c, map[string]any{"players": []string{"Ann", "Bob"}})

	type request struct{ method, path, token string }
	var requests []request
	for _, r := range e.Routes() {
		method := r.Method
		if method == echo.RouteNotFound {
			method = http.MethodGet
		}
		path := r.Path
		for _, p := range strings.Split(path, "/") {
			switch {
			case p == ":tableId":
				path = strings.Replace(path, p, fmt.Sprint(tb.ID), 1)
			case p == ":code":
				path = strings.Replace(path, p, tb.Code, 1)
			case p == ":playerId":
				path = strings.Replace(path, p, fmt.Sprint(tb.Players["Ann"]), 1)
			case strings.HasPrefix(p, ":"):
				path = strings.Replace(path, p, "1", 1)
			}
		}
		if strings.HasSuffix(path, "/*") {
			path = strings.TrimSuffix(path, "*") + "no-such-file"
		}
		requests = append(requests, request{method, path, tb.Host})
	}
	_, worker := sendForHeaders(t, c.base, tb.Host, http.MethodGet, "/app/sw.js")
	m := shellLineRE.FindSubmatch(worker)
	var shell []string
	if m == nil || json.Unmarshal(m[1], &shell) != nil || !slices.Contains(shell, "/app/app.js") {
		t.Fatalf("the service worker lists no files of the app:\n%s", worker)
	}
	for _, path := range append(shell, "/app/sw.js") {
		requests = append(requests, request{http.MethodGet, path, ""})
	}
	requests = append(requests, request{http.MethodGet, "/nowhere", ""}, request{http.MethodDelete, "/v1/presets", ""},
		request{http.MethodPost, "/", ""}, request{http.MethodGet, "/app/vendor/README.md", ""},
		request{http.MethodGet, tb.path(""), "not-a-token"})

	statuses := map[int]int{}
	for _, r := range requests {
		res, _ := sendForHeaders(t, c.base, r.token, r.method, r.path)
		statuses[res.StatusCode]++
		for _, problem := range securityHeaderProblems(res.Header) {
			t.Errorf("%s %s (%d): %s", r.method, r.path, res.StatusCode, problem)
		}
	}
	// The walk reached answers of every kind, not only refusals.
	for _, status := range []int{200, 201, 401, 404, 405, 422} {
		if statuses[status] == 0 {
			t.Errorf("no request was answered %d: %v", status, statuses)
		}
	}
	if len(requests) < 60 {
		t.Errorf("only %d requests: is the walk still reaching every route?", len(requests))
	}
}

// sendForHeaders sends a request with an empty JSON object as its body (for
// a write) and the token (if any), and returns the answer and up to 1 MB of its body.
// The live stream never ends, so its body is read only as far as its
// first event.
func sendForHeaders(t *testing.T, base, token, method, path string) (*http.Response, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var body io.Reader
	if method == http.MethodPost {
		body = strings.NewReader("{}")
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set(echo.HeaderAuthorization, "Bearer "+token)
	}
	if body != nil {
		req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
		req.Header.Set("Idempotency-Key", randomKey())
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	if strings.HasPrefix(res.Header.Get(echo.HeaderContentType), "text/event-stream") {
		return res, nil
	}
	out, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res, out
}

// securityHeaderProblems says what is wrong with a response's security
// headers, judged by what they allow rather than by their text: the app's
// own scripts and styles only, nothing inline, no frames, no referrer, no
// sniffing, and only the powerful features the app uses.
func securityHeaderProblems(h http.Header) []string {
	var problems []string
	csp := map[string]string{}
	for _, d := range strings.Split(h.Get("Content-Security-Policy"), ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		if name != "" {
			csp[name] = value
		}
	}
	for name, want := range map[string]string{
		"default-src": "'self'", "script-src": "'self'", "style-src": "'self'", "connect-src": "'self'",
		"worker-src": "'self'", "manifest-src": "'self'", "object-src": "'none'", "base-uri": "'none'",
		"frame-ancestors": "'none'",
	} {
		if csp[name] != want {
			problems = append(problems, fmt.Sprintf("Content-Security-Policy %s is %q, want %q", name, csp[name], want))
		}
	}
	for name, value := range csp {
		for _, source := range strings.Fields(value) {
			if strings.HasPrefix(source, "'unsafe-") || source == "*" || strings.HasSuffix(source, ":") && source != "data:" && source != "blob:" {
				problems = append(problems, fmt.Sprintf("Content-Security-Policy %s allows %s", name, source))
			}
		}
	}
	pp := map[string]string{}
	for _, f := range strings.Split(h.Get("Permissions-Policy"), ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(f), "=")
		pp[name] = value
	}
	for name, want := range map[string]string{
		"camera": "(self)", "screen-wake-lock": "(self)", "geolocation": "()", "microphone": "()", "payment": "()", "usb": "()",
	} {
		if pp[name] != want {
			problems = append(problems, fmt.Sprintf("Permissions-Policy %s is %q, want %q", name, pp[name], want))
		}
	}
	for name, value := range pp {
		if value != "()" && value != "(self)" {
			problems = append(problems, fmt.Sprintf("Permissions-Policy allows %s to %s", name, value))
		}
	}
	for name, want := range map[string]string{
		"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
	} {
		if got := h.Get(name); got != want {
			problems = append(problems, fmt.Sprintf("%s is %q, want %q", name, got, want))
		}
	}
	return problems
}
