package api

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

// These tests play a crew's nights through the API: a crew is made, its
// members join with its code, nights are made for it by its host and by a
// member, and each night's closing balances roll into the crew, where the
// crew settles up across nights. The sums stay zero throughout and every
// table, the crew's included, passes its audit.

// crewScene is a crew and the API it was made through.
type crewScene struct {
	*scene // the crew, as a table
	tokens map[string]string
}

// newCrew makes a crew of members on a fresh database; each member joins
// with the crew's code.
func newCrew(t *testing.T, members ...string) *crewScene {
	t.Helper()
	pool := dbtest.Pool(t)
	c := newClient(t, New(Config{Tables: table.New(pool, seal.Random(), nil), HeavyLimits: HeavyLimits{Burst: 1000, Every: time.Millisecond}}))
	r := c.do(t, req{method: http.MethodPost, path: "/v1/crews", body: map[string]any{"name": "Friday crew", "currency": "chips",
		"members": members}})
	if r.status != http.StatusCreated {
		t.Fatalf("make a crew: %d %s", r.status, r.body)
	}
	var out struct {
		Table struct {
			ID      int64  `json:"id"`
			Kind    string `json:"kind"`
			Players []struct {
				ID   int64  `json:"id"`
				Name string `json:"name"`
			} `json:"players"`
		} `json:"table"`
		HostToken, AuditToken, JoinCode string
	}
	r.decode(t, &out)
	if out.Table.Kind != "crew" {
		t.Fatalf("the crew's table is of kind %q", out.Table.Kind)
	}
	tb := apiTable{ID: out.Table.ID, Host: out.HostToken, Audit: out.AuditToken, Code: out.JoinCode, Players: map[string]int64{}}
	for _, p := range out.Table.Players {
		tb.Players[p.Name] = p.ID
	}
	cs := &crewScene{scene: &scene{t: t, c: c, pool: pool, tb: tb}, tokens: map[string]string{}}
	for _, m := range members {
		cs.tokens[m] = cs.join(m)
	}
	return cs
}

// night makes a night for the crew with token, seating members, and
// returns it as a scene of its own.
func (cs *crewScene) night(token string, members ...string) *scene {
	cs.t.Helper()
	ids := make([]int64, len(members))
	for i, m := range members {
		ids[i] = cs.id(m)
	}
	r := cs.c.do(cs.t, req{method: http.MethodPost, path: fmt.Sprintf("/v1/crews/%d/nights", cs.tb.ID), token: token,
		body: map[string]any{"name": "Night", "preset": "classic", "options": map[string]any{"ante": 2}, "members": ids}})
	if r.status != http.StatusCreated {
		cs.t.Fatalf("make a night: %d %s", r.status, r.body)
	}
	var out struct {
		Table struct {
			ID      int64 `json:"id"`
			Crew    int64 `json:"crew"`
			Players []struct {
				ID     int64  `json:"id"`
				Name   string `json:"name"`
				Member int64  `json:"member"`
			} `json:"players"`
		} `json:"table"`
		HostToken, AuditToken, JoinCode string
	}
	r.decode(cs.t, &out)
	if out.Table.Crew != cs.tb.ID {
		cs.t.Fatalf("the night is of crew %d, want %d", out.Table.Crew, cs.tb.ID)
	}
	n := &scene{t: cs.t, c: cs.c, pool: cs.pool, tb: apiTable{ID: out.Table.ID, Host: out.HostToken, Audit: out.AuditToken,
		Code: out.JoinCode, Players: map[string]int64{}}}
	for _, p := range out.Table.Players {
		if p.Member != cs.id(p.Name) {
			cs.t.Fatalf("night player %s is member %d, want %d", p.Name, p.Member, cs.id(p.Name))
		}
		n.tb.Players[p.Name] = p.ID
	}
	return n
}

// crewView is what GET /v1/crews/{id} answers.
type crewView struct {
	Balances sheet `json:"balances"`
	Nights   []struct {
		Table  int64  `json:"table"`
		Status string `json:"status"`
		Rolled bool   `json:"rolled"`
	} `json:"nights"`
}

