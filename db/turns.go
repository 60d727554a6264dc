package db

import (
	"github.com/tally-dice/tally/db/internal/dbsqlc"
	"github.com/tally-dice/tally/game"
)

// Turn is a finished turn as the engine judged it when it ended: Seq is the
// player's place in the round's play order, from 1.
type Turn struct {
	Round     int
	Seq       int
	Player    game.PlayerID
	Qualified bool
	Score     int
	Cargo     []int
	Automatic bool
	Stood     bool
	// ActionSeq is the round action that ended the turn (0 for turns
	// recorded before migration 7): a turn ended again, after the action
	// that ended it was taken back, is recorded again.
	ActionSeq int
}

// TurnOf is how a finished turn's outcome is recorded.
func TurnOf(round, seq int, player game.PlayerID, o game.Outcome) Turn {
	return Turn{Round: round, Seq: seq, Player: player, Qualified: o.Qualified, Score: o.Score,
		Cargo: o.Cargo, Automatic: o.Automatic, Stood: o.Stood}
}

// TurnListByTable queues reading every recorded turn of a table, by round
// and play order.
func (b *Batch) TurnListByTable(tableID int64, out *[]Turn) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.TurnListByTable(b.ctx, q, tableID)
		if err != nil {
			return err
		}
		*out = make([]Turn, len(rows))
		for i, r := range rows {
			(*out)[i] = Turn{Round: int(r.Round), Seq: int(r.Seq), Player: game.PlayerID(r.PlayerID),
				Qualified: r.Qualified, Score: int(r.Score), Cargo: ints(r.Cargo), Automatic: r.Automatic, Stood: r.Stood,
				ActionSeq: int(r.ActionSeq)}
		}
		return nil
	})
}
