package game

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRoundSettlement(t *testing.T) {
	t.Parallel()
	abcd := []PlayerID{alice, bob, carol, dave}
	tests := []struct {
		name      string
		preset    string
		opts      Options
		players   []PlayerID
		carried   int64
		declared  int
		scores    []int // -1: no score
		kind      ResultKind
		winners   []PlayerID
		playoff   []PlayerID
		payouts   []Amount
		carry     int64
		remainder int64
		perPoint  []Payment
	}{
		{name: "highest wins the pot", preset: "classic", players: abc, carried: 2, scores: []int{7, 9, 3},
			kind: ResultWin, winners: []PlayerID{bob}, payouts: []Amount{{bob, 5}}},
		{name: "no score never wins", preset: "classic", players: abc, scores: []int{-1, 2, -1},
			kind: ResultWin, winners: []PlayerID{bob}, payouts: []Amount{{bob, 3}}},
		{name: "one tie, all tie: the pot carries", preset: "bar", players: abc, carried: 1, scores: []int{9, 9, 3},
			kind: ResultTie, carry: 4},
		{name: "split evenly", preset: "classic", players: abcd, scores: []int{8, 8, 3, -1},
			kind: ResultSplit, winners: []PlayerID{alice, bob}, payouts: []Amount{{alice, 2}, {bob, 2}}},
		{name: "split with a remainder that carries", preset: "classic", players: abcd, carried: 1, scores: []int{8, 8, 8, -1},
			kind: ResultSplit, winners: []PlayerID{alice, bob, carol}, payouts: []Amount{{alice, 1}, {bob, 1}, {carol, 1}},
			carry: 2, remainder: 2},
		{name: "nobody qualifies: all tie, the pot carries", preset: "classic", players: abc, scores: []int{-1, -1, -1},
			kind: ResultNoQualify, carry: 3},
		{name: "nobody qualifies: refund split among all", preset: "ship-of-fools", players: abc, carried: 2, scores: []int{-1, -1, -1},
			kind: ResultRefund, payouts: []Amount{{alice, 1}, {bob, 1}, {carol, 1}}, carry: 2, remainder: 2},
		{name: "low: lowest qualified score wins", preset: "classic", opts: Options{Low: ptr(true)}, players: abc, scores: []int{7, -1, 3},
			kind: ResultWin, winners: []PlayerID{carol}, payouts: []Amount{{carol, 3}}},
		{name: "low: no score never wins", preset: "classic", opts: Options{Low: ptr(true)}, players: abc, scores: []int{-1, 11, -1},
			kind: ResultWin, winners: []PlayerID{bob}, payouts: []Amount{{bob, 3}}},
		{name: "progressive: exact match wins", preset: "classic", opts: Options{Progressive: ptr(true)}, players: abc, carried: 6,
			declared: 7, scores: []int{11, 7, 3}, kind: ResultWin, winners: []PlayerID{bob}, payouts: []Amount{{bob, 9}}},
		{name: "progressive: nobody hits it, the whole pot carries", preset: "classic", opts: Options{Progressive: ptr(true)}, players: abc,
			carried: 6, declared: 5, scores: []int{11, 7, 3}, kind: ResultNoWinner, carry: 9},
		{name: "progressive: several hit it, tie rule", preset: "classic", opts: Options{Progressive: ptr(true)}, players: abc,
			carried: 1, declared: 7, scores: []int{7, 7, 3}, kind: ResultSplit, winners: []PlayerID{alice, bob},
			payouts: []Amount{{alice, 2}, {bob, 2}}},
		{name: "per-point: losers pay stake times margin; no score counts 0", preset: "classic",
			opts: Options{Payoff: ptr(PayoffPerPoint), Stake: ptr(int64(2))}, players: abc, scores: []int{5, 9, -1},
			kind: ResultWin, winners: []PlayerID{bob}, payouts: []Amount{{bob, 3}},
			perPoint: []Payment{{alice, bob, 8}, {carol, bob, 18}}},
		{name: "per-point low: margin the other way, no score counts as the worst", preset: "classic",
			opts: Options{Low: ptr(true), Payoff: ptr(PayoffPerPoint), Stake: ptr(int64(1))}, players: abc, scores: []int{5, 3, -1},
			kind: ResultWin, winners: []PlayerID{bob}, payouts: []Amount{{bob, 3}},
			perPoint: []Payment{{alice, bob, 2}, {carol, bob, 9}}},
		{name: "per-point with tied winners: each payment split, leftover unit in play order", preset: "classic",
			opts: Options{Payoff: ptr(PayoffPerPoint), Stake: ptr(int64(1))}, players: abcd, scores: []int{4, 9, 9, 6},
			kind: ResultSplit, winners: []PlayerID{bob, carol}, payouts: []Amount{{bob, 2}, {carol, 2}},
			perPoint: []Payment{{alice, bob, 3}, {alice, carol, 2}, {dave, bob, 2}, {dave, carol, 1}}},
		{name: "per-point one tie all tie: nobody pays", preset: "bar",
			opts: Options{Payoff: ptr(PayoffPerPoint), Stake: ptr(int64(1))}, players: abc, scores: []int{9, 9, 3},
			kind: ResultTie, carry: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rs := ruleset(t, tc.preset, tc.opts)
			s := RoundSetup{Players: tc.players, CarriedPot: tc.carried, Ante: true, Declared: tc.declared}
			if tc.declared != 0 {
				s.Declarer = tc.players[0]
			}
			r := play(t, rs, s, turns(tc.players, tc.scores))
			res, ok := r.Result()
			if !ok {
				t.Fatal("round not over")
			}
			st := res.Settlement
			if res.Kind != tc.kind || !slices.Equal(res.Winners, tc.winners) || !slices.Equal(res.Playoff, tc.playoff) {
				t.Errorf("kind %s winners %v playoff %v; want %s %v %v", res.Kind, res.Winners, res.Playoff, tc.kind, tc.winners, tc.playoff)
			}
			if !slices.Equal(st.Payouts, tc.payouts) || st.CarryOver != tc.carry || st.Remainder != tc.remainder {
				t.Errorf("payouts %v carry %d remainder %d; want %v %d %d", st.Payouts, st.CarryOver, st.Remainder, tc.payouts, tc.carry, tc.remainder)
			}
			if !slices.Equal(st.PerPoint, tc.perPoint) {
				t.Errorf("per-point %v, want %v", st.PerPoint, tc.perPoint)
			}
			if want := tc.carried + int64(len(tc.players))*rs.Ante; st.PotBefore != want || len(st.Antes) != len(tc.players) {
				t.Errorf("pot before %d antes %v, want %d", st.PotBefore, st.Antes, want)
			}
		})
	}
}

