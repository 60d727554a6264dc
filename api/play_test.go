package api

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// apiTable is a table made through the API, with its tokens.
type apiTable struct {
	ID      int64
	Host    string
	Audit   string
	Code    string
	Players map[string]int64
}

// makeTable creates a table and returns it with its players' ids by name.
func makeTable(t *testing.T, c *client, body map[string]any) apiTable {
	t.Helper()
	r := c.do(t, req{method: http.MethodPost, path: "/v1/tables", body: body})
	if r.status != http.StatusCreated {
		t.Fatalf("create table: %d %s", r.status, r.body)
	}
	var out struct {
		Table struct {
			ID      int64 `json:"id"`
			Players []struct {
				ID   int64  `json:"id"`
				Name string `json:"name"`
			} `json:"players"`
		} `json:"table"`
		HostToken, AuditToken, JoinCode string
	}
	r.decode(t, &out)
	tb := apiTable{ID: out.Table.ID, Host: out.HostToken, Audit: out.AuditToken, Code: out.JoinCode, Players: map[string]int64{}}
	for _, p := range out.Table.Players {
		tb.Players[p.Name] = p.ID
	}
	return tb
}

func (tb apiTable) path(format string, a ...any) string {
	return fmt.Sprintf("/v1/tables/%d", tb.ID) + fmt.Sprintf(format, a...)
}

// roundOut is the part of a round the tests read.
type roundOut struct {
	Number int    `json:"number"`
	Status string `json:"status"`
	Turn   int64  `json:"turn"`
	Pot    int64  `json:"pot"`
	Point  *int   `json:"point"`
	Result *struct {
		Kind    string  `json:"kind"`
		Winners []int64 `json:"winners"`
	} `json:"result"`
}

type balancesOut struct {
	Pot     int64 `json:"pot"`
	Players []struct {
		PlayerID int64 `json:"playerId"`
		Balance  int64 `json:"balance"`
	} `json:"players"`
}

func (b balancesOut) of(id int64) int64 {
	for _, p := range b.Players {
		if p.PlayerID == id {
			return p.Balance
		}
	}
	return -1 << 62
}

