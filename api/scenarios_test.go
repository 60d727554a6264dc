package api

import (
	"net/http"
	"slices"
	"testing"
)

// These tests play whole rounds of each preset through the API and check
// the money to the unit after every round, then settle up and audit.

// miss is three throws that never show a 6 or a 1, so they bank nothing in
// any preset of the Ship, Captain and Crew family.
var miss = [][]int{{2, 2, 3, 3, 5}, {2, 2, 3, 3, 5}, {2, 2, 3, 3, 5}}

// expectResult checks a settled round's kind, winners and money.
func expectResult(t *testing.T, rd fullRound, kind string, winners []int64, potBefore, carry int64) {
	t.Helper()
	if rd.Status != "settled" || rd.Result == nil {
		t.Fatalf("round %d is not settled: %+v", rd.Number, rd)
	}
	r := rd.Result
	if r.Kind != kind || !slices.Equal(r.Winners, winners) || r.Settlement.PotBefore != potBefore || r.Settlement.CarryOver != carry {
		t.Fatalf("round %d: %s winners %v pot %d carry %d, want %s %v %d %d",
			rd.Number, r.Kind, r.Winners, r.Settlement.PotBefore, r.Settlement.CarryOver, kind, winners, potBefore, carry)
	}
	var paid int64
	for _, p := range r.Settlement.Payouts {
		paid += p.Amount
	}
	if paid+carry != potBefore {
		t.Fatalf("round %d pays %d and carries %d of a pot of %d", rd.Number, paid, carry, potBefore)
	}
}

func TestBarTiesCarryTheWholePot(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		reante bool
		pots   [3]int64
		money  map[string]int64
	}{
		{"re-ante on tie", true, [3]int64{9, 18, 27}, map[string]int64{"Ann": -9, "Bob": -9, "Cy": 18}},
		{"no re-ante", false, [3]int64{9, 9, 9}, map[string]int64{"Ann": -3, "Bob": -3, "Cy": 6}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newScene(t, map[string]any{"preset": "bar", "options": map[string]any{"ante": 3, "reanteOnTie": tc.reante},
				"players": []string{"Ann", "Bob", "Cy"}})
			ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")

			// One tie, all tie: Ann and Bob both make 8.
			s.start(nil)
			s.turn(1, "Ann", []int{6, 5, 4, 4, 4})
			s.turn(1, "Bob", []int{6, 5, 4, 5, 3})
			rd := s.turn(1, "Cy", []int{6, 5, 4, 1, 1})
			expectResult(t, rd, "tie", nil, tc.pots[0], tc.pots[0])
			s.expectMoney(9, map[string]int64{"Ann": -3, "Bob": -3, "Cy": -3})

			// Nobody puts to sea: all tie again.
			if rd = s.start(nil); rd.Pot != tc.pots[1] || !slices.Equal(rd.Players, []int64{bob, cy, ann}) {
				t.Fatalf("round 2 = %+v", rd)
			}
			s.turn(2, "Bob", miss...)
			s.turn(2, "Cy", miss...)
			rd = s.turn(2, "Ann", miss...)
			expectResult(t, rd, "no-qualify", nil, tc.pots[1], tc.pots[1])
			if ante := len(rd.Result.Settlement.Antes); ante != 0 && !tc.reante || ante != 3 && tc.reante {
				t.Fatalf("round 2 antes %+v", rd.Result.Settlement.Antes)
			}

			// Cy's 11 takes everything that carried.
			s.start(nil)
			s.turn(3, "Cy", []int{6, 5, 4, 6, 5})
			s.turn(3, "Ann", []int{6, 5, 4, 3, 3})
			rd = s.turn(3, "Bob", miss...)
			expectResult(t, rd, "win", []int64{cy}, tc.pots[2], 0)
			s.expectMoney(0, tc.money)
			s.settleUp()
		})
	}
}

