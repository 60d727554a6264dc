package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// These tests are one throw, one record (issue 23): a write of play that
// says which state it was entered against (seen: the round's actions as
// the phone read them) is refused when something was recorded since, with
// what and by whose phone, and changes nothing; a retry of the write that
// was taken replays its answer; a write that does not say is judged as
// before.

const recordedSince = "/problems/recorded-since"

// sendEach sends every request at the same moment and returns the answers
// in order.
func sendEach(t *testing.T, c *client, rs ...req) []resp {
	t.Helper()
	out := make([]resp, len(rs))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, r := range rs {
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

// seen is body with the state it was entered against.
func seen(n int, body map[string]any) map[string]any {
	out := map[string]any{"seen": n}
	for k, v := range body {
		out[k] = v
	}
	return out
}

// replays sends r again with its Idempotency-Key and checks that the answer
// first given is replayed, not refused as recorded since.
func (s *scene) replays(r req, first resp) {
	s.t.Helper()
	again := s.c.do(s.t, r)
	if again.status != first.status || again.header.Get("Idempotent-Replayed") != "true" || string(again.body) != string(first.body) {
		s.t.Fatalf("the retry of %s %v answered %d %s, want the replay of %d %s", r.path, r.body, again.status, again.body, first.status, first.body)
	}
}

// TestTwoPhonesTapOneThrow is the field report: the host's phone and
// Bob's own both tap Bob's first throw, 1-2-3-4-2, against the same round
// at the same moment. It is stored once, and the phone that lost is told
// whose phone recorded it; Bob is at roll 2 of 3. Then two taps of the
// same stand, and two of a whole turn that ends the round.
func TestTwoPhonesTapOneThrow(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob", "Cy"}})
	bob, cy := s.id("Bob"), s.id("Cy")
	bobTok := s.join("Bob")
	s.start(nil)
	rd := s.turn(1, "Ann", []int{6, 5, 4, 3, 3}) // recorded without seen, as before
	if rd.Actions != 2 {
		t.Fatalf("after Ann's throw and stand the round has %d actions, want 2", rd.Actions)
	}
	actions := s.tb.path("/rounds/1/actions")
	throw := seen(rd.Actions, roll(1, 2, 3, 4, 2))
	host := req{method: http.MethodPost, path: actions, token: s.tb.Host, key: "host-phone", body: as(bob, throw)}
	phone := req{method: http.MethodPost, path: actions, token: bobTok, key: "bob-phone", body: throw}
	both := sendEach(t, s.c, host, phone)
	won, lost, detail := 0, 1, "Bob's phone already recorded 1-2-3-4-2"
	if both[0].status == http.StatusCreated {
		detail = "The host's phone already recorded 1-2-3-4-2 for Bob"
	} else {
		won, lost = 1, 0
	}
	if both[won].status != http.StatusCreated || both[lost].status != http.StatusConflict {
		t.Fatalf("two phones tapped one throw: %d %s and %d %s, want one taken and one refused",
			both[0].status, both[0].body, both[1].status, both[1].body)
	}
	if p := both[lost].problem(t); p.Type != recordedSince || p.Rule != "recorded-since" || p.Detail != detail {
		t.Fatalf("the refusal: %+v, want %s with %q", p, recordedSince, detail)
	}
	rd = s.round(bobTok, 1)
	if rolls := rd.of(t, bob).Outcome.Rolls; len(rolls) != 1 || rd.Next.Roll != 2 || rd.Actions != 3 {
		t.Fatalf("after one throw tapped on two phones Bob has %d rolls, next roll %d, %d actions", len(rolls), rd.Next.Roll, rd.Actions)
	}
	// The phone that lost sends it again, with its key: refused again (a
	// refusal stores nothing under its key), and nothing changes.
	reqs := []req{host, phone}
	s.refused(reqs[lost], http.StatusConflict, recordedSince, detail)
	// The phone that won retries, as a phone on flaky wifi does: its
	// answer is replayed, though the round has moved on since.
	s.replays(reqs[won], both[won])

	// Bob's next throw, sent without seen: judged as before.
	rd = s.act(bobTok, 1, roll(6, 5, 4, 1, 1))
	stand := req{method: http.MethodPost, path: actions, token: bobTok, key: "bob-stand", body: seen(rd.Actions, map[string]any{"kind": "stand"})}
	first := s.must(http.StatusCreated, stand, nil)
	s.refused(req{method: http.MethodPost, path: actions, token: s.tb.Host, key: "host-stand",
		body: seen(rd.Actions, as(bob, map[string]any{"kind": "stand"}))}, http.StatusConflict, recordedSince, "Bob's phone already recorded a stand")
	s.replays(stand, first)

	// Cy has no phone; the host's phone sends his whole turn twice (two
	// taps, two keys). The first ends the round; the second is told so,
	// rather than that the round is settled.
	rd = s.round(s.tb.Host, 1)
	turn := func(key string) req {
		return req{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host, key: key,
			body: map[string]any{"player": cy, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 2, 2}}}, "seen": rd.Actions}}
	}
	var end fullRound
	first = s.must(http.StatusCreated, turn("cy-1"), &end)
	if end.Status != "settled" || end.Actions != rd.Actions+2 {
		t.Fatalf("Cy's turn: %s with %d actions, want settled with %d", end.Status, end.Actions, rd.Actions+2)
	}
	s.refused(turn("cy-2"), http.StatusConflict, recordedSince, "The host's phone already recorded 6-5-4-2-2 and a stand for Cy")
	s.replays(turn("cy-1"), first)
	s.expectMoney(0, map[string]int64{"Ann": 2, "Bob": -1, "Cy": -1})
	s.auditOK()
}

