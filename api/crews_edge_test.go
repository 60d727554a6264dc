package api

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// Crews under stress: an independent review's scenarios, kept as tests.
// Money reaches the crew only by its own rules, every night rolls once,
// retries and races change nothing twice, odd input is refused in words,
// and the figures count only what every phone has seen.

// crewPath is a path under the crew.
func (cs *crewScene) crewPath(format string, a ...any) string {
	return fmt.Sprintf("/v1/crews/%d", cs.tb.ID) + fmt.Sprintf(format, a...)
}

// A crew member's token may record only payments they received (Pay: "so
// nobody can wipe out their own debt by saying they paid"). Any member may
// make a night seating the member they owe and is that night's host: were
// money other than the game's taken at a night, the host could record a
// payment there that the roll-over would carry to the crew.
func TestCrewMemberWipesOwnCrewDebtThroughANight(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	// Night 1, the crew host's: Ann wins 2 from Bob.
	n1 := cs.night(cs.tb.Host, "Ann", "Bob")
	n1.start(nil)
	n1.turn(1, "Ann", []int{6, 5, 4, 6, 6})
	n1.turn(1, "Bob", []int{6, 5, 4, 1, 2})
	n1.must(http.StatusOK, req{method: http.MethodPost, path: n1.tb.path("/close"), token: n1.tb.Host}, nil)
	cs.expectMoney(0, map[string]int64{"Ann": 2, "Bob": -2})

	// At the crew Bob cannot say he paid Ann.
	cs.refused(req{method: http.MethodPost, path: cs.tb.path("/payments"), token: cs.tokens["Bob"],
		body: map[string]any{"from": cs.id("Bob"), "to": cs.id("Ann"), "amount": 2}}, http.StatusForbidden, "/problems/forbidden")

	// Bob's phone makes a night seating Ann and himself, says there that he
	// paid her (he is that night's host), and closes it.
	n2 := cs.night(cs.tokens["Bob"], "Ann", "Bob")
	for _, r := range []req{
		{method: http.MethodPost, path: n2.tb.path("/payments"), token: n2.tb.Host,
			body: map[string]any{"from": n2.id("Bob"), "to": n2.id("Ann"), "amount": 1000}},
		{method: http.MethodPost, path: n2.tb.path("/deposits"), token: n2.tb.Host,
			body: map[string]any{"player": n2.id("Bob"), "amount": 1000}},
		{method: http.MethodPost, path: n2.tb.path("/withdrawals"), token: n2.tb.Host,
			body: map[string]any{"player": n2.id("Ann"), "amount": 1000}},
	} {
		n2.refused(r, http.StatusForbidden, "/problems/forbidden", "only the game moves money")
	}
	n2.must(http.StatusOK, req{method: http.MethodPost, path: n2.tb.path("/close"), token: n2.tb.Host}, nil)

	// Ann never confirmed anything, yet at the crew she now owes Bob 998.
	b := cs.balances()
	for _, p := range b.Players {
		if p.Name == "Ann" && p.Balance != 2 {
			t.Errorf("Ann's crew balance is %d after Bob's night; want 2 (nobody but Ann or the crew's host may record that Bob paid her)", p.Balance)
		}
	}
}

// A night where nobody won or lost rolls nothing; the crew's page then says
// forever that it has not rolled, which is the page's cue to offer RollNight
// (tables.go Close), and RollNight answers 201 and still leaves it so.
func TestCrewZeroNightNeverShowsRolled(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	n := cs.night(cs.tb.Host, "Ann", "Bob")
	n.must(http.StatusOK, req{method: http.MethodPost, path: n.tb.path("/close"), token: n.tb.Host}, nil)
	cs.must(http.StatusCreated, req{method: http.MethodPost, path: cs.crewPath("/nights/%d/roll", n.tb.ID), token: cs.tb.Host}, nil)
	v := cs.view(cs.tb.Host)
	if len(v.Nights) != 1 || v.Nights[0].Status != "closed" || !v.Nights[0].Rolled {
		t.Errorf("a closed night with nothing to roll, after closing and RollNight: %+v (want rolled: nothing of it is left to roll)", v.Nights)
	}
}

// Nights closing at the same moment each roll into the crew.
func TestCrewNightsClosingTogetherAllRoll(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	const k = 8
	nights := make([]*scene, k)
	for i := range nights {
		n := cs.night(cs.tb.Host, "Ann", "Bob")
		n.start(nil)
		n.turn(1, "Ann", []int{6, 5, 4, 6, 6})
		n.turn(1, "Bob", []int{6, 5, 4, 1, 2})
		nights[i] = n
	}
	var wg sync.WaitGroup
	status := make([]int, k)
	for i, n := range nights {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hr, _ := http.NewRequest(http.MethodPost, cs.c.base+n.tb.path("/close"), nil)
			hr.Header.Set("Authorization", "Bearer "+n.tb.Host)
			res, err := http.DefaultClient.Do(hr)
			if err == nil {
				status[i] = res.StatusCode
				res.Body.Close()
			}
		}()
	}
	wg.Wait()
	v := cs.view(cs.tb.Host)
	rolled := 0
	for _, n := range v.Nights {
		if n.Rolled {
			rolled++
		}
	}
	t.Logf("close statuses %v, %d of %d rolled", status, rolled, k)
	if rolled != k {
		t.Errorf("%d of %d nights closed together rolled", rolled, k)
	}
	cs.expectMoney(0, map[string]int64{"Ann": 2 * int64(rolled), "Bob": -2 * int64(rolled)})
}

