package api

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tally-dice/tally/db/dbtest"
)

// These tests are the refusals of the game and the books: plays out of turn
// or at the wrong moment, each rule a throw can break, rulesets that
// contradict themselves, money a no-overdraft table does not have, closed
// tables and reused Idempotency-Keys. Each must change nothing.

func TestRefusedPlays(t *testing.T) {
	t.Parallel()
	m := newMidRound(t)
	ann, bob, cy := m.id("Ann"), m.id("Bob"), m.id("Cy")
	actions, turns := m.tb.path("/rounds/1/actions"), m.tb.path("/rounds/1/turns")
	act := func(tok string, body map[string]any) req {
		return req{method: http.MethodPost, path: actions, token: tok, body: body}
	}
	whole := func(player int64, rolls ...map[string]any) req {
		list := make([]any, len(rolls))
		for i, r := range rolls {
			list[i] = r
		}
		return req{method: http.MethodPost, path: turns, token: m.tb.Host, body: map[string]any{"player": player, "rolls": list}}
	}
	dice := func(d ...int) map[string]any { return map[string]any{"dice": d} }
	m.check(t, []refusal{
		{"out of turn", act(m.bobTok, roll(6, 5, 4, 3, 3)), 409, "/problems/out-of-turn", []string{"turn"}},
		{"out of turn stand", act(m.tb.Host, as(cy, map[string]any{"kind": "stand"})), 409, "/problems/out-of-turn", []string{"turn"}},
		{"start while playing", req{method: http.MethodPost, path: m.tb.path("/rounds"), token: m.tb.Host}, 409, "/problems/round-in-progress", []string{"round 1"}},
		{"leave while playing", req{method: http.MethodPost, path: m.tb.path("/players/%d/leave", bob), token: m.bobTok}, 409, "/problems/round-in-progress", []string{"round 1"}},
		{"close while playing", req{method: http.MethodPost, path: m.tb.path("/close"), token: m.tb.Host}, 409, "/problems/round-in-progress", []string{"round 1"}},
		{"host names nobody", act(m.tb.Host, roll(6, 6)), 422, "/problems/invalid-request", []string{"whose action"}},
		{"dice on a stand", act(m.annTok, map[string]any{"kind": "stand", "dice": []int{6}}), 422, "/problems/invalid-request", []string{"only a roll has dice"}},
		{"unknown kind", req{method: http.MethodPost, path: actions, token: m.annTok, body: map[string]any{"kind": "dance"}, invalid: true},
			422, "/problems/invalid-request", []string{`"dance"`}},
		{"no automatic to claim", act(m.annTok, map[string]any{"kind": "claim-automatic"}), 422, "/problems/invalid-request", []string{"no closed automatic"}},
		{"no cups to lift", act(m.annTok, map[string]any{"kind": "lift-cups"}), 422, "/problems/invalid-request", []string{"lift their cups"}},
		{"whole turn after the first throw", whole(ann, dice(6, 5, 4, 3, 3)), 422, "/problems/invalid-request", []string{"already started"}},
		{"whole turn with no rolls", whole(cy), 422, "/problems/invalid-roll", []string{"no roll"}},
	})
	// Each rule a throw can break names the roll, the rule and, where one
	// die is at fault, the die.
	rolls := []struct {
		name      string
		r         req
		rule      string
		roll, die int
		detail    string
	}{
		{"dice count", act(m.annTok, roll(6, 6, 6)), "dice-count", 2, 0, "3 dice thrown, but 2 cargo dice picked up"},
		{"dice count for the sequence", whole(cy, dice(6, 5, 4, 3)), "dice-count", 1, 0, "4 dice"},
		{"face", act(m.annTok, roll(7, 1)), "face", 2, 1, "shows 7"},
		{"face zero", whole(cy, dice(6, 5, 4, 3, 0)), "face", 1, 5, "shows 0"},
		{"together", act(m.annTok, map[string]any{"kind": "roll", "dice": []int{5}, "rethrow": []int{2}}), "reroll-policy", 2, 0, "together"},
		{"rethrow not cargo", act(m.annTok, map[string]any{"kind": "roll", "dice": []int{5, 5}, "rethrow": []int{6, 6}}), "rethrow-not-cargo", 2, 0, "cargo is [2 1]"},
		{"re-roll before qualifying", whole(cy, dice(1, 1, 2, 2, 3), map[string]any{"dice": []int{5, 5}, "rethrow": []int{1, 1}}), "reroll-not-qualified", 2, 0, "once the ship, captain and crew are banked"},
		{"roll after the turn is over", whole(cy, dice(6, 6, 6, 5, 4), dice(1, 1)), "turn-over", 2, 0, "automatic"},
		{"fourth roll", func() req {
			r := whole(cy, dice(1, 1, 2, 2, 3), dice(1, 1, 2, 2, 3), dice(1, 1, 2, 2, 3), dice(1, 1, 2, 2, 3))
			r.invalid = true // openapi.yaml allows at most three rolls
			return r
		}(), "too-many-rolls", 4, 0, "three rolls"},
		{"stand without a score", func() req {
			r := whole(cy, dice(1, 1, 2, 2, 3))
			r.body.(map[string]any)["stand"] = true
			return r
		}(), "stand-not-allowed", 1, 0, "may stand"},
		{"incomplete turn", whole(cy, dice(1, 1, 2, 2, 3)), "turn-incomplete", 1, 0, "2 rolls left"},
		{"path in a one-path game", act(m.annTok, map[string]any{"kind": "roll", "dice": []int{5, 5}, "path": "1-2-3"}), "bad-path", 2, 0, "1-2-3"},
	}
	for _, tc := range rolls {
		t.Run(tc.name, func(t *testing.T) {
			sub := *m.scene
			sub.t = t
			p := sub.refused(tc.r, 422, "/problems/invalid-roll", tc.detail)
			if p.Rule != tc.rule || p.Roll != tc.roll || p.Die != tc.die {
				t.Fatalf("problem %+v, want rule %s on roll %d die %d", p, tc.rule, tc.roll, tc.die)
			}
		})
	}

	// After standing, the turn is over and recorded: another throw is a
	// conflict with it; a throw before one's turn is out of turn.
	m.act(m.annTok, 1, map[string]any{"kind": "stand"})
	m.refused(act(m.annTok, roll(6, 6)), 409, "/problems/conflict", "already recorded", "turn in round 1 is over")
	m.refused(whole(cy, dice(6, 5, 4, 3, 3)), 409, "/problems/out-of-turn", "turn")
}

