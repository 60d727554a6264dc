package api

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestInvitationShowsOpenSeats(t *testing.T) {
	t.Parallel()
	c := newDBClient(t)
	tb := makeTable(t, c, map[string]any{"name": "Friday", "currency": "quarters", "players": []string{"Ann", "Bob", "Cy"}})
	r := c.do(t, req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": tb.Code, "name": "Bob"}})
	if r.status != http.StatusCreated {
		t.Fatalf("join: %d %s", r.status, r.body)
	}
	var inv struct {
		Table     string
		Currency  string
		OpenSeats []string
		Players   []struct {
			Name    string
			Claimed bool
		}
	}
	r = c.do(t, req{method: http.MethodGet, path: "/v1/join/" + strings.ToLower(tb.Code)})
	r.decode(t, &inv)
	if r.status != http.StatusOK || inv.Table != "Friday" || inv.Currency != "quarters" ||
		!slices.Equal(inv.OpenSeats, []string{"Ann", "Cy"}) || len(inv.Players) != 3 || !inv.Players[1].Claimed {
		t.Fatalf("invitation %d %+v", r.status, inv)
	}
	if r := c.do(t, req{method: http.MethodGet, path: "/v1/join/NOPE42"}); r.status != http.StatusNotFound {
		t.Fatalf("unknown code: %d %s", r.status, r.body)
	}
	// A closed table's code opens nothing.
	c.do(t, req{method: http.MethodPost, path: tb.path("/close"), token: tb.Host})
	if r := c.do(t, req{method: http.MethodGet, path: "/v1/join/" + tb.Code}); r.status != http.StatusNotFound {
		t.Fatalf("closed table's code: %d %s", r.status, r.body)
	}
}