func TestClassicSplitRemainderCarries(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "options": map[string]any{"ante": 5}, "players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 6, 3})
	s.turn(1, "Bob", []int{6, 5, 4, 5, 4})
	rd := s.turn(1, "Cy", []int{6, 5, 4, 1, 1})
	expectResult(t, rd, "split", []int64{ann, bob}, 15, 1)
	if st := rd.Result.Settlement; st.Remainder != 1 || !slices.Equal(st.Payouts, []amountOut{{ann, 7}, {bob, 7}}) {
		t.Fatalf("split %+v", st)
	}
	s.expectMoney(1, map[string]int64{"Ann": 2, "Bob": 2, "Cy": -5})
	var tv struct{ Pot int64 }
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path(""), token: s.tb.Host}, &tv)
	if tv.Pot != 1 {
		t.Fatalf("GET table pot = %d, want the remainder 1", tv.Pot)
	}
	// Settling up waits for the pot.
	s.refused(req{method: http.MethodGet, path: s.tb.path("/settle-up"), token: s.tb.Host}, http.StatusConflict, "/problems/pot-not-empty", "pot still holds 1")

	if rd = s.start(nil); rd.Pot != 16 {
		t.Fatalf("round 2 pot %d, want the remainder 1 plus 15 of antes", rd.Pot)
	}
	s.turn(2, "Bob", []int{6, 5, 4, 1, 2})
	s.turn(2, "Cy", []int{6, 5, 4, 6, 6})
	rd = s.turn(2, "Ann", miss...)
	expectResult(t, rd, "win", []int64{cy}, 16, 0)
	s.expectMoney(0, map[string]int64{"Ann": -3, "Bob": -3, "Cy": 6})
	s.settleUp()
}

func TestProgressivePotDeclaredByRotatingDeclarer(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "options": map[string]any{"ante": 2, "progressive": true},
		"players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	start := req{method: http.MethodPost, path: s.tb.path("/rounds"), token: s.tb.Host}
	s.refused(start, http.StatusUnprocessableEntity, "/problems/invalid-request", "declared score")
	start.body = map[string]any{"declared": 13}
	s.refused(start, http.StatusUnprocessableEntity, "/problems/invalid-request", "between 2 and 12", "13")

	rounds := []struct {
		declared  int
		declarer  int64
		turns     map[string][]int
		potBefore int64
	}{
		{7, ann, map[string][]int{"Ann": {6, 5, 4, 4, 4}, "Bob": {6, 5, 4, 3, 3}}, 6},
		{9, bob, map[string][]int{"Bob": {6, 5, 4, 5, 5}, "Cy": {6, 5, 4, 6, 6}, "Ann": {6, 5, 4, 1, 2}}, 12},
		{5, cy, map[string][]int{"Cy": {6, 5, 4, 3, 3}, "Ann": {6, 5, 4, 1, 4}, "Bob": {6, 5, 4, 6, 6}}, 18},
	}
	orders := [][]string{{"Ann", "Bob", "Cy"}, {"Bob", "Cy", "Ann"}, {"Cy", "Ann", "Bob"}}
	var rd fullRound
	for i, r := range rounds {
		rd = s.start(map[string]any{"declared": r.declared})
		if rd.Declarer != r.declarer || rd.Declared != r.declared || rd.Pot != r.potBefore {
			t.Fatalf("round %d declares %d by %d with pot %d, want %d by %d with %d", i+1, rd.Declared, rd.Declarer, rd.Pot,
				r.declared, r.declarer, r.potBefore)
		}
		for _, name := range orders[i] {
			if dice, ok := r.turns[name]; ok {
				rd = s.turn(i+1, name, dice)
			} else {
				rd = s.turn(i+1, name, miss...)
			}
		}
		if i < 2 {
			expectResult(t, rd, "no-winner", nil, r.potBefore, r.potBefore)
			s.expectMoney(r.potBefore, map[string]int64{"Ann": -2 * int64(i+1), "Bob": -2 * int64(i+1), "Cy": -2 * int64(i+1)})
		}
	}
	// Ann's 5 is the declared score; Bob's 12 and Cy's 6 do not count.
	expectResult(t, rd, "win", []int64{ann}, 18, 0)
	s.expectMoney(0, map[string]int64{"Ann": 12, "Bob": -6, "Cy": -6})
	s.settleUp()
}

