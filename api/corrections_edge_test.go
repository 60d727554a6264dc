package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db/dbtest"
)

// Corrections at every kind of table and after every kind of change: an
// independent review's scenarios, kept as tests. Each plays corrections
// through the API and checks that the table can go on and the audit, from
// a checkpoint and in full, passes; or that a correction that cannot be
// made is refused in words and changes nothing.

// scarneTwoRounds is a Scarne game of two rounds (Ann, Bob, Cy) played to
// its end: round 2 wins the game.
func scarneTwoRounds(t *testing.T) *scene {
	t.Helper()
	s := newScene(t, map[string]any{"preset": "scarne", "players": []string{"Ann", "Bob", "Cy"},
		"options": map[string]any{"goal": map[string]any{"kind": "rounds", "target": 2}}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	rd := s.start(map[string]any{"rollOff": []any{throw(ann, 1, 1, 1, 1, 2), throw(bob, 3, 3, 3, 3, 3), throw(cy, 4, 4, 4, 4, 4)}})
	name := map[int64]string{ann: "Ann", bob: "Bob", cy: "Cy"}
	for _, p := range rd.Players {
		s.turn(1, name[p], []int{6, 5, 4, 6, 6})
	}
	rd = s.start(nil)
	for i, p := range rd.Players {
		d := []int{6, 5, 4, 1, 2}
		if i == 0 {
			d = []int{6, 5, 4, 6, 5}
		}
		rd = s.turn(2, name[p], d)
	}
	if rd.Game == nil {
		t.Fatalf("round 2 should win the game: %+v", rd)
	}
	return s
}

func TestCorrectionsAtAProgressiveTable(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "options": map[string]any{"progressive": true, "reanteOnTie": false, "closedRolls": false},
		"players": []string{"Ann", "Bob", "Cy"}})
	bob, cy := s.id("Bob"), s.id("Cy")
	s.start(map[string]any{"declared": 7})
	s.turn(1, "Ann", []int{6, 5, 4, 3, 4})
	s.turn(1, "Bob", []int{6, 5, 4, 5, 2})
	expectResult(t, s.turn(1, "Cy", []int{6, 5, 4, 6, 5}), "tie", nil, 3, 3)
	s.auditOK()
	// Reopen the tied round: Cy's stand and his throw taken back.
	s.correct("/rounds/1/take-back", "", nil)
	s.correct("/rounds/1/take-back", "", nil)
	s.act(s.tb.Host, 1, as(cy, roll(6, 5, 4, 3, 4)))
	rd := s.act(s.tb.Host, 1, map[string]any{"player": cy, "kind": "stand"})
	if rd.Status != "settled" {
		t.Fatalf("round 1 played again did not settle: %+v", rd)
	}
	r2 := s.start(map[string]any{"declared": 8})
	if r2.Declarer != bob {
		t.Fatalf("round 2 declarer %d", r2.Declarer)
	}
	s.turn(2, "Bob", []int{6, 5, 4, 4, 4})
	s.correct("/rounds/2/reverse", "", nil)
	r3 := s.start(map[string]any{"declared": 9})
	if r3.Declarer != bob || r3.Pot != r2.Pot {
		t.Fatalf("round 3 %+v, round 2 %+v", r3, r2)
	}
	s.turn(3, "Bob", []int{6, 5, 4, 4, 5})
	s.turn(3, "Cy", []int{6, 5, 4, 1, 1})
	s.turn(3, "Ann", []int{6, 5, 4, 5, 2})
	if rep := s.audit("full=true"); !rep.OK {
		t.Fatalf("audit: %+v", rep)
	}
	s.auditOK()
	s.settleUp()
}