func TestBarRoundFromTableToSettleUp(t *testing.T) {
	t.Parallel()
	c := newDBClient(t)
	tb := makeTable(t, c, map[string]any{"name": "Friday", "preset": "bar", "currency": "quarters",
		"options": map[string]any{"ante": 2}, "players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := tb.Players["Ann"], tb.Players["Bob"], tb.Players["Cy"]

	// Bob joins from his phone and claims his seat.
	r := c.do(t, req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": strings.ToLower(tb.Code), "name": "bob"}})
	if r.status != http.StatusCreated {
		t.Fatalf("join: %d %s", r.status, r.body)
	}
	var joined struct {
		Player      struct{ ID int64 }
		PlayerToken string
	}
	r.decode(t, &joined)
	if joined.Player.ID != bob {
		t.Fatalf("joined as player %d, want Bob (%d)", joined.Player.ID, bob)
	}

	r = c.do(t, req{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Host, key: "start-1"})
	if r.status != http.StatusCreated {
		t.Fatalf("start round: %d %s", r.status, r.body)
	}
	var rd roundOut
	r.decode(t, &rd)
	if rd.Number != 1 || rd.Pot != 6 || rd.Turn != ann {
		t.Fatalf("round 1 = %+v, want pot 6 and Ann to throw", rd)
	}

	// Bob may not throw for Ann, nor out of turn.
	r = c.do(t, req{method: http.MethodPost, path: tb.path("/rounds/1/actions"), token: joined.PlayerToken,
		body: map[string]any{"kind": "roll", "dice": []int{6, 5, 4, 3, 3}}})
	if r.status != http.StatusConflict || r.problem(t).Type != "/problems/out-of-turn" {
		t.Fatalf("out of turn: %d %s", r.status, r.body)
	}
	r = c.do(t, req{method: http.MethodPost, path: tb.path("/rounds/1/actions"), token: joined.PlayerToken,
		body: map[string]any{"player": ann, "kind": "roll", "dice": []int{6, 5, 4, 3, 3}}})
	if r.status != http.StatusForbidden {
		t.Fatalf("throwing for another player: %d %s", r.status, r.body)
	}

	// Ann (recorded by the host) throws 6-5-4 with 3-3 and stands on 6.
	r = c.do(t, req{method: http.MethodPost, path: tb.path("/rounds/1/turns"), token: tb.Host, key: "ann-turn",
		body: map[string]any{"player": ann, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 3, 3}}}}})
	if r.status != http.StatusCreated {
		t.Fatalf("Ann's turn: %d %s", r.status, r.body)
	}
	// An impossible roll is refused with the engine's reason and changes nothing.
	r = c.do(t, req{method: http.MethodPost, path: tb.path("/rounds/1/actions"), token: joined.PlayerToken,
		body: map[string]any{"kind": "roll", "dice": []int{6, 5, 4, 3}}})
	if p := r.problem(t); r.status != 422 || p.Type != "/problems/invalid-roll" || p.Rule != "dice-count" || p.Roll != 1 {
		t.Fatalf("four dice: %d %+v", r.status, p)
	}
	// Bob throws for himself, roll by roll: 6-5 then 4 with 6-5.
	for i, dice := range [][]int{{6, 5, 1, 1, 2}, {4, 6, 5}} {
		r = c.do(t, req{method: http.MethodPost, path: tb.path("/rounds/1/actions"), token: joined.PlayerToken,
			key: fmt.Sprintf("bob-%d", i), body: map[string]any{"kind": "roll", "dice": dice}})
		if r.status != http.StatusCreated {
			t.Fatalf("Bob's roll %d: %d %s", i+1, r.status, r.body)
		}
	}
	// A retry of the same roll replays the answer and records nothing new.
	again := c.do(t, req{method: http.MethodPost, path: tb.path("/rounds/1/actions"), token: joined.PlayerToken,
		key: "bob-1", body: map[string]any{"kind": "roll", "dice": []int{4, 6, 5}}})
	if again.status != http.StatusCreated || again.header.Get("Idempotent-Replayed") != "true" || string(again.body) != string(r.body) {
		t.Fatalf("replay: %d %s", again.status, again.body)
	}
	// The same key with another body is refused.
	r = c.do(t, req{method: http.MethodPost, path: tb.path("/rounds/1/actions"), token: joined.PlayerToken,
		key: "bob-1", body: map[string]any{"kind": "stand"}})
	if r.status != 422 || r.problem(t).Type != "/problems/idempotency-mismatch" {
		t.Fatalf("key reuse: %d %s", r.status, r.body)
	}
	r = c.do(t, req{method: http.MethodPost, path: tb.path("/rounds/1/actions"), token: joined.PlayerToken,
		body: map[string]any{"kind": "stand"}})
	if r.status != http.StatusCreated {
		t.Fatalf("Bob stands: %d %s", r.status, r.body)
	}
	r.decode(t, &rd)
	if rd.Point == nil || *rd.Point != 11 || rd.Turn != cy {
		t.Fatalf("after Bob: %+v, want point 11 and Cy to throw", rd)
	}
	// Cy never puts to sea.
	r = c.do(t, req{method: http.MethodPost, path: tb.path("/rounds/1/turns"), token: tb.Host,
		body: map[string]any{"player": cy, "rolls": []any{
			map[string]any{"dice": []int{1, 2, 3, 3, 2}}, map[string]any{"dice": []int{1, 2, 3, 3, 2}}, map[string]any{"dice": []int{1, 2, 3, 3, 2}}}}})
	if r.status != http.StatusCreated {
		t.Fatalf("Cy's turn: %d %s", r.status, r.body)
	}
	r.decode(t, &rd)
	if rd.Status != "settled" || rd.Result == nil || rd.Result.Kind != "win" || len(rd.Result.Winners) != 1 || rd.Result.Winners[0] != bob {
		t.Fatalf("result %s", r.body)
	}

	r = c.do(t, req{method: http.MethodGet, path: tb.path("/balances"), token: tb.Audit})
	var bal balancesOut
	r.decode(t, &bal)
	if bal.Pot != 0 || bal.of(ann) != -2 || bal.of(bob) != 4 || bal.of(cy) != -2 {
		t.Fatalf("balances %s", r.body)
	}
	r = c.do(t, req{method: http.MethodGet, path: tb.path("/settle-up"), token: tb.Host})
	if r.status != http.StatusOK || !strings.Contains(string(r.body), "Ann pays Bob 2") || !strings.Contains(string(r.body), "Cy pays Bob 2") {
		t.Fatalf("settle-up %d %s", r.status, r.body)
	}
	for _, from := range []int64{ann, cy} {
		r = c.do(t, req{method: http.MethodPost, path: tb.path("/payments"), token: joined.PlayerToken,
			body: map[string]any{"from": from, "to": bob, "amount": 2}})
		if r.status != http.StatusCreated {
			t.Fatalf("payment: %d %s", r.status, r.body)
		}
	}
	r.decode(t, &bal)
	if bal.of(ann) != 0 || bal.of(bob) != 0 || bal.of(cy) != 0 {
		t.Fatalf("after settling: %s", r.body)
	}
	r = c.do(t, req{method: http.MethodGet, path: tb.path("/audit"), token: tb.Audit})
	if r.status != http.StatusOK || !strings.Contains(string(r.body), `"ok":true`) {
		t.Fatalf("audit %d %s", r.status, r.body)
	}
	for _, p := range []string{"", "/rounds", "/rounds/1", "/ledger", "/events?limit=3"} {
		if r = c.do(t, req{method: http.MethodGet, path: tb.path("%s", p), token: tb.Audit}); r.status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", p, r.status, r.body)
		}
	}
	r = c.do(t, req{method: http.MethodGet, path: tb.path("/ledger.csv"), token: tb.Audit})
	if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %s", r.status, r.body)
	}
	// The audit token reads but never writes.
	r = c.do(t, req{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Audit})
	if r.status != http.StatusForbidden {
		t.Fatalf("audit token wrote: %d %s", r.status, r.body)
	}
}