func TestPerPointPayoffThenCloseOut(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "options": map[string]any{"ante": 1, "payoff": "per-point", "stake": 3},
		"players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")

	// Ann's 10 wins the pot; Bob pays 3 × (10-7), Cy without a score 3 × 10.
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 5, 5})
	s.turn(1, "Bob", []int{6, 5, 4, 4, 3})
	rd := s.turn(1, "Cy", miss...)
	expectResult(t, rd, "win", []int64{ann}, 3, 0)
	if pp := rd.Result.Settlement.PerPoint; !slices.Equal(pp, []paymentOut{{bob, ann, 9}, {cy, ann, 30}}) {
		t.Fatalf("per-point payments %+v", pp)
	}
	s.expectMoney(0, map[string]int64{"Ann": 41, "Bob": -10, "Cy": -31})

	// Bob and Cy tie on 8: they split the pot (remainder 1 carries) and
	// Ann's 3 × 3 = 9, the odd unit to Bob, who threw first.
	s.start(nil)
	s.turn(2, "Bob", []int{6, 5, 4, 4, 4})
	s.turn(2, "Cy", []int{6, 5, 4, 6, 2})
	rd = s.turn(2, "Ann", []int{6, 5, 4, 3, 2})
	expectResult(t, rd, "split", []int64{bob, cy}, 3, 1)
	if pp := rd.Result.Settlement.PerPoint; !slices.Equal(pp, []paymentOut{{ann, bob, 5}, {ann, cy, 4}}) {
		t.Fatalf("per-point payments %+v", pp)
	}
	s.expectMoney(1, map[string]int64{"Ann": 31, "Bob": -5, "Cy": -27})

	// Closing returns the odd unit to the first player of the last round.
	var closed struct{ Status string }
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/close"), token: s.tb.Host}, &closed)
	if closed.Status != "closed" {
		t.Fatalf("table status %q after closing", closed.Status)
	}
	s.expectMoney(0, map[string]int64{"Ann": 31, "Bob": -4, "Cy": -27})
	s.settleUp()
}

func TestShipOfFoolsRefundAndRotateRight(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "ship-of-fools", "options": map[string]any{"ante": 5}, "players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 6, 3})
	s.turn(1, "Bob", []int{6, 5, 4, 4, 5})
	expectResult(t, s.turn(1, "Cy", []int{6, 5, 4, 1, 1}), "split", []int64{ann, bob}, 15, 1)
	s.expectMoney(1, map[string]int64{"Ann": 2, "Bob": 2, "Cy": -5})

	// The next round starts to the right of Ann: with Cy. Nobody puts to
	// sea, so the pot is refunded equally and its odd unit carries.
	rd := s.start(nil)
	if !slices.Equal(rd.Players, []int64{cy, ann, bob}) {
		t.Fatalf("round 2 plays %v, want Cy, Ann, Bob", rd.Players)
	}
	s.turn(2, "Cy", miss...)
	s.turn(2, "Ann", miss...)
	rd = s.turn(2, "Bob", miss...)
	expectResult(t, rd, "refund", nil, 16, 1)
	if st := rd.Result.Settlement; st.Remainder != 1 || !slices.Equal(st.Payouts, []amountOut{{cy, 5}, {ann, 5}, {bob, 5}}) {
		t.Fatalf("refund %+v", st)
	}
	s.expectMoney(1, map[string]int64{"Ann": 2, "Bob": 2, "Cy": -5})

	rd = s.start(nil)
	if !slices.Equal(rd.Players, []int64{bob, cy, ann}) {
		t.Fatalf("round 3 plays %v, want Bob, Cy, Ann", rd.Players)
	}
	s.turn(3, "Bob", []int{6, 5, 4, 6, 6})
	s.turn(3, "Cy", []int{6, 5, 4, 1, 1})
	expectResult(t, s.turn(3, "Ann", miss...), "win", []int64{bob}, 16, 0)
	s.expectMoney(0, map[string]int64{"Ann": -3, "Bob": 13, "Cy": -10})
	s.settleUp()
}

func TestShipCaptainScoresThreeCargoDice(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "ship-captain", "options": map[string]any{"ante": 2}, "players": []string{"Ann", "Bob"}})
	ann, bob := s.id("Ann"), s.id("Bob")
	s.start(nil)
	rd := s.turn(1, "Ann", []int{6, 5, 6, 6, 5})
	if o := rd.of(t, ann).Outcome; !slices.Equal(o.Banked, []int{6, 5}) || !slices.Equal(o.Cargo, []int{6, 6, 5}) || o.Score != 17 {
		t.Fatalf("Ann's turn %+v, want 6-5 banked and 17 in cargo", o)
	}
	// Bob keeps one 1 and re-throws the other two.
	s.act(s.tb.Host, 1, as(bob, roll(6, 5, 1, 1, 1)))
	rd = s.act(s.tb.Host, 1, as(bob, map[string]any{"kind": "roll", "dice": []int{6, 6}, "rethrow": []int{1, 1}}))
	if o := rd.of(t, bob).Outcome; !slices.Equal(o.Cargo, []int{6, 6, 1}) || !o.Rolls[1].CargoReroll {
		t.Fatalf("Bob's re-roll %+v", o)
	}
	rd = s.act(s.tb.Host, 1, as(bob, map[string]any{"kind": "stand"}))
	expectResult(t, rd, "win", []int64{ann}, 4, 0)
	if rd.score(t, bob).Score != 13 {
		t.Fatalf("Bob scores %d, want 13", rd.score(t, bob).Score)
	}
	s.expectMoney(0, map[string]int64{"Ann": 2, "Bob": -2})
	s.settleUp()
}