func TestCorrectionsOfARollOffAndAPlayoff(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "scarne", "options": map[string]any{"goal": map[string]any{"kind": "points", "target": 20}},
		"players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	r1 := s.start(map[string]any{"rollOff": []any{throw(ann, 2, 2, 2, 2, 2), throw(bob, 1, 1, 1, 1, 2), throw(cy, 6, 6, 6, 6, 6)}})
	// Round 1 started by mistake: reversed, and round 2 needs no roll-off.
	s.correct("/rounds/1/reverse", "", nil)
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds"), token: s.tb.Host,
		body: map[string]any{"rollOff": []any{throw(ann, 2, 2, 2, 2, 2), throw(bob, 1, 1, 1, 1, 2), throw(cy, 6, 6, 6, 6, 6)}}},
		http.StatusUnprocessableEntity, "/problems/invalid-request")
	r2 := s.start(nil)
	if !slices.Equal(r1.Players, r2.Players) {
		t.Fatalf("round 2 order %v, round 1 %v", r2.Players, r1.Players)
	}
	name := map[int64]string{ann: "Ann", bob: "Bob", cy: "Cy"}
	dice := map[int64][][]int{bob: {{6, 5, 4, 6, 6}}, cy: {{6, 5, 4, 6, 6}}, ann: miss}
	for _, p := range r2.Players {
		s.turn(2, name[p], dice[p]...)
	}
	s.start(nil)
	dice = map[int64][][]int{bob: {{6, 5, 4, 4, 4}}, cy: {{6, 5, 4, 4, 4}}, ann: {{6, 5, 4, 1, 2}}}
	var rd fullRound
	for _, p := range s.round(s.tb.Host, 3).Players {
		rd = s.turn(3, name[p], dice[p]...)
	}
	if g := s.game(); len(g.Game.Playoff) != 2 {
		t.Fatalf("want a playoff: %+v", g.Game)
	}
	p4 := s.start(nil)
	s.turn(4, name[p4.Players[0]], []int{6, 5, 4, 6, 6})
	s.correct("/rounds/4/reverse", "", nil)
	p5 := s.start(nil)
	if !p5.Playoff || !slices.Equal(p5.Players, p4.Players) {
		t.Fatalf("playoff again: %+v", p5)
	}
	s.turn(5, name[p5.Players[0]], []int{6, 5, 4, 6, 6})
	rd = s.turn(5, name[p5.Players[1]], []int{6, 5, 4, 1, 2})
	if rd.Game == nil {
		t.Fatalf("the playoff should end the game: %+v", rd)
	}
	// Reopen the game's last round and end it the other way.
	s.correct("/rounds/5/take-back", "", nil)
	s.correct("/rounds/5/take-back", "", nil)
	s.turn(5, name[p5.Players[1]], []int{6, 5, 4, 6, 5})
	if rep := s.audit("full=true"); !rep.OK {
		t.Fatalf("audit: %+v", rep)
	}
	s.auditOK()
}

func TestCorrectionsThatWouldOverdrawAreRefused(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "noOverdraft": true, "options": map[string]any{"ante": 2},
		"players": []string{"Ann", "Bob", "Cy"}})
	for _, n := range []string{"Ann", "Bob", "Cy"} {
		s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host,
			body: map[string]any{"player": s.id(n), "amount": 10}}, nil)
	}
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 6, 6})
	s.turn(1, "Bob", []int{6, 5, 4, 3, 3})
	s.turn(1, "Cy", []int{6, 5, 4, 1, 2})
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/withdrawals"), token: s.tb.Host,
		body: map[string]any{"player": s.id("Ann"), "amount": 14}}, nil)
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/take-back"), token: s.tb.Host}, http.StatusUnprocessableEntity, "/problems/insufficient-funds")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/reverse"), token: s.tb.Host}, http.StatusUnprocessableEntity, "/problems/insufficient-funds")
	// The deposit reversal that would overdraw is refused too.
	s.refused(req{method: http.MethodPost, path: s.tb.path("/ledger/%d/reverse", s.ledgerEvent("deposit")), token: s.tb.Host}, http.StatusUnprocessableEntity, "/problems/insufficient-funds")
	s.auditOK()
}

