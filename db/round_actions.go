package db

import (
	"strconv"
	"time"

	"github.com/tally-dice/tally/db/internal/dbsqlc"
	"github.com/tally-dice/tally/game"
)

// Action is one accepted action of a round (a roll, a stand, a claim), in
// the order the round accepted them, with the audit event that recorded it.
type Action struct {
	Round     int
	Seq       int
	Action    game.Action
	EventSeq  int64 // 0 when unknown (actions recorded before it was kept)
	CreatedAt time.Time
	// Voids is, for a correction (Action.Kind "void"), the seq of the
	// action it takes back, and Reason why; 0 and "" for the others.
	Voids  int
	Reason string
	// ByHost says whether the host's phone recorded the action for a
	// player other than its own seat: a closed automatic it threw for them
	// is the host's to claim. Every action written says; nil is an action
	// stored before the table kept it (migration 12), not known.
	ByHost *bool
}

// ActionListByRound queues reading one round's actions.
func (b *Batch) ActionListByRound(tableID int64, number int, out *[]Action) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.ActionListByRound(b.ctx, q, dbsqlc.ActionListByRoundParams{TableID: tableID, Number: int32(number)})
		if err != nil {
			return err
		}
		*out = make([]Action, len(rows))
		for i, r := range rows {
			(*out)[i] = toAction(number, r)
		}
		return nil
	})
}

// ActionListByTable queues reading every action of a table, by round.
func (b *Batch) ActionListByTable(tableID int64, out *[]Action) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.ActionListByTable(b.ctx, q, tableID)
		if err != nil {
			return err
		}
		*out = make([]Action, len(rows))
		for i, r := range rows {
			(*out)[i] = toTableAction(r)
		}
		return nil
	})
}

// toTableAction is an action read with its round's number.
func toTableAction(r dbsqlc.ActionListByTableRow) Action {
	return toAction(int(r.Round), dbsqlc.RoundAction{Seq: r.Seq, PlayerID: r.PlayerID, Kind: r.Kind,
		CreatedAt: r.CreatedAt, Dice: r.Dice, Rethrow: r.Rethrow, Path: r.Path, EventSeq: r.EventSeq,
		Voids: r.Voids, Reason: r.Reason, ByHost: r.ByHost})
}

func toAction(round int, r dbsqlc.RoundAction) Action {
	a := Action{Round: round, Seq: int(r.Seq), CreatedAt: r.CreatedAt, Reason: r.Reason, ByHost: r.ByHost,
		Action: game.Action{Player: game.PlayerID(r.PlayerID), Kind: game.ActionKind(r.Kind)}}
	if r.Voids != nil {
		a.Voids = int(*r.Voids)
	}
	if r.EventSeq != nil {
		a.EventSeq = *r.EventSeq
	}
	if a.Action.Kind == game.ActionRoll {
		a.Action.Roll = &game.Roll{Dice: ints(r.Dice), Rethrow: ints(r.Rethrow), Path: r.Path}
	}
	return a
}

// arrayLiteral writes dice as a PostgreSQL array literal, {6,5,4}: a
// request's actions go in one statement, one literal per action.
func arrayLiteral(dice []int) string {
	return string(appendArray(make([]byte, 0, 2+2*len(dice)), dice))
}

// appendArray appends dice as arrayLiteral writes them.
func appendArray(b []byte, dice []int) []byte {
	b = append(b, '{')
	for i, d := range dice {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(d), 10)
	}
	return append(b, '}')
}