func TestNoRoundInProgress(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	ann := s.id("Ann")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: s.tb.Host, body: as(ann, roll(6, 5, 4, 3, 3))},
		404, "/problems/not-found", "no round 1")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 3, 3})
	s.turn(1, "Bob", []int{6, 5, 4, 1, 1})
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: s.tb.Host, body: as(ann, roll(6, 6))},
		409, "/problems/no-round-in-progress", "round 1 is already settled")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host,
		body: map[string]any{"player": ann, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 3, 3}}}}},
		409, "/problems/no-round-in-progress", "already settled")
	start := req{method: http.MethodPost, path: s.tb.path("/rounds"), token: s.tb.Host, body: map[string]any{"declared": 7}}
	s.refused(start, 422, "/problems/invalid-request", "only a progressive pot")
	start.body = map[string]any{"rollOff": []any{throw(ann, 1, 1, 1, 1, 1)}}
	s.refused(start, 422, "/problems/invalid-request", "only thrown before the first round of a roll-off table")
}

func TestInvalidRulesets(t *testing.T) {
	t.Parallel()
	pool := newScene(t, map[string]any{"players": []string{"Ann", "Bob"}})
	cases := []struct {
		name, preset string
		options      map[string]any
		detail       string
	}{
		{"unknown preset", "poker", map[string]any{}, `unknown ruleset preset "poker"`},
		{"automatic in meier", "family-meier", map[string]any{"automatic": true}, "family-meier has no cargo"},
		{"closed rolls in meier", "family-meier", map[string]any{"closedRolls": true}, "closed-rolls"},
		{"stake without per-point", "classic", map[string]any{"stake": 2}, "stake is only used"},
		{"per-point without stake", "classic", map[string]any{"payoff": "per-point"}, "needs a stake"},
		{"progressive per-point", "bar", map[string]any{"progressive": true, "payoff": "per-point", "stake": 1}, "progressive pots pay the pot"},
		{"progressive scarne", "scarne", map[string]any{"progressive": true}, "game of rounds"},
		{"low scarne", "scarne", map[string]any{"low": true}, "won by the highest total"},
		{"goal outside scarne", "bar", map[string]any{"goal": map[string]any{"kind": "points", "target": 50}}, "only scarne"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := tableCount(t, pool)
			r := pool.c.do(t, req{method: http.MethodPost, path: "/v1/tables", body: map[string]any{"preset": tc.preset, "options": tc.options, "players": []string{"Ann", "Bob"}}})
			p := r.problem(t)
			if r.status != 422 || p.Type != "/problems/invalid-ruleset" || !contains([]byte(p.Detail), tc.detail) {
				t.Fatalf("%d %+v, want 422 invalid-ruleset saying %q", r.status, p, tc.detail)
			}
			if after := tableCount(t, pool); after != before {
				t.Fatalf("a refused table was made: %d tables, then %d", before, after)
			}
		})
	}
}

