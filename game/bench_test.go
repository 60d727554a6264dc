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