func TestTokens(t *testing.T) {
	t.Parallel()
	c := newDBClient(t)
	a := makeTable(t, c, map[string]any{"players": []string{"Ann", "Bob"}})
	b := makeTable(t, c, map[string]any{"players": []string{"Cy", "Di"}})
	cases := []struct {
		name, token string
		status      int
	}{
		{"missing", "", http.StatusUnauthorized},
		{"unknown", "tly_h_nope", http.StatusUnauthorized},
		{"garbage", "hello", http.StatusUnauthorized},
		{"other table", b.Host, http.StatusForbidden},
	}
	for _, tc := range cases {
		r := c.do(t, req{method: http.MethodGet, path: a.path(""), token: tc.token})
		if r.status != tc.status {
			t.Errorf("%s: %d, want %d: %s", tc.name, r.status, tc.status, r.body)
		}
	}
	if r := c.do(t, req{method: http.MethodGet, path: "/v1/tables/999999", token: a.Host}); r.status != http.StatusForbidden {
		t.Errorf("unknown table with a real token: %d", r.status)
	}
}

func TestConcurrentDuplicateRollsOnlyOneWins(t *testing.T) {
	t.Parallel()
	c := newDBClient(t)
	tb := makeTable(t, c, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	if r := c.do(t, req{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Host}); r.status != http.StatusCreated {
		t.Fatalf("start: %d %s", r.status, r.body)
	}
	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := c.do(t, req{method: http.MethodPost, path: tb.path("/rounds/1/actions"), token: tb.Host,
				body: map[string]any{"player": tb.Players["Ann"], "kind": "roll", "dice": []int{6, 5, 4, 1, 1}}})
			statuses[i] = r.status
		}()
	}
	wg.Wait()
	won := 0
	for _, s := range statuses {
		switch s {
		case http.StatusCreated:
			won++
		case http.StatusUnprocessableEntity, http.StatusConflict:
		default:
			t.Errorf("unexpected status %d", s)
		}
	}
	if won != 1 {
		t.Fatalf("%d of %d identical first rolls were recorded, want exactly 1 (%v)", won, n, statuses)
	}
}
