package api

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/labstack/echo/v4"
)

// specPath is the contract every test request and response is checked against.
const specPath = "../openapi.yaml"

var (
	specOnce   sync.Once
	specDoc    *openapi3.T
	specRouter routers.Router
	specErr    error
)

// The printable statement is an HTML page: its body is checked as text,
// as kin-openapi checks CSV.
func init() { openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.FileBodyDecoder) }

// loadSpec parses and validates openapi.yaml once per test binary.
func loadSpec(t testing.TB) (*openapi3.T, routers.Router) {
	t.Helper()
	specOnce.Do(func() {
		loader := openapi3.NewLoader()
		specDoc, specErr = loader.LoadFromFile(specPath)
		if specErr != nil {
			return
		}
		if specErr = specDoc.Validate(context.Background()); specErr != nil {
			return
		}
		specDoc.Servers = nil // match paths on any host
		specRouter, specErr = legacy.NewRouter(specDoc)
	})
	if specErr != nil {
		t.Fatalf("openapi.yaml: %v", specErr)
	}
	return specDoc, specRouter
}

// client sends requests to a test server and checks every request it marks
// valid, and every response, against openapi.yaml.
type client struct {
	base   string
	router routers.Router
}

// newClient serves h on a test server and returns a client for it.
func newClient(t testing.TB, h http.Handler) *client {
	t.Helper()
	_, router := loadSpec(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &client{base: srv.URL, router: router}
}

// req is one request for client.do.
type req struct {
	method, path string
	token        string
	body         any    // marshalled to JSON unless raw is set
	raw          []byte // sent as is
	contentType  string
	key          string // Idempotency-Key; anonymous writes get a fresh random one unless noKey
	noKey        bool
	forwardedFor string // X-Forwarded-For, as a proxy would send it
	invalid      bool   // the request breaks the contract on purpose: skip its validation
}

// resp is a response already read and checked against the contract.
type resp struct {
	status int
	header http.Header
	body   []byte
}

// do sends r and checks the exchange against the contract, failing t.
func (c *client) do(t testing.TB, r req) resp {
	t.Helper()
	var payload []byte
	switch {
	case r.raw != nil:
		payload = r.raw
	case r.body != nil:
		var err error
		if payload, err = json.Marshal(r.body); err != nil {
			t.Fatal(err)
		}
	}
	hr, err := http.NewRequest(r.method, c.base+r.path, bytes.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	if payload != nil {
		ct := r.contentType
		if ct == "" {
			ct = echo.MIMEApplicationJSON
		}
		hr.Header.Set(echo.HeaderContentType, ct)
	}
	if r.token != "" {
		hr.Header.Set(echo.HeaderAuthorization, "Bearer "+r.token)
	}
	if r.key == "" && !r.noKey && r.method == http.MethodPost && (r.path == "/v1/tables" || r.path == "/v1/crews" || r.path == "/v1/join" || r.path == "/v1/host-recovery") {
		r.key = randomKey()
	}
	if r.key != "" {
		hr.Header.Set("Idempotency-Key", r.key)
	}
	if r.forwardedFor != "" {
		hr.Header.Set("X-Forwarded-For", r.forwardedFor)
	}
	if route, params, err := c.router.FindRoute(hr); err == nil && !r.invalid {
		check := hr.Clone(context.Background())
		check.Body = io.NopCloser(bytes.NewReader(payload))
		in := openapi3filter.RequestValidationInput{Request: check, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
		if err := openapi3filter.ValidateRequest(context.Background(), &in); err != nil {
			t.Fatalf("%s %s: request breaks openapi.yaml: %v", r.method, r.path, err)
		}
	} else if err != nil && !r.invalid {
		t.Fatalf("%s %s is not in openapi.yaml: %v", r.method, r.path, err)
	}
	hres, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer hres.Body.Close()
	body, err := io.ReadAll(hres.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := resp{status: hres.StatusCode, header: hres.Header, body: body}
	c.checkAnswer(t, r, hr, out)
	return out
}

// checkAnswer checks the answer to hr (r as sent) against the contract:
// an error is a well-formed problem, and a route of openapi.yaml answers
// with a status and a body it lists.
func (c *client) checkAnswer(t testing.TB, r req, hr *http.Request, out resp) {
	t.Helper()
	if out.status >= 400 {
		checkProblem(t, r, out)
	}
	route, params, err := c.router.FindRoute(hr)
	if err != nil {
		return
	}
	rv := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: hr, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status:  out.status,
		Header:  out.header,
		Body:    io.NopCloser(bytes.NewReader(out.body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), rv); err != nil {
		t.Fatalf("%s %s: response %d breaks openapi.yaml: %v\n%s", r.method, r.path, out.status, err, out.body)
	}
}

// checkProblem asserts that an error response is a well-formed problem.
func checkProblem(t testing.TB, r req, out resp) {
	t.Helper()
	if ct := out.header.Get(echo.HeaderContentType); ct != problemMediaType {
		t.Fatalf("%s %s: error %d has content type %q, want %s", r.method, r.path, out.status, ct, problemMediaType)
	}
	var p Problem
	if err := json.Unmarshal(out.body, &p); err != nil {
		t.Fatalf("%s %s: error body is not a problem: %v", r.method, r.path, err)
	}
	if p.Status != out.status || !strings.HasPrefix(p.Type, "/problems/") || p.Detail == "" || p.Title == "" {
		t.Fatalf("%s %s: incomplete problem %+v for status %d", r.method, r.path, p, out.status)
	}
	if out.status >= 500 && out.status != http.StatusServiceUnavailable {
		t.Fatalf("%s %s: server error %d: %s", r.method, r.path, out.status, out.body)
	}
}

// problem decodes a problem response.
func (r resp) problem(t testing.TB) Problem {
	t.Helper()
	var p Problem
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatalf("not a problem: %s", r.body)
	}
	return p
}

// decode decodes a JSON response into v.
func (r resp) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %T: %v\n%s", v, err, r.body)
	}
}

// TestRoutesMatchSpec proves the route table and openapi.yaml list the same
// operations, so neither can grow an endpoint the other does not know.
func TestRoutesMatchSpec(t *testing.T) {
	doc, _ := loadSpec(t)
	e := New(Config{})
	served := map[string]bool{}
	for _, r := range e.Routes() {
		if r.Method == echo.RouteNotFound {
			continue
		}
		served[r.Method+" "+echoToSpecPath(r.Path)] = true
	}
	specified := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			specified[method+" "+path] = true
		}
	}
	for op := range specified {
		if !served[op] {
			t.Errorf("openapi.yaml has %s but the server does not route it", op)
		}
	}
	for op := range served {
		if !specified[op] && !strings.HasPrefix(op, "GET /app") && op != "GET /" {
			t.Errorf("the server routes %s but openapi.yaml does not describe it", op)
		}
	}
}

// echoToSpecPath turns /v1/tables/:tableId into /v1/tables/{tableId}.
func echoToSpecPath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if strings.HasPrefix(s, ":") {
			parts[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(parts, "/")
}

// randomKey is a fresh Idempotency-Key of 128 random bits.
func randomKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
