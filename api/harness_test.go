package api

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

// This file is the harness the scenario tests play through: one table on a
// real server and a real database, every exchange checked against
// openapi.yaml by the client, and the money checked to the unit after every
// scenario.

// scene is one table being played through the API.
type scene struct {
	t    *testing.T
	c    *client
	pool *pgxpool.Pool
	keys *seal.Keys // the server's
	tb   apiTable
}

// newScene makes a table on a fresh database.
func newScene(t *testing.T, body map[string]any) *scene {
	t.Helper()
	pool := dbtest.Pool(t)
	keys := seal.Random()
	// Scenes read the audit and the ledger as often as they check them:
	// the per-token limit on heavy reads is TestHeavyReadsAreLimitedPerToken's.
	c := newClient(t, New(Config{Tables: table.New(pool, keys, nil), HeavyLimits: HeavyLimits{Burst: 1000, Every: time.Millisecond}}))
	return &scene{t: t, c: c, pool: pool, keys: keys, tb: makeTable(t, c, body)}
}

// id is a seated player's id by name.
func (s *scene) id(name string) int64 {
	s.t.Helper()
	id, ok := s.tb.Players[name]
	if !ok {
		s.t.Fatalf("no player %q at the table", name)
	}
	return id
}

// ids maps names to player ids, keeping their order.
func (s *scene) ids(names ...string) []int64 {
	out := make([]int64, len(names))
	for i, n := range names {
		out[i] = s.id(n)
	}
	return out
}

// join claims a seat from a phone and returns the player token.
func (s *scene) join(name string) string {
	s.t.Helper()
	r := s.c.do(s.t, req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": s.tb.Code, "name": name}})
	if r.status != http.StatusCreated {
		s.t.Fatalf("join as %s: %d %s", name, r.status, r.body)
	}
	var out struct{ PlayerToken string }
	r.decode(s.t, &out)
	return out.PlayerToken
}

// must sends a request that has to succeed with status and decodes it.
func (s *scene) must(status int, r req, v any) resp {
	s.t.Helper()
	out := s.c.do(s.t, r)
	if out.status != status {
		s.t.Fatalf("%s %s: %d, want %d: %s", r.method, r.path, out.status, status, out.body)
	}
	if v != nil {
		out.decode(s.t, v)
	}
	return out
}

// start starts the next round as the host; body may be nil.
func (s *scene) start(body any) fullRound {
	s.t.Helper()
	var rd fullRound
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/rounds"), token: s.tb.Host, body: body}, &rd)
	return rd
}

// turn records a player's whole turn as the host, each roll given by its dice.
func (s *scene) turn(n int, name string, rolls ...[]int) fullRound {
	s.t.Helper()
	list := make([]any, len(rolls))
	for i, d := range rolls {
		list[i] = map[string]any{"dice": d}
	}
	return s.turnWith(n, name, list...)
}

// turnWith records a whole turn whose rolls are given as request objects.
func (s *scene) turnWith(n int, name string, rolls ...any) fullRound {
	s.t.Helper()
	var rd fullRound
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/rounds/%d/turns", n), token: s.tb.Host,
		body: map[string]any{"player": s.id(name), "rolls": rolls}}, &rd)
	return rd
}

// act records one action with token; the host's actions name the player.
func (s *scene) act(token string, n int, body map[string]any) fullRound {
	s.t.Helper()
	var rd fullRound
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/rounds/%d/actions", n), token: token, body: body}, &rd)
	return rd
}

// roll is the body of a roll action.
func roll(dice ...int) map[string]any { return map[string]any{"kind": "roll", "dice": dice} }

// as names the player of an action recorded by the host.
func as(player int64, body map[string]any) map[string]any {
	out := map[string]any{"player": player}
	for k, v := range body {
		out[k] = v
	}
	return out
}

// round reads round n with token.
func (s *scene) round(token string, n int) fullRound {
	s.t.Helper()
	var rd fullRound
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/rounds/%d", n), token: token}, &rd)
	return rd
}

// rounds reads every round with token, page by page.
func (s *scene) rounds(token string) []fullRound {
	s.t.Helper()
	var rds []fullRound
	for path := s.tb.path("/rounds"); ; {
		var page struct {
			Rounds []fullRound `json:"rounds"`
			Next   string      `json:"next"`
		}
		s.must(http.StatusOK, req{method: http.MethodGet, path: path, token: token}, &page)
		rds = append(rds, page.Rounds...)
		if page.Next == "" {
			return rds
		}
		path = s.tb.path("/rounds?after=%s", page.Next)
	}
}

// sheet is GET balances.
type sheet struct {
	Currency string `json:"currency"`
	Pot      int64  `json:"pot"`
	Bank     int64  `json:"bank"`
	Players  []struct {
		PlayerID int64  `json:"playerId"`
		Name     string `json:"name"`
		Balance  int64  `json:"balance"`
	} `json:"players"`
}

// balances reads the balances and checks that the books balance: the
// players, the pot and the bank always sum to zero.
func (s *scene) balances() sheet {
	s.t.Helper()
	var b sheet
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/balances"), token: s.tb.Audit}, &b)
	total := b.Pot + b.Bank
	for _, p := range b.Players {
		total += p.Balance
	}
	if total != 0 {
		s.t.Fatalf("players + pot + bank = %d, want 0: %+v", total, b)
	}
	return b
}

