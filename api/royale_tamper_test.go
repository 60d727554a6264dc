package api

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/game/royale"
)

// The tamper battery for Battleship Royale: the stored game is changed
// behind the API's back, as the database's superuser with every trigger
// off. The audit must say what broke, above all when a ship moves after
// its fleet's commitment was published.

// tamperedRoyale is a standard game with entered fleets: Bob has sunk
// Ann's patrol boat (a bounty paid) and missed once.
func tamperedRoyale(t *testing.T) *royaleScene {
	t.Helper()
	r := newRoyale(t, map[string]any{"fleet": "entered", "ante": 2, "bounty": 1}, "Ann", "Bob")
	r.start(map[string]any{"first": r.id("Bob")})
	r.act(r.tokens["Ann"], 1, map[string]any{"kind": "enter", "fleet": annFleet})
	r.act(r.tokens["Bob"], 1, map[string]any{"kind": "enter", "fleet": bobFleet})
	bob := r.tokens["Bob"]
	r.act(bob, 1, map[string]any{"kind": "roll", "die": 3})
	for _, c := range []string{"A1", "A2", "B7"} {
		r.act(bob, 1, map[string]any{"kind": "shoot", "cells": []string{c}})
	}
	r.auditOK()
	return r
}

func TestRoyaleTamperingIsReported(t *testing.T) {
	t.Parallel()
	ann := `(SELECT id FROM players WHERE table_id = $1 AND name = 'Ann')`
	for _, tc := range []struct {
		name string
		sql  []string
		want string
	}{
		{"a ship moved after the commitments were published", []string{
			`UPDATE royale_actions SET action = jsonb_set(action, '{fleet,2,cells}', '["H4","H5","H6","H7","H8"]')
			 WHERE table_id = $1 AND kind = 'enter' AND player_id = ` + ann,
		}, "publishes commitments the stored fleets do not make"},
		{"a shot taken back", []string{
			`DELETE FROM royale_actions WHERE table_id = $1 AND seq = (SELECT max(seq) FROM royale_actions WHERE table_id = $1)`,
		}, "records an action the game does not have"},
		{"a miss turned into a shot elsewhere", []string{
			`UPDATE royale_actions SET action = jsonb_set(action, '{cells}', '["B8"]')
			 WHERE table_id = $1 AND seq = (SELECT max(seq) FROM royale_actions WHERE table_id = $1)`,
		}, "differs from the replay"},
		{"the bounty never paid", []string{
			`DELETE FROM postings WHERE table_id = $1 AND transaction_id = (SELECT id FROM journal_transactions WHERE table_id = $1 AND kind = 'bounty')`,
			`DELETE FROM journal_transactions WHERE table_id = $1 AND kind = 'bounty'`,
		}, "bounty"},
		{"who chose a fleet changed", []string{
			`UPDATE royale_actions SET by_host = true WHERE table_id = $1 AND kind = 'enter'`,
		}, "the host chose player"},
		{"the game's options changed", []string{
			`UPDATE royale_games SET setup = jsonb_set(setup, '{options,bounty}', '0') WHERE table_id = $1`,
		}, "game 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tamperedRoyale(t)
			tamper(t, r.scene, tc.sql)
			rep := r.audit("full=true")
			if rep.OK || !reportSays(rep, tc.want) {
				t.Fatalf("the audit after %s: %+v, want it to say %q", tc.name, rep, tc.want)
			}
		})
	}
}

// TestRoyaleARowThatDoesNotReadIsABrokenHistory: an action whose columns
// and body disagree makes the game's reads and writes answer that the
// history is broken (409), never a 500.
func TestRoyaleARowThatDoesNotReadIsABrokenHistory(t *testing.T) {
	t.Parallel()
	r := tamperedRoyale(t)
	tamper(t, r.scene, []string{`UPDATE royale_actions SET kind = 'end' WHERE table_id = $1 AND seq = 1`})
	for _, q := range []req{
		{method: http.MethodGet, path: r.tb.path("/royale/1"), token: r.tb.Host},
		{method: http.MethodGet, path: r.tb.path("/audit?full=true"), token: r.tb.Audit},
		r.move(r.tokens["Bob"], map[string]any{"kind": "end"}),
	} {
		out := r.c.do(t, q)
		if p := out.problem(t); out.status != http.StatusConflict || p.Type != "/problems/history-broken" {
			t.Errorf("%s %s: %d %s", q.method, q.path, out.status, out.body)
		}
	}
}

