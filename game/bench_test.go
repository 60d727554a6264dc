package game

import "testing"

// BenchmarkValidateTurn judges a typical three-roll bar turn: ship, then
// captain and crew, then a closed cargo re-roll.
func BenchmarkValidateTurn(b *testing.B) {
	rs := ruleset(b, "bar", Options{})
	in := TurnInput{Rolls: []Roll{
		{Dice: []int{6, 4, 3, 3, 1}},
		{Dice: []int{5, 4, 1, 2}},
		{Dice: []int{5, 2}},
	}}
	b.ReportAllocs()
	for b.Loop() {
		o, err := ValidateTurn(rs, in)
		if err != nil || o.Score != 7 {
			b.Fatalf("score %d, err %v", o.Score, err)
		}
	}
}

// BenchmarkRound8Players replays a bar round of eight players from its
// stored actions, as the server does, and settles it.
func BenchmarkRound8Players(b *testing.B) {
	rs := ruleset(b, "bar", Options{})
	players := []PlayerID{1, 2, 3, 4, 5, 6, 7, 8}
	setup := RoundSetup{Players: players, CarriedPot: 5, Ante: true}
	var actions []Action
	for i, p := range players {
		switch i % 3 {
		case 0: // ship, then captain and crew, then a closed cargo re-roll
			actions = append(actions, rollA(p, 6, 4, 3, 3, 1), rollA(p, 5, 4, 1, 2), rollA(p, 5, 2))
		case 1: // 6-5-4 at once, stand
			actions = append(actions, scoreTurn(p, 8)...)
		default: // never puts to sea
			actions = append(actions, noScore(p)...)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		r, err := NewRound(rs, setup)
		if err != nil {
			b.Fatal(err)
		}
		for _, a := range actions {
			if err := r.Apply(a); err != nil {
				b.Fatal(err)
			}
		}
		if res, ok := r.Result(); !ok || res.Kind != ResultTie {
			b.Fatalf("result %+v", res)
		}
	}
}