func TestCorrectionsAtAClosedTable(t *testing.T) {
	t.Parallel()
	s := correctionScene(t, nil)
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 6, 6})
	s.turn(1, "Bob", []int{6, 5, 4, 3, 3})
	s.turn(1, "Cy", []int{6, 5, 4, 3, 3})
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host,
		body: map[string]any{"player": s.id("Bob"), "amount": 5}}, nil)
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/payments"), token: s.tb.Host,
		body: map[string]any{"from": s.id("Bob"), "to": s.id("Ann"), "amount": 2}}, nil)
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/close"), token: s.tb.Host}, nil)
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/take-back"), token: s.tb.Host}, http.StatusConflict, "/problems/table-closed")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/reverse"), token: s.tb.Host}, http.StatusConflict, "/problems/table-closed")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/ledger/%d/reverse", s.ledgerEvent("deposit")), token: s.tb.Host}, http.StatusConflict, "/problems/table-closed")
	s.correct(fmt.Sprintf("/ledger/%d/reverse", s.ledgerEvent("settlement")), "", nil)
	s.auditOK()
}

func TestTakingBackAcrossTurnsThenReversing(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "options": map[string]any{"ante": 2},
		"players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 3, 3})
	s.turn(1, "Bob", []int{6, 5, 4, 5, 5})
	s.turn(1, "Cy", []int{6, 5, 4, 1, 2})
	s.auditOK()
	s.start(nil)
	var order []int64 = s.round(s.tb.Host, 2).Players
	name := map[int64]string{ann: "Ann", bob: "Bob", cy: "Cy"}
	for _, p := range order {
		s.turn(2, name[p], []int{6, 5, 4, 2, 2})
	}
	s.auditOK() // a checkpoint at round 2
	// Take back into the second player's turn: 4 take-backs (stand, roll; stand, roll).
	for range 4 {
		s.correct("/rounds/2/take-back", "", nil)
	}
	rd := s.round(s.tb.Host, 2)
	if rd.Status != "playing" || rd.Turn != order[1] {
		t.Fatalf("after taking back two turns: %+v", rd)
	}
	s.auditOK()
	s.turn(2, name[order[1]], []int{6, 5, 4, 5, 5})
	s.act(s.tb.Host, 2, as(order[2], roll(6, 5, 4, 1, 1)))
	s.act(s.tb.Host, 2, as(order[2], roll(6, 5)))
	s.correct("/rounds/2/take-back", "", nil)
	s.act(s.tb.Host, 2, as(order[2], roll(1, 1)))
	s.act(s.tb.Host, 2, map[string]any{"player": order[2], "kind": "stand"})
	s.auditOK()
	if rep := s.audit("full=true"); !rep.OK {
		t.Fatalf("%+v", rep)
	}
	s.correct("/rounds/2/take-back", "", nil)
	s.correct("/rounds/2/reverse", "", nil)
	s.auditOK()
	s.start(nil)
	for _, p := range s.round(s.tb.Host, 3).Players {
		s.turn(3, name[p], []int{6, 5, 4, 2, 2})
	}
	s.auditOK()
	if rep := s.audit("full=true"); !rep.OK {
		t.Fatalf("%+v", rep)
	}
}