func TestLowOrHighPaths(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "low-or-high", "players": []string{"Ann", "Bob", "Cy"}})
	ann, bob := s.id("Ann"), s.id("Bob")
	s.start(nil)
	rd := s.turn(1, "Ann", []int{1, 2, 3, 4, 4})
	if o := rd.of(t, ann).Outcome; !slices.Equal(o.Path, []int{1, 2, 3}) || !slices.Equal(o.Banked, []int{1, 2, 3}) || o.Score != 8 {
		t.Fatalf("Ann on 1-2-3: %+v", o)
	}
	// A first banking roll with both a 6 and a 1 must name its path.
	p := s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host,
		body: map[string]any{"player": bob, "rolls": []any{map[string]any{"dice": []int{6, 1, 2, 5, 4}}}}},
		http.StatusUnprocessableEntity, "/problems/invalid-roll", "6-5-4 or 1-2-3")
	if p.Rule != "ambiguous-path" || p.Roll != 1 {
		t.Fatalf("ambiguous path problem %+v", p)
	}
	rd = s.turnWith(1, "Bob", map[string]any{"dice": []int{6, 1, 2, 5, 4}, "path": "6-5-4"})
	if o := rd.of(t, bob).Outcome; !slices.Equal(o.Path, []int{6, 5, 4}) || !slices.Equal(o.Cargo, []int{2, 1}) {
		t.Fatalf("Bob on 6-5-4: %+v", o)
	}
	expectResult(t, s.turn(1, "Cy", miss...), "win", []int64{ann}, 3, 0)
	s.expectMoney(0, map[string]int64{"Ann": 2, "Bob": -1, "Cy": -1})
	s.settleUp()
}

func TestFamilyMeierExamples(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "family-meier", "options": map[string]any{"ante": 4}, "players": []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := s.id("Ann"), s.id("Bob"), s.id("Cy")
	s.start(nil)
	// docs/rules.md §3: [1,5,6] [2,4] [3] is 4 + 3 = 7.
	rd := s.turn(1, "Ann", []int{1, 5, 6}, []int{2, 4}, []int{3})
	if o := rd.of(t, ann).Outcome; !o.Qualified || o.Score != 7 || !slices.Equal(o.Cargo, []int{4, 3}) {
		t.Fatalf("Ann's Meier %+v, want children 4 and 3", o)
	}
	s.refused(req{method: http.MethodPost, path: s.tb.path("/rounds/1/turns"), token: s.tb.Host,
		body: map[string]any{"player": bob, "rolls": []any{map[string]any{"dice": []int{1, 2, 5}}, map[string]any{"dice": []int{3, 4}}}}},
		http.StatusUnprocessableEntity, "/problems/invalid-roll", "all three throws")
	// [1,2,5] [3,4] [6] is 5 + 3 + 4 + 6 = 18.
	s.turn(1, "Bob", []int{1, 2, 5}, []int{3, 4}, []int{6})
	rd = s.turn(1, "Cy", []int{3, 3, 3}, []int{4, 4}, []int{5})
	expectResult(t, rd, "win", []int64{bob}, 12, 0)
	if sc := rd.score(t, bob); sc.Score != 18 {
		t.Fatalf("Bob scores %d, want 18", sc.Score)
	}
	if sc := rd.score(t, cy); sc.Qualified {
		t.Fatalf("Cy found no parents but scores %+v", sc)
	}
	s.expectMoney(0, map[string]int64{"Ann": -4, "Bob": 8, "Cy": -4})
	s.settleUp()
}

func TestLowGameLowestQualifiedScoreWins(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "options": map[string]any{"ante": 2, "low": true}, "players": []string{"Ann", "Bob", "Cy"}})
	ann, cy := s.id("Ann"), s.id("Cy")
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 1, 2})
	// 6-6 is no automatic in a low game: the round goes on to Cy.
	if rd := s.turn(1, "Bob", []int{6, 5, 4, 6, 6}); rd.Status != "playing" || rd.Turn != cy || rd.Point == nil || *rd.Point != 3 {
		t.Fatalf("after Bob's 12 in a low game: %+v", rd)
	}
	rd := s.turn(1, "Cy", miss...)
	expectResult(t, rd, "win", []int64{ann}, 6, 0)
	s.expectMoney(0, map[string]int64{"Ann": 4, "Bob": -2, "Cy": -2})
	s.settleUp()
}
