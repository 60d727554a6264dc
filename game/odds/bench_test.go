package odds

import (
	"runtime"
	"testing"

	"github.com/tally-dice/tally/game"
)

// allShapes is the shape of every preset, high and low where the preset
// allows it, once each.
func allShapes(b testing.TB) []shape {
	seen := map[shape]bool{}
	var out []shape
	for _, p := range game.Presets() {
		for _, low := range []bool{false, true} {
			rs, err := game.NewRuleset(p.Name, game.Options{Low: &low})
			if err != nil {
				continue // a preset that cannot be played low
			}
			sh := shapeOf(rs)
			if !seen[sh] {
				seen[sh] = true
				out = append(out, sh)
			}
		}
	}
	return out
}

// BenchmarkPrecomputeAll builds the table of every preset's shape, high and
// low, from scratch (bypassing the cache), and reports the heap the tables
// keep alive.
func BenchmarkPrecomputeAll(b *testing.B) {
	shapes := allShapes(b)
	b.ReportAllocs()
	var built []*table
	for b.Loop() {
		built = built[:0]
		for _, sh := range shapes {
			built = append(built, buildTable(sh))
		}
	}
	b.StopTimer()
	var before, after runtime.MemStats
	built = nil
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, sh := range shapes {
		built = append(built, buildTable(sh))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc), "retained-B")
	b.ReportMetric(float64(len(shapes)), "shapes")
	runtime.KeepAlive(built)
}

// BenchmarkAdvise answers one query with its shape's table already built.
func BenchmarkAdvise(b *testing.B) {
	benches := []struct {
		name   string
		preset string
		q      Query
	}{
		{"bar/cargo-7-vs-8", "bar", Query{Banked: []int{6, 5, 4}, Cargo: []int{3, 4}, RollsLeft: 1, Point: intp(8), Later: 2}},
		{"bar/fresh", "bar", Query{RollsLeft: 3, Later: 5}},
		{"classic/qualified", "classic", Query{Banked: []int{6, 5, 4}, Cargo: []int{1, 6}, RollsLeft: 2, Point: intp(9), Later: 3}},
		{"ship-captain/qualified", "ship-captain", Query{Banked: []int{6, 5}, Cargo: []int{1, 3, 6}, RollsLeft: 2, Point: intp(12), Later: 3}},
		{"low-or-high/fresh", "low-or-high", Query{RollsLeft: 3, Point: intp(7), Later: 3}},
		{"family-meier/fresh", "family-meier", Query{RollsLeft: 3, Point: intp(7), Later: 3}},
	}
	for _, bc := range benches {
		b.Run(bc.name, func(b *testing.B) {
			q := bc.q
			q.Ruleset = ruleset(b, bc.preset, game.Options{})
			advise(b, q) // builds the table outside the timing
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Advise(q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
