package play

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger"
)

// Round reads one round as viewer may see it: live, with other players'
// sealed rolls hidden, or settled, with everything revealed.
func Round(ctx context.Context, q db.DBTX, viewer Principal, number int) (RoundView, error) {
	st, err := load(ctx, q, viewer.TableID)
	if err != nil {
		return RoundView{}, err
	}
	if number < 1 || number > len(st.rounds) {
		return RoundView{}, fmt.Errorf("%w: table %d has no round %d", ErrNotFound, viewer.TableID, number)
	}
	return st.rounds[number-1].view(viewer)
}

// Rounds reads every round of the table, oldest first.
func Rounds(ctx context.Context, q db.DBTX, viewer Principal) ([]RoundView, error) {
	st, err := load(ctx, q, viewer.TableID)
	if err != nil {
		return nil, err
	}
	out := make([]RoundView, 0, len(st.rounds))
	for _, pr := range st.rounds {
		v, err := pr.view(viewer)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (pr *playedRound) view(viewer Principal) (RoundView, error) {
	if pr.row.Status == db.RoundOpen {
		return roundView(pr.row.Number, "playing", pr.round.View(viewerOf(viewer)), nil), nil
	}
	var stored storedResult
	if err := json.Unmarshal(pr.row.Result, &stored); err != nil {
		return RoundView{}, fmt.Errorf("round %d: unreadable result: %w", pr.row.Number, err)
	}
	v := roundView(pr.row.Number, "settled", pr.round.State(), &stored.Round)
	if gr := stored.Game; gr != nil {
		v.Game = &GameEndView{Winner: pid(gr.Winner), Settlement: settlementView(gr.Settlement), Totals: []TotalView{}}
		for _, t := range gr.Totals {
			v.Game.Totals = append(v.Game.Totals, TotalView{Player: pid(t.Player), Total: t.Points})
		}
	}
	return v, nil
}

// Close closes the table: the pot goes back to the players of the last round
// (RULES.md §6). A round being played must be finished first.
func Close(ctx context.Context, tx pgx.Tx, who Principal) (TableView, error) {
	if who.Role != RoleHost {
		return TableView{}, fmt.Errorf("%w: only the host closes the table", ErrForbidden)
	}
	if _, err := lockOpenTable(ctx, tx, who.TableID); err != nil {
		return TableView{}, err
	}
	st, err := load(ctx, tx, who.TableID)
	if err != nil {
		return TableView{}, err
	}
	if cur := st.current(); cur != nil {
		return TableView{}, fmt.Errorf("%w: finish round %d before closing the table", ErrRoundPlaying, cur.row.Number)
	}
	var last []int64
	if n := len(st.rounds); n > 0 {
		last = pids(st.rounds[n-1].setup.Round.Players)
	}
	if _, err := ledger.CloseTable(ctx, tx, who.TableID, last); err != nil {
		return TableView{}, err
	}
	return Table(ctx, tx, who.TableID, who)
}
