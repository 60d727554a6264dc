package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tally-dice/tally/game/royale"
)

// These tests are docs/royale.md §5: every refused move names what was wrong,
// with a stable rule code, and changes nothing.

// Entered fleets for the standard game: three cards each, no two players'
// cards on one cell, so that every shot below has a known answer.
var (
	annFleet = []map[string]any{
		{"kind": "patrol-boat", "cells": []string{"A1", "A2"}},
		{"kind": "destroyer", "cells": []string{"C1", "C2", "C3"}},
		{"kind": "carrier", "cells": []string{"E1", "E2", "E3", "E4", "E5"}},
	}
	bobFleet = []map[string]any{
		{"kind": "patrol-boat", "cells": []string{"A9", "A10"}},
		{"kind": "submarine", "cells": []string{"C8", "C9", "C10"}},
		{"kind": "battleship", "cells": []string{"J1", "J2", "J3", "J4"}},
	}
)

// snapshot is everything a client can read about the table and its game,
// as the host and as each phone sees it.
func (r *royaleScene) snapshot() string {
	r.t.Helper()
	out := r.scene.snapshot()
	if n := r.current(); n > 0 {
		for _, tok := range append([]string{r.tb.Host}, r.phoneTokens()...) {
			out += string(r.must(http.StatusOK, req{method: http.MethodGet, path: r.tb.path("/royale/%d", n), token: tok}, nil).body)
		}
	}
	return out
}

func (r *royaleScene) phoneTokens() []string {
	var out []string
	for _, n := range r.names {
		out = append(out, r.tokens[n])
	}
	return out
}

// current is the number of the latest game, 0 before the first.
func (r *royaleScene) current() int {
	var tv struct {
		Royale struct {
			Current int `json:"currentGame"`
			Games   int `json:"gamesPlayed"`
		} `json:"royale"`
	}
	r.must(http.StatusOK, req{method: http.MethodGet, path: r.tb.path(""), token: r.tb.Host}, &tv)
	return max(tv.Royale.Current, tv.Royale.Games)
}

// refuse sends a request that must be refused with status, problem type
// and rule (none when empty), a detail holding every one of details, and
// nothing changed.
func (r *royaleScene) refuse(q req, status int, typ, rule string, details ...string) {
	r.t.Helper()
	before := r.snapshot()
	out := r.c.do(r.t, q)
	if out.status != status {
		r.t.Fatalf("%s %s %v: %d, want %d: %s", q.method, q.path, q.body, out.status, status, out.body)
	}
	p := out.problem(r.t)
	if p.Type != typ || p.Rule != rule {
		r.t.Fatalf("%s %v: %s rule %q, want %s rule %q: %s", q.path, q.body, p.Type, p.Rule, typ, rule, out.body)
	}
	for _, d := range details {
		if !strings.Contains(p.Detail, d) {
			r.t.Fatalf("%v: detail %q does not say %q", q.body, p.Detail, d)
		}
	}
	if after := r.snapshot(); after != before {
		r.t.Fatalf("%v changed the table:\nbefore %s\nafter  %s", q.body, before, after)
	}
}

// move is a request for an action of game 1 with token.
func (r *royaleScene) move(token string, body map[string]any) req {
	return req{method: http.MethodPost, path: r.tb.path("/royale/1/actions"), token: token, body: body}
}

const invalidMove = "/problems/invalid-move"

