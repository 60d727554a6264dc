package db

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db/internal/dbsqlc"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/royale"
)

// This file is Battleship Royale's games: each stored as its setup (the
// players, who starts, the dealt hands) and its accepted actions, in order,
// which the service replays through the engine (package game/royale).

// RoyaleGame is one Battleship Royale game at a table.
type RoyaleGame struct {
	Number    int
	Setup     royale.Setup
	EventSeq  int64 // the audit event that started it
	CreatedAt time.Time
}

// RoyaleAction is one accepted action of a game, who recorded it (the host
// for a player without a phone, or the player), and the audit event that
// recorded it.
type RoyaleAction struct {
	Game      int
	Seq       int
	Action    royale.Action
	ByHost    bool
	EventSeq  int64
	CreatedAt time.Time
}

// RoyaleGameInsert queues starting a game.
func (b *Batch) RoyaleGameInsert(tableID int64, g RoyaleGame) {
	setup, err := json.Marshal(g.Setup)
	if err != nil {
		panic(fmt.Sprintf("db: a game setup always encodes: %v", err))
	}
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.RoyaleGameInsert(b.ctx, q, dbsqlc.RoyaleGameInsertParams{TableID: tableID, Number: int32(g.Number),
			Setup: setup, EventSeq: g.EventSeq})
	})
}

// RoyaleLatest queues reading a table's latest game and its actions, in
// one statement; with no game, latest is left zero.
func (b *Batch) RoyaleLatest(tableID int64, latest *RoyaleGame, actions *[]RoyaleAction) {
	b.queue(func(q dbsqlc.DBTX) error {
		row, err := queries.RoyaleGameLatest(b.ctx, q, tableID)
		return toRoyaleLatest(tableID, row, err, latest, actions)
	})
}

// RoyaleLatestSince is RoyaleLatest for a writer that keeps the table's
// latest game as it was at chain head since: while the head is still
// since, it reads the game's number and event, how many actions it has
// and how many do not read (out.GameActionCount, out.GameUnread), and
// neither its setup nor its actions; once the head has moved, what
// RoyaleLatest reads.
func (b *Batch) RoyaleLatestSince(tableID int64, since chain.Head, out *Loaded) {
	b.queue(func(q dbsqlc.DBTX) error {
		row, err := queries.RoyaleGameLatestSince(b.ctx, q, dbsqlc.RoyaleGameLatestSinceParams{TableID: tableID,
			HeadSeq: since.Seq, HeadHash: since.Hash})
		if err != nil || row.Setup != nil {
			return toRoyaleLatest(tableID, dbsqlc.RoyaleGameLatestRow{TableID: row.TableID, Number: row.Number,
				Setup: row.Setup, EventSeq: row.EventSeq, CreatedAt: row.CreatedAt, Actions: row.Actions}, err, &out.Game, &out.GameActions)
		}
		out.Game = RoyaleGame{Number: int(row.Number), EventSeq: row.EventSeq, CreatedAt: row.CreatedAt}
		out.GameActions, out.GameActionCount, out.GameUnread = nil, int(row.ActionCount), int(row.Unread)
		return nil
	})
}

// toRoyaleLatest reads a latest game with its actions as one JSON array,
// in one pass; with no game (pgx.ErrNoRows), latest is left zero.
func toRoyaleLatest(tableID int64, row dbsqlc.RoyaleGameLatestRow, err error, latest *RoyaleGame, actions *[]RoyaleAction) error {
	if errors.Is(err, pgx.ErrNoRows) {
		*actions = nil
		return nil
	}
	if err != nil {
		return err
	}
	if err := toRoyaleGame(dbsqlc.RoyaleGame{TableID: row.TableID, Number: row.Number, Setup: row.Setup,
		EventSeq: row.EventSeq, CreatedAt: row.CreatedAt}, latest); err != nil {
		return err
	}
	var list []struct {
		Seq       int32         `json:"seq"`
		Player    int64         `json:"player"`
		Kind      string        `json:"kind"`
		Action    royale.Action `json:"action"`
		ByHost    bool          `json:"byHost"`
		EventSeq  int64         `json:"eventSeq"`
		CreatedAt time.Time     `json:"createdAt"`
	}
	if err := json.Unmarshal(row.Actions, &list); err != nil {
		return fmt.Errorf("%w: game %d of table %d: its actions do not read: %w", ErrCorrupt, row.Number, tableID, err)
	}
	*actions = make([]RoyaleAction, len(list))
	for i, a := range list {
		if err := agree(a.Action, a.Player, a.Kind); err != nil {
			return fmt.Errorf("%w: action %d of game %d of table %d: %w", ErrCorrupt, a.Seq, row.Number, tableID, err)
		}
		(*actions)[i] = RoyaleAction{Game: int(row.Number), Seq: int(a.Seq), Action: a.Action, ByHost: a.ByHost,
			EventSeq: a.EventSeq, CreatedAt: a.CreatedAt}
	}
	return nil
}

