package game

import (
	"errors"
	"slices"
	"testing"
)

func rollA(p PlayerID, dice ...int) Action {
	return Action{Player: p, Kind: ActionRoll, Roll: &Roll{Dice: dice}}
}
func standA(p PlayerID) Action { return Action{Player: p, Kind: ActionStand} }
func claimA(p PlayerID) Action { return Action{Player: p, Kind: ActionClaimAutomatic} }
func liftA(p PlayerID) Action  { return Action{Player: p, Kind: ActionLiftCups} }

// scoreTurn is a whole turn that scores exactly score with two cargo dice:
// 6-5-4 on the first roll, then stand.
func scoreTurn(p PlayerID, score int) []Action {
	a := min(6, score-1)
	return []Action{rollA(p, 6, 5, 4, a, score-a), standA(p)}
}

// noScore is a whole turn that never puts to sea.
func noScore(p PlayerID) []Action {
	return []Action{rollA(p, 1, 1, 1, 1, 1), rollA(p, 1, 1, 1, 1, 1), rollA(p, 1, 1, 1, 1, 1)}
}

// turns builds a round's actions from per-player scores; -1 means no score.
func turns(players []PlayerID, scores []int) []Action {
	var out []Action
	for i, p := range players {
		if scores[i] < 0 {
			out = append(out, noScore(p)...)
		} else {
			out = append(out, scoreTurn(p, scores[i])...)
		}
	}
	return out
}

// play starts a round and applies every action, failing on any error.
func play(t testing.TB, rs Ruleset, s RoundSetup, actions []Action) *Round {
	t.Helper()
	r, err := NewRound(rs, s)
	if err != nil {
		t.Fatalf("NewRound: %v", err)
	}
	for i, a := range actions {
		if err := r.Apply(a); err != nil {
			t.Fatalf("action %d %+v: %v", i+1, a, err)
		}
	}
	return r
}

var abc = []PlayerID{alice, bob, carol}

