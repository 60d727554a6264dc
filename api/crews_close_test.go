package api

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// A crew closed while one of its nights is open; the night closes after.
func TestCrewCrewClosedWithANightOpen(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	n := cs.night(cs.tb.Host, "Ann", "Bob")
	n.start(nil)
	n.turn(1, "Ann", []int{6, 5, 4, 6, 6})
	n.turn(1, "Bob", []int{6, 5, 4, 1, 2})
	r := cs.c.do(t, req{method: http.MethodPost, path: cs.tb.path("/close"), token: cs.tb.Host})
	t.Logf("close the crew with a night open: %d %s", r.status, r.body)
	n.must(http.StatusOK, req{method: http.MethodPost, path: n.tb.path("/close"), token: n.tb.Host}, nil)
	v := cs.view(cs.tb.Host)
	t.Logf("crew after: %+v", v)
	cs.auditOK()
}

// A member leaves the crew while a night seating them is open.
func TestCrewMemberLeavesCrewDuringNight(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	n := cs.night(cs.tb.Host, "Ann", "Bob")
	n.start(nil)
	n.turn(1, "Ann", []int{6, 5, 4, 6, 6})
	n.turn(1, "Bob", []int{6, 5, 4, 1, 2})
	r := cs.c.do(t, req{method: http.MethodPost, path: cs.tb.path("/players/%d/leave", cs.id("Bob")), token: cs.tokens["Bob"]})
	t.Logf("Bob leaves the crew: %d %s", r.status, r.body)
	n.must(http.StatusOK, req{method: http.MethodPost, path: n.tb.path("/close"), token: n.tb.Host}, nil)
	cs.expectMoney(0, map[string]int64{"Ann": 2, "Bob": -2})
	r = cs.c.do(t, req{method: http.MethodGet, path: cs.crewPath("/stats"), token: cs.tokens["Bob"]})
	t.Logf("stats with Bob's token after he left: %d", r.status)
	cs.auditOK()
}

// Retries of CreateNight and RollNight with their Idempotency-Key.
func TestCrewCrewRetries(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	body := map[string]any{"preset": "classic", "members": []int64{cs.id("Ann"), cs.id("Bob")}}
	a := cs.must(http.StatusCreated, req{method: http.MethodPost, path: cs.crewPath("/nights"), token: cs.tokens["Ann"], body: body, key: "night-1"}, nil)
	b := cs.must(http.StatusCreated, req{method: http.MethodPost, path: cs.crewPath("/nights"), token: cs.tokens["Ann"], body: body, key: "night-1"}, nil)
	if string(a.body) != string(b.body) || len(cs.view(cs.tb.Host).Nights) != 1 {
		t.Fatalf("a retried night: %s / %s", a.body, b.body)
	}
	// The same key and body from another member's phone: a key is the
	// sender's (Key: "scopes a key to whoever sent it"), so this is a new
	// request of Bob's, or refused; it must not hand Bob Ann's night.
	c := cs.c.do(t, req{method: http.MethodPost, path: cs.crewPath("/nights"), token: cs.tokens["Bob"], body: body, key: "night-1"})
	t.Logf("Bob with Ann's key: %d replayed=%q", c.status, c.header.Get("Idempotency-Replayed"))
	if string(c.body) == string(a.body) {
		t.Errorf("Bob's request with the key Ann used was answered with Ann's stored answer (her night's host token)")
	}
	var n struct {
		Table     struct{ ID int64 } `json:"table"`
		HostToken string
	}
	a.decode(t, &n)
	cs.c.do(t, req{method: http.MethodPost, path: fmt.Sprintf("/v1/tables/%d/close", n.Table.ID), token: n.HostToken})
	r1 := cs.c.do(t, req{method: http.MethodPost, path: cs.crewPath("/nights/%d/roll", n.Table.ID), token: cs.tb.Host, key: "roll-1"})
	r2 := cs.c.do(t, req{method: http.MethodPost, path: cs.crewPath("/nights/%d/roll", n.Table.ID), token: cs.tb.Host, key: "roll-1"})
	if r1.status != http.StatusCreated || string(r1.body) != string(r2.body) {
		t.Errorf("a retried roll: %d %s / %d %s", r1.status, r1.body, r2.status, r2.body)
	}
	cs.auditOK()
}

