package api

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/royale"
	"github.com/tally-dice/tally/receipt"
)

// These tests play Battleship Royale through the API: whole games in both
// modes, every refusal of docs/royale.md §5, and the money and audit after.

func TestRoyaleStandardGameToTheEnd(t *testing.T) {
	t.Parallel()
	r := newRoyale(t, map[string]any{"mode": "standard", "ante": 5, "bounty": 2}, "Ann", "Bob", "Cid")
	v := r.start(map[string]any{"first": r.id("Bob")})
	if v.Phase != "fleets" || v.Pot != 15 || len(v.Hand) != 0 {
		t.Fatalf("start: %+v", v)
	}
	if hand := r.view(r.tokens["Ann"], 1).Hand; len(hand) != 5 {
		t.Fatalf("Ann's hand: %v", hand)
	}
	v = r.keepAll(1)
	if v.Phase != "playing" || len(v.Commitments) != 3 || len(v.Fleet) != 3 {
		t.Fatalf("after keeping: %+v", v)
	}
	if host := r.view(r.tb.Host, 1); host.Turn != r.id("Bob") || len(host.Fleet) != 0 || len(host.Held) != 0 {
		t.Fatalf("the host sees %+v", host)
	}
	end := r.play(1, false, false)
	r.checkEnd(end)
	if len(end.SunkCards) < 6 {
		t.Errorf("%d cards sunk: two of three fleets must have gone down", len(end.SunkCards))
	}
}

func TestRoyaleAdvancedGameToTheEnd(t *testing.T) {
	t.Parallel()
	r := newRoyale(t, map[string]any{"mode": "advanced", "die": "tally", "ante": 4}, "Ann", "Bob", "Cid", "Dee")
	r.start(nil)
	r.keepAll(1)
	for _, name := range r.names {
		f := r.view(r.tokens[name], 1).Fleet
		if len(f) != 3 || !slices.ContainsFunc(f, func(c royale.FleetCard) bool { return c.Kind == royale.Submarine }) {
			t.Fatalf("%s's advanced fleet: %+v", name, f)
		}
	}
	end := r.play(1, true, true)
	r.checkEnd(end)
	if len(end.Sonar) == 0 {
		t.Error("nobody used sonar")
	}
	// A second game: the pot carried the remainder, if any.
	v := r.start(nil)
	if v.Number != 2 || v.Pot != end.Result.Settlement.CarryOver+16 {
		t.Fatalf("game 2: %+v", v)
	}
}

// TestRoyaleRoundTripBudget plays a game on one measured connection: every
// Battleship Royale write (starting the game, keeping a fleet, each shot,
// the one that ends the game and settles the pot) takes two round trips,
// as a dice write does, and a read of the game one.
func TestRoyaleRoundTripBudget(t *testing.T) {
	m := newMeter(t)
	s := &scene{t: t, c: m.client, pool: m.pool, tb: makeTable(t, m.client, map[string]any{"game": "royale",
		"royale": map[string]any{"ante": 2, "bounty": 1}, "players": []string{"Ann", "Bob"}})}
	r := &royaleScene{scene: s, names: []string{"Ann", "Bob"}, tokens: map[string]string{}}
	for _, n := range r.names {
		r.tokens[n] = s.join(n)
	}
	// The first game warms the connection (it prepares its statements
	// once); the second is measured.
	r.start(nil)
	r.keepAll(1)
	r.play(1, false, false)
	m.reset()
	r.start(nil)
	r.keepAll(2)
	r.play(2, false, false)
	costs := map[string]measured{}
	prefix := fmt.Sprintf("/v1/tables/%d", s.tb.ID)
	for _, c := range m.taken() {
		name := strings.Replace(c.what, prefix, "", 1)
		prev := costs[name]
		costs[name] = measured{name, max(c.roundTrips, prev.roundTrips), max(c.statements, prev.statements)}
	}
	t.Logf("the most any request of each kind took:\n%s", report(costs))
	for name, budget := range map[string]int{"POST /royale": 2, "POST /royale/2/actions": 2, "GET /royale/2": 1} {
		if c := costs[name]; c.roundTrips != budget {
			t.Errorf("%s took %d round trips; want %d", name, c.roundTrips, budget)
		}
	}
}