// RoyaleGet queues reading one game and its actions; a missing game leaves
// g zero.
func (b *Batch) RoyaleGet(tableID int64, number int, g *RoyaleGame, actions *[]RoyaleAction) {
	b.queue(func(q dbsqlc.DBTX) error {
		return optional(g, func() (dbsqlc.RoyaleGame, error) {
			return queries.RoyaleGameGet(b.ctx, q, dbsqlc.RoyaleGameGetParams{TableID: tableID, Number: int32(number)})
		}, toRoyaleGame)
	})
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.RoyaleActionListByGame(b.ctx, q, dbsqlc.RoyaleActionListByGameParams{TableID: tableID, Game: int32(number)})
		return toRoyaleActions(rows, err, actions)
	})
}

// RoyaleList queues reading every game of a table and every action, by
// game.
func (b *Batch) RoyaleList(tableID int64, games *[]RoyaleGame, actions *[]RoyaleAction) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.RoyaleGameList(b.ctx, q, tableID)
		if err != nil {
			return err
		}
		*games = make([]RoyaleGame, len(rows))
		for i, r := range rows {
			if err := toRoyaleGame(r, &(*games)[i]); err != nil {
				return err
			}
		}
		return nil
	})
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.RoyaleActionListByTable(b.ctx, q, tableID)
		return toRoyaleActions(rows, err, actions)
	})
}

// RoyaleActionAppend queues writing actions of one game; a missing game
// fails the statement.
func (b *Batch) RoyaleActionAppend(tableID int64, number int, actions []RoyaleAction) {
	if len(actions) == 0 {
		return
	}
	p := dbsqlc.RoyaleActionAppendParams{TableID: tableID, Game: int32(number)}
	for _, a := range actions {
		body, err := json.Marshal(a.Action)
		if err != nil {
			panic(fmt.Sprintf("db: an action always encodes: %v", err))
		}
		p.Seqs = append(p.Seqs, int32(a.Seq))
		p.Players = append(p.Players, int64(a.Action.Player))
		p.Kinds = append(p.Kinds, string(a.Action.Kind))
		p.Actions = append(p.Actions, string(body))
		p.ByHost = append(p.ByHost, a.ByHost)
		p.Events = append(p.Events, a.EventSeq)
	}
	b.exec(func(q dbsqlc.DBTX) error { return queries.RoyaleActionAppend(b.ctx, q, p) })
}

func toRoyaleGame(r dbsqlc.RoyaleGame, out *RoyaleGame) error {
	*out = RoyaleGame{Number: int(r.Number), EventSeq: r.EventSeq, CreatedAt: r.CreatedAt}
	if err := json.Unmarshal(r.Setup, &out.Setup); err != nil {
		return fmt.Errorf("%w: game %d of table %d has a setup that does not read: %w", ErrCorrupt, r.Number, r.TableID, err)
	}
	return nil
}

func toRoyaleActions(rows []dbsqlc.RoyaleAction, err error, out *[]RoyaleAction) error {
	if err != nil {
		return err
	}
	*out = make([]RoyaleAction, len(rows))
	for i, r := range rows {
		a := RoyaleAction{Game: int(r.Game), Seq: int(r.Seq), ByHost: r.ByHost, EventSeq: r.EventSeq, CreatedAt: r.CreatedAt}
		if err := json.Unmarshal(r.Action, &a.Action); err != nil {
			return fmt.Errorf("%w: action %d of game %d of table %d does not read: %w", ErrCorrupt, r.Seq, r.Game, r.TableID, err)
		}
		if err := agree(a.Action, r.PlayerID, r.Kind); err != nil {
			return fmt.Errorf("%w: action %d of game %d of table %d: %w", ErrCorrupt, r.Seq, r.Game, r.TableID, err)
		}
		(*out)[i] = a
	}
	return nil
}

// agree checks a stored action's columns against its body: the columns are
// what the database can check and index, the body what the engine replays.
func agree(a royale.Action, player int64, kind string) error {
	if a.Player != game.PlayerID(player) || string(a.Kind) != kind {
		return errors.New("its columns and its body disagree")
	}
	return nil
}
