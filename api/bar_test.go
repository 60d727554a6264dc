package api

import (
	"net/http"
	"slices"
	"testing"
)

// sealedFrom checks that a view shows player's turn with every closed throw
// sealed: no dice, banking or cargo for those throws, and no cargo, score or
// automatic for the turn, and no claimable automatic or point that would
// give them away.
func sealedFrom(t *testing.T, rd fullRound, player int64, who string) {
	t.Helper()
	o := rd.of(t, player).Outcome
	if !o.Sealed || o.Score != 0 || o.Cargo != nil || o.Automatic {
		t.Fatalf("%s reads player %d's sealed turn: %+v", who, player, o)
	}
	closed := 0
	for i, rr := range o.Rolls {
		if !rr.Closed {
			continue
		}
		closed++
		if !rr.Sealed || len(rr.Roll.Dice) > 0 || rr.Roll.Rethrow != nil || rr.Banked != nil || rr.Cargo != nil {
			t.Fatalf("%s reads player %d's closed roll %d: %+v", who, player, i+1, rr)
		}
	}
	if closed == 0 {
		t.Fatalf("%s: player %d has no closed roll to seal", who, player)
	}
	// Nobody else is told that a closed automatic may be claimed, not even
	// the host who records for everyone: it would say 6-6 under the cup.
	if rd.Claimable == player {
		t.Fatalf("%s is told player %d may claim an automatic", who, player)
	}
	if rd.Turn == player && rd.Next != nil && rd.Next.Rerollable != nil {
		t.Fatalf("%s reads player %d's sealed cargo through next.rerollable %v", who, player, rd.Next.Rerollable)
	}
}

// openTo checks that a view shows player's turn in full with the given cargo.
func openTo(t *testing.T, rd fullRound, player int64, cargo []int, who string) {
	t.Helper()
	o := rd.of(t, player).Outcome
	if o.Sealed || !slices.Equal(o.Cargo, cargo) || o.Score != sum(cargo) {
		t.Fatalf("%s sees player %d's turn as %+v, want cargo %v in the open", who, player, o, cargo)
	}
	for i, rr := range o.Rolls {
		if rr.Sealed || rr.Roll.Dice == nil {
			t.Fatalf("%s cannot read player %d's roll %d: %+v", who, player, i+1, rr)
		}
	}
}

func sum(v []int) int {
	n := 0
	for _, x := range v {
		n += x
	}
	return n
}