// tableCount counts the tables in the scene's database, as the owner
// (dbtest.OwnerPool).
func tableCount(t *testing.T, s *scene) int {
	t.Helper()
	var n int
	if err := dbtest.OwnerPool(t, s.pool).QueryRow(context.Background(), `SELECT count(*) FROM tables`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestNoOverdraftRefusesTheAnte(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "noOverdraft": true, "options": map[string]any{"ante": 5}, "players": []string{"Ann", "Bob"}})
	ann, bob := s.id("Ann"), s.id("Bob")
	deposit := func(player, amount int64) {
		s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host,
			body: map[string]any{"player": player, "amount": amount}}, nil)
	}
	deposit(ann, 20)
	deposit(bob, 4)
	start := req{method: http.MethodPost, path: s.tb.path("/rounds"), token: s.tb.Host}
	s.refused(start, 422, "/problems/insufficient-funds", "Bob has 4 units", "not the 5", "buy-in")
	if rds := s.rounds(s.tb.Host); len(rds) != 0 {
		t.Fatalf("a refused round was started: %+v", rds)
	}
	s.expectMoney(0, map[string]int64{"Ann": 20, "Bob": 4})
	// A payment that would overdraw is refused the same way.
	s.refused(req{method: http.MethodPost, path: s.tb.path("/withdrawals"), token: s.tb.Host, body: map[string]any{"player": bob, "amount": 5}},
		422, "/problems/insufficient-funds", "Bob has 4 units", "not the 5")
	deposit(bob, 1)
	if rd := s.start(nil); rd.Pot != 10 {
		t.Fatalf("round 1 = %+v", rd)
	}
	s.expectMoney(10, map[string]int64{"Ann": 15, "Bob": 0})
	s.turn(1, "Ann", []int{6, 5, 4, 1, 1})
	s.turn(1, "Bob", []int{6, 5, 4, 1, 2})
	// Bob's 15 and Ann's 15 are owed by the bank, which holds their cash.
	s.expectMoney(0, map[string]int64{"Ann": 15, "Bob": 10})
	s.settleUp()
}

