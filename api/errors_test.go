package api

import (
	"net/http"
	"strings"
	"testing"
)

// These tests send every kind of bad request the API can refuse to a table
// in the middle of a round, and check the status, the problem type, a
// detail that names what was wrong, and that nothing at the table changed.

// midRound is a bar table in round 1 where Ann has thrown 6-5-4 with 2-1
// in the open and may stand or re-roll both cargo dice together; Ann and
// Bob have joined from their phones. other is a second table.
type midRound struct {
	*scene
	annTok, bobTok string
	other          apiTable
}

func newMidRound(t *testing.T) midRound {
	t.Helper()
	s := newScene(t, map[string]any{"preset": "bar", "options": map[string]any{"ante": 2}, "players": []string{"Ann", "Bob", "Cy"}})
	m := midRound{scene: s, annTok: s.join("Ann"), bobTok: s.join("Bob")}
	m.other = makeTable(t, s.c, map[string]any{"preset": "classic", "players": []string{"Dee", "Eve"}})
	s.start(nil)
	s.act(m.annTok, 1, roll(6, 5, 4, 1, 2))
	return m
}

// refusal is one bad request and how it must be refused.
type refusal struct {
	name    string
	r       req
	status  int
	typ     string
	details []string
}

// check runs refusals against the table, each in its own subtest.
func (s *scene) check(t *testing.T, cases []refusal) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sub := *s
			sub.t = t
			sub.refused(tc.r, tc.status, tc.typ, tc.details...)
		})
	}
}

func TestMalformedRequestsChangeNothing(t *testing.T) {
	t.Parallel()
	m := newMidRound(t)
	actions := m.tb.path("/rounds/1/actions")
	post := func(raw, contentType string) req {
		return req{method: http.MethodPost, path: actions, token: m.annTok, raw: []byte(raw), contentType: contentType, invalid: true}
	}
	big := `{"kind":"roll","dice":[6,6],"path":"` + strings.Repeat("6", maxBody) + `"}`
	m.check(t, []refusal{
		{"malformed JSON", post(`{"kind": "roll", "dice": [6,`, ""), 400, "/problems/malformed-request", []string{"ends too early"}},
		{"syntax error", post(`{"kind": roll}`, ""), 400, "/problems/malformed-request", []string{"malformed JSON at byte"}},
		{"unknown field", post(`{"kind": "roll", "dice": [6, 6], "colour": "red"}`, ""), 400, "/problems/malformed-request", []string{`unknown field "colour"`}},
		{"wrong type", post(`{"kind": "roll", "dice": "six and six"}`, ""), 400, "/problems/malformed-request", []string{"dice must be an array"}},
		{"wrong number type", post(`{"kind": "roll", "dice": [6, 6.5]}`, ""), 400, "/problems/malformed-request", []string{"whole number"}},
		{"two values", post(`{"kind": "stand"} {"kind": "stand"}`, ""), 400, "/problems/malformed-request", []string{"more than one"}},
		{"empty body", req{method: http.MethodPost, path: actions, token: m.annTok, invalid: true}, 400, "/problems/malformed-request", []string{"body is required"}},
		{"oversized body", post(big, ""), 413, "/problems/payload-too-large", []string{"limit"}},
		{"wrong content type", post(`{"kind": "stand"}`, "text/plain"), 415, "/problems/unsupported-media-type", []string{"application/json", "text/plain"}},
		{"form content type", post(`kind=stand`, "application/x-www-form-urlencoded"), 415, "/problems/unsupported-media-type", []string{"application/json"}},
		{"method", req{method: http.MethodDelete, path: "/v1/presets", invalid: true}, 405, "/problems/method-not-allowed", []string{"method"}},
		{"no such endpoint", req{method: http.MethodGet, path: m.tb.path("/dice"), token: m.tb.Host, invalid: true}, 404, "/problems/not-found", []string{"no such endpoint"}},
		{"method on a table", req{method: http.MethodPut, path: m.tb.path(""), token: m.tb.Host, invalid: true}, 405, "/problems/method-not-allowed", []string{"method"}},
		{"method on a table route", req{method: http.MethodGet, path: m.tb.path("/close"), invalid: true}, 405, "/problems/method-not-allowed", []string{"method"}},
		{"method on a round", req{method: http.MethodDelete, path: m.tb.path("/rounds/1"), token: m.tb.Host, invalid: true}, 405, "/problems/method-not-allowed", []string{"method"}},
		{"long idempotency key", req{method: http.MethodPost, path: actions, token: m.annTok, key: strings.Repeat("k", 256),
			body: map[string]any{"kind": "stand"}, invalid: true}, 400, "/problems/malformed-request", []string{"Idempotency-Key", "255"}},
	})
}

