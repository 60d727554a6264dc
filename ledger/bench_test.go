package ledger_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/ledger"
)

// playRound posts a round's antes for every player and pays the pot to
// one of them, in ONE database transaction.
func playRound(ctx context.Context, store *ledger.Store, table int64, players []int64, winner int) error {
	antes := make([]ledger.PlayerAmount, len(players))
	for i, p := range players {
		antes[i] = ledger.PlayerAmount{PlayerID: p, Amount: 5}
	}
	return store.InTx(ctx, func(tx pgx.Tx) error {
		if _, err := ledger.Ante(ctx, tx, table, nil, antes); err != nil {
			return err
		}
		_, err := ledger.Payout(ctx, tx, table, nil, players[winner])
		return err
	})
}

var eightPlayers = []string{"Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"}

// BenchmarkRoundAntesAndPayout measures one table's rounds (8 antes and a
// payout, each with its audit event) committed one after another.
func BenchmarkRoundAntesAndPayout(b *testing.B) {
	f := newFixture(b, false, eightPlayers...)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if err := playRound(f.ctx, f.store, f.table.ID, f.players, i%len(f.players)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}

// BenchmarkRoundAntesAndPayoutParallel runs rounds on several tables at
// once, one table per goroutine, to show throughput when writers do not
// share a table lock.
func BenchmarkRoundAntesAndPayoutParallel(b *testing.B) {
	f := newFixture(b, false, eightPlayers...)
	type table struct {
		id      int64
		players []int64
	}
	var tables []table
	for range 16 {
		t := f.addTable(false, eightPlayers...)
		var ids []int64
		for _, p := range mustPlayers(b, f.pool, t.ID) {
			ids = append(ids, p.ID)
		}
		tables = append(tables, table{t.ID, ids})
	}
	var next atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		t := tables[int(next.Add(1)-1)%len(tables)]
		for i := 0; pb.Next(); i++ {
			if err := playRound(f.ctx, f.store, t.id, t.players, i%len(t.players)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}