func TestSeatChangesAroundCorrections(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "options": map[string]any{"ante": 2, "closedRolls": false},
		"players": []string{"Ann", "Bob", "Cy"}})
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 3, 3})
	s.turn(1, "Bob", []int{6, 5, 4, 3, 3})
	s.turn(1, "Cy", []int{6, 5, 4, 3, 3}) // a tie: the pot carries
	// Dee joins after round 1; round 1 is reopened and won by Cy.
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/players"), token: s.tb.Host, body: map[string]any{"name": "Dee"}}, nil)
	s.correct("/rounds/1/take-back", "", nil)
	s.correct("/rounds/1/take-back", "", nil)
	s.act(s.tb.Host, 1, as(s.id("Cy"), roll(6, 5, 4, 5, 5)))
	s.act(s.tb.Host, 1, map[string]any{"player": s.id("Cy"), "kind": "stand"})
	r2 := s.start(nil)
	s.correct("/rounds/2/reverse", "", nil)
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/players/%d/leave", s.id("Ann")), token: s.tb.Host}, nil)
	r3 := s.start(nil)
	if len(r3.Players) != len(r2.Players)-1 {
		t.Fatalf("round 3 %v after Ann left, round 2 %v", r3.Players, r2.Players)
	}
	for _, p := range r3.Players {
		s.act(s.tb.Host, 3, as(p, roll(6, 5, 4, 2, 2)))
		s.act(s.tb.Host, 3, map[string]any{"player": p, "kind": "stand"})
	}
	s.correct("/rounds/3/reverse", "", nil)
	if rep := s.audit("full=true"); !rep.OK {
		t.Fatalf("%+v", rep)
	}
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/close"), token: s.tb.Host}, nil)
	s.auditOK()
}

func TestACorrectionThatWouldStrandAGameOfRoundsIsRefused(t *testing.T) {
	t.Parallel()
	s := scarneTwoRounds(t)
	var dee struct {
		ID int64 `json:"id"`
	}
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/players"), token: s.tb.Host,
		body: map[string]any{"name": "Dee"}}, &dee)
	// Reversed, round 2 would leave the game under way with Dee at the
	// table, who did not begin it: refused, as is reopening it.
	for _, p := range []string{"/rounds/2/reverse", "/rounds/2/take-back"} {
		s.refused(req{method: http.MethodPost, path: s.tb.path("%s", p), token: s.tb.Host}, http.StatusConflict,
			"/problems/conflict", "a game of rounds keeps the players it began with")
	}
	// With the players of round 2 seated as they were, it is corrected.
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/players/%d/leave", dee.ID), token: s.tb.Host}, nil)
	s.correct("/rounds/2/reverse", "the last round was scored wrong", nil)
	rd := s.start(nil)
	if rd.Number != 3 {
		t.Fatalf("the round after the reversal: %+v", rd)
	}
	if rep := s.audit("full=true"); !rep.OK {
		t.Fatalf("audit: %+v", rep)
	}
}

func TestPlayersJoinAGameOfRoundsWhoseOnlyRoundWasReversed(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "scarne", "players": []string{"Ann", "Bob"},
		"options": map[string]any{"goal": map[string]any{"kind": "rounds", "target": 2}}})
	ann, bob := s.id("Ann"), s.id("Bob")
	s.start(map[string]any{"rollOff": []any{throw(ann, 1, 1, 1, 1, 2), throw(bob, 3, 3, 3, 3, 3)}})
	s.correct("/rounds/1/reverse", "started before Cy sat down", nil)
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/players"), token: s.tb.Host,
		body: map[string]any{"name": "Cy"}}, nil)
	if rd := s.start(nil); len(rd.Players) != 3 {
		t.Fatalf("the round after Cy sat down: %+v", rd)
	}
	s.auditOK()
}

func TestAReasonWithAControlCharacterIsRefused(t *testing.T) {
	t.Parallel()
	s := correctionScene(t, nil)
	s.start(nil)
	s.act(s.tb.Host, 1, as(s.id("Ann"), roll(6, 5, 4, 3, 3)))
	for _, reason := range []string{"a\x00b", "line\nbreak", "\u202eboB"} {
		s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/take-back"), token: s.tb.Host,
			body: map[string]any{"reason": reason}}, http.StatusUnprocessableEntity, "/problems/invalid-request", "control character")
	}
}