func TestRoundScarnePlayoffAndScoreZero(t *testing.T) {
	t.Parallel()
	rs := ruleset(t, "scarne", Options{})
	r := play(t, rs, RoundSetup{Players: abc, Ante: true}, turns(abc, []int{-1, 9, 4}))
	res, _ := r.Result()
	if res.Kind != ResultScored || res.Settlement.CarryOver != 3 || res.Scores[0].Score != 0 || res.Scores[1].Score != 9 {
		t.Fatalf("scarne round result %+v", res)
	}
	// A standalone round under Scarne's rules shows the tie rule: playoff.
	single := rs
	single.Goal = Goal{Kind: GoalRound}
	r = play(t, single, RoundSetup{Players: abc, Ante: true}, turns(abc, []int{9, 9, 4}))
	if res, _ := r.Result(); res.Kind != ResultPlayoff || !slices.Equal(res.Playoff, []PlayerID{alice, bob}) || res.Settlement.CarryOver != 3 {
		t.Fatalf("playoff result %+v", res)
	}
	// Nobody qualifying scores 0 each: everyone is tied.
	r = play(t, single, RoundSetup{Players: abc, Ante: true}, turns(abc, []int{-1, -1, -1}))
	if res, _ := r.Result(); res.Kind != ResultPlayoff || len(res.Playoff) != 3 {
		t.Fatalf("score-zero result %+v", res)
	}
}