func TestUnknownIDs(t *testing.T) {
	t.Parallel()
	m := newMidRound(t)
	dee := m.other.Players["Dee"]
	m.check(t, []refusal{
		{"table id not a number", req{method: http.MethodGet, path: "/v1/tables/abc", token: m.tb.Host, invalid: true},
			404, "/problems/not-found", []string{`"abc" is not an id`}},
		{"unknown table", req{method: http.MethodGet, path: "/v1/tables/999999/rounds", token: m.tb.Host},
			403, "/problems/forbidden", []string{"another table", "999999"}},
		{"unknown round", req{method: http.MethodGet, path: m.tb.path("/rounds/7"), token: m.tb.Host},
			404, "/problems/not-found", []string{"no round 7"}},
		{"action in an unknown round", req{method: http.MethodPost, path: m.tb.path("/rounds/2/actions"), token: m.annTok, body: map[string]any{"kind": "stand"}},
			404, "/problems/not-found", []string{"no round 2"}},
		{"round number zero", req{method: http.MethodGet, path: m.tb.path("/rounds/0"), token: m.tb.Host, invalid: true},
			404, "/problems/not-found", []string{`"0" is not a round number`}},
		{"unknown player acts", req{method: http.MethodPost, path: m.tb.path("/rounds/1/actions"), token: m.tb.Host,
			body: as(999999, roll(6, 6))}, 404, "/problems/not-found", []string{"player 999999"}},
		{"other table's player acts", req{method: http.MethodPost, path: m.tb.path("/rounds/1/turns"), token: m.tb.Host,
			body: map[string]any{"player": dee, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 3, 3}}}}}, 404, "/problems/not-found", []string{"does not sit at table"}},
		{"unknown player leaves", req{method: http.MethodPost, path: m.tb.path("/players/999999/leave"), token: m.tb.Host},
			404, "/problems/not-found", []string{"player 999999"}},
		{"unknown player pays", req{method: http.MethodPost, path: m.tb.path("/payments"), token: m.tb.Host,
			body: map[string]any{"from": 999999, "to": m.id("Ann"), "amount": 1}}, 404, "/problems/not-found", []string{"999999"}},
		{"other table's player buys in", req{method: http.MethodPost, path: m.tb.path("/deposits"), token: m.tb.Host,
			body: map[string]any{"player": dee, "amount": 5}}, 404, "/problems/not-found", []string{"does not sit at table"}},
		{"unknown join code", req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": "ZZZZZZ", "name": "Zed"}},
			404, "/problems/not-found", []string{"ZZZZZZ"}},
	})
}

func TestWrongTokens(t *testing.T) {
	t.Parallel()
	m := newMidRound(t)
	ann, cy := m.id("Ann"), m.id("Cy")
	actions := m.tb.path("/rounds/1/actions")
	m.check(t, []refusal{
		{"missing", req{method: http.MethodGet, path: m.tb.path("/rounds/1")}, 401, "/problems/unauthorized", []string{"Authorization: Bearer"}},
		{"missing on a write", req{method: http.MethodPost, path: actions, body: roll(6, 6)}, 401, "/problems/unauthorized", []string{"Bearer"}},
		{"unknown", req{method: http.MethodPost, path: actions, token: "tly_p_forged", body: roll(6, 6)}, 401, "/problems/unauthorized", []string{"not known"}},
		{"not a token", req{method: http.MethodGet, path: m.tb.path(""), token: "hunter2"}, 401, "/problems/unauthorized", []string{"not known"}},
		{"other table's host", req{method: http.MethodPost, path: actions, token: m.other.Host, body: as(ann, roll(6, 6))},
			403, "/problems/forbidden", []string{"another table"}},
		{"audit token rolls", req{method: http.MethodPost, path: actions, token: m.tb.Audit, body: as(ann, roll(6, 6))},
			403, "/problems/forbidden", []string{"audit token", "not write"}},
		{"audit token starts a round", req{method: http.MethodPost, path: m.tb.path("/rounds"), token: m.tb.Audit},
			403, "/problems/forbidden", []string{"audit token"}},
		{"audit token records a payment", req{method: http.MethodPost, path: m.tb.path("/payments"), token: m.tb.Audit,
			body: map[string]any{"from": ann, "to": cy, "amount": 1}}, 403, "/problems/forbidden", []string{"audit token"}},
		{"audit token closes", req{method: http.MethodPost, path: m.tb.path("/close"), token: m.tb.Audit}, 403, "/problems/forbidden", []string{"host"}},
		{"player rolls for another", req{method: http.MethodPost, path: actions, token: m.bobTok, body: as(ann, roll(6, 6))},
			403, "/problems/forbidden", []string{"only its own player"}},
		{"player submits another's turn", req{method: http.MethodPost, path: m.tb.path("/rounds/1/turns"), token: m.bobTok,
			body: map[string]any{"player": cy, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 3, 3}}}}}, 403, "/problems/forbidden", []string{"only its own player"}},
		{"player seats a player", req{method: http.MethodPost, path: m.tb.path("/players"), token: m.bobTok, body: map[string]any{"name": "Dan"}},
			403, "/problems/forbidden", []string{"only the host may seat players"}},
		{"player makes another leave", req{method: http.MethodPost, path: m.tb.path("/players/%d/leave", ann), token: m.bobTok},
			403, "/problems/forbidden", []string{"only take themselves off"}},
		{"player records a payment to another", req{method: http.MethodPost, path: m.tb.path("/payments"), token: m.bobTok,
			body: map[string]any{"from": ann, "to": cy, "amount": 1}}, 403, "/problems/forbidden", []string{"received"}},
		{"player records a buy-in", req{method: http.MethodPost, path: m.tb.path("/deposits"), token: m.bobTok,
			body: map[string]any{"player": m.id("Bob"), "amount": 100}}, 403, "/problems/forbidden", []string{"only the host"}},
		{"player closes", req{method: http.MethodPost, path: m.tb.path("/close"), token: m.bobTok}, 403, "/problems/forbidden", []string{"host"}},
	})
}
