package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// The browser tests hold the app to the same contract as the API's own
// tests (api/spec_test.go): every request a phone sends under /v1/ and
// every answer it gets is checked against openapi.yaml, and a test fails at
// its end naming each exchange that broke it.

var (
	contractOnce   sync.Once
	contractRouter routers.Router
	contractErr    error
)

// The printable statement is an HTML page: its body is checked as text,
// as kin-openapi checks CSV.
func init() { openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.FileBodyDecoder) }

// contractRoutes parses openapi.yaml once per test binary.
func contractRoutes(t *testing.T) routers.Router {
	t.Helper()
	contractOnce.Do(func() {
		doc, err := openapi3.NewLoader().LoadFromFile("../../../openapi.yaml")
		if err == nil {
			err = doc.Validate(context.Background())
		}
		if err != nil {
			contractErr = err
			return
		}
		doc.Servers = nil // match paths on any host
		contractRouter, contractErr = legacy.NewRouter(doc)
	})
	if contractErr != nil {
		t.Fatalf("openapi.yaml: %v", contractErr)
	}
	return contractRouter
}

// contract collects the exchanges of one test that broke openapi.yaml.
type contract struct {
	router routers.Router
	mu     sync.Mutex
	broken []string
}

// newContract checks a test's traffic and fails the test at its end with
// every mismatch.
func newContract(t *testing.T) *contract {
	c := &contract{router: contractRoutes(t)}
	t.Cleanup(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, b := range c.broken {
			t.Errorf("the app's traffic breaks openapi.yaml: %s", b)
		}
	})
	return c
}

func (c *contract) breaks(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.broken = append(c.broken, fmt.Sprintf(format, args...))
}

// serve passes r to h, checking the request and, but for the live stream,
// the answer against openapi.yaml.
func (c *contract) serve(h http.Handler, w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, "/v1/") {
		h.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	what := r.Method + " " + r.URL.Path
	route, params, err := c.router.FindRoute(r)
	if err != nil {
		c.breaks("%s is not in openapi.yaml: %v", what, err)
		h.ServeHTTP(w, r)
		return
	}
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}
	check := r.Clone(context.Background())
	check.Body = io.NopCloser(bytes.NewReader(body))
	if len(body) == 0 {
		check.Body = http.NoBody // as a client sends a write with no body: not a JSON null
	}
	in := &openapi3filter.RequestValidationInput{Request: check, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		c.breaks("%s: the request: %v\n%s", what, err, body)
	}
	if strings.HasSuffix(r.URL.Path, "/stream") {
		h.ServeHTTP(w, r) // a stream never ends in the test: only its request is checked
		return
	}
	tw := &tee{ResponseWriter: w, status: http.StatusOK}
	h.ServeHTTP(tw, r)
	if r.Context().Err() != nil {
		return // the phone gave the request up: no answer reached it
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: tw.status, Header: w.Header(),
		Body: io.NopCloser(bytes.NewReader(tw.body.Bytes())), Options: &openapi3filter.Options{IncludeResponseStatus: true}}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		c.breaks("%s: the answer %d: %v\n%s", what, tw.status, err, tw.body.Bytes())
	}
}

// tee passes an answer on and keeps a copy of it.
type tee struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (t *tee) WriteHeader(status int) {
	t.status = status
	t.ResponseWriter.WriteHeader(status)
}

func (t *tee) Write(b []byte) (int, error) {
	t.body.Write(b)
	return t.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (t *tee) Unwrap() http.ResponseWriter { return t.ResponseWriter }