// TestRoyaleHostKeepsAFleetForAPlayerWithoutAPhone: Cy has no phone. The
// host holds Cy's fleet (the log tells the table), sees Cy's dealt hand
// and no one else's, keeps Cy's fleet, and shoots for Cy; Ann and Bob,
// with phones, see only their own, and the host may neither hold nor
// choose theirs.
func TestRoyaleHostKeepsAFleetForAPlayerWithoutAPhone(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"game": "royale", "players": []string{"Ann", "Bob", "Cy"}})
	r := &royaleScene{scene: s, names: []string{"Ann", "Bob"}, tokens: map[string]string{}}
	for _, n := range r.names {
		r.tokens[n] = s.join(n)
	}
	r.start(map[string]any{"first": s.id("Cy")})
	// Nothing of anyone's hand reaches the host until it holds Cy's.
	if host := r.view(s.tb.Host, 1); len(host.Held) != 0 || len(host.Hand) != 0 {
		t.Fatalf("the host sees %+v before holding anyone's fleet", host.Held)
	}
	r.refuse(r.move(s.tb.Host, map[string]any{"player": s.id("Cy"), "kind": "keep", "discard": []int{3, 4}}),
		403, "/problems/forbidden", "", "a player it holds")
	r.refuse(r.move(r.tokens["Ann"], map[string]any{"player": s.id("Cy"), "kind": "hold"}), 403, "/problems/forbidden", "")
	r.refuse(r.move(s.tb.Host, map[string]any{"player": s.id("Bob"), "kind": "hold"}), 403, "/problems/forbidden", "", "Bob holds their seat on a phone")
	host := r.act(s.tb.Host, 1, map[string]any{"player": s.id("Cy"), "kind": "hold"})
	if len(host.Held) != 1 || host.Held[0].Player != s.id("Cy") || len(host.Hand) != 0 {
		t.Fatalf("the host holds %+v, want Cy's hand alone", host.Held)
	}
	r.refuse(r.move(s.tb.Host, map[string]any{"player": s.id("Cy"), "kind": "hold"}), 422, "/problems/invalid-request", "", "already")
	// Cy's seat is not claimed while the host holds Cy's fleet: a phone
	// would choose a fleet the host watches.
	r.refuse(req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": s.tb.Code, "name": "Cy"}},
		409, "/problems/round-in-progress", "", "the host holds Cy's fleet")
	// Dee, seated after the game began, does not play it.
	var dee struct{ ID int64 }
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/players"), token: s.tb.Host, body: map[string]any{"name": "Dee"}}, &dee)
	r.refuse(r.move(s.tb.Host, map[string]any{"player": dee.ID, "kind": "hold"}), 422, invalidMove, "player", "Dee does not play game 1")
	var held struct {
		Held []struct {
			Player int64        `json:"player"`
			Hand   royale.Fleet `json:"hand"`
		} `json:"held"`
	}
	r.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/royale/1"), token: s.tb.Host}, &held)
	if len(held.Held[0].Hand) != 5 {
		t.Fatalf("Cy's hand as the host sees it: %+v", held.Held[0])
	}
	var events struct {
		Events []struct {
			Kind    string         `json:"kind"`
			Payload map[string]any `json:"payload"`
		} `json:"events"`
	}
	r.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?limit=500"), token: r.tokens["Ann"]}, &events)
	if !slices.ContainsFunc(events.Events, func(e struct {
		Kind    string         `json:"kind"`
		Payload map[string]any `json:"payload"`
	}) bool {
		return e.Kind == "royale.action" && e.Payload["kind"] == "hold" && fmt.Sprint(e.Payload["player"]) == fmt.Sprint(s.id("Cy"))
	}) {
		t.Fatalf("the log does not tell the table the host holds Cy's fleet: %+v", events.Events)
	}
	r.keepAll(1) // Ann and Bob, on their phones
	v := r.act(s.tb.Host, 1, map[string]any{"player": s.id("Cy"), "kind": "keep", "discard": []int{3, 4}})
	if v.Phase != "playing" || v.Turn != s.id("Cy") {
		t.Fatalf("after the host kept Cy's fleet: %+v", v)
	}
	// Bob's fleet reaches no other token: the host holds Cy's alone, the
	// auditor reads no fleet, Ann her own.
	ann := r.view(r.tokens["Ann"], 1)
	for who, v := range map[string]gameView{"the host": r.view(s.tb.Host, 1), "the auditor": r.view(s.tb.Audit, 1), "Ann": ann} {
		if len(v.Hand) != 0 || len(v.Held) > 1 || len(v.Held) == 1 && (who != "the host" || v.Held[0].Player != s.id("Cy")) ||
			len(v.Fleet) != 0 && who != "Ann" {
			t.Errorf("%s reads fleets not theirs: held %+v, fleet %+v", who, v.Held, v.Fleet)
		}
	}
	if len(ann.Fleet) != 3 || ann.Salt == nil {
		t.Fatalf("Ann's own fleet: %+v", ann.Fleet)
	}
	if host := r.view(s.tb.Host, 1); len(host.Held) != 1 || len(host.Fleet) != 0 {
		t.Fatalf("the host's view in play: %+v", host.Held)
	}
	r.act(s.tb.Host, 1, map[string]any{"player": s.id("Cy"), "kind": "roll", "die": 1})
	r.act(s.tb.Host, 1, map[string]any{"player": s.id("Cy"), "kind": "shoot", "cells": []string{"J10"}})
	r.act(s.tb.Host, 1, map[string]any{"player": s.id("Cy"), "kind": "end"})
	// Freeing a phone's seat mid-game would hand its fleet to the host.
	r.refuse(req{method: http.MethodPost, path: s.tb.path("/players/%d/release", s.id("Ann")), token: s.tb.Host},
		409, "/problems/round-in-progress", "", "game 1")
}