func TestClosedTableRefusesWrites(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	ann, bob := s.id("Ann"), s.id("Bob")
	bobTok := s.join("Bob")
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/close"), token: s.tb.Host}, nil)
	host := func(method, path string, body any) req {
		return req{method: method, path: s.tb.path("%s", path), token: s.tb.Host, body: body}
	}
	s.check(t, []refusal{
		{"start a round", host(http.MethodPost, "/rounds", nil), 409, "/problems/table-closed", []string{"closed"}},
		{"roll", host(http.MethodPost, "/rounds/1/actions", as(ann, roll(6, 5, 4, 3, 3))), 409, "/problems/table-closed", []string{"closed"}},
		{"player rolls", req{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: bobTok, body: roll(6, 5, 4, 3, 3)}, 409, "/problems/table-closed", []string{"closed"}},
		{"seat", host(http.MethodPost, "/players", map[string]any{"name": "Cy"}), 409, "/problems/table-closed", []string{"closed"}},
		{"leave", host(http.MethodPost, "/players/"+strconv.FormatInt(bob, 10)+"/leave", nil), 409, "/problems/table-closed", []string{"closed"}},
		{"buy in", host(http.MethodPost, "/deposits", map[string]any{"player": ann, "amount": 5}), 409, "/problems/table-closed", []string{"table"}},
		{"close again", host(http.MethodPost, "/close", nil), 409, "/problems/table-closed", []string{"closed"}},
		{"join", req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": s.tb.Code, "name": "Ann"}}, 409, "/problems/table-closed", []string{"closed"}},
	})
}

func TestNameConflicts(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"players": []string{"Ann", "Bob"}})
	s.join("Bob")
	s.check(t, []refusal{
		{"seat a taken name", req{method: http.MethodPost, path: s.tb.path("/players"), token: s.tb.Host, body: map[string]any{"name": "ann"}},
			409, "/problems/conflict", []string{"already sits"}},
		{"join a claimed seat", req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": s.tb.Code, "name": "BOB"}},
			409, "/problems/conflict", []string{"already joined"}},
	})
}

func TestIdempotencyKeys(t *testing.T) {
	t.Parallel()
	m := newMidRound(t)
	stand := req{method: http.MethodPost, path: m.tb.path("/rounds/1/actions"), token: m.annTok, key: "ann-stand", body: map[string]any{"kind": "stand"}}

	// In flight: while a first request holds the table (here a transaction
	// holding the table row's lock, as every write does until it commits),
	// two copies of Ann's stand with one key wait for it. Once the table is
	// free, one applies and the other is answered with its response.
	ctx := context.Background()
	tx, err := m.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a failed test must not keep the table locked
	if _, err := tx.Exec(ctx, `SELECT 1 FROM tables WHERE id = $1 FOR UPDATE`, m.tb.ID); err != nil {
		t.Fatal(err)
	}
	copies := make(chan resp, 2)
	for range 2 {
		go func() { copies <- m.c.do(t, stand) }()
	}
	waitForLockWaiters(t, m.pool, 2)
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	first := oneEffect(t, []resp{<-copies, <-copies}, http.StatusCreated)
	before := m.snapshot()
	again := m.must(http.StatusCreated, stand, nil)
	if again.header.Get("Idempotent-Replayed") != "true" || string(again.body) != string(first.body) {
		t.Fatalf("replay: %s %s", again.header, again.body)
	}
	m.unchanged(before, "a replayed request")
	other := stand
	other.body = roll(6, 6)
	m.refused(other, 422, "/problems/idempotency-mismatch", "ann-stand")
	// The same key from another token is another request altogether.
	bobs := req{method: http.MethodPost, path: m.tb.path("/rounds/1/actions"), token: m.bobTok, key: "ann-stand", body: roll(6, 5, 4, 3, 3)}
	if r := m.must(http.StatusCreated, bobs, nil); r.header.Get("Idempotent-Replayed") != "" {
		t.Fatal("Bob's request was answered with Ann's")
	}
}

// waitForLockWaiters waits until n sessions of the test's database wait on
// a lock (on Citus, on a worker holding the table's shard: citus_lock_waits
// sees the whole cluster).
func waitForLockWaiters(t *testing.T, pool *pgxpool.Pool, n int) {
	t.Helper()
	count := `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`
	if dbtest.Citus() {
		count = `SELECT count(DISTINCT waiting_gpid) FROM citus_lock_waits`
	}
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(10 * time.Millisecond) {
		var waiting int
		err := pool.QueryRow(context.Background(), count).Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
		if waiting >= n {
			return
		}
	}
	t.Fatalf("%d requests never waited on the table's lock", n)
}
