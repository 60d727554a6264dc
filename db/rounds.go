package db

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/tally-dice/tally/db/internal/dbsqlc"
	"github.com/tally-dice/tally/game"
)

// Round statuses.
const (
	RoundOpen    = "open"
	RoundSettled = "settled"
	RoundVoid    = "void" // reversed (issue 13): the game is as it was before it
)

// Round is one round at a table: its setup as the engine made it, the
// roll-off throws that decided a roll-off table's first player, and the
// game's state just before the round, from which a request resumes the game
// without replaying the rounds before.
type Round struct {
	Number    int
	Setup     game.RoundSetup
	RollOff   []game.RollOffThrow
	Game      game.GameState
	Status    string
	CreatedAt time.Time
	SettledAt *time.Time
}

// RoundInsert queues opening a table's round.
func (b *Batch) RoundInsert(tableID int64, r Round) {
	gameState, err := json.Marshal(r.Game)
	if err != nil {
		panic(fmt.Sprintf("db: a game state always encodes: %v", err))
	}
	var rollOff []byte
	if len(r.RollOff) > 0 {
		if rollOff, err = json.Marshal(r.RollOff); err != nil {
			panic(fmt.Sprintf("db: roll-off throws always encode: %v", err))
		}
	}
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.RoundInsert(b.ctx, q, dbsqlc.RoundInsertParams{TableID: tableID, Number: int32(r.Number),
			Players: ids(r.Setup.Players), CarriedPot: r.Setup.CarriedPot, Ante: r.Setup.Ante,
			Declared: int32(r.Setup.Declared), Declarer: int64(r.Setup.Declarer), Playoff: r.Setup.Playoff,
			RollOff: rollOff, Game: gameState})
	})
}

// RoundGet queues reading a table's round by number; none leaves out zero.
func (b *Batch) RoundGet(tableID int64, number int, out *Round) {
	b.queue(func(q dbsqlc.DBTX) error {
		return optional(out, func() (dbsqlc.Round, error) {
			return queries.RoundGet(b.ctx, q, dbsqlc.RoundGetParams{TableID: tableID, Number: int32(number)})
		}, toRound)
	})
}

// RoundList queues reading every round of a table, oldest first.
func (b *Batch) RoundList(tableID int64, out *[]Round) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.RoundList(b.ctx, q, tableID)
		if err != nil {
			return err
		}
		*out = make([]Round, len(rows))
		for i, r := range rows {
			if err := toRound(r, &(*out)[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// RoundPage queues reading at most max of a table's rounds after round
// number after, oldest first, and their actions, by round. It queues two
// statements.
func (b *Batch) RoundPage(tableID int64, after, max int, rounds *[]Round, actions *[]Action) {
	// No round is numbered beyond what int32 holds: after that, nothing.
	p := dbsqlc.RoundPageParams{TableID: tableID, After: int32(min(after, math.MaxInt32)), Max: int32(max)}
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.RoundPage(b.ctx, q, p)
		if err != nil {
			return err
		}
		*rounds = make([]Round, len(rows))
		for i, r := range rows {
			if err := toRound(r, &(*rounds)[i]); err != nil {
				return err
			}
		}
		return nil
	})
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.ActionListByRoundPage(b.ctx, q, dbsqlc.ActionListByRoundPageParams(p))
		if err != nil {
			return err
		}
		*actions = make([]Action, len(rows))
		for i, r := range rows {
			(*actions)[i] = toTableAction(dbsqlc.ActionListByTableRow(r))
		}
		return nil
	})
}

func toRound(r dbsqlc.Round, out *Round) error {
	*out = Round{Number: int(r.Number), Status: r.Status, CreatedAt: r.CreatedAt, SettledAt: r.SettledAt,
		Setup: game.RoundSetup{Players: playerIDs(r.Players), CarriedPot: r.CarriedPot, Ante: r.Ante,
			Declared: int(r.Declared), Declarer: game.PlayerID(r.Declarer), Playoff: r.Playoff}}
	if err := json.Unmarshal(r.Game, &out.Game); err != nil {
		return fmt.Errorf("round %d: unreadable game state: %w", r.Number, err)
	}
	if len(r.RollOff) > 0 {
		if err := json.Unmarshal(r.RollOff, &out.RollOff); err != nil {
			return fmt.Errorf("round %d: unreadable roll-off: %w", r.Number, err)
		}
	}
	return nil
}

// ids and playerIDs convert player ids for bigint[] columns and back.
func ids(players []game.PlayerID) []int64 {
	out := make([]int64, len(players))
	for i, p := range players {
		out[i] = int64(p)
	}
	return out
}

func playerIDs(in []int64) []game.PlayerID {
	out := make([]game.PlayerID, len(in))
	for i, p := range in {
		out[i] = game.PlayerID(p)
	}
	return out
}

// ints and dice convert dice for int[] columns and back; no dice is nil.
func ints(in []int32) []int {
	if len(in) == 0 {
		return nil
	}
	out := make([]int, len(in))
	for i, v := range in {
		out[i] = int(v)
	}
	return out
}
