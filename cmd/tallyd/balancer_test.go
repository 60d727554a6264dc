package main

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
)

// balancer is a round-robin reverse proxy in front of several tallyd, as a
// load balancer with no stickiness: consecutive requests go to the next
// instance. hits counts the requests each instance got.
type balancer struct {
	url  string
	hits []atomic.Int64
}

func newBalancer(t *testing.T, backends ...string) *balancer {
	t.Helper()
	targets := make([]*url.URL, len(backends))
	for i, b := range backends {
		u, err := url.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		targets[i] = u
	}
	b := &balancer{hits: make([]atomic.Int64, len(backends))}
	var next atomic.Int64
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			i := int(next.Add(1)-1) % len(targets)
			b.hits[i].Add(1)
			r.SetURL(targets[i])
			r.SetXForwarded()
		},
		// Live streams go through at once.
		FlushInterval: -1,
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	b.url = srv.URL
	return b
}

// nightBehindBalancer plays a night through a balancer in front of A and
// B: every write is sent twice (a phone retrying on bar wifi), so the
// retry lands on the other instance and replays; two phones watch the
// table, one on each instance, and hear of every write; the night's books
// settle and its audit passes, with the last head a phone saw.
func nightBehindBalancer(t *testing.T, in *instances) {
	lb := newBalancer(t, in.a.base, in.b.base)
	p := newPhone(lb.url)
	m := p.makeTable(t, "night", "Ann", "Bob", "Cy")
	ann, bob, cy := m.player(t, "Ann"), m.player(t, "Bob"), m.player(t, "Cy")
	tokens := map[int64]string{ann: m.HostToken} // the host's phone plays for Ann
	for _, name := range []string{"Bob", "Cy"} {
		c := call{method: http.MethodPost, path: "/v1/join", key: newKey(), body: map[string]any{"code": m.JoinCode, "name": name}}
		var joined struct {
			Player      struct{ ID int64 } `json:"player"`
			PlayerToken string             `json:"playerToken"`
		}
		first := p.must(t, http.StatusCreated, c, &joined)
		sameAnswer(t, "joining as "+name, first, p.must(t, http.StatusCreated, c, nil))
		tokens[joined.Player.ID] = joined.PlayerToken
	}
	// Opened one after the other, the streams are on different instances.
	watchers := []*liveStream{p.watch(t, m, m.HostToken), p.watch(t, m, tokens[bob])}

	var last string // the latest head a phone saw
	write := func(c call, v any) {
		t.Helper()
		c.key = newKey()
		first := p.must(t, http.StatusCreated, c, v)
		sameAnswer(t, c.method+" "+c.path, first, p.must(t, http.StatusCreated, c, nil))
		for _, w := range watchers {
			w.reaches(t, first.head())
		}
		last = first.head()
	}

	// Three rounds: Bob's 11 beats Ann's 6 and Cy's 2 every time.
	dice := map[int64][]int{ann: {6, 5, 4, 3, 3}, bob: {6, 5, 4, 6, 5}, cy: {6, 5, 4, 1, 1}}
	for n := 1; n <= 3; n++ {
		var rd struct {
			Status string `json:"status"`
			Turn   int64  `json:"turn"`
		}
		write(call{method: http.MethodPost, path: m.path("/rounds"), token: m.HostToken}, &rd)
		for turns := 0; rd.Status == "playing"; turns++ {
			if turns == 3 {
				t.Fatalf("round %d still playing after every turn: %+v", n, rd)
			}
			write(call{method: http.MethodPost, path: m.path("/rounds/%d/turns", n), token: tokens[rd.Turn],
				body: map[string]any{"player": rd.Turn, "rolls": []any{map[string]any{"dice": dice[rd.Turn]}}}}, &rd)
		}
	}
	if got := p.balances(t, m); got["Ann"] != -3 || got["Bob"] != 6 || got["Cy"] != -3 {
		t.Fatalf("after three rounds: %v", got)
	}

	// Settling up, as the host's phone suggests.
	var plan struct {
		Payments []struct {
			From   struct{ PlayerID int64 } `json:"from"`
			To     struct{ PlayerID int64 } `json:"to"`
			Amount int64                    `json:"amount"`
		} `json:"payments"`
	}
	p.must(t, http.StatusOK, call{method: http.MethodGet, path: m.path("/settle-up"), token: m.HostToken}, &plan)
	if len(plan.Payments) != 2 {
		t.Fatalf("settle-up: %+v", plan)
	}
	for _, pay := range plan.Payments {
		write(call{method: http.MethodPost, path: m.path("/payments"), token: m.HostToken,
			body: map[string]any{"from": pay.From.PlayerID, "to": pay.To.PlayerID, "amount": pay.Amount}}, nil)
	}
	for name, balance := range p.balances(t, m) {
		if balance != 0 {
			t.Fatalf("after settling up %s is at %d", name, balance)
		}
	}
	p.auditOK(t, m, last)
	if lb.hits[0].Load() == 0 || lb.hits[1].Load() == 0 {
		t.Fatalf("the balancer sent %d requests to A and %d to B", lb.hits[0].Load(), lb.hits[1].Load())
	}
}