// TestRecordedSinceNamesEachPhone has a phone that read the round and then
// stayed quiet while other phones recorded: its write names what they did,
// in order, each by the phone that did it, the take-back of a correction
// among them, and counts what it does not name.
func TestRecordedSinceNamesEachPhone(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob", "Cy"}})
	ann, cy := s.id("Ann"), s.id("Cy")
	annTok, bobTok := s.join("Ann"), s.join("Bob")
	s.start(nil)
	actions := s.tb.path("/rounds/1/actions")
	late := func(body map[string]any) req {
		return req{method: http.MethodPost, path: actions, token: s.tb.Host, body: seen(0, body)}
	}
	s.act(annTok, 1, roll(6, 5, 4, 3, 3))
	s.refused(late(as(ann, roll(6, 5, 4, 3, 3))), http.StatusConflict, recordedSince, "Ann's phone already recorded 6-5-4-3-3")
	s.act(annTok, 1, map[string]any{"kind": "stand"})
	s.act(bobTok, 1, roll(1, 1, 2, 2, 3))
	s.refused(late(as(ann, map[string]any{"kind": "stand"})), http.StatusConflict, recordedSince,
		"Ann's phone already recorded 6-5-4-3-3 and a stand, then Bob's phone recorded 1-1-2-2-3")
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/rounds/1/take-back"), token: s.tb.Host,
		body: map[string]any{"reason": "wrong faces"}}, nil)
	rd := s.round(s.tb.Host, 1)
	if rd.Actions != 4 {
		t.Fatalf("a take-back is an action of its own: %d actions, want 4", rd.Actions)
	}
	s.refused(req{method: http.MethodPost, path: actions, token: bobTok, body: seen(3, roll(1, 1, 2, 2, 3))},
		http.StatusConflict, recordedSince, "The host's phone already recorded the take-back of an entry")
	s.act(s.tb.Host, 1, as(s.id("Bob"), roll(1, 1, 2, 2, 4)))
	s.refused(late(as(cy, roll(6, 5, 4, 1, 1))), http.StatusConflict, recordedSince,
		"Ann's phone already recorded 6-5-4-3-3 and a stand, then Bob's phone recorded 1-1-2-2-3, and 2 more actions")
	// seen as the round shows it now is taken.
	s.act(bobTok, 1, seen(rd.Actions+1, roll(6, 5, 4, 6, 6)))
	s.auditOK()
}