// TestRoyaleRetriesApplyOnce: a shot sent again with its Idempotency-Key
// (the answer lost on the bar's wifi) is answered as before and fired
// once; two phones sending the same shot at once, with different keys,
// fire it once and the other is refused.
func TestRoyaleRetriesApplyOnce(t *testing.T) {
	t.Parallel()
	r := newRoyale(t, map[string]any{"fleet": "entered", "ante": 1}, "Ann", "Bob")
	r.start(map[string]any{"first": r.id("Ann")})
	r.act(r.tokens["Ann"], 1, map[string]any{"kind": "enter", "fleet": annFleet})
	r.act(r.tokens["Bob"], 1, map[string]any{"kind": "enter", "fleet": bobFleet})
	r.act(r.tokens["Ann"], 1, map[string]any{"kind": "roll", "die": 2})
	shot := req{method: http.MethodPost, path: r.tb.path("/royale/1/actions"), token: r.tb.Host, key: "shot-A9",
		body: map[string]any{"player": r.id("Ann"), "kind": "shoot", "cells": []string{"A9"}}}
	first := r.c.do(t, shot)
	again := r.c.do(t, shot)
	if first.status != 200 || again.status != 200 || string(first.body) != string(again.body) || again.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("a shot and its retry: %d %s / %d %s", first.status, first.body, again.status, again.body)
	}
	done := make(chan resp, 2)
	for _, tok := range []string{r.tokens["Ann"], r.tb.Host} {
		go func() {
			done <- r.c.do(t, req{method: http.MethodPost, path: r.tb.path("/royale/1/actions"), token: tok,
				body: map[string]any{"player": r.id("Ann"), "kind": "shoot", "cells": []string{"A10"}}})
		}()
	}
	a, b := <-done, <-done
	if (a.status == 200) == (b.status == 200) {
		t.Fatalf("the same shot from two phones: %d %s / %d %s", a.status, a.body, b.status, b.body)
	}
	v := r.view(r.tb.Host, 1)
	if len(v.Board) != 2 || v.ShotsLeft != 0 || len(v.SunkCards) != 1 {
		t.Fatalf("after the retries: %+v", v)
	}
	r.auditOK()
}

// TestRoyaleATieSplitsThePot: Ann's and Bob's cards lie on the same cells
// (two players' cards may), so every shot hits both and the last one sinks
// both fleets at once: they tie and split the pot, the indivisible unit
// stays in it, and closing the table returns it to the game's players in
// play order, from Cy, who started. The night's receipt verifies offline.
func TestRoyaleATieSplitsThePot(t *testing.T) {
	t.Parallel()
	r := newRoyale(t, map[string]any{"fleet": "entered", "ante": 1}, "Ann", "Bob", "Cy")
	v := r.playTie(1)
	res := v.Result
	if res == nil || len(res.Winners) != 2 || res.Settlement.Remainder != 1 || res.Settlement.CarryOver != 1 {
		t.Fatalf("the tie: %+v", res)
	}
	r.checkEnd(v)
	r.expectMoney(1, map[string]int64{"Ann": 0, "Bob": 0, "Cy": -1})
	r.must(http.StatusOK, req{method: http.MethodPost, path: r.tb.path("/close"), token: r.tb.Host}, nil)
	r.expectMoney(0, map[string]int64{"Ann": 0, "Bob": 0, "Cy": 0})
	r.auditOK()
	rc := r.must(http.StatusOK, req{method: http.MethodGet, path: r.tb.path("/receipt"), token: r.tokens["Cy"]}, nil)
	if _, err := receipt.Verify(rc.body, hex.EncodeToString(r.keys.PublicKey())); err != nil {
		t.Fatalf("the night's receipt: %v", err)
	}
}