func TestRoyaleRefusalsStandard(t *testing.T) {
	t.Parallel()
	r := newRoyale(t, map[string]any{"fleet": "entered", "ante": 3}, "Ann", "Bob")
	ann, bob := r.tokens["Ann"], r.tokens["Bob"]
	r.start(map[string]any{"first": r.id("Ann")})

	// Entering a fleet.
	bad := func(cards ...map[string]any) map[string]any { return map[string]any{"kind": "enter", "fleet": cards} }
	r.refuse(r.move(ann, bad(map[string]any{"kind": "destroyer", "cells": []string{"C1", "C2"}}, annFleet[0], annFleet[2])),
		422, invalidMove, "card", "a destroyer covers 3 cells, not 2")
	r.refuse(r.move(ann, bad(map[string]any{"kind": "destroyer", "cells": []string{"A1", "B2", "C3"}}, annFleet[0], annFleet[2])),
		422, invalidMove, "card", "not one straight, unbroken line")
	r.refuse(r.move(ann, bad(map[string]any{"kind": "destroyer", "cells": []string{"E3", "F3", "G3"}}, annFleet[0], annFleet[2])),
		422, invalidMove, "fleet", "both cover E3")
	off := r.move(ann, bad(map[string]any{"kind": "destroyer", "cells": []string{"K1", "K2", "K3"}}, annFleet[0], annFleet[2]))
	off.invalid = true // K is off the board, which openapi.yaml's pattern says too
	r.refuse(off, 400, "/problems/malformed-request", "", `fleet[0].cells[0]: `, `"K1"`, royale.CellSpelling)
	r.refuse(r.move(ann, bad(annFleet[0], annFleet[1])), 422, invalidMove, "fleet", "enter 3 cards, not 2")
	r.refuse(r.move(ann, map[string]any{"kind": "keep", "discard": []int{0, 1}}), 422, invalidMove, "action", "entered, not dealt")
	r.refuse(r.move(ann, map[string]any{"kind": "roll", "die": 2}), 422, invalidMove, "phase")
	// The host enters only for a player whose seat no phone holds.
	r.refuse(r.move(r.tb.Host, map[string]any{"player": r.id("Ann"), "kind": "enter", "fleet": annFleet}),
		403, "/problems/forbidden", "", "a player it holds")
	r.refuse(r.move(r.tb.Host, map[string]any{"player": r.id("Ann"), "kind": "hold"}),
		403, "/problems/forbidden", "", "theirs alone")

	r.act(ann, 1, map[string]any{"kind": "enter", "fleet": annFleet})
	r.refuse(r.move(ann, map[string]any{"kind": "enter", "fleet": annFleet}), 422, invalidMove, "phase")
	v := r.act(bob, 1, map[string]any{"kind": "enter", "fleet": bobFleet})
	if v.Phase != "playing" || v.Turn != r.id("Ann") {
		t.Fatalf("after both fleets: %+v", v)
	}

	// Turns.
	r.refuse(r.move(bob, map[string]any{"kind": "roll", "die": 2}), 409, "/problems/out-of-turn", "")
	r.refuse(r.move(ann, map[string]any{"kind": "shoot", "cells": []string{"B5"}}), 422, invalidMove, "roll-first", "after the turn's roll")
	r.refuse(r.move(ann, map[string]any{"kind": "bonus", "cells": []string{"B5"}}), 422, invalidMove, "roll-first", "after the turn's roll")
	r.refuse(r.move(ann, map[string]any{"kind": "roll", "die": 4}), 422, invalidMove, "die", "1, 2 or 3, not 4")
	r.refuse(r.move(ann, map[string]any{"kind": "roll"}), 422, invalidMove, "die", "the die's value is missing")
	r.refuse(r.move(ann, map[string]any{"kind": "sonar", "line": "A"}), 422, invalidMove, "sonar", "standard")
	r.act(ann, 1, map[string]any{"kind": "roll", "die": 1})
	r.refuse(r.move(ann, map[string]any{"kind": "roll", "die": 1}), 422, invalidMove, "second-roll", "rolled this turn already")
	r.refuse(r.move(ann, map[string]any{"kind": "end"}), 422, invalidMove, "not-done")
	r.refuse(r.move(ann, map[string]any{"kind": "shoot", "cells": []string{"B5", "B6"}}), 422, invalidMove, "too-many-shots", "1 cell, and 2 were sent")
	r.refuse(r.move(ann, map[string]any{"kind": "shoot", "cells": []string{}}), 422, invalidMove, "too-few-shots", "1 cell, and 0 were sent")
	r.refuse(r.move(ann, map[string]any{"kind": "bonus", "cells": []string{"B5"}}), 422, invalidMove, "too-many-shots", "no bonus shot")
	v = r.act(ann, 1, map[string]any{"kind": "shoot", "cells": []string{"b5"}})
	if len(v.Board) != 1 || v.Board[0].Cell.String() != "B5" || v.Board[0].State != "miss" {
		t.Fatalf("a miss on B5: %+v", v.Board)
	}
	r.refuse(r.move(ann, map[string]any{"kind": "shoot", "cells": []string{"B6"}}), 422, invalidMove, "too-many-shots")
	r.act(ann, 1, map[string]any{"kind": "end"})
	r.act(bob, 1, map[string]any{"kind": "roll", "die": 3})
	r.refuse(r.move(bob, map[string]any{"kind": "shoot", "cells": []string{"B5"}}), 422, invalidMove, "already-shot", "B5 was shot already")
	// A player shoots their own ship: a hit like any other.
	v = r.act(bob, 1, map[string]any{"kind": "shoot", "cells": []string{"A9"}})
	if v.Board[0].Cell.String() != "A9" || v.Board[0].State != "hit" {
		t.Fatalf("Bob's shot on his own boat: %+v", v.Board)
	}

	// Seats and games while a game is played.
	r.refuse(req{method: http.MethodPost, path: r.tb.path("/players/%d/leave", r.id("Ann")), token: ann}, 409, "/problems/round-in-progress", "")
	r.refuse(req{method: http.MethodPost, path: r.tb.path("/royale"), token: r.tb.Host}, 409, "/problems/round-in-progress", "")
	r.refuse(req{method: http.MethodPost, path: r.tb.path("/royale"), token: ann}, 403, "/problems/forbidden", "")
	r.refuse(req{method: http.MethodPost, path: r.tb.path("/rounds"), token: r.tb.Host}, 409, "/problems/conflict", "", "Battleship Royale")
	r.refuse(req{method: http.MethodPost, path: r.tb.path("/close"), token: r.tb.Host}, 409, "/problems/round-in-progress", "")
	r.refuse(req{method: http.MethodPost, path: r.tb.path("/royale/1/abandon"), token: ann}, 403, "/problems/forbidden", "")

	// Abandoned: the pot goes back, the fleets are revealed, and nothing
	// more is taken.
	var end gameView
	r.must(http.StatusOK, req{method: http.MethodPost, path: r.tb.path("/royale/1/abandon"), token: r.tb.Host}, &end)
	if end.Phase != "over" || end.Result == nil || !end.Result.Abandoned || len(end.Revealed) != 2 {
		t.Fatalf("abandoned: %+v", end)
	}
	r.expectMoney(0, map[string]int64{"Ann": 0, "Bob": 0})
	r.refuse(r.move(bob, map[string]any{"kind": "end"}), 409, "/problems/conflict", "")
	r.auditOK()
}

