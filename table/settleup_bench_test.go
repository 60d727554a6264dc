package table

import "testing"

// BenchmarkSettleUp reads a table's settle-up as the host: with issue 26
// it also reads the players' payment handles and the payment claims, in
// the same round trip.
func BenchmarkSettleUp(b *testing.B) {
	f := newFixture(b, NewTable{Preset: "bar", Players: []string{"Ann", "Bob", "Cy", "Dee"}})
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := f.svc.SettleUp(f.ctx, f.host); err != nil {
			b.Fatal(err)
		}
	}
}