func TestNewRoundRejects(t *testing.T) {
	t.Parallel()
	classic := ruleset(t, "classic", Options{})
	prog := ruleset(t, "classic", Options{Progressive: ptr(true)})
	tests := []struct {
		name string
		rs   Ruleset
		s    RoundSetup
	}{
		{"one player", classic, RoundSetup{Players: []PlayerID{alice}}},
		{"duplicate player", classic, RoundSetup{Players: []PlayerID{alice, alice}}},
		{"zero id", classic, RoundSetup{Players: []PlayerID{alice, 0}}},
		{"negative pot", classic, RoundSetup{Players: abc, CarriedPot: -1}},
		{"declared without progressive", classic, RoundSetup{Players: abc, Declared: 7, Declarer: alice}},
		{"declared out of range", prog, RoundSetup{Players: abc, Declared: 13, Declarer: alice}},
		{"declarer not playing", prog, RoundSetup{Players: abc, Declared: 7, Declarer: dave}},
	}
	for _, tc := range tests {
		if _, err := NewRound(tc.rs, tc.s); !errors.Is(err, ErrBadSetup) {
			t.Errorf("%s: err = %v, want ErrBadSetup", tc.name, err)
		}
	}
}

// randomRound plays a round by random legal actions and returns them.
func randomRound(t testing.TB, rng *rand.Rand, rs Ruleset, s RoundSetup) (*Round, []Action) {
	r, err := NewRound(rs, s)
	if err != nil {
		t.Fatal(err)
	}
	var actions []Action
	for !r.State().Over {
		st := r.State()
		p := st.Turn
		var a Action
		switch {
		case st.Claimable != 0 && rng.IntN(2) == 0:
			a = claimA(st.Claimable)
		case st.MayLiftCups && rng.IntN(2) == 0:
			a = liftA(p)
		case st.Next.MayStand && rng.IntN(3) == 0:
			a = standA(p)
		case st.Next.Throw > 0:
			roll := Roll{Dice: randomDice(rng, st.Next.Throw)}
			if contains(roll.Dice, 6) && contains(roll.Dice, 1) && len(st.Players[slices.IndexFunc(st.Players, func(ps PlayerState) bool { return ps.Player == p })].Outcome.Banked) == 0 && len(rs.Sequences) > 1 {
				roll.Path = "6-5-4"
			}
			a = Action{Player: p, Kind: ActionRoll, Roll: &roll}
		default:
			rethrow := randomRethrow(rng, st.Next)
			n := len(rethrow)
			if n == 0 {
				n = len(st.Next.Rerollable)
			}
			a = Action{Player: p, Kind: ActionRoll, Roll: &Roll{Dice: randomDice(rng, n), Rethrow: rethrow}}
		}
		if err := r.Apply(a); err != nil {
			t.Fatalf("%s: legal action %+v rejected: %v", rs.Preset, a, err)
		}
		actions = append(actions, a)
	}
	return r, actions
}

// TestPropertyRoundSettlement plays many random rounds in every preset and
// checks that money is conserved and that replaying gives the same result.
func TestPropertyRoundSettlement(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	var rulesets []Ruleset
	for _, rs := range propertyRulesets(t) {
		rs.Goal = Goal{Kind: GoalRound}
		rulesets = append(rulesets, rs)
		pp := rs
		pp.Payoff, pp.Stake = PayoffPerPoint, 3
		rulesets = append(rulesets, pp)
	}
	players := []PlayerID{pA, pB, pC, pD, pE}
	for _, rs := range rulesets {
		for range 200 {
			n := 2 + rng.IntN(4)
			s := RoundSetup{Players: players[:n], CarriedPot: rng.Int64N(20), Ante: rng.IntN(2) == 0}
			r, actions := randomRound(t, rng, rs, s)
			res, ok := r.Result()
			if !ok {
				t.Fatal("round not over")
			}
			st := res.Settlement
			var paid int64
			for _, p := range st.Payouts {
				if p.Amount <= 0 {
					t.Fatalf("payout %+v", p)
				}
				paid += p.Amount
			}
			if paid+st.CarryOver != st.PotBefore || st.Remainder > st.CarryOver || st.CarryOver < 0 {
				t.Fatalf("%s: money not conserved: %+v", rs.Preset, st)
			}
			for _, p := range st.PerPoint {
				if p.Amount <= 0 || p.From == p.To {
					t.Fatalf("per-point payment %+v", p)
				}
			}
			replay := play(t, rs, s, actions)
			again, _ := replay.Result()
			if again.Kind != res.Kind || !slices.Equal(again.Winners, res.Winners) || !slices.Equal(again.Settlement.Payouts, st.Payouts) {
				t.Fatalf("replay differs: %+v vs %+v", again, res)
			}
		}
	}
}
