package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

func TestHealthReadinessAndMetrics(t *testing.T) {
	t.Parallel()
	c := newDBClient(t)
	for _, path := range []string{"/healthz", "/readyz"} {
		if r := c.do(t, req{method: http.MethodGet, path: path}); r.status != http.StatusOK {
			t.Fatalf("%s: %d %s", path, r.status, r.body)
		}
	}
	c.do(t, req{method: http.MethodGet, path: "/v1/presets"})
	r := c.do(t, req{method: http.MethodGet, path: "/metrics"})
	body := string(r.body)
	if r.status != http.StatusOK || !strings.Contains(body, `tally_http_requests_total{method="GET",route="/v1/presets",status="200"} 1`) ||
		!strings.Contains(body, "tally_http_request_duration_seconds_bucket") || !strings.Contains(body, "go_goroutines") {
		t.Fatalf("metrics: %d\n%s", r.status, body)
	}
}

func TestReadyzWithoutADatabase(t *testing.T) {
	t.Parallel()
	pool := newClosedPool(t)
	c := newClient(t, New(Config{Tables: table.New(pool, seal.Random(), nil)}))
	r := c.do(t, req{method: http.MethodGet, path: "/readyz"})
	if r.status != http.StatusServiceUnavailable || r.problem(t).Type != "/problems/unavailable" {
		t.Fatalf("readyz with the database gone: %d %s", r.status, r.body)
	}
}

// TestRequestsWithoutADatabaseAre503: an outage of the database is the
// service being unavailable, not an internal error, for reads and writes.
func TestRequestsWithoutADatabaseAre503(t *testing.T) {
	t.Parallel()
	c := newClient(t, New(Config{Tables: table.New(newClosedPool(t), seal.Random(), nil)}))
	for _, r := range []req{
		{method: http.MethodGet, path: "/v1/tables/1", token: "tly_h_1.abc"},
		{method: http.MethodPost, path: "/v1/tables/1/rounds", token: "tly_h_1.abc"},
		{method: http.MethodPost, path: "/v1/tables", body: map[string]any{"players": []string{"Ann", "Bob"}}},
	} {
		out := c.do(t, r)
		if out.status != http.StatusServiceUnavailable || out.problem(t).Type != "/problems/unavailable" {
			t.Errorf("%s %s with the database gone: %d %s", r.method, r.path, out.status, out.body)
		}
	}
}