// TestBarAutomaticsAndClosedRolls plays four rounds of bar rules through the
// API: an open automatic, a closed automatic claimed in time, one claimed too
// late that counts as a plain 12, and a claimed automatic that beats a plain
// 12 after the cups were lifted. Closed rolls stay sealed from everyone but
// their thrower (the host and the auditor included) until lifted or the
// round ends, in GET round, GET rounds and action responses, and so does
// whether they make a claimable automatic.
func TestBarAutomaticsAndClosedRolls(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "options": map[string]any{"ante": 2}, "players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	annTok, bobTok, cyTok := s.join("Ann"), s.join("Bob"), s.join("Cy")
	others := map[string]string{"Ann": annTok, "Cy": cyTok, "host": s.tb.Host, "audit": s.tb.Audit}

	// Round 1: Ann stands on 6; Bob's open automatic wins at once and Cy
	// forfeits without throwing.
	rd := s.start(nil)
	if rd.Pot != 6 || !slices.Equal(rd.Players, []int64{ann, bob, cy}) || rd.Turn != ann {
		t.Fatalf("round 1 = %+v", rd)
	}
	s.expectMoney(6, map[string]int64{"Ann": -2, "Bob": -2, "Cy": -2})
	s.turn(1, "Ann", []int{6, 5, 4, 3, 3})
	rd = s.act(bobTok, 1, roll(6, 6, 6, 5, 4))
	if rd.Status != "settled" || rd.Result.Kind != "win" || !rd.Result.Automatic || !slices.Equal(rd.Result.Winners, []int64{bob}) {
		t.Fatalf("open automatic: %+v", rd.Result)
	}
	if tv := rd.of(t, cy); tv.Status != "forfeited" || !rd.score(t, cy).Forfeited || !rd.of(t, bob).AutomaticWon {
		t.Fatalf("Cy should forfeit to Bob's automatic: %+v", rd.Turns)
	}
	if st := rd.Result.Settlement; st.PotBefore != 6 || len(st.Payouts) != 1 || st.Payouts[0] != (amountOut{bob, 6}) || st.CarryOver != 0 {
		t.Fatalf("round 1 settlement %+v", st)
	}
	s.expectMoney(0, map[string]int64{"Ann": -2, "Bob": 4, "Cy": -2})

	// Round 2: Bob qualifies in the open, re-rolls 6-6 under the cup and
	// claims the automatic before Cy throws.
	rd = s.start(nil)
	if !slices.Equal(rd.Players, []int64{bob, cy, ann}) {
		t.Fatalf("round 2 plays %v, want Bob, Cy, Ann", rd.Players)
	}
	s.act(bobTok, 2, roll(6, 5, 4, 1, 2))
	rd = s.act(bobTok, 2, roll(6, 6))
	openTo(t, rd, bob, []int{6, 6}, "Bob's own action response")
	// Under the cup the turn stays Bob's until he claims or stands, as on any
	// closed cargo, so nobody can tell a 6-6 from the turn moving on.
	if rd.Claimable != bob || !rd.of(t, bob).Outcome.Rolls[1].Closed || rd.Turn != bob {
		t.Fatalf("Bob's closed automatic: %+v", rd)
	}
	for who, tok := range others {
		seen := s.round(tok, 2)
		sealedFrom(t, seen, bob, who+" (GET round)")
		if seen.Point != nil {
			t.Fatalf("%s sees a point %d made of sealed dice", who, *seen.Point)
		}
		if first := seen.of(t, bob).Outcome.Rolls[0]; !slices.Equal(first.Roll.Dice, []int{6, 5, 4, 1, 2}) {
			t.Fatalf("%s cannot read Bob's open first roll: %+v", who, first)
		}
		sealedFrom(t, s.rounds(tok)[1], bob, who+" (GET rounds)")
	}
	openTo(t, s.round(bobTok, 2), bob, []int{6, 6}, "Bob (GET round)")
	for who, tok := range others {
		if dice := closedDiceInEvents(t, s, tok, 2); len(dice) > 0 {
			t.Fatalf("%s reads Bob's sealed dice %v in the event log", who, dice)
		}
	}
	if dice := closedDiceInEvents(t, s, bobTok, 2); len(dice) != 1 {
		t.Fatalf("Bob reads his own closed roll in the event log as %v", dice)
	}
	rd = s.act(bobTok, 2, map[string]any{"kind": "claim-automatic"})
	if rd.Status != "settled" || !rd.Result.Automatic || !slices.Equal(rd.Result.Winners, []int64{bob}) ||
		!rd.score(t, cy).Forfeited || !rd.score(t, ann).Forfeited {
		t.Fatalf("claimed automatic: %+v", rd.Result)
	}
	for who, tok := range others {
		openTo(t, s.round(tok, 2), bob, []int{6, 6}, who+" after the round")
	}
	s.expectMoney(0, map[string]int64{"Ann": -4, "Bob": 8, "Cy": -4})

	// Round 3: Cy's closed 6-6 is not claimed before Ann's first roll, so it
	// is a plain 12, which still beats Ann's 10 and Bob's 11.
	s.start(nil)
	s.act(cyTok, 3, roll(6, 5, 4, 1, 1))
	if rd = s.act(cyTok, 3, roll(6, 6)); rd.Claimable != cy {
		t.Fatalf("Cy may claim: %+v", rd)
	}
	if rd = s.act(cyTok, 3, map[string]any{"kind": "stand"}); rd.Claimable != cy || rd.Turn != ann {
		t.Fatalf("Cy stood and may still claim until Ann throws: %+v", rd)
	}
	rd = s.act(annTok, 3, roll(6, 5, 4, 5, 5))
	sealedFrom(t, rd, cy, "Ann's action response")
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/3/actions"), token: cyTok, body: map[string]any{"kind": "claim-automatic"}},
		http.StatusUnprocessableEntity, "/problems/invalid-request", "no closed automatic")
	s.act(annTok, 3, map[string]any{"kind": "stand"})
	rd = s.turn(3, "Bob", []int{6, 5, 4, 6, 5})
	if rd.Result.Kind != "win" || rd.Result.Automatic || !slices.Equal(rd.Result.Winners, []int64{cy}) {
		t.Fatalf("round 3: %+v", rd.Result)
	}
	if sc := rd.score(t, cy); sc.Score != 12 || sc.Automatic || !sc.Qualified {
		t.Fatalf("Cy's unclaimed automatic scores %+v, want a plain 12", sc)
	}
	s.expectMoney(0, map[string]int64{"Ann": -6, "Bob": 6, "Cy": 0})

	// Round 4: Ann's closed 6-6 on her third roll goes unclaimed. Bob, with
	// 6-5-4 on his first roll, calls for the cups: Ann's 12 is shown to all.
	// Bob's own closed re-rolls stay sealed, then his claimed automatic
	// beats Ann's plain 12 (no tie) and Cy forfeits.
	s.start(nil)
	s.act(annTok, 4, roll(6, 5, 4, 2, 2))
	s.act(annTok, 4, roll(3, 3))
	for who, tok := range map[string]string{"Bob": bobTok, "Cy": cyTok, "host": s.tb.Host, "audit": s.tb.Audit} {
		sealedFrom(t, s.round(tok, 4), ann, who+" during Ann's turn")
	}
	s.act(annTok, 4, roll(6, 6))
	rd = s.act(bobTok, 4, roll(6, 5, 4, 1, 1))
	sealedFrom(t, rd, ann, "Bob's action response")
	if !rd.MayLiftCups || rd.Claimable != 0 {
		t.Fatalf("Bob may lift the cups and Ann's claim is gone: %+v", rd)
	}
	rd = s.act(bobTok, 4, map[string]any{"kind": "lift-cups"})
	for who, tok := range map[string]string{"Bob's action response": "", "Cy": cyTok, "host": s.tb.Host, "audit": s.tb.Audit} {
		seen := rd
		if tok != "" {
			seen = s.round(tok, 4)
		}
		openTo(t, seen, ann, []int{6, 6}, who+" after lift-cups")
		if !seen.of(t, ann).Revealed {
			t.Fatalf("%s: Ann's cups are not marked lifted", who)
		}
	}
	s.act(bobTok, 4, roll(2, 3))
	for who, tok := range map[string]string{"Ann": annTok, "Cy": cyTok, "host": s.tb.Host, "audit": s.tb.Audit} {
		sealedFrom(t, s.round(tok, 4), bob, who+" during Bob's re-rolls")
	}
	s.act(bobTok, 4, roll(6, 6))
	rd = s.act(bobTok, 4, map[string]any{"kind": "claim-automatic"})
	if !rd.Result.Automatic || !slices.Equal(rd.Result.Winners, []int64{bob}) || rd.score(t, ann).Automatic ||
		rd.score(t, ann).Score != 12 || !rd.score(t, cy).Forfeited {
		t.Fatalf("round 4: %+v", rd.Result)
	}
	s.expectMoney(0, map[string]int64{"Ann": -8, "Bob": 10, "Cy": -2})
	s.settleUp()
}

// closedDiceInEvents lists the dice of cargo re-rolls (throws of fewer than
// five dice) that the event log shows token for round n.
func closedDiceInEvents(t *testing.T, s *scene, token string, n int) [][]int {
	t.Helper()
	var page struct {
		Events []struct {
			Kind    string `json:"kind"`
			Payload struct {
				Round  int `json:"round"`
				Action *struct {
					Roll *struct {
						Dice []int `json:"dice"`
					} `json:"roll"`
				} `json:"action"`
			} `json:"payload"`
		} `json:"events"`
	}
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?limit=500"), token: token}, &page)
	var out [][]int
	for _, e := range page.Events {
		a := e.Payload.Action
		if e.Kind == "round.action" && e.Payload.Round == n && a != nil && a.Roll != nil && len(a.Roll.Dice) < 5 {
			out = append(out, a.Roll.Dice)
		}
	}
	return out
}
