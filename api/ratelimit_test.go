package api

import (
	"net/http"
	"testing"
)

// TestJoinCodeGuessingIsLimited: one address may look up or try join codes
// in a burst of 30, then is told to slow down with 429 and Retry-After;
// a forged X-Forwarded-For does not reset the count, and nothing else is
// limited.
func TestJoinCodeGuessingIsLimited(t *testing.T) {
	t.Parallel()
	c := newDBClient(t)
	tb := makeTable(t, c, map[string]any{"players": []string{"Ann", "Bob"}})
	limited := 0
	for i := range 40 {
		r := c.do(t, req{method: http.MethodGet, path: "/v1/join/NOPE" + string(rune('A'+i%26)) + "Z"})
		switch r.status {
		case http.StatusNotFound:
		case http.StatusTooManyRequests:
			limited++
			if r.header.Get("Retry-After") == "" || r.problem(t).Type != "/problems/too-many-requests" {
				t.Fatalf("429 without Retry-After or its problem type: %v %s", r.header, r.body)
			}
		default:
			t.Fatalf("guess %d: %d %s", i, r.status, r.body)
		}
	}
	if limited < 5 {
		t.Fatalf("40 quick guesses, only %d refused", limited)
	}
	// The joins share the limit, and a header cannot pose as another address.
	hr, _ := http.NewRequest(http.MethodGet, c.base+"/v1/join/"+tb.Code, nil)
	hr.Header.Set("X-Forwarded-For", "203.0.113.7")
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a forged X-Forwarded-For reset the limit: %d", res.StatusCode)
	}
	if r := c.do(t, req{method: http.MethodGet, path: tb.path(""), token: tb.Host}); r.status != http.StatusOK {
		t.Fatalf("the table itself is limited too: %d", r.status)
	}
}