// TestRoyaleAbandonPaysTheLeftoverInPlayOrder: after a tie carried one
// unit, game 2 starts with Cy, the third seat, and a pot of 16 among three.
// Abandoned, it pays the indivisible unit as closing a dice table does: in
// play order, so Cy, who started, takes 6 and Ann and Bob 5 each.
func TestRoyaleAbandonPaysTheLeftoverInPlayOrder(t *testing.T) {
	t.Parallel()
	r := newRoyale(t, map[string]any{"fleet": "entered", "ante": 5}, "Ann", "Bob", "Cy")
	if res := r.playTie(1).Result; res == nil || res.Settlement.CarryOver != 1 {
		t.Fatalf("game 1 carries no unit: %+v", res)
	}
	r.expectMoney(1, map[string]int64{"Ann": 2, "Bob": 2, "Cy": -5})
	if v := r.start(map[string]any{"first": r.id("Cy")}); v.Pot != 16 {
		t.Fatalf("game 2's pot: %d", v.Pot)
	}
	var end gameView
	r.must(http.StatusOK, req{method: http.MethodPost, path: r.tb.path("/royale/2/abandon"), token: r.tb.Host}, &end)
	want := []game.Amount{{Player: game.PlayerID(r.id("Cy")), Amount: 6}, {Player: game.PlayerID(r.id("Ann")), Amount: 5},
		{Player: game.PlayerID(r.id("Bob")), Amount: 5}}
	if end.Result == nil || !slices.Equal(end.Result.Settlement.Payouts, want) {
		t.Fatalf("abandoned, paid %+v; want %+v", end.Result, want)
	}
	r.expectMoney(0, map[string]int64{"Ann": 2, "Bob": 2, "Cy": -4})
	r.auditOK()
}

// playTie plays game n, which Cy starts, to a tie between Ann and Bob:
// their entered cards lie on the same cells, so every shot hits both and
// the last one sinks both fleets at once. Ann and Bob shoot Cy's cards,
// three a turn and every bonus shot, then their own shared ones; Cy shoots
// into the empty rows F to H. It returns the game as the host sees it at
// the end.
func (r *royaleScene) playTie(n int) gameView {
	r.t.Helper()
	r.start(map[string]any{"first": r.id("Cy")})
	r.act(r.tokens["Ann"], n, map[string]any{"kind": "enter", "fleet": annFleet})
	r.act(r.tokens["Bob"], n, map[string]any{"kind": "enter", "fleet": annFleet})
	r.act(r.tokens["Cy"], n, map[string]any{"kind": "enter", "fleet": bobFleet})
	var cells []string
	for _, f := range [][]map[string]any{bobFleet, annFleet} {
		for _, c := range f {
			cells = append(cells, c["cells"].([]string)...)
		}
	}
	var sea []string
	for _, row := range "FGH" {
		for col := 1; col <= 10; col++ {
			sea = append(sea, fmt.Sprintf("%c%d", row, col))
		}
	}
	v := r.view(r.tb.Host, n)
	for turn := 0; v.Phase != "over"; turn++ {
		if turn > 40 {
			r.t.Fatal("the game did not end")
		}
		name := r.name(v.Turn)
		tok := r.tokens[name]
		die := 3
		if name == "Cy" {
			die = 1
		}
		v = r.act(tok, n, map[string]any{"kind": "roll", "die": die})
		for v.Phase == "playing" && v.Turn == r.id(name) && (v.ShotsLeft > 0 || name != "Cy" && v.player(r.id(name)).BonusShots > 0) {
			kind := "shoot"
			if v.ShotsLeft == 0 {
				kind = "bonus"
			}
			var target string
			if name != "Cy" {
				target, cells = cells[0], cells[1:]
			} else {
				target, sea = sea[0], sea[1:]
			}
			v = r.act(tok, n, map[string]any{"kind": kind, "cells": []string{target}})
		}
		if v.Phase == "playing" && v.Turn == r.id(name) {
			v = r.act(tok, n, map[string]any{"kind": "end"})
		}
	}
	return v
}

// TestRoyaleAbandonedBeforePlay: the host abandons a game while the fleets
// are chosen: the antes go back, the one fleet kept is revealed (no
// commitment was published, nothing else was chosen), and the audit passes.
func TestRoyaleAbandonedBeforePlay(t *testing.T) {
	t.Parallel()
	r := newRoyale(t, map[string]any{"ante": 2}, "Ann", "Bob")
	r.start(nil)
	r.act(r.tokens["Ann"], 1, map[string]any{"kind": "keep", "discard": []int{0, 1}})
	var end gameView
	r.must(http.StatusOK, req{method: http.MethodPost, path: r.tb.path("/royale/1/abandon"), token: r.tb.Host}, &end)
	if end.Phase != "over" || !end.Result.Abandoned || len(end.Revealed) != 1 || end.Revealed[0].Player != game.PlayerID(r.id("Ann")) ||
		len(end.Commitments) != 0 {
		t.Fatalf("abandoned before play: %+v", end)
	}
	for _, tok := range []string{r.tb.Host, r.tokens["Bob"], r.tb.Audit} {
		if v := r.view(tok, 1); len(v.Revealed) != 1 || len(v.Hand) != 0 {
			t.Fatalf("the abandoned game as another token reads it: %+v", v)
		}
	}
	r.expectMoney(0, map[string]int64{"Ann": 0, "Bob": 0})
	r.auditOK()
}