func (cs *crewScene) view(token string) crewView {
	cs.t.Helper()
	var v crewView
	cs.must(http.StatusOK, req{method: http.MethodGet, path: fmt.Sprintf("/v1/crews/%d", cs.tb.ID), token: token}, &v)
	return v
}

func TestCrewNightsRollIntoTheCrew(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob", "Cy", "Dee")

	// Night 1, made by the crew's host: Ann wins a round of four.
	n1 := cs.night(cs.tb.Host, "Ann", "Bob", "Cy", "Dee")
	n1.start(nil)
	n1.turn(1, "Ann", []int{6, 5, 4, 6, 6})
	n1.turn(1, "Bob", []int{6, 5, 4, 3, 3})
	n1.turn(1, "Cy", []int{6, 5, 4, 1, 2})
	n1.turn(1, "Dee", []int{6, 5, 4, 2, 2})
	n1.expectMoney(0, map[string]int64{"Ann": 6, "Bob": -2, "Cy": -2, "Dee": -2})
	if v := cs.view(cs.tokens["Cy"]); len(v.Nights) != 1 || v.Nights[0].Rolled || v.Nights[0].Status != "open" {
		t.Fatalf("the crew before night 1 closed: %+v", v)
	}
	n1.must(http.StatusOK, req{method: http.MethodPost, path: n1.tb.path("/close"), token: n1.tb.Host}, nil)
	cs.expectMoney(0, map[string]int64{"Ann": 6, "Bob": -2, "Cy": -2, "Dee": 0 - 2})
	// The night's money went to the crew: it is paid there, not here.
	n1.refused(req{method: http.MethodPost, path: n1.tb.path("/payments"), token: n1.tb.Host,
		body: map[string]any{"from": n1.id("Bob"), "to": n1.id("Ann"), "amount": 2}}, http.StatusForbidden, "/problems/forbidden",
		"recorded at crew")

	// Night 2, made by Bob's phone, without Dee: Bob wins.
	n2 := cs.night(cs.tokens["Bob"], "Bob", "Cy", "Ann")
	n2.start(nil)
	n2.turn(1, "Bob", []int{6, 5, 4, 6, 6})
	n2.turn(1, "Cy", []int{6, 5, 4, 3, 3})
	n2.turn(1, "Ann", []int{6, 5, 4, 1, 2})
	n2.must(http.StatusOK, req{method: http.MethodPost, path: n2.tb.path("/close"), token: n2.tb.Host}, nil)
	want := map[string]int64{"Ann": 4, "Bob": 2, "Cy": -4, "Dee": -2}
	cs.expectMoney(0, want)

	v := cs.view(cs.tokens["Dee"])
	if len(v.Nights) != 2 || !v.Nights[0].Rolled || !v.Nights[1].Rolled {
		t.Fatalf("the crew's nights: %+v", v.Nights)
	}
	// Rolling a night again changes nothing.
	before := cs.snapshot()
	cs.must(http.StatusCreated, req{method: http.MethodPost, path: fmt.Sprintf("/v1/crews/%d/nights/%d/roll", cs.tb.ID, n2.tb.ID),
		token: cs.tokens["Ann"]}, nil)
	cs.unchanged(before, "a night rolled twice")
	cs.expectMoney(0, want)

	// The lifetime figures of the two nights, as worked out by hand.
	var st struct {
		Nights  int `json:"nights"`
		Rounds  int `json:"rounds"`
		Members []struct {
			Name   string `json:"name"`
			Nights int    `json:"nights"`
			Rounds int    `json:"rounds"`
			Wins   int    `json:"wins"`
			Net    int64  `json:"net"`
		} `json:"members"`
		Season []struct {
			Rank int    `json:"rank"`
			Name string `json:"name"`
		} `json:"season"`
		Dice struct {
			Table struct {
				Throws  int    `json:"throws"`
				Faces   [6]int `json:"faces"`
				Verdict string `json:"verdict"`
			} `json:"table"`
			Members []struct {
				Name    string `json:"name"`
				Verdict string `json:"verdict"`
				Summary string `json:"summary"`
			} `json:"members"`
		} `json:"dice"`
	}
	cs.must(http.StatusOK, req{method: http.MethodGet, path: fmt.Sprintf("/v1/crews/%d/stats", cs.tb.ID), token: cs.tokens["Cy"]}, &st)
	if st.Nights != 2 || st.Rounds != 2 {
		t.Fatalf("the crew's stats count %d nights and %d rounds, want 2 and 2", st.Nights, st.Rounds)
	}
	figures := map[string][4]int64{"Ann": {2, 2, 1, 4}, "Bob": {2, 2, 1, 2}, "Cy": {2, 2, 0, -4}, "Dee": {1, 1, 0, -2}}
	for _, m := range st.Members {
		if got := [4]int64{int64(m.Nights), int64(m.Rounds), int64(m.Wins), m.Net}; got != figures[m.Name] {
			t.Errorf("%s: nights, rounds, wins, net = %v, want %v", m.Name, got, figures[m.Name])
		}
	}
	if len(st.Season) != 4 || st.Season[0].Name != "Ann" || st.Season[3].Name != "Cy" {
		t.Errorf("the season table: %+v", st.Season)
	}
	// Seven throws of five dice: 35 dice, enough for the table's dice;
	// ten of Ann's are not enough for hers.
	if d := st.Dice.Table; d.Throws != 35 || d.Faces != [6]int{2, 4, 4, 7, 7, 11} || d.Verdict == "too-few" {
		t.Errorf("the table's dice: %+v", d)
	}
	for _, m := range st.Dice.Members {
		if m.Verdict != "too-few" || !strings.Contains(m.Summary, "not enough dice") {
			t.Errorf("%s's dice after a few throws: %+v", m.Name, m)
		}
	}
	cs.refused(req{method: http.MethodGet, path: fmt.Sprintf("/v1/crews/%d/stats", cs.tb.ID), token: n2.tb.Host},
		http.StatusForbidden, "/problems/forbidden")

	// Settled up across both nights with the minimal payments.
	cs.settleUp()
	n1.auditOK()
	n2.auditOK()

	// A night's books changed behind the crew's back: the crew's audit
	// finds its roll-over no longer the night's closing balances.
	tamper(t, n2, []string{`UPDATE accounts SET balance = balance + CASE WHEN kind = 'world' THEN -1 ELSE 1 END
		WHERE table_id = $1 AND (kind = 'world' OR player_id = (SELECT min(id) FROM players WHERE table_id = $1))`})
	if rep := cs.audit(); rep.OK || !reportSays(rep, "roll-over differs from its closing balances") {
		t.Fatalf("the crew's audit after a night's books changed: %+v", rep)
	}
}

