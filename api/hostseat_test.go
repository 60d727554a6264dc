package api

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// These tests are the host who plays (issue 23): a seat of its own, played
// from the host's phone, and the closed automatic of a player without a
// phone, claimed by the host's phone that recorded it.

// hostClaims is the body of a claim; player 0 is the token's own.
func hostClaims(player int64) map[string]any {
	if player == 0 {
		return map[string]any{"kind": "claim-automatic"}
	}
	return as(player, map[string]any{"kind": "claim-automatic"})
}

// TestTheHostPlaysItsOwnSeat makes a bar table whose host plays Ann: Ann's
// seat is claimed from the start, offered to no phone with the code, and
// never freed; the host's token records Ann's throws as Ann's own (no
// player named), sees her closed re-roll as she does, and claims her
// closed 6-6, which wins the pot. Bob, on his own phone, sees a cup.
func TestTheHostPlaysItsOwnSeat(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob", "Cy"}, "host": "ann",
		"options": map[string]any{"ante": 2}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	var tv struct {
		Players []struct {
			ID      int64 `json:"id"`
			Claimed bool  `json:"claimed"`
			Host    bool  `json:"host"`
		} `json:"players"`
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path(""), token: s.tb.Host}, &tv)
	for _, p := range tv.Players {
		if p.Host != (p.ID == ann) || p.Claimed != (p.ID == ann) {
			t.Fatalf("seats as made: %+v, want Ann's alone the host's and claimed", tv.Players)
		}
	}
	var inv struct{ OpenSeats []string }
	s.must(http.StatusOK, req{method: http.MethodGet, path: "/v1/join/" + s.tb.Code}, &inv)
	if !slices.Equal(inv.OpenSeats, []string{"Bob", "Cy"}) {
		t.Fatalf("the join link offers %v, want Bob and Cy", inv.OpenSeats)
	}
	s.refused(req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": s.tb.Code, "name": "ANN"}},
		http.StatusConflict, "/problems/conflict", "the host's own seat")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/players/%d/release", ann), token: s.tb.Host},
		http.StatusUnprocessableEntity, "/problems/invalid-request", "the host's own")
	bobTok := s.join("Bob")

	s.start(nil)
	s.act(s.tb.Host, 1, roll(6, 5, 4, 1, 2))
	rd := s.act(s.tb.Host, 1, roll(6, 6)) // the cargo re-roll, under the cup
	openTo(t, rd, ann, []int{6, 6}, "the host playing Ann")
	if rd.Claimable != ann {
		t.Fatalf("the host playing Ann is not told she may claim: %+v", rd)
	}
	sealedFrom(t, s.round(bobTok, 1), ann, "Bob")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: bobTok, body: hostClaims(ann)},
		http.StatusForbidden, "/problems/forbidden")
	rd = s.act(s.tb.Host, 1, hostClaims(0))
	if rd.Status != "settled" || rd.Result == nil || !rd.Result.Automatic || !slices.Equal(rd.Result.Winners, []int64{ann}) {
		t.Fatalf("Ann's claimed automatic: %+v", rd)
	}
	s.expectMoney(0, map[string]int64{"Ann": 4, "Bob": -2, "Cy": -2})

	// Her throws and her claim are hers, not the host's for her: each
	// event says so (false), as every round action's does now.
	var log struct {
		Events []struct {
			Kind    string         `json:"kind"`
			Payload map[string]any `json:"payload"`
		} `json:"events"`
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?limit=500"), token: s.tb.Audit}, &log)
	acts := 0
	for _, e := range log.Events {
		if e.Kind == "round.action" {
			acts++
			if e.Payload["byHost"] != false {
				t.Fatalf("the host's own throw is logged as the host's for another: %+v", e.Payload)
			}
		}
	}
	if acts != 3 {
		t.Fatalf("%d actions logged, want 3", acts)
	}

	// Round 2: the host records Cy's whole turn (Cy has no phone) and
	// plays its own, and Bob his.
	s.start(nil)
	s.act(bobTok, 2, roll(6, 5, 4, 2, 2))
	s.act(bobTok, 2, map[string]any{"kind": "stand"})
	s.turn(2, "Cy", []int{6, 5, 4, 3, 3})
	rd = s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/rounds/2/turns"), token: s.tb.Host,
		body: map[string]any{"rolls": []any{map[string]any{"dice": []int{6, 5, 4, 1, 1}}}}}, nil).roundOf(t)
	if rd.Status != "settled" || !slices.Equal(rd.Result.Winners, []int64{cy}) {
		t.Fatalf("round 2: %+v", rd)
	}
	if rd.Players[0] != bob {
		t.Fatalf("round 2 starts with %d, want Bob", rd.Players[0])
	}
	s.auditOK()
}

// roundOf decodes a round.
func (r resp) roundOf(t *testing.T) fullRound {
	t.Helper()
	var rd fullRound
	r.decode(t, &rd)
	return rd
}

