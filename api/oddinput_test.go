package api

import (
	"net/http"
	"strings"
	"testing"
)

// Odd inputs: each must be refused with a
// problem that names what was wrong, change nothing and never be a 500
// (client.do fails the test on any server error).

// TestOddTextRefused sends names, table names and currencies that
// PostgreSQL cannot store (a NUL character) or that break the contract's
// length limits. They reached the database and came back as a 500, or were
// stored although openapi.yaml promises at most 80 and 24 characters.
func TestOddTextRefused(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"players": []string{"Ann", "Bob"}})
	long := strings.Repeat("x", 81)
	cases := []struct {
		name   string
		r      req
		status int
		typ    string
		detail string
	}{
		{"NUL in a seated name", req{method: http.MethodPost, path: s.tb.path("/players"), token: s.tb.Host,
			body: map[string]any{"name": "Cy\u0000"}}, 422, "/problems/invalid-request", "name"},
		{"NUL in a joining name", req{method: http.MethodPost, path: "/v1/join",
			body: map[string]any{"code": s.tb.Code, "name": "D\u0000n"}}, 422, "/problems/invalid-request", "name"},
		{"control character in a name", req{method: http.MethodPost, path: s.tb.path("/players"), token: s.tb.Host,
			body: map[string]any{"name": "Cy\u001b[31m"}}, 422, "/problems/invalid-request", "name"},
		{"NUL in a join code", req{method: http.MethodPost, path: "/v1/join",
			body: map[string]any{"code": "AB\u0000", "name": "Dan"}}, 404, "/problems/not-found", "join code"},
		{"NUL in an invitation's code", req{method: http.MethodGet, path: "/v1/join/AB%00CD"}, 404, "/problems/not-found", "join code"},
		{"join code too long", req{method: http.MethodPost, path: "/v1/join", invalid: true,
			body: map[string]any{"code": strings.Repeat("A", 5000), "name": "Dan"}}, 404, "/problems/not-found", "join code"},
	}
	for _, tc := range cases {
		p := s.refused(tc.r, tc.status, tc.typ, tc.detail)
		if strings.ContainsRune(p.Detail, 0) || len(p.Detail) > 400 {
			t.Errorf("%s: the detail echoes the raw input: %q", tc.name, p.Detail)
		}
	}

	c := s.c
	tables := []struct {
		name   string
		body   map[string]any
		detail string
	}{
		{"NUL in a table name", map[string]any{"name": "Fri\u0000day"}, "name"},
		{"table name too long", map[string]any{"name": long}, "80"},
		{"NUL in a currency", map[string]any{"currency": "qu\u0000arters"}, "currency"},
		{"currency too long", map[string]any{"currency": strings.Repeat("c", 25)}, "24"},
		{"NUL in a first player's name", map[string]any{"players": []string{"A\u0000"}}, "name"},
	}
	for _, tc := range tables {
		out := c.do(t, req{method: http.MethodPost, path: "/v1/tables", body: tc.body, invalid: true})
		if out.status != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %s, want 422", tc.name, out.status, out.body)
			continue
		}
		if p := out.problem(t); !strings.Contains(p.Detail, tc.detail) {
			t.Errorf("%s: detail %q does not say %q", tc.name, p.Detail, tc.detail)
		}
	}
}

// TestOddIdempotencyKeys sends keys that are not valid UTF-8 (HTTP
// allows such header bytes; PostgreSQL's text does not): a clear 400, not
// a 500, and nothing happens.
func TestOddIdempotencyKeys(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"players": []string{"Ann", "Bob"}})
	for _, key := range []string{"\xff\xfe", "caf\xe9"} {
		s.refused(req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host, key: key, invalid: true,
			body: map[string]any{"player": s.id("Ann"), "amount": 5}}, http.StatusBadRequest, "/problems/malformed-request", "Idempotency-Key")
	}
	// A key in plain Unicode works and replays.
	r := req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host, key: "dépôt-✓",
		body: map[string]any{"player": s.id("Ann"), "amount": 5}}
	s.must(http.StatusCreated, r, nil)
	if out := s.must(http.StatusCreated, r, nil); out.header.Get("Idempotent-Replayed") != "true" {
		t.Fatal("a Unicode key did not replay")
	}
	s.expectMoney(0, map[string]int64{"Ann": 5})
}