func TestRoundOrderPointHammer(t *testing.T) {
	t.Parallel()
	rs := ruleset(t, "classic", Options{})
	r := play(t, rs, RoundSetup{Players: abc, Ante: true}, nil)
	if err := r.Apply(rollA(bob, 6, 5, 4, 1, 1)); !errors.Is(err, ErrOutOfTurn) {
		t.Fatalf("bob first: %v, want ErrOutOfTurn", err)
	}
	if err := r.Apply(rollA(dave, 6, 5, 4, 1, 1)); !errors.Is(err, ErrUnknownPlayer) {
		t.Fatalf("dave: %v, want ErrUnknownPlayer", err)
	}
	st := r.State()
	if st.Turn != alice || st.Hammer != carol || st.Point != nil || st.Pot != 3 || st.Next.Throw != 5 {
		t.Fatalf("fresh state = %+v", st)
	}
	for _, a := range scoreTurn(alice, 7) {
		if err := r.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Apply(rollA(bob, 6, 5, 1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	st = r.State()
	if st.Turn != bob || st.Hammer != carol || st.Point == nil || *st.Point != 7 {
		t.Fatalf("state = turn %s hammer %s point %v", st.Turn, st.Hammer, st.Point)
	}
	if st.Players[0].Status != StatusDone || st.Players[1].Status != StatusPlaying || st.Players[2].Status != StatusWaiting {
		t.Fatalf("statuses %v %v %v", st.Players[0].Status, st.Players[1].Status, st.Players[2].Status)
	}
	if _, ok := r.Result(); ok {
		t.Fatal("result before the round is over")
	}
}

func TestRoundRejectedActionChangesNothing(t *testing.T) {
	t.Parallel()
	rs := ruleset(t, "bar", Options{})
	r := play(t, rs, RoundSetup{Players: abc}, []Action{rollA(alice, 6, 1, 1, 1, 1)})
	before := r.State()
	for _, a := range []Action{rollA(alice, 5, 4, 3, 2, 1), {Player: alice, Kind: "dance"}, {Player: alice, Kind: ActionRoll},
		standA(alice), claimA(alice), liftA(alice), rollA(bob, 6, 5, 4, 3, 3)} {
		if err := r.Apply(a); err == nil {
			t.Fatalf("%+v accepted", a)
		}
	}
	after := r.State()
	if after.Turn != before.Turn || len(after.Players[0].Outcome.Rolls) != 1 || after.Hammer != before.Hammer {
		t.Fatalf("state changed: %+v", after)
	}
}

func TestRoundAutomatics(t *testing.T) {
	t.Parallel()
	bar := ruleset(t, "bar", Options{})
	closedAuto := []Action{rollA(alice, 6, 1, 1, 1, 1), rollA(alice, 5, 4, 2, 2), rollA(alice, 6, 6)}
	// A closed automatic with a roll left keeps the turn open until a stand
	// or a claim, like any other cargo under the cup.
	closedAutoEarly := []Action{rollA(alice, 6, 5, 4, 1, 1), rollA(alice, 6, 6)}
	tests := []struct {
		name      string
		actions   []Action
		winners   []PlayerID
		kind      ResultKind
		automatic bool
		forfeited []PlayerID
	}{
		{"open automatic wins at once, later players forfeit",
			[]Action{rollA(alice, 6, 5, 4, 6, 6)}, []PlayerID{alice}, ResultWin, true, []PlayerID{bob, carol}},
		{"closed automatic claimed before the next roll",
			append(slices.Clone(closedAuto), claimA(alice)), []PlayerID{alice}, ResultWin, true, []PlayerID{bob, carol}},
		{"unclaimed closed automatic is a plain 12 and does not tie a later claimed one",
			append(slices.Clone(closedAuto), rollA(bob, 6, 5, 4, 6, 6)), []PlayerID{bob}, ResultWin, true, []PlayerID{carol}},
		{"a closed automatic with a roll left is claimed before the stand",
			append(slices.Clone(closedAutoEarly), claimA(alice)), []PlayerID{alice}, ResultWin, true, []PlayerID{bob, carol}},
		{"a closed automatic with a roll left may still be claimed after the stand",
			append(slices.Clone(closedAutoEarly), standA(alice), claimA(alice)), []PlayerID{alice}, ResultWin, true, []PlayerID{bob, carol}},
		{"a closed automatic re-rolled away can no longer be claimed",
			append(slices.Clone(closedAutoEarly), rollA(alice, 3, 3), rollA(bob, 6, 5, 4, 1, 1), standA(bob), scoreTurn(carol, 2)[0], standA(carol)),
			[]PlayerID{alice}, ResultWin, false, nil},
		{"two unclaimed closed automatics tie as plain 12s",
			append(slices.Clone(closedAuto), rollA(bob, 6, 5, 4, 1, 1), rollA(bob, 6, 6), standA(bob), scoreTurn(carol, 7)[0], standA(carol)),
			nil, ResultTie, false, nil},
		{"the hammer's closed automatic counts when the round ends",
			append(append(scoreTurn(alice, 7), scoreTurn(bob, 11)...), rollA(carol, 6, 5, 4, 1, 1), rollA(carol, 6, 6), standA(carol)),
			[]PlayerID{carol}, ResultWin, true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := play(t, bar, RoundSetup{Players: abc, Ante: true}, tc.actions)
			res, ok := r.Result()
			if !ok {
				t.Fatalf("round not over: %+v", r.State())
			}
			if res.Kind != tc.kind || !slices.Equal(res.Winners, tc.winners) || res.Automatic != tc.automatic {
				t.Fatalf("result %s %v automatic=%v, want %s %v %v", res.Kind, res.Winners, res.Automatic, tc.kind, tc.winners, tc.automatic)
			}
			var forfeited []PlayerID
			for _, s := range res.Scores {
				if s.Forfeited {
					forfeited = append(forfeited, s.Player)
				}
			}
			if !slices.Equal(forfeited, tc.forfeited) {
				t.Fatalf("forfeited %v, want %v", forfeited, tc.forfeited)
			}
			if err := r.Apply(rollA(carol, 6, 5, 4, 1, 1)); !errors.Is(err, ErrRoundOver) {
				t.Fatalf("action after the end: %v", err)
			}
		})
	}
}

func TestRoundClaimTooLate(t *testing.T) {
	t.Parallel()
	r := play(t, ruleset(t, "bar", Options{}), RoundSetup{Players: abc},
		[]Action{rollA(alice, 6, 5, 4, 1, 1), rollA(alice, 6, 6), standA(alice)})
	if st := r.View(bob); st.Claimable != 0 {
		t.Fatalf("bob sees alice's claim: %+v", st.Claimable)
	}
	if st := r.View(alice); st.Claimable != alice {
		t.Fatalf("alice cannot see her claim")
	}
	if err := r.Apply(claimA(bob)); !errors.Is(err, ErrNoAutomatic) {
		t.Fatalf("bob claims: %v", err)
	}
	if err := r.Apply(rollA(bob, 1, 1, 1, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(claimA(alice)); !errors.Is(err, ErrNoAutomatic) {
		t.Fatalf("late claim: %v, want ErrNoAutomatic", err)
	}
}

func TestRoundSealingAndLiftingCups(t *testing.T) {
	t.Parallel()
	bar := ruleset(t, "bar", Options{})
	// Alice re-rolls her cargo under the cup; Bob puts to sea in two open
	// rolls and may then call Alice to lift her cup.
	r := play(t, bar, RoundSetup{Players: abc, Ante: true}, []Action{
		rollA(alice, 6, 5, 4, 1, 2), rollA(alice, 5, 4), standA(alice),
		rollA(bob, 6, 1, 1, 1, 1),
	})
	pub := r.View(0)
	a := pub.Players[0].Outcome
	if !a.Sealed || a.Score != 0 || a.Cargo != nil || !a.Rolls[1].Sealed || len(a.Rolls[1].Roll.Dice) != 0 || !a.Qualified {
		t.Fatalf("public sees alice's closed roll: %+v", a)
	}
	if a.Rolls[0].Sealed || !slices.Equal(a.Rolls[0].Roll.Dice, []int{6, 5, 4, 1, 2}) {
		t.Fatalf("alice's open roll is hidden: %+v", a.Rolls[0])
	}
	if pub.Point != nil {
		t.Fatalf("point %d from a sealed score", *pub.Point)
	}
	if own := r.View(alice).Players[0].Outcome; own.Sealed || own.Score != 9 {
		t.Fatalf("alice's own view: %+v", own)
	}
	if full := r.State().Players[0].Outcome; full.Sealed || full.Score != 9 || *r.State().Point != 9 {
		t.Fatalf("state is not the whole truth: %+v", full)
	}
	if pub.MayLiftCups {
		t.Fatal("bob may lift cups before putting to sea")
	}
	if err := r.Apply(liftA(bob)); !errors.Is(err, ErrLiftNotAllowed) {
		t.Fatalf("early lift: %v", err)
	}
	if err := r.Apply(rollA(bob, 5, 4, 3, 3)); err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(liftA(carol)); !errors.Is(err, ErrOutOfTurn) {
		t.Fatalf("carol lifts: %v", err)
	}
	if !r.View(carol).MayLiftCups {
		t.Fatal("bob may not lift cups after 6-5-4 in two rolls")
	}
	if err := r.Apply(liftA(bob)); err != nil {
		t.Fatal(err)
	}
	v := r.View(carol)
	if o := v.Players[0].Outcome; o.Sealed || o.Score != 9 || !v.Players[0].Revealed || *v.Point != 9 {
		t.Fatalf("after lifting, carol sees %+v point %v", o, v.Point)
	}
	if err := r.Apply(liftA(bob)); !errors.Is(err, ErrLiftNotAllowed) {
		t.Fatalf("second lift with no cups down: %v", err)
	}
	// Bob re-rolls under the cup; carol then sees it sealed until the end.
	if err := r.Apply(rollA(bob, 2, 2)); err != nil {
		t.Fatal(err)
	}
	if o := r.View(carol).Players[1].Outcome; !o.Sealed || o.Score != 0 {
		t.Fatalf("carol sees bob's closed re-roll: %+v", o)
	}
	for _, a := range scoreTurn(carol, 5) {
		if err := r.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	end := r.View(0)
	if o := end.Players[1].Outcome; !end.Over || !end.Next.Over || end.Turn != 0 || o.Sealed || o.Score != 4 {
		t.Fatalf("cups not lifted at the end: %+v", o)
	}
	if res, _ := r.Result(); res.Kind != ResultWin || res.Winners[0] != alice {
		t.Fatalf("result %+v", res)
	}
}