// TestTheHostClaimsForAPlayerWithoutAPhone: Dee has no phone, and the
// host's phone records her cargo re-roll under the cup as 6-6. The host's
// view, and no other, says she may claim; she stands, and before Cy's first
// roll the host claims the automatic for her: the pot is hers. Bob's phone
// may not claim for her, and the host may not claim for Bob, whose throws
// his own phone records: refused alike whatever his cup holds (the leak
// tests compare it across tables).
func TestTheHostClaimsForAPlayerWithoutAPhone(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob", "Dee", "Cy"}, "host": "Ann",
		"options": map[string]any{"ante": 1}})
	bob, dee := s.id("Bob"), s.id("Dee")
	bobTok := s.join("Bob")
	s.start(nil)
	s.act(s.tb.Host, 1, roll(6, 5, 4, 5, 5))
	s.act(s.tb.Host, 1, map[string]any{"kind": "stand"})
	s.act(bobTok, 1, roll(6, 5, 4, 1, 1))
	s.act(bobTok, 1, roll(6, 6))
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: s.tb.Host, body: hostClaims(bob)},
		http.StatusForbidden, "/problems/forbidden", "own phone")
	s.act(bobTok, 1, map[string]any{"kind": "stand"}) // Bob lets his automatic go: a plain 12
	if rd := s.round(s.tb.Host, 1); rd.Claimable != 0 {
		t.Fatalf("the host is told Bob may claim: %+v", rd)
	}

	s.act(s.tb.Host, 1, as(dee, roll(6, 5, 4, 1, 2)))
	rd := s.act(s.tb.Host, 1, as(dee, roll(6, 6)))
	if rd.Claimable != dee {
		t.Fatalf("the host that recorded Dee's 6-6 is not told she may claim: %+v", rd)
	}
	// The host's phone keeps the dice it typed; the server shows it a cup.
	if o := rd.of(t, dee).Outcome; !o.Sealed || o.Score != 0 || o.Automatic {
		t.Fatalf("the host reads Dee's sealed turn: %+v", o)
	}
	for who, tok := range map[string]string{"Bob": bobTok, "the auditor": s.tb.Audit} {
		sealedFrom(t, s.round(tok, 1), dee, who)
	}
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: bobTok, body: hostClaims(dee)},
		http.StatusForbidden, "/problems/forbidden")
	rd = s.act(s.tb.Host, 1, as(dee, map[string]any{"kind": "stand"}))
	if rd.Turn != s.id("Cy") || rd.Claimable != dee {
		t.Fatalf("after Dee stood, before Cy throws: %+v", rd)
	}
	rd = s.act(s.tb.Host, 1, hostClaims(dee))
	if rd.Status != "settled" || !rd.Result.Automatic || !slices.Equal(rd.Result.Winners, []int64{dee}) ||
		!rd.of(t, dee).AutomaticWon || rd.of(t, bob).Outcome.Score != 12 {
		t.Fatalf("Dee's automatic, claimed by the host: %+v", rd)
	}
	s.expectMoney(0, map[string]int64{"Ann": -1, "Bob": -1, "Dee": 3, "Cy": -1})
	if hist := s.rounds(bobTok); len(hist) != 1 || !hist[0].of(t, dee).AutomaticWon {
		t.Fatalf("the history Bob reads: %+v", hist)
	}
	s.auditOK()
}

// TestAClaimTooLateIsAPlainScore: the host's claim for a player without a
// phone comes after the next player's first roll, and is refused as the
// player's own would be (docs/rules.md §4).
func TestAClaimTooLateIsAPlainScore(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob", "Cy"}})
	ann := s.id("Ann")
	s.start(nil)
	s.act(s.tb.Host, 1, as(ann, roll(6, 5, 4, 1, 2)))
	s.act(s.tb.Host, 1, as(ann, roll(6, 6)))
	s.act(s.tb.Host, 1, as(ann, map[string]any{"kind": "stand"}))
	rd := s.act(s.tb.Host, 1, as(s.id("Bob"), roll(6, 5, 1, 1, 2)))
	if rd.Claimable != 0 {
		t.Fatalf("still claimable after Bob's first roll: %+v", rd)
	}
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/actions"), token: s.tb.Host, body: hostClaims(ann)},
		http.StatusUnprocessableEntity, "/problems/invalid-request", "no closed automatic")
}