// TestRoyaleAShipMovedEvenWithTheServersKeyIsReported: someone holding the
// database and the server's secret ends a game, then moves Ann's carrier in
// the stored fleet and in the event that revealed it, and seals the whole
// history again. The commitment published when play began does not open
// for the moved fleet, and the audit says so; rewriting the commitment too
// is caught by a head a phone witnessed before.
func TestRoyaleAShipMovedEvenWithTheServersKeyIsReported(t *testing.T) {
	t.Parallel()
	r := tamperedRoyale(t)
	var head struct {
		Head struct {
			Seq  int64  `json:"seq"`
			Hash string `json:"hash"`
		} `json:"head"`
	}
	r.must(http.StatusOK, req{method: http.MethodGet, path: r.tb.path("/audit"), token: r.tb.Audit}, &head)
	r.must(http.StatusOK, req{method: http.MethodPost, path: r.tb.path("/royale/1/abandon"), token: r.tb.Host}, nil)
	r.auditOK()
	moved := []string{"H4", "H5", "H6", "H7", "H8"}
	tamper(t, r.scene, []string{
		`UPDATE royale_actions SET action = jsonb_set(action, '{fleet,2,cells}', '["H4","H5","H6","H7","H8"]')
		 WHERE table_id = $1 AND kind = 'enter' AND player_id = (SELECT id FROM players WHERE table_id = $1 AND name = 'Ann')`,
	})
	reseal(t, r.scene, func(events []chain.Event) []chain.Event {
		for i, e := range events {
			if e.Kind != "royale.revealed" {
				continue
			}
			var p map[string]any
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				t.Fatal(err)
			}
			for _, f := range p["fleets"].([]any) {
				f := f.(map[string]any)
				if fmt.Sprint(f["player"]) == fmt.Sprint(r.id("Ann")) {
					f["fleet"].([]any)[2].(map[string]any)["cells"] = moved
				}
			}
			raw, _ := json.Marshal(p)
			events[i].Payload, _ = chain.Canonicalize(raw)
		}
		return events
	})
	rep := r.audit("full=true")
	if rep.OK || !rep.SealsOK || !reportSays(rep, "revealed fleet does not open the commitment published for it") {
		t.Fatalf("the audit after a ship moved and the history sealed again: %+v", rep)
	}
	// The commitment rewritten too, to the moved fleet's: every check of
	// the history alone passes, but it no longer holds the head a phone saw
	// before the game ended.
	reseal(t, r.scene, func(events []chain.Event) []chain.Event {
		var opened royale.Revealed
		for _, e := range events {
			var p struct{ Fleets []royale.Revealed }
			if e.Kind == "royale.revealed" && json.Unmarshal(e.Payload, &p) == nil {
				for _, f := range p.Fleets {
					if int64(f.Player) == r.id("Ann") {
						opened = f
					}
				}
			}
		}
		c := opened.Fleet.Commitment(opened.Salt)
		for i, e := range events {
			if e.Kind != "royale.sealed" {
				continue
			}
			var p map[string]any
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				t.Fatal(err)
			}
			for _, x := range p["commitments"].([]any) {
				if x := x.(map[string]any); fmt.Sprint(x["player"]) == fmt.Sprint(r.id("Ann")) {
					x["commitment"] = hex.EncodeToString(c[:])
				}
			}
			raw, _ := json.Marshal(p)
			events[i].Payload, _ = chain.Canonicalize(raw)
		}
		return events
	})
	if rep := r.audit("full=true"); !rep.OK {
		t.Fatalf("the history rewritten whole, with the key, still fails the audit alone (the test is wrong): %+v", rep)
	}
	rep = r.audit("full=true", fmt.Sprintf("witness=%d:%s", head.Head.Seq, head.Head.Hash))
	if rep.OK || rep.WitnessOK {
		t.Fatalf("the witnessed head did not catch the rewritten commitment: %+v", rep)
	}
}

// reseal rewrites the table's events with edit and stores them hashed and
// sealed again with the server's key, head included, as someone holding
// the database and the secret would.
func reseal(t *testing.T, s *scene, edit func([]chain.Event) []chain.Event) {
	t.Helper()
	events := readEvents(t, s)
	events = edit(events)
	prev := chain.Genesis
	var stmts []string
	for _, e := range events {
		e.PrevHash = prev
		h, err := chain.Hash(e)
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, fmt.Sprintf(`UPDATE events SET payload = '%s', prev_hash = '\x%x', hash = '\x%x', seal = '\x%x' WHERE table_id = $1 AND seq = %d`,
			strings.ReplaceAll(string(e.Payload), "'", "''"), prev, h, s.keys.Event(s.tb.ID, e.Seq, h), e.Seq))
		prev = h
	}
	last := events[len(events)-1].Seq
	stmts = append(stmts, fmt.Sprintf(`UPDATE tables SET event_hash = '\x%x', head_seal = '\x%x' WHERE id = $1`, prev, s.keys.Head(s.tb.ID, last, prev)))
	tamper(t, s, stmts)
}
