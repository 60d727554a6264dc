package play

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

// Round reads one round as viewer may see it: live, with other players'
// sealed rolls hidden, or settled, with everything revealed.
func Round(ctx context.Context, q db.DBTX, viewer Principal, number int) (RoundView, error) {
	st, err := load(ctx, q, viewer.TableID)
	if err != nil {
		return RoundView{}, err
	}
	if st.last == nil || number < 1 || number > st.last.row.Number {
		return RoundView{}, fmt.Errorf("%w: table %d has no round %d", ErrNotFound, viewer.TableID, number)
	}
	pr := st.last
	if number != pr.row.Number {
		row, err := db.RoundGetByNumber(ctx, q, viewer.TableID, number)
		if err != nil {
			return RoundView{}, err
		}
		pr = &playedRound{row: row}
		if err := json.Unmarshal(row.Setup, &pr.setup); err != nil {
			return RoundView{}, fmt.Errorf("round %d: unreadable setup: %w", number, err)
		}
	}
	if pr.round == nil {
		// A settled round: load its actions and replay it alone.
		if pr.actions, err = db.RoundActionList(ctx, q, pr.row.ID); err != nil {
			return RoundView{}, err
		}
		if err := pr.replay(st.rs); err != nil {
			return RoundView{}, fmt.Errorf("%w: round %d does not replay: %w", ErrHistoryBroken, number, err)
		}
	}
	return pr.view(viewer)
}

// Rounds reads every round of the table, oldest first, each replayed.
func Rounds(ctx context.Context, q db.DBTX, viewer Principal) ([]RoundView, error) {
	st, err := loadReplayed(ctx, q, viewer.TableID)
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
		return liveView(pr.row.Number, pr.round, viewer), nil
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
	st, err := lockAndLoad(ctx, tx, who.TableID)
	if err != nil {
		return TableView{}, err
	}
	if cur := st.current(); cur != nil {
		return TableView{}, fmt.Errorf("%w: finish round %d before closing the table", ErrRoundPlaying, cur.row.Number)
	}
	var last []int64
	if st.last != nil {
		last = pids(st.last.setup.Round.Players)
	}
	if _, err := ledger.CloseTable(ctx, tx, who.TableID, last); err != nil {
		return TableView{}, err
	}
	return Table(ctx, tx, who.TableID, who)
}

// SealedActions lists the stored actions of the round being played that
// viewer may not read yet, by action sequence number: the closed throws of
// other players that the round still hides from viewer. The event log
// withholds these actions' payloads, so that it cannot unseal what GET round
// seals. It returns the round's number, or 0 when no round is being played.
func SealedActions(ctx context.Context, q db.DBTX, viewer Principal) (int, map[int]bool, error) {
	st, err := load(ctx, q, viewer.TableID)
	if err != nil {
		return 0, nil, err
	}
	cur := st.current()
	if cur == nil {
		return 0, nil, nil
	}
	view := cur.round.View(viewerOf(viewer))
	rolls := map[int64]int{} // rolls seen so far per player
	sealed := map[int]bool{}
	for _, a := range cur.actions {
		if a.Kind != string(game.ActionRoll) || a.PlayerID == nil {
			continue
		}
		k := rolls[*a.PlayerID]
		rolls[*a.PlayerID]++
		for _, ps := range view.Players {
			if ps.Player == sid(*a.PlayerID) && k < len(ps.Outcome.Rolls) && ps.Outcome.Rolls[k].Sealed {
				sealed[a.Seq] = true
			}
		}
	}
	return cur.row.Number, sealed, nil
}