// Closing a night and rolling it at the same moment rolls it once.
func TestCrewCloseAndRollTogether(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	const k = 6
	nights := make([]*scene, k)
	for i := range nights {
		n := cs.night(cs.tb.Host, "Ann", "Bob")
		n.start(nil)
		n.turn(1, "Ann", []int{6, 5, 4, 6, 6})
		n.turn(1, "Bob", []int{6, 5, 4, 1, 2})
		nights[i] = n
	}
	post := func(path, tok string) {
		hr, _ := http.NewRequest(http.MethodPost, cs.c.base+path, nil)
		hr.Header.Set("Authorization", "Bearer "+tok)
		if res, err := http.DefaultClient.Do(hr); err == nil {
			res.Body.Close()
		}
	}
	var wg sync.WaitGroup
	for _, n := range nights {
		for j := 0; j < 3; j++ {
			wg.Add(2)
			go func() { defer wg.Done(); post(n.tb.path("/close"), n.tb.Host) }()
			go func() { defer wg.Done(); post(cs.crewPath("/nights/%d/roll", n.tb.ID), cs.tokens["Ann"]) }()
		}
	}
	wg.Wait()
	for _, n := range nights {
		post(cs.crewPath("/nights/%d/roll", n.tb.ID), cs.tokens["Ann"])
	}
	cs.expectMoney(0, map[string]int64{"Ann": 2 * k, "Bob": -2 * k})
	cs.auditOK()
}

func (cs *crewScene) nightWith(token string, body map[string]any, members ...string) *scene {
	cs.t.Helper()
	ids := make([]int64, len(members))
	for i, m := range members {
		ids[i] = cs.id(m)
	}
	body["members"] = ids
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
	cs.must(http.StatusCreated, req{method: http.MethodPost, path: cs.crewPath("/nights"), token: token, body: body}, &out)
	n := &scene{t: cs.t, c: cs.c, pool: cs.pool, tb: apiTable{ID: out.Table.ID, Host: out.HostToken, Audit: out.AuditToken,
		Code: out.JoinCode, Players: map[string]int64{}}}
	for _, p := range out.Table.Players {
		n.tb.Players[p.Name] = p.ID
	}
	return n
}

func TestCrewOtherGamesNights(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	// Battleship Royale.
	ro := cs.nightWith(cs.tb.Host, map[string]any{"game": "royale"}, "Ann", "Bob")
	r := cs.c.do(t, req{method: http.MethodPost, path: ro.tb.path("/close"), token: ro.tb.Host})
	t.Logf("royale close: %d %.300s", r.status, r.body)
	// Low, progressive.
	lo := cs.nightWith(cs.tb.Host, map[string]any{"preset": "classic", "options": map[string]any{"low": true}}, "Ann", "Bob")
	lo.start(nil)
	lo.turn(1, "Ann", []int{6, 5, 4, 1, 1})
	lo.turn(1, "Bob", []int{6, 5, 4, 6, 6})
	lo.must(http.StatusOK, req{method: http.MethodPost, path: lo.tb.path("/close"), token: lo.tb.Host}, nil)
	r = cs.c.do(t, req{method: http.MethodGet, path: cs.crewPath("/stats"), token: cs.tb.Audit})
	t.Logf("stats: %d %.3000s", r.status, r.body)
	if r.status != http.StatusOK {
		t.Errorf("stats: %d", r.status)
	}
	t.Logf("crew: %+v", cs.view(cs.tb.Host))
	cs.auditOK()
}

// While a night is being played its pot holds the antes; the crew's audit
// reads every night's books as if it had closed (au.crew → nightEntry) and
// fails the crew over the open night's pot.
func TestCrewCrewAuditFailsWhileANightHasAPot(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	n := cs.night(cs.tb.Host, "Ann", "Bob")
	n.start(nil) // the antes go into the night's pot
	n.auditOK()
	cs.auditOK()
}