// TestOddNumbersRefused sends ids and numbers at and past the edges
// of their types in paths, bodies and query strings: each must be a 4xx
// problem that names the field and changes nothing.
func TestOddNumbersRefused(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "options": map[string]any{"progressive": true},
		"players": []string{"Ann", "Bob"}})
	ann := s.id("Ann")
	huge := "9223372036854775807"
	past := "9223372036854775808"
	raw := func(method, path, body string) req {
		r := req{method: method, path: path, token: s.tb.Host, invalid: true}
		if body != "" {
			r.raw = []byte(body)
		}
		return r
	}
	cases := []req{
		raw(http.MethodGet, "/v1/tables/"+past, ""),
		raw(http.MethodGet, "/v1/tables/-1", ""),
		raw(http.MethodGet, s.tb.path("%s", "/rounds/"+past), ""),
		raw(http.MethodGet, s.tb.path("/rounds/0"), ""),
		raw(http.MethodGet, s.tb.path("%s", "/rounds/"+huge), ""),
		raw(http.MethodPost, s.tb.path("%s", "/players/"+past+"/leave"), ""),
		raw(http.MethodPost, s.tb.path("%s", "/players/"+huge+"/leave"), ""),
		raw(http.MethodGet, s.tb.path("%s", "/events?after="+past), ""),
		raw(http.MethodGet, s.tb.path("/events?after=-1"), ""),
		raw(http.MethodGet, s.tb.path("%s", "/events?limit="+past), ""),
		raw(http.MethodPost, s.tb.path("/deposits"), `{"player":`+huge+`,"amount":5}`),
		raw(http.MethodPost, s.tb.path("/deposits"), `{"player":`+past+`,"amount":5}`),
		raw(http.MethodPost, s.tb.path("/deposits"), `{"player":1,"amount":`+huge+`}`),
		raw(http.MethodPost, s.tb.path("/deposits"), `{"player":1,"amount":1e400}`),
		raw(http.MethodPost, s.tb.path("/deposits"), `{"player":1,"amount":1.5}`),
		raw(http.MethodPost, s.tb.path("/deposits"), `{"player":1,"amount":-5}`),
		raw(http.MethodPost, s.tb.path("/payments"), `{"from":0,"to":0,"amount":5}`),
		raw(http.MethodPost, s.tb.path("/payments"), `{"from":-1,"to":1,"amount":5}`),
		raw(http.MethodPost, s.tb.path("/payments"), `{"from":1,"to":`+huge+`,"amount":5}`),
		raw(http.MethodPost, s.tb.path("/rounds"), `{"declared":`+huge+`}`),
		raw(http.MethodPost, s.tb.path("/rounds"), `{"declared":-3}`),
		raw(http.MethodPost, s.tb.path("/rounds"), `{"rollOff":[{"player":`+huge+`,"dice":[1,2,3,4,5]}]}`),
		raw(http.MethodPost, "/v1/tables", `{"options":{"ante":`+past+`}}`),
		raw(http.MethodPost, "/v1/tables", `{"options":{"goal":{"kind":"points","target":`+huge+`}}}`),
		raw(http.MethodPost, "/v1/tables", `{"preset":"scarne","options":{"goal":{"kind":"rounds","target":`+huge+`}}}`),
		raw(http.MethodPost, "/v1/tables", `{"preset":"scarne","options":{"goal":{"kind":"points","target":-1}}}`),
		raw(http.MethodPost, "/v1/odds", `{"preset":"bar","rollsLeft":`+huge+`}`),
		raw(http.MethodPost, "/v1/odds", `{"preset":"bar","later":`+huge+`}`),
		raw(http.MethodPost, "/v1/odds", `{"preset":"bar","banked":[6,5,4],"cargo":[6,6],"rollsLeft":1,"point":`+huge+`}`),
		raw(http.MethodPost, "/v1/check-turn", `{"preset":"bar","rolls":[{"dice":[`+huge+`,1,1,1,1]}]}`),
		raw(http.MethodPost, "/v1/check-turn", `{"preset":"bar","rolls":[{"dice":[6,5,4,1,2],"rethrow":[`+huge+`]},{"dice":[1,1]}]}`),
	}
	for _, r := range cases {
		before := s.snapshot()
		out := s.c.do(t, r)
		if out.status < 400 || out.status >= 500 {
			t.Errorf("%s %s %s: %d %s, want a 4xx problem", r.method, r.path, r.raw, out.status, out.body)
			continue
		}
		s.unchanged(before, r.method+" "+r.path+" "+string(r.raw))
	}
	// The progressive round starts with a declared score the rules allow.
	rd := s.start(map[string]any{"declared": 9})
	if rd.Turn != ann {
		t.Fatalf("round 1 = %+v", rd)
	}
	// Ids that are not the round's players are refused in the round too.
	for _, body := range []string{`{"player":` + huge + `,"kind":"stand"}`, `{"player":-1,"kind":"stand"}`,
		`{"player":1,"kind":"roll","dice":[6,5,4,1,2],"rethrow":[` + past + `]}`} {
		before := s.snapshot()
		out := s.c.do(t, raw(http.MethodPost, s.tb.path("/rounds/1/actions"), body))
		if out.status < 400 || out.status >= 500 {
			t.Errorf("action %s: %d %s, want a 4xx problem", body, out.status, out.body)
		}
		s.unchanged(before, "action "+body)
	}
}

// TestBodiesOfBodylessWrites: close and leave take no body, and read
// whatever was sent without looking at it, so a clumsy client's
// {"force":true} or plain garbage closed the table. A body there must be
// empty or {}, like every other body with unknown fields.
func TestBodiesOfBodylessWrites(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"players": []string{"Ann", "Bob"}})
	for _, path := range []string{s.tb.path("/close"), s.tb.path("/players/%d/leave", s.id("Bob"))} {
		s.refused(req{method: http.MethodPost, path: path, token: s.tb.Host, raw: []byte(`{"force":true}`), invalid: true},
			http.StatusBadRequest, "/problems/malformed-request", "unknown field")
		s.refused(req{method: http.MethodPost, path: path, token: s.tb.Host, raw: []byte(`not json`), invalid: true},
			http.StatusBadRequest, "/problems/malformed-request", "JSON")
	}
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/players/%d/leave", s.id("Bob")), token: s.tb.Host,
		raw: []byte(`{}`), invalid: true}, nil)
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/close"), token: s.tb.Host}, nil)
}
