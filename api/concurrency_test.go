package api

import (
	"net/http"
	"sync"
	"testing"
)

// sendTogether sends n copies of r at once and returns their responses.
func sendTogether(t *testing.T, c *client, n int, r req) []resp {
	t.Helper()
	out := make([]resp, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = c.do(t, r)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// oneEffect checks that among concurrent copies of one request exactly one
// was applied (201 without Idempotent-Replayed) and every other one replayed
// its answer: a copy that comes while the first is in flight waits for it.
func oneEffect(t *testing.T, rs []resp, status int) resp {
	t.Helper()
	var first *resp
	for i, r := range rs {
		switch {
		case r.status == status && r.header.Get("Idempotent-Replayed") == "":
			if first != nil {
				t.Fatalf("two requests with the same Idempotency-Key were applied: %s and %s", first.body, r.body)
			}
			first = &rs[i]
		case r.status == status && r.header.Get("Idempotent-Replayed") == "true":
		default:
			t.Fatalf("unexpected answer %d %s", r.status, r.body)
		}
	}
	if first == nil {
		t.Fatal("no request was applied")
	}
	for _, r := range rs {
		if r.status == status && string(r.body) != string(first.body) {
			t.Fatalf("a replay answered %s, the original %s", r.body, first.body)
		}
	}
	return *first
}

func TestConcurrentSameIdempotencyKeyHasOneEffect(t *testing.T) {
	t.Parallel()
	const n = 8
	s := newScene(t, map[string]any{"preset": "classic", "options": map[string]any{"ante": 3}, "players": []string{"Ann", "Bob"}})
	ann, bob := s.id("Ann"), s.id("Bob")
	annTok := s.join("Ann")

	// Starting the round: one round, one set of antes.
	oneEffect(t, sendTogether(t, s.c, n, req{method: http.MethodPost, path: s.tb.path("/rounds"), token: s.tb.Host, key: "start"}), http.StatusCreated)
	if rds := s.rounds(s.tb.Host); len(rds) != 1 {
		t.Fatalf("%d rounds started", len(rds))
	}
	s.expectMoney(6, map[string]int64{"Ann": -3, "Bob": -3})

	// Ann's first throw from her phone, retried by a shaky connection.
	oneEffect(t, sendTogether(t, s.c, n, req{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: annTok, key: "ann-1",
		body: roll(6, 5, 4, 2, 2)}), http.StatusCreated)
	rd := s.round(s.tb.Host, 1)
	if rolls := rd.of(t, ann).Outcome.Rolls; len(rolls) != 1 || rd.Turn != ann {
		t.Fatalf("Ann's throws after %d copies: %+v", n, rd.of(t, ann).Outcome)
	}
	s.act(annTok, 1, map[string]any{"kind": "stand"})

	// Bob's whole turn ends the round: settled once.
	oneEffect(t, sendTogether(t, s.c, n, req{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host, key: "bob",
		body: map[string]any{"player": bob, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 1, 1}}}}}), http.StatusCreated)
	s.expectMoney(0, map[string]int64{"Ann": 3, "Bob": -3})

	// A settlement payment recorded from two phones at once moves money once.
	oneEffect(t, sendTogether(t, s.c, n, req{method: http.MethodPost, path: s.tb.path("/payments"), token: s.tb.Host, key: "pay",
		body: map[string]any{"from": bob, "to": ann, "amount": 3}}), http.StatusCreated)
	s.expectMoney(0, map[string]int64{})
	s.auditOK()

	// Once done, a late retry still replays.
	late := s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/payments"), token: s.tb.Host, key: "pay",
		body: map[string]any{"from": bob, "to": ann, "amount": 3}}, nil)
	if late.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("late retry was not a replay: %s", late.body)
	}
	s.expectMoney(0, map[string]int64{})
}

func TestConcurrentDifferentKeysOnlyOneThrowCounts(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	ann := s.id("Ann")
	s.start(nil)
	// Two phones send Ann's first throw under different keys: the first is
	// her throw; the second is judged as her next throw, and as a cargo
	// re-roll of five dice it is refused.
	rs := make([]resp, 0, 6)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := s.c.do(t, req{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: s.tb.Host,
				key: "phone-" + string(rune('a'+i)), body: as(ann, roll(6, 5, 4, 3, 3))})
			mu.Lock()
			rs = append(rs, r)
			mu.Unlock()
		}()
	}
	wg.Wait()
	won := 0
	for _, r := range rs {
		switch {
		case r.status == http.StatusCreated:
			won++
		case r.status == http.StatusUnprocessableEntity && r.problem(t).Rule == "dice-count":
		default:
			t.Fatalf("unexpected answer %d %s", r.status, r.body)
		}
	}
	if won != 1 {
		t.Fatalf("%d of %d throws were recorded", won, len(rs))
	}
	if rolls := s.round(s.tb.Host, 1).of(t, ann).Outcome.Rolls; len(rolls) != 1 {
		t.Fatalf("Ann has %d throws", len(rolls))
	}
	s.auditOK()
}
