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

// TestJoinCodesAsTyped: a new table's code is 14 characters, taken however
// a person types it (case, groups, spaces); a table made when codes had six
// characters still opens with its code; and a code that cannot be one says
// what a code looks like.
func TestJoinCodesAsTyped(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"name": "Friday", "players": []string{"Ann", "Bob", "Cy"}})
	code := s.tb.Code
	if len(code) != 14 || strings.Trim(code, "ABCDEFGHJKMNPQRSTUVWXYZ23456789") != "" {
		t.Fatalf("a new join code is %q", code)
	}
	grouped := strings.ToLower(code[:4] + "-" + code[4:8] + " " + code[8:12] + "." + code[12:])
	if r := s.c.do(t, req{method: http.MethodGet, path: "/v1/join/" + grouped}); r.status != http.StatusOK {
		t.Fatalf("look up %q: %d %s", grouped, r.status, r.body)
	}
	s.must(http.StatusCreated, req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": grouped, "name": "Ann"}}, nil)

	// As a table made before 14-character codes:
	tamper(t, s, []string{"UPDATE tables SET join_code = 'XK7Q2P' WHERE id = $1",
		"DELETE FROM join_codes WHERE table_id = $1", "INSERT INTO join_codes (code, table_id) VALUES ('XK7Q2P', $1)"})
	var joined struct{ Table struct{ JoinCode string } }
	s.must(http.StatusCreated, req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": "xk7-q2p", "name": "Bob"}}, &joined)
	if joined.Table.JoinCode != "XK7Q2P" {
		t.Fatalf("the old table shows the code %q", joined.Table.JoinCode)
	}
	s.refused(req{method: http.MethodGet, path: "/v1/join/" + code}, http.StatusNotFound, "/problems/not-found", code)
	s.refused(req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": "ABCD-EFGH", "name": "Cy"}},
		http.StatusNotFound, "/problems/not-found", "14 letters and digits", "ABCD-EFGH-JKMN-PQ")
}