// A night whose roll-over the crew's books refuse (here: Ann's balance at
// the crew is at ledger.MaxBalance, from buy-ins at the crew, and the
// night's win would take it beyond) closes all the same. RollNight says
// why, the crew's page says the night has not rolled, and the crew's audit
// reports it until it has.
func TestCrewRefusedRollOverIsReported(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	const maxAmount = 1_000_000_000_000_000
	for range 100 {
		cs.must(http.StatusCreated, req{method: http.MethodPost, path: cs.tb.path("/deposits"), token: cs.tb.Host,
			body: map[string]any{"player": cs.id("Ann"), "amount": maxAmount}}, nil)
	}
	n := cs.night(cs.tb.Host, "Ann", "Bob")
	n.start(nil)
	n.turn(1, "Ann", []int{6, 5, 4, 6, 6})
	n.turn(1, "Bob", []int{6, 5, 4, 1, 2})
	n.must(http.StatusOK, req{method: http.MethodPost, path: n.tb.path("/close"), token: n.tb.Host}, nil)
	if v := cs.view(cs.tb.Host); len(v.Nights) != 1 || v.Nights[0].Rolled {
		t.Fatalf("the crew's nights after a refused roll-over: %+v", v.Nights)
	}
	cs.refused(req{method: http.MethodPost, path: cs.crewPath("/nights/%d/roll", n.tb.ID), token: cs.tb.Host},
		http.StatusUnprocessableEntity, "/problems/invalid-request", "beyond the limit")
	if rep := cs.audit(); rep.OK || !reportSays(rep, "have not rolled into the crew") {
		t.Fatalf("the crew's audit with a night that did not roll: %+v", rep)
	}
}