func TestCrewRefusals(t *testing.T) {
	t.Parallel()
	cs := newCrew(t, "Ann", "Bob")
	crew := fmt.Sprintf("/v1/crews/%d", cs.tb.ID)
	n := cs.night(cs.tb.Host, "Ann", "Bob")
	before := cs.snapshot()
	cs.refused(req{method: http.MethodPost, path: cs.tb.path("/rounds"), token: cs.tb.Host}, http.StatusConflict,
		"/problems/conflict", "plays no rounds")
	cs.refused(req{method: http.MethodPost, path: crew + "/nights", token: cs.tb.Host,
		body: map[string]any{"preset": "classic", "members": []int64{cs.id("Ann"), 999}}}, http.StatusNotFound, "/problems/not-found",
		"member 999")
	cs.refused(req{method: http.MethodPost, path: crew + "/nights", token: cs.tb.Host,
		body: map[string]any{"preset": "classic", "players": []string{"Eve"}}, invalid: true}, http.StatusUnprocessableEntity,
		"/problems/invalid-request", "members")
	cs.refused(req{method: http.MethodPost, path: crew + "/nights", token: cs.tb.Audit,
		body: map[string]any{"preset": "classic", "members": []int64{cs.id("Ann")}}}, http.StatusForbidden, "/problems/forbidden")
	cs.refused(req{method: http.MethodPost, path: fmt.Sprintf("%s/nights/%d/roll", crew, n.tb.ID), token: cs.tb.Host},
		http.StatusConflict, "/problems/round-in-progress", "still open")
	cs.refused(req{method: http.MethodGet, path: crew, token: n.tb.Host}, http.StatusForbidden, "/problems/forbidden")
	cs.refused(req{method: http.MethodGet, path: fmt.Sprintf("/v1/crews/%d", n.tb.ID), token: n.tb.Host}, http.StatusNotFound,
		"/problems/not-found", "not a crew")
	cs.unchanged(before, "refused crew requests")
	cs.auditOK()

	// A night seats members only: their balances roll into the crew.
	n.refused(req{method: http.MethodPost, path: n.tb.path("/players"), token: n.tb.Host, body: map[string]any{"name": "Eve"}},
		http.StatusUnprocessableEntity, "/problems/invalid-request", "seats the crew's members only")
	n.refused(req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": n.tb.Code, "name": "Eve"}},
		http.StatusUnprocessableEntity, "/problems/invalid-request", "seats the crew's members only")
	n.join("Ann") // a member claims her seat with the night's code
	n.auditOK()
}

