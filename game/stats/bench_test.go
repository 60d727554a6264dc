package stats

import (
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkCompute works out a season of a crew of six: 40 nights of 20
// rounds each, every member throwing in every round.
func BenchmarkCompute(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 7))
	var h History
	var seated []Member
	for m := range 6 {
		h.Members = append(h.Members, Person{ID: Member(m + 1), Name: string(rune('A' + m))})
		seated = append(seated, Member(m+1))
	}
	start := time.Date(2026, 1, 2, 23, 0, 0, 0, time.UTC)
	for n := range 40 {
		night := Night{Table: int64(n + 1), Played: start.Add(time.Duration(n) * 7 * 24 * time.Hour), Preset: "bar",
			Net: map[Member]int64{}}
		for r := range 20 {
			night.Rounds = append(night.Rounds, randomRound(rng, r+1, seated))
		}
		for _, m := range seated {
			night.Net[m] = rng.Int64N(41) - 20
		}
		h.Nights = append(h.Nights, night)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compute(h); err != nil {
			b.Fatal(err)
		}
	}
}