// TestTakingBackATurnRecordedBeforeMigration7: turns recorded before
// corrections name no action that ended them; taking one back leaves an
// untampered table that audits clean.
func TestTakingBackATurnRecordedBeforeMigration7(t *testing.T) {
	t.Parallel()
	s := correctionScene(t, nil)
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 3, 3})
	s.turn(1, "Bob", []int{6, 5, 4, 1, 2})
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbtest.OwnerDSN(t, s.pool.Config().ConnString()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `UPDATE turns SET action_seq = 0 WHERE table_id = $1`, s.tb.ID); err != nil {
		t.Fatal(err)
	}
	s.auditOK()
	s.correct("/rounds/1/take-back", "Bob did not stand", nil)
	if rep := s.audit("full=true"); !rep.OK {
		t.Fatalf("audit after taking back a turn recorded before migration 7: %+v", rep)
	}
	s.act(s.tb.Host, 1, map[string]any{"player": s.id("Bob"), "kind": "stand"})
	s.turn(1, "Cy", []int{6, 5, 4, 1, 1})
	if rep := s.audit("full=true"); !rep.OK {
		t.Fatalf("audit after the turn ended again: %+v", rep)
	}
}

// TestAReversalRetargetedInTheDatabaseFailsTheAudit: which entry a
// reversal undoes, and why, is in its journal metadata and in its sealed
// event; changed in the database, they differ.
func TestAReversalRetargetedInTheDatabaseFailsTheAudit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, sql string }{
		{"what it reverses", `UPDATE journal_transactions SET metadata = jsonb_set(metadata, '{reverses}',
			to_jsonb((SELECT min(event_seq) FROM journal_transactions WHERE table_id = $1 AND kind = 'deposit')))
			WHERE table_id = $1 AND kind = 'reversal'`},
		{"its reason", `UPDATE journal_transactions SET metadata = jsonb_set(metadata, '{reason}', '"Ann asked for it"')
			WHERE table_id = $1 AND kind = 'reversal'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := correctionScene(t, nil)
			ann := s.id("Ann")
			for range 2 {
				s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/deposits"), token: s.tb.Host,
					body: map[string]any{"player": ann, "amount": 50}}, nil)
			}
			s.correct(fmt.Sprintf("/ledger/%d/reverse", s.ledgerEvent("deposit")), "entered twice", nil)
			s.auditOK()
			tamper(t, s, []string{tc.sql})
			if rep := s.audit(); rep.OK || !reportSays(rep, "the event's metadata is") {
				t.Fatalf("the audit passes a reversal whose metadata differs from its event: %+v", rep)
			}
		})
	}
}

func TestOddCorrectionsAreRefusedInWords(t *testing.T) {
	t.Parallel()
	s := correctionScene(t, nil)
	s.start(nil)
	s.act(s.tb.Host, 1, as(s.id("Ann"), roll(6, 5, 4, 3, 3)))
	for _, p := range []string{"/rounds/4294967297/take-back", "/rounds/9223372036854775807/reverse", "/rounds/2/take-back",
		"/ledger/9223372036854775807/reverse", "/ledger/4294967297/reverse"} {
		s.refused(req{method: http.MethodPost, path: s.tb.path("%s", p), token: s.tb.Host, invalid: true}, http.StatusNotFound,
			"/problems/not-found")
	}
	for _, body := range []string{`[]`, `{"reason":5}`, `"x"`} {
		s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/take-back"), token: s.tb.Host, raw: []byte(body), invalid: true},
			http.StatusBadRequest, "/problems/malformed-request")
	}
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/take-back"), token: s.tb.Audit}, http.StatusForbidden,
		"/problems/forbidden")
	ro := newRoyale(t, map[string]any{"fleet": "entered", "ante": 2}, "Ann", "Bob")
	ro.start(map[string]any{"first": ro.id("Bob")})
	for _, p := range []string{"/rounds/1/take-back", "/rounds/1/reverse"} {
		ro.refused(req{method: http.MethodPost, path: ro.tb.path("%s", p), token: ro.tb.Host}, http.StatusConflict,
			"/problems/conflict", "Battleship Royale")
	}
	ro.refused(req{method: http.MethodPost, path: ro.tb.path("/ledger/%d/reverse", ro.ledgerEvent("ante")), token: ro.tb.Host},
		http.StatusConflict, "/problems/conflict", "a Battleship Royale game's money")
	ro.auditOK()
	s.auditOK()
}