// TestCrewRoundTrips counts the round trips of a crew's requests on one
// warm connection: making a night reads the crew (one) and makes the table
// as any table is made (three); closing a night is a table's close (two)
// and the crew's roll-over (two); the crew's page and figures are reads of
// the crew and then of its nights.
func TestCrewRoundTrips(t *testing.T) {
	m := newMeter(t)
	budget := map[string]int{"POST /nights": 4, "POST /close": 4, "POST /roll": 2, "GET /crew": 3, "GET /stats": 3}
	night := func() map[string]int {
		r := m.client.do(t, req{method: http.MethodPost, path: "/v1/crews", body: map[string]any{"members": []string{"Ann", "Bob"}}})
		var crew struct {
			Table struct {
				ID      int64 `json:"id"`
				Players []struct {
					ID int64 `json:"id"`
				} `json:"players"`
			} `json:"table"`
			HostToken string
		}
		r.decode(t, &crew)
		base := fmt.Sprintf("/v1/crews/%d", crew.Table.ID)
		m.reset()
		r = m.client.do(t, req{method: http.MethodPost, path: base + "/nights", token: crew.HostToken,
			body: map[string]any{"preset": "classic", "members": []int64{crew.Table.Players[0].ID, crew.Table.Players[1].ID}}})
		var n struct {
			Table struct {
				ID int64 `json:"id"`
			} `json:"table"`
			HostToken string
		}
		r.decode(t, &n)
		m.client.do(t, req{method: http.MethodPost, path: fmt.Sprintf("/v1/tables/%d/close", n.Table.ID), token: n.HostToken})
		m.client.do(t, req{method: http.MethodPost, path: fmt.Sprintf("%s/nights/%d/roll", base, n.Table.ID), token: crew.HostToken})
		m.client.do(t, req{method: http.MethodGet, path: base, token: crew.HostToken})
		m.client.do(t, req{method: http.MethodGet, path: base + "/stats", token: crew.HostToken})
		out := map[string]int{}
		for _, x := range m.taken() {
			name := ""
			switch {
			case strings.HasSuffix(x.what, "/nights"):
				name = "POST /nights"
			case strings.HasSuffix(x.what, "/close"):
				name = "POST /close"
			case strings.HasSuffix(x.what, "/roll"):
				name = "POST /roll"
			case strings.HasSuffix(x.what, "/stats"):
				name = "GET /stats"
			case strings.HasPrefix(x.what, "GET "):
				name = "GET /crew"
			}
			out[name] = x.roundTrips
			t.Logf("%s: %d round trips, %d statements", x.what, x.roundTrips, x.statements)
		}
		return out
	}
	night() // warm
	for name, got := range night() {
		if got > budget[name] || got == 0 {
			t.Errorf("%s took %d round trips; the budget is %d", name, got, budget[name])
		}
	}
}