// expectMoney checks every player's balance (players not named must be at
// zero) and the pot.
func (s *scene) expectMoney(pot int64, want map[string]int64) {
	s.t.Helper()
	b := s.balances()
	if b.Pot != pot {
		s.t.Errorf("pot = %d, want %d", b.Pot, pot)
	}
	for _, p := range b.Players {
		if p.Balance != want[p.Name] {
			s.t.Errorf("%s's balance = %d, want %d", p.Name, p.Balance, want[p.Name])
		}
	}
	if s.t.Failed() {
		s.t.FailNow()
	}
}

// settleUp follows the settle-up suggestions, recording each payment as the
// host, and then checks that everyone is at zero and the audit passes.
func (s *scene) settleUp() {
	s.t.Helper()
	var plan struct {
		Payments []struct {
			From   struct{ PlayerID int64 } `json:"from"`
			To     struct{ PlayerID int64 } `json:"to"`
			Amount int64                    `json:"amount"`
		} `json:"payments"`
		Owes []string `json:"owes"`
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/settle-up"), token: s.tb.Host}, &plan)
	if len(plan.Owes) != len(plan.Payments) {
		s.t.Fatalf("settle-up: %d payments but %d sentences: %+v", len(plan.Payments), len(plan.Owes), plan)
	}
	for _, p := range plan.Payments {
		s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/payments"), token: s.tb.Host,
			body: map[string]any{"from": p.From.PlayerID, "to": p.To.PlayerID, "amount": p.Amount}}, nil)
	}
	b := s.balances()
	for _, p := range b.Players {
		if p.Balance != 0 {
			s.t.Fatalf("after settling up %s is at %d", p.Name, p.Balance)
		}
	}
	if b.Pot != 0 || b.Bank != 0 {
		s.t.Fatalf("after settling up the pot is %d and the bank %d", b.Pot, b.Bank)
	}
	s.auditOK()
}

// auditReport is GET audit.
type auditReport struct {
	OK         bool     `json:"ok"`
	Events     int      `json:"events"`
	ChainOK    bool     `json:"chainOk"`
	FirstBreak string   `json:"firstBreak"`
	SealsOK    bool     `json:"sealsOk"`
	JournalOK  bool     `json:"journalOk"`
	BalancesOK bool     `json:"balancesOk"`
	WitnessOK  bool     `json:"witnessOk"`
	Replayed   int      `json:"replayed"`
	Unchanged  bool     `json:"unchanged"`
	Problems   []string `json:"problems"`
	Rounds     []struct {
		Number int    `json:"number"`
		OK     bool   `json:"ok"`
		Detail string `json:"detail"`
	} `json:"rounds"`
}

// audit reads the audit report.
func (s *scene) audit(query ...string) auditReport {
	s.t.Helper()
	var rep auditReport
	path := s.tb.path("/audit")
	if len(query) > 0 {
		path += "?" + strings.Join(query, "&")
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: path, token: s.tb.Audit}, &rep)
	return rep
}

// auditOK checks the audit passes.
func (s *scene) auditOK() {
	s.t.Helper()
	if rep := s.audit(); !rep.OK || !rep.ChainOK || !rep.BalancesOK {
		s.t.Fatalf("audit failed: %+v", rep)
	}
}

// snapshot is everything a client can read about the table, to prove that a
// refused request changed nothing: the table, every round as the host sees
// it, the balances, the journal and the event log.
func (s *scene) snapshot() string {
	s.t.Helper()
	var b strings.Builder
	for _, p := range []string{"", "/rounds?limit=100", "/balances", "/ledger?limit=500", "/events?limit=500"} {
		r := s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("%s", p), token: s.tb.Host}, nil)
		fmt.Fprintf(&b, "%s\n%s\n", p, r.body)
	}
	return b.String()
}

// unchanged fails if the table differs from a snapshot taken before.
func (s *scene) unchanged(before, what string) {
	s.t.Helper()
	if after := s.snapshot(); after != before {
		s.t.Fatalf("%s changed the table:\nbefore %s\nafter  %s", what, before, after)
	}
}

// refused sends a request that must fail with status and problem type, with a
// detail containing every one of details, and change nothing at the table.
func (s *scene) refused(r req, status int, typ string, details ...string) Problem {
	s.t.Helper()
	before := s.snapshot()
	out := s.c.do(s.t, r)
	if out.status != status {
		s.t.Fatalf("%s %s: %d, want %d: %s", r.method, r.path, out.status, status, out.body)
	}
	p := out.problem(s.t)
	if p.Type != typ {
		s.t.Fatalf("%s %s: problem type %s, want %s: %s", r.method, r.path, p.Type, typ, out.body)
	}
	for _, d := range details {
		if !strings.Contains(p.Detail, d) {
			s.t.Fatalf("%s %s: detail %q does not say %q", r.method, r.path, p.Detail, d)
		}
	}
	s.unchanged(before, r.method+" "+r.path)
	return p
}

// contains reports whether body holds every one of parts.
func contains(body []byte, parts ...string) bool {
	for _, p := range parts {
		if !bytes.Contains(body, []byte(p)) {
			return false
		}
	}
	return true
}