// Odd input never gets a 500.
func TestCrewOddCrewInput(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	other := cs.sibling("Cy")
	plain := cs.c.do(t, req{method: http.MethodPost, path: "/v1/tables", body: map[string]any{"players": []string{"X", "Y"}}})
	var pt struct {
		Table struct{ ID int64 } `json:"table"`
	}
	plain.decode(t, &pt)
	on := other.night(other.tb.Host, "Cy")
	own := cs.night(cs.tb.Host, "Ann")
	own.must(http.StatusOK, req{method: http.MethodPost, path: own.tb.path("/close"), token: own.tb.Host}, nil)
	_ = on
	bodies := []any{
		map[string]any{"members": []any{0}},
		map[string]any{"members": []any{-1}},
		map[string]any{"members": []any{int64(9223372036854775807)}},
		map[string]any{"members": []any{cs.id("Ann"), cs.id("Ann")}},
		map[string]any{"members": nil},
		map[string]any{"members": []any{"1"}},
		map[string]any{"members": []any{1.5}},
		map[string]any{"members": []any{other.id("Cy")}},
		map[string]any{"members": []any{cs.id("Ann")}, "game": "royale"},
		map[string]any{"members": []any{cs.id("Ann")}, "preset": "nope"},
		map[string]any{"members": []any{cs.id("Ann")}, "crew": 5},
		map[string]any{"members": []any{cs.id("Ann")}, "kind": "crew"},
		"[]",
	}
	for _, b := range bodies {
		r := cs.c.do(t, req{method: http.MethodPost, path: cs.crewPath("/nights"), token: cs.tb.Host, body: b, invalid: true})
		t.Logf("night %v: %d %s", b, r.status, r.body)
		if r.status >= 500 {
			t.Errorf("night %v: %d", b, r.status)
		}
	}
	for _, id := range []string{"0", "-1", "abc", "99999999999999999999", "9223372036854775807", fmt.Sprint(on.tb.ID),
		fmt.Sprint(cs.tb.ID), fmt.Sprint(pt.Table.ID), fmt.Sprint(own.tb.ID)} {
		r := cs.c.do(t, req{method: http.MethodPost, path: cs.crewPath("/nights/%s/roll", id), token: cs.tb.Host, invalid: true})
		t.Logf("roll %s: %d %s", id, r.status, r.body)
		if r.status >= 500 {
			t.Errorf("roll %s: %d", id, r.status)
		}
	}
	for _, p := range []string{"/v1/crews/abc", "/v1/crews/0", "/v1/crews/99999999999999999999", fmt.Sprintf("/v1/crews/%d/stats", pt.Table.ID)} {
		r := cs.c.do(t, req{method: http.MethodGet, path: p, token: cs.tb.Host, invalid: true})
		t.Logf("GET %s: %d %s", p, r.status, r.body)
		if r.status >= 500 {
			t.Errorf("GET %s: %d", p, r.status)
		}
	}
	for _, b := range []any{
		map[string]any{"members": []string{"Ann", "ann"}},
		map[string]any{"members": []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q"}},
		map[string]any{"members": []string{""}},
		map[string]any{"preset": "bar"},
		map[string]any{"name": "\x00"},
	} {
		r := cs.c.do(t, req{method: http.MethodPost, path: "/v1/crews", body: b, invalid: true})
		t.Logf("crew %v: %d %s", b, r.status, r.body)
		if r.status >= 500 {
			t.Errorf("crew %v: %d", b, r.status)
		}
	}
}

// sibling makes another crew on cs's server; its members join.
func (cs *crewScene) sibling(members ...string) *crewScene {
	t := cs.t
	r := cs.c.do(t, req{method: http.MethodPost, path: "/v1/crews", body: map[string]any{"members": members}})
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
	o := &crewScene{scene: &scene{t: t, c: cs.c, pool: cs.pool, tb: tb}, tokens: map[string]string{}}
	for _, m := range members {
		o.tokens[m] = o.join(m)
	}
	return o
}

func TestCrewCrossCrew(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	other := cs.sibling("Cy", "Dee")
	on := other.night(other.tb.Host, "Cy", "Dee")
	on.start(nil)
	on.turn(1, "Cy", []int{6, 5, 4, 6, 6})
	on.turn(1, "Dee", []int{6, 5, 4, 1, 2})
	on.must(http.StatusOK, req{method: http.MethodPost, path: on.tb.path("/close"), token: on.tb.Host}, nil)
	before := cs.snapshot()
	for _, b := range []map[string]any{{"members": []any{other.id("Cy")}}, {"members": []any{cs.id("Ann"), other.id("Cy")}}} {
		r := cs.c.do(t, req{method: http.MethodPost, path: cs.crewPath("/nights"), token: cs.tb.Host, body: b})
		t.Logf("night %v: %d %s", b, r.status, r.body)
		if r.status != http.StatusNotFound {
			t.Errorf("a night of another crew's member: %d", r.status)
		}
	}
	r := cs.c.do(t, req{method: http.MethodPost, path: cs.crewPath("/nights/%d/roll", on.tb.ID), token: cs.tb.Host})
	t.Logf("roll the other crew's night: %d %s", r.status, r.body)
	if r.status != http.StatusNotFound {
		t.Errorf("rolling another crew's night: %d", r.status)
	}
	cs.unchanged(before, "cross-crew")
	for _, tok := range []string{other.tb.Host, other.tokens["Cy"], on.tb.Host} {
		for _, p := range []string{"", "/stats"} {
			r := cs.c.do(t, req{method: http.MethodGet, path: cs.crewPath("%s", p), token: tok})
			if r.status != http.StatusForbidden && r.status != http.StatusUnauthorized {
				t.Errorf("GET crew%s with a foreign token: %d %s", p, r.status, r.body)
			}
		}
	}
	other.expectMoney(0, map[string]int64{"Cy": 2, "Dee": -2})
	other.auditOK()
	cs.auditOK()
}

// The figures count settled rounds only, and each die once: a throw taken
// back and a reversed round are not counted.
func TestCrewStatsLeaveOutTakenBackAndReversed(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	n := cs.night(cs.tb.Host, "Ann", "Bob")
	n.start(nil)
	n.turn(1, "Ann", []int{6, 5, 4, 6, 6})
	n.turn(1, "Bob", []int{6, 5, 4, 1, 2})
	n.start(nil)
	n.act(n.tb.Host, 2, as(n.id("Bob"), roll(6, 5, 4, 3, 3)))
	n.must(http.StatusCreated, req{method: http.MethodPost, path: n.tb.path("/rounds/2/take-back"), token: n.tb.Host}, nil)
	n.turn(2, "Bob", []int{6, 5, 4, 2, 2})
	n.turn(2, "Ann", []int{6, 5, 4, 6, 6})
	n.start(nil)
	n.turn(3, "Ann", []int{6, 5, 4, 3, 3})
	n.turn(3, "Bob", []int{6, 5, 4, 3, 1})
	n.must(http.StatusCreated, req{method: http.MethodPost, path: n.tb.path("/rounds/3/reverse"), token: n.tb.Host}, nil)
	n.must(http.StatusOK, req{method: http.MethodPost, path: n.tb.path("/close"), token: n.tb.Host}, nil)
	var st struct {
		Rounds int `json:"rounds"`
		Dice   struct {
			Table struct {
				Throws int    `json:"throws"`
				Faces  [6]int `json:"faces"`
			} `json:"table"`
		} `json:"dice"`
		Members []struct {
			Name string `json:"name"`
			Wins int    `json:"wins"`
			Net  int64  `json:"net"`
		} `json:"members"`
	}
	cs.must(http.StatusOK, req{method: http.MethodGet, path: cs.crewPath("/stats"), token: cs.tokens["Ann"]}, &st)
	t.Logf("%+v", st)
	if st.Rounds != 2 || st.Dice.Table.Throws != 20 || st.Dice.Table.Faces != [6]int{1, 3, 0, 4, 4, 8} {
		t.Errorf("stats: %+v", st)
	}
	n.auditOK()
	cs.auditOK()
}