// TestSeenMustBeACount refuses a seen that is not a count of actions (400,
// naming the field) or more than the round or game has recorded (422), at
// every endpoint that takes it, and changes nothing.
func TestSeenMustBeACount(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	ann := s.id("Ann")
	s.start(nil)
	r := newRoyale(t, map[string]any{"fleet": "entered"}, "Ann", "Bob")
	r.start(nil)
	for _, tc := range []struct {
		sc   *scene
		path string
		body map[string]any
	}{
		{s, s.tb.path("/rounds/1/actions"), as(ann, roll(6, 5, 4, 3, 3))},
		{s, s.tb.path("/rounds/1/turns"), map[string]any{"player": ann, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 3, 3}}}}},
		{r.scene, r.tb.path("/royale/1/actions"), map[string]any{"player": r.id("Ann"), "kind": "enter", "fleet": annFleet}},
	} {
		for _, bad := range []any{-1, 1.5, "0", 1e30, true} {
			body := seen(0, tc.body)
			body["seen"] = bad
			tc.sc.refused(req{method: http.MethodPost, path: tc.path, token: tc.sc.tb.Host, body: body, invalid: true},
				http.StatusBadRequest, "/problems/malformed-request", "seen must be a whole number, 0 or more")
		}
		tc.sc.refused(req{method: http.MethodPost, path: tc.path, token: tc.sc.tb.Host, body: seen(7, tc.body)},
			http.StatusUnprocessableEntity, "/problems/invalid-request", "seen is 7, but", "has recorded 0 actions")
	}
}

// TestRecordedSinceNamesTheHostsSeatByItsPlayer: at a table whose host
// plays Ann, the host's phone is Ann's phone. What it records for Ann, a
// take-back of her throw included, a refusal names as Ann's phone's; what
// it records for Cy, who has no phone, as the host's phone's for Cy. Each
// event says which (byHost false or true), and the audit finds the stored
// actions say the same.
func TestRecordedSinceNamesTheHostsSeatByItsPlayer(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob", "Cy"}, "host": "Ann"})
	cy := s.id("Cy")
	bobTok := s.join("Bob")
	s.start(nil)
	stand := map[string]any{"kind": "stand"}
	late := func(n int) req {
		return req{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: bobTok, body: seen(n, roll(1, 1, 2, 2, 3))}
	}
	said := func(r req, want string) {
		t.Helper()
		if p := s.refused(r, http.StatusConflict, recordedSince); p.Detail != want {
			t.Errorf("refused saying %q, want %q", p.Detail, want)
		}
	}
	s.act(s.tb.Host, 1, roll(6, 5, 4, 3, 3))
	s.correct("/rounds/1/take-back", "wrong faces", nil)
	said(late(0), "Ann's phone already recorded 6-5-4-3-3 and the take-back of an entry")
	s.act(s.tb.Host, 1, roll(6, 5, 4, 3, 2))
	s.act(s.tb.Host, 1, stand)
	s.act(bobTok, 1, roll(6, 5, 4, 1, 1))
	s.act(bobTok, 1, stand)
	s.act(s.tb.Host, 1, as(cy, roll(6, 5, 4, 2, 2)))
	said(late(6), "The host's phone already recorded 6-5-4-2-2 for Cy")
	s.correct("/rounds/1/take-back", "", nil)
	said(late(6), "The host's phone already recorded 6-5-4-2-2 and the take-back of an entry for Cy")
	said(late(3), "Ann's phone already recorded a stand, then Bob's phone recorded 6-5-4-1-1 and a stand, and 2 more actions")

	var byHost []any
	for _, kind := range []string{"round.action", "round.voided"} {
		for _, raw := range s.eventsOf(kind) {
			var e struct {
				ByHost any `json:"byHost"`
			}
			if err := json.Unmarshal(raw, &e); err != nil {
				t.Fatal(err)
			}
			byHost = append(byHost, e.ByHost)
		}
	}
	if want := []any{false, false, false, false, false, true, false, true}; fmt.Sprint(byHost) != fmt.Sprint(want) {
		t.Errorf("the events say the host's phone recorded for another: %v, want %v (actions, then take-backs)", byHost, want)
	}
	s.auditOK()
}