// TestTheHostPlaysItsOwnFleet: at a Battleship Royale table the host plays
// Ann. Its token keeps Ann's dealt hand with no hold, sees Ann's hand and
// fleet and nobody else's, and may not hold its own seat.
func TestTheHostPlaysItsOwnFleet(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"game": "royale", "players": []string{"Ann", "Bob"}, "host": "Ann"})
	r := &royaleScene{scene: s, names: []string{"Bob"}, tokens: map[string]string{"Bob": s.join("Bob")}}
	ann, bob := s.id("Ann"), s.id("Bob")
	r.start(map[string]any{"first": ann})
	host := r.view(s.tb.Host, 1)
	if len(host.Hand) != 5 || len(host.Held) != 0 {
		t.Fatalf("the host playing Ann sees hand %+v and holds %+v, want Ann's hand alone", host.Hand, host.Held)
	}
	r.refuse(r.move(s.tb.Host, map[string]any{"player": ann, "kind": "hold"}), 422, "/problems/invalid-request", "", "the host's own")
	r.refuse(r.move(s.tb.Host, map[string]any{"player": bob, "kind": "keep", "discard": []int{3, 4}}),
		403, "/problems/forbidden", "", "a player it holds")
	v := r.act(s.tb.Host, 1, map[string]any{"kind": "keep", "discard": []int{3, 4}})
	if len(v.Fleet) != 3 || v.Salt == nil || !v.player(ann).Ready {
		t.Fatalf("the host's own fleet kept: %+v", v)
	}
	r.keepAll(1)
	if bobs := r.view(r.tokens["Bob"], 1); len(bobs.Fleet) != 3 {
		t.Fatalf("Bob's fleet: %+v", bobs.Fleet)
	}
	if v := r.view(s.tb.Host, 1); v.Phase != "playing" || len(v.Fleet) != 3 || len(v.Held) != 0 || len(v.Hand) != 0 {
		t.Fatalf("the host's view in play: %+v", v)
	}
	var log struct {
		Events []struct {
			Kind    string         `json:"kind"`
			Payload map[string]any `json:"payload"`
		} `json:"events"`
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?limit=500"), token: r.tokens["Bob"]}, &log)
	for _, e := range log.Events {
		if e.Kind == "royale.action" && (e.Payload["kind"] == "hold" || e.Payload["byHost"] != nil) {
			t.Fatalf("the host's own fleet is logged as held or kept for another: %+v", e.Payload)
		}
	}
	s.auditOK()
}

// TestAHostRecoveryCarriesTheSeat: the phone that becomes the host plays
// the host's seat: it records the seat's throws as its own and sees its
// closed roll; the old host token is gone.
func TestAHostRecoveryCarriesTheSeat(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}, "host": "Ann"})
	ann := s.id("Ann")
	s.start(nil)
	s.act(s.tb.Host, 1, roll(6, 5, 4, 1, 2))
	var offer struct{ Code string }
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/host-recovery"), token: s.tb.Host}, &offer)
	var rec struct{ HostToken string }
	s.must(http.StatusCreated, req{method: http.MethodPost, path: "/v1/host-recovery", body: map[string]any{"code": offer.Code}}, &rec)
	rd := s.act(rec.HostToken, 1, roll(6, 6))
	openTo(t, rd, ann, []int{6, 6}, "the new host phone")
	if rd.Claimable != ann {
		t.Fatalf("the new host phone playing Ann is not told she may claim: %+v", rd)
	}
	if r := s.c.do(t, req{method: http.MethodGet, path: s.tb.path("/rounds/1"), token: s.tb.Host}); r.status == http.StatusOK {
		t.Fatalf("the old host token still reads: %s", r.body)
	}
}

// TestANightsHostPlaysAMember: a crew's night names the member whose seat
// is the host's own.
func TestANightsHostPlaysAMember(t *testing.T) {
	t.Parallel()
	c := newDBClient(t)
	var crew struct {
		Table struct {
			ID      int64 `json:"id"`
			Players []struct {
				ID   int64  `json:"id"`
				Name string `json:"name"`
			} `json:"players"`
		} `json:"table"`
		HostToken string
	}
	r := c.do(t, req{method: http.MethodPost, path: "/v1/crews", body: map[string]any{"name": "Fridays", "members": []string{"Ann", "Bob"}}})
	if r.status != http.StatusCreated {
		t.Fatalf("crew: %d %s", r.status, r.body)
	}
	r.decode(t, &crew)
	ann, bob := crew.Table.Players[0].ID, crew.Table.Players[1].ID
	night := func(host int64) resp {
		return c.do(t, req{method: http.MethodPost, path: fmt.Sprintf("/v1/crews/%d/nights", crew.Table.ID), token: crew.HostToken,
			body: map[string]any{"members": []int64{bob}, "host": host}})
	}
	if r := night(ann); r.status != http.StatusUnprocessableEntity {
		t.Fatalf("a night whose host seat does not sit down: %d %s", r.status, r.body)
	}
	r = night(bob)
	if r.status != http.StatusCreated {
		t.Fatalf("night: %d %s", r.status, r.body)
	}
	var made struct {
		Table struct {
			Players []struct {
				Member int64 `json:"member"`
				Host   bool  `json:"host"`
			} `json:"players"`
		} `json:"table"`
	}
	r.decode(t, &made)
	if p := made.Table.Players; len(p) != 1 || p[0].Member != bob || !p[0].Host {
		t.Fatalf("the night's seats: %+v", p)
	}
}