func TestRoyaleRefusalsAdvanced(t *testing.T) {
	t.Parallel()
	r := newRoyale(t, map[string]any{"mode": "advanced"}, "Ann", "Bob")
	ann := r.tokens["Ann"]
	r.start(nil)
	hand := r.view(ann, 1).Hand
	if len(hand) != 5 || hand[0].Kind != "submarine" {
		t.Fatalf("Ann's advanced hand: %+v", hand)
	}
	r.refuse(r.move(ann, map[string]any{"kind": "keep", "discard": []int{0, 1}}), 422, invalidMove, "discard", "submarine")
	r.refuse(r.move(ann, map[string]any{"kind": "keep", "discard": []int{1}}), 422, invalidMove, "discard")
	r.refuse(r.move(ann, map[string]any{"kind": "keep", "discard": []int{1, 1}}), 422, invalidMove, "discard")
	r.refuse(r.move(ann, map[string]any{"kind": "keep", "discard": []int{1, 9}}), 422, invalidMove, "discard")
	r.keepAll(1)
	offLine := r.move(ann, map[string]any{"kind": "sonar", "line": "K"})
	offLine.invalid = true // no row K, which openapi.yaml's pattern says too
	r.refuse(offLine, 400, "/problems/malformed-request", "", "line: ", `"K"`, royale.LineSpelling)
	r.act(ann, 1, map[string]any{"kind": "roll", "die": 2})
	r.refuse(r.move(ann, map[string]any{"kind": "sonar", "line": "A"}), 422, invalidMove, "sonar", "start of a turn")
	r.refuse(r.move(ann, map[string]any{"kind": "shoot", "cells": []string{"A1", "A2", "A3"}}), 422, invalidMove, "too-many-shots", "2 cells, and 3 were sent")
	r.refuse(r.move(ann, map[string]any{"kind": "shoot", "cells": []string{"A1"}}), 422, invalidMove, "too-few-shots", "2 cells, and 1 were sent")
	r.refuse(r.move(ann, map[string]any{"kind": "shoot", "cells": []string{"A1", "A1"}}), 422, invalidMove, "already-shot", "named twice")
	r.refuse(r.move(ann, map[string]any{"kind": "roll", "die": 3}), 422, invalidMove, "second-roll")
	r.act(ann, 1, map[string]any{"kind": "shoot", "cells": []string{"A1", "A2"}})
	r.refuse(r.move(ann, map[string]any{"kind": "shoot", "cells": []string{"A3", "A4"}}), 422, invalidMove, "too-many-shots", "volley is fired")
}

func TestRoyaleTableRefusals(t *testing.T) {
	t.Parallel()
	c := newScene(t, map[string]any{"name": "dice", "players": []string{"Ann", "Bob"}})
	c.refused(req{method: http.MethodPost, path: c.tb.path("/royale"), token: c.tb.Host}, 409, "/problems/conflict", "dice games")
	for _, tc := range []struct {
		body map[string]any
		typ  string
		says string
	}{
		{map[string]any{"game": "chess"}, "/problems/invalid-request", "chess"},
		{map[string]any{"game": "royale", "preset": "bar"}, "/problems/invalid-request", "royale options"},
		{map[string]any{"royale": map[string]any{"mode": "advanced"}}, "/problems/invalid-request", "royale"},
		{map[string]any{"game": "royale", "royale": map[string]any{"ante": -1}}, "/problems/invalid-ruleset", "ante"},
		// At a no-overdraft table the shot that sinks the card of a player
		// who cannot pay the bounty would be refused, telling the shooter
		// it was that card's last cell.
		{map[string]any{"game": "royale", "noOverdraft": true, "royale": map[string]any{"bounty": 1}}, "/problems/invalid-request", "noOverdraft"},
	} {
		q := req{method: http.MethodPost, path: "/v1/tables", body: tc.body}
		q.invalid = true
		out := c.c.do(t, q)
		if p := out.problem(t); out.status != 422 || p.Type != tc.typ || !strings.Contains(p.Detail, tc.says) {
			t.Errorf("%v: %d %s", tc.body, out.status, out.body)
		}
	}
	r := newRoyale(t, map[string]any{}, "Ann")
	r.refuse(req{method: http.MethodPost, path: r.tb.path("/royale"), token: r.tb.Host}, 422, "/problems/invalid-request", "", "2 to 6")
}
