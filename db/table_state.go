package db

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db/internal/dbsqlc"
	"github.com/tally-dice/tally/game"
)

// This file is what every write reads of a table (TableLoad) and adds to
// it at the end (TableAppend).

// KeyRef names a stored Idempotency-Key.
type KeyRef struct {
	TableID int64
	Scope   string
	Key     string
	Since   time.Time // answers stored at or before it have expired
}

// Loaded is what TableLoad reads of a table besides its row.
type Loaded struct {
	Players  []Player
	Accounts []Account
	Latest   Round    // the latest round; Number 0 when none was played
	Actions  []Action // the latest round's
	// Game is a Battleship Royale table's latest game (Number 0 when none
	// was played, and at a dice table), GameActions its actions: read by
	// RoyaleLatest, for the writes that need them.
	Game        RoyaleGame
	GameActions []RoyaleAction
	// GameActionCount and GameUnread are, when RoyaleLatestSince found
	// the head it was given, how many actions the latest game has and how
	// many of them do not read (their columns and body disagree); Game
	// then holds only the game's number, event and time.
	GameActionCount int
	GameUnread      int
	// Key is the stored answer of the Idempotency-Key looked up (no
	// RequestHash when there is none).
	Key IdempotencyKey
}

// TableLoad queues reading what a write needs of a table: its players,
// accounts, latest round with its actions (RoundLatest) and the stored
// Idempotency-Key key (when key.Key is set), a few small indexed reads sent
// in the same round trip. A writer queues them after TableLock, so they
// read what the last writer committed.
func (b *Batch) TableLoad(tableID int64, key KeyRef, out *Loaded) {
	b.PlayerList(tableID, &out.Players)
	b.AccountList(tableID, &out.Accounts)
	b.RoundLatest(tableID, &out.Latest, &out.Actions)
	if key.Key != "" {
		b.IdempotencyKeyGet(key, &out.Key)
	}
}

// TableLoadChanged is TableLoad for a writer that keeps the table's state
// as it was at chain head since: the players, accounts and latest round
// are read only when the table's head is no longer since (each of those
// reads reads nothing when it is), the latest round's actions always (the
// writer checks its kept round against them). Queued after TableLock,
// the reads compare the head under the lock, so the writer knows from the
// row it locked (its Head) which it got.
func (b *Batch) TableLoadChanged(tableID int64, since chain.Head, key KeyRef, out *Loaded) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.PlayerListChanged(b.ctx, q, dbsqlc.PlayerListChangedParams{TableID: tableID, HeadSeq: since.Seq, HeadHash: since.Hash})
		if err != nil {
			return err
		}
		out.Players = make([]Player, len(rows))
		for i, r := range rows {
			_ = toPlayer(r, &out.Players[i])
		}
		return nil
	})
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.AccountListChanged(b.ctx, q, dbsqlc.AccountListChangedParams{TableID: tableID, HeadSeq: since.Seq, HeadHash: since.Hash})
		out.Accounts = toAccounts(rows)
		return err
	})
	b.queue(func(q dbsqlc.DBTX) error {
		return optional(&out.Latest, func() (dbsqlc.Round, error) {
			return queries.RoundLatestChanged(b.ctx, q, dbsqlc.RoundLatestChangedParams{TableID: tableID, HeadSeq: since.Seq, HeadHash: since.Hash})
		}, toRound)
	})
	b.actionsLatest(tableID, &out.Latest, &out.Actions)
	if key.Key != "" {
		b.IdempotencyKeyGet(key, &out.Key)
	}
}

// RoundLatest queues reading a table's latest round and its actions; with
// no round, latest is left zero.
func (b *Batch) RoundLatest(tableID int64, latest *Round, actions *[]Action) {
	b.queue(func(q dbsqlc.DBTX) error {
		return optional(latest, func() (dbsqlc.Round, error) { return queries.RoundLatest(b.ctx, q, tableID) }, toRound)
	})
	b.actionsLatest(tableID, latest, actions)
}

// actionsLatest queues reading the actions of the table's latest round
// (numbered as latest, once it is read).
func (b *Batch) actionsLatest(tableID int64, latest *Round, actions *[]Action) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.ActionListLatest(b.ctx, q, tableID)
		if err != nil {
			return err
		}
		*actions = make([]Action, len(rows))
		for i, r := range rows {
			(*actions)[i] = toAction(latest.Number, r)
		}
		return nil
	})
}

// Append is what a write adds to a table's history.
type Append struct {
	Round int // the round Actions and Turns belong to
	// Actions are the round's new actions, each saying whether the host's
	// phone recorded it (ByHost set: TableAppend panics on one that does
	// not, as only actions stored before migration 12 may not say).
	Actions []Action
	Turns   []Turn
	Settles int // the round the write settles, 0 for none
	Reopens int // the settled round the write opens again, 0 for none
	Voids   int // the round the write reverses, 0 for none
	Events  []chain.Event
	Head    chain.Head // the chain's head after Events
	// HeadSeal is the seal of Head (package seal); each event carries its
	// own.
	HeadSeal []byte
	Rounds   int // the table's round count after the write
	Key      IdempotencyKey
	// At is when the write happened, by the service's clock (its events
	// carry the same time): when the round it settles or reverses ended,
	// and when its key's answer was given.
	At time.Time
}

// TableAppend queues writing, in one statement, a write's actions, finished
// turns and audit events, the round it settles, the table's new head and
// round count and its Idempotency-Key's answer (when Key.Key is set); and,
// in a second statement, one notification of the change (TableNotify). A
// round to write to that is missing, or to settle that is not open, fails
// the statement (ErrNotFound); a key stored meanwhile, ErrConflict.
//
// A key stored under another table than tableID (making a table: table 0)
// is written by a statement of its own, so that every statement names one
// table.
//
// version, when not nil, is given the table row's version after the write
// (its xmin), which a later TableLockKept compares the row with.
func (b *Batch) TableAppend(tableID int64, a Append, version *string) {
	p := dbsqlc.TableAppendParams{TableID: tableID, Round: int32(a.Round), Settles: int32(a.Settles),
		Reopens: int32(a.Reopens), Voids: int32(a.Voids),
		HeadSeq: a.Head.Seq, HeadHash: a.Head.Hash, HeadSeal: a.HeadSeal, Rounds: int32(a.Rounds), At: a.At}
	if a.Key.Key != "" && a.Key.TableID != tableID {
		b.IdempotencyKeyInsert(a.Key, a.At)
	} else {
		p.Scope, p.Key, p.RequestHash, p.ResponseStatus = a.Key.Scope, a.Key.Key, a.Key.RequestHash, int32(a.Key.Status)
		p.ResponseBody, p.ResponseContentType = a.Key.Body, a.Key.ContentType
	}
	if p.ResponseBody == nil {
		p.ResponseBody = []byte{}
	}
	// Each column's array is made at its length once (TableAppend runs on
	// every write); an empty one stays nil, sent as NULL, as before.
	na, nt, ne := len(a.Actions), len(a.Turns), len(a.Events)
	p.ActionSeqs, p.ActionPlayers, p.ActionKinds = sized[int32](na), sized[int64](na), sized[string](na)
	p.ActionDice, p.ActionRethrows, p.ActionPaths = sized[string](na), sized[string](na), sized[string](na)
	p.ActionEvents, p.ActionVoids, p.ActionReasons = sized[int64](na), sized[int32](na), sized[string](na)
	p.ActionByHost = sized[bool](na)
	p.TurnSeqs, p.TurnPlayers, p.TurnQualified = sized[int32](nt), sized[int64](nt), sized[bool](nt)
	p.TurnScores, p.TurnCargo, p.TurnAutomatic = sized[int32](nt), sized[string](nt), sized[bool](nt)
	p.TurnStood, p.TurnActionSeqs = sized[bool](nt), sized[int32](nt)
	p.EventSeqs, p.EventKinds, p.EventPayloads = sized[int64](ne), sized[string](ne), sized[string](ne)
	p.EventPrevHashes, p.EventHashes, p.EventSeals = sized[[]byte](ne), sized[[]byte](ne), sized[[]byte](ne)
	for _, act := range a.Actions {
		var roll game.Roll
		if act.Action.Roll != nil {
			roll = *act.Action.Roll
		}
		p.ActionSeqs = append(p.ActionSeqs, int32(act.Seq))
		p.ActionPlayers = append(p.ActionPlayers, int64(act.Action.Player))
		p.ActionKinds = append(p.ActionKinds, string(act.Action.Kind))
		p.ActionDice = append(p.ActionDice, arrayLiteral(roll.Dice))
		p.ActionRethrows = append(p.ActionRethrows, arrayLiteral(roll.Rethrow))
		p.ActionPaths = append(p.ActionPaths, roll.Path)
		p.ActionEvents = append(p.ActionEvents, act.EventSeq)
		p.ActionVoids = append(p.ActionVoids, int32(act.Voids))
		p.ActionReasons = append(p.ActionReasons, act.Reason)
		if act.ByHost == nil {
			panic(fmt.Sprintf("db: round action %d of round %d: a new action always says whether the host's phone recorded it", act.Seq, a.Round))
		}
		p.ActionByHost = append(p.ActionByHost, *act.ByHost)
	}
	for _, t := range a.Turns {
		p.TurnSeqs = append(p.TurnSeqs, int32(t.Seq))
		p.TurnPlayers = append(p.TurnPlayers, int64(t.Player))
		p.TurnQualified = append(p.TurnQualified, t.Qualified)
		p.TurnScores = append(p.TurnScores, int32(t.Score))
		p.TurnCargo = append(p.TurnCargo, arrayLiteral(t.Cargo))
		p.TurnAutomatic = append(p.TurnAutomatic, t.Automatic)
		p.TurnStood = append(p.TurnStood, t.Stood)
		p.TurnActionSeqs = append(p.TurnActionSeqs, int32(t.ActionSeq))
	}
	for _, e := range a.Events {
		p.EventSeqs = append(p.EventSeqs, e.Seq)
		p.EventKinds = append(p.EventKinds, e.Kind)
		p.EventPayloads = append(p.EventPayloads, string(e.Payload))
		p.EventPrevHashes = append(p.EventPrevHashes, e.PrevHash)
		p.EventHashes = append(p.EventHashes, e.Hash)
		p.EventSeals = append(p.EventSeals, e.Seal)
		p.CreatedAt = e.CreatedAt // a write's events share its time
	}
	// Recorded once, like an exec (its some fifty arguments boxed once);
	// its result is read as its one row.
	b.record(func(q dbsqlc.DBTX) error { _, err := queries.TableAppend(b.ctx, q, p); return err })
	b.ops = append(b.ops, func(q dbsqlc.DBTX) error {
		var r dbsqlc.TableAppendRow
		err := q.QueryRow(b.ctx, "").Scan(&r.TallyExpect, &r.TallyExpect_2, &r.TallyExpect_3, &r.TallyExpect_4,
			&r.TallyExpect_5, &r.RowVersion)
		if err == nil && version != nil {
			*version = r.RowVersion
		}
		return err
	})
	if n := len(a.Events); n > 0 {
		last := a.Events[n-1]
		b.TableNotify(strconv.FormatInt(tableID, 10) + ":" + strconv.FormatInt(last.Seq, 10) + ":" +
			hex.EncodeToString(last.Hash) + ":" + last.Kind)
	}
}

// TableNotify queues announcing a change (table:seq:hash:kind, which
// parseNotice reads) to every listening process when the transaction
// commits.
func (b *Batch) TableNotify(message string) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.TableNotify(b.ctx, q, dbsqlc.TableNotifyParams{Channel: channel, Message: message})
	})
}

// sized is an empty slice with room for n, or nil for none.
func sized[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, 0, n)
}

// TableLockKept queues locking a table for a write decided on the state
// an instance kept of it, failing the transaction (ErrNotFound) unless the
// table row is the version TableAppend gave (rowVersion), the token whose
// hash is tokenHash is still one of the table's (as TableLockAs asks) and
// the round in play is as ActionsDigest describes it (actionsDigest).
func (b *Batch) TableLockKept(tableID int64, rowVersion string, tokenHash []byte, actionsDigest string) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.TableLockKept(b.ctx, q, dbsqlc.TableLockKeptParams{TableID: tableID, RowVersion: rowVersion, TokenHash: tokenHash,
			ActionsDigest: actionsDigest})
	})
}

// TableLockKeptRoyale is TableLockKept at a Battleship Royale table: the
// game in play is the one numbered game, started by event eventSeq, with
// actions actions, each of which reads (game 0: none was played).
func (b *Batch) TableLockKeptRoyale(tableID int64, rowVersion string, tokenHash []byte, game int, eventSeq int64, actions int) {
	var kept string
	if game > 0 {
		kept = fmt.Sprintf("%d:%d:%d:0", game, eventSeq, actions)
	}
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.TableLockKeptRoyale(b.ctx, q, dbsqlc.TableLockKeptRoyaleParams{TableID: tableID, RowVersion: rowVersion, TokenHash: tokenHash,
			Game: kept})
	})
}

// ActionsDigest describes round number and its actions as TableLockKept
// computes it of the stored round: the MD5 of what table.sameActions
// compares of each action, in order (a change-detector, not a seal: the
// chain's hashes and seals are what make history tamper-evident). Round 0
// (no round) is "".
func ActionsDigest(number int, actions []Action) string {
	if number == 0 {
		return ""
	}
	b := make([]byte, 0, 16+64*len(actions))
	b = strconv.AppendInt(b, int64(number), 10)
	b = append(b, ':')
	for i, a := range actions {
		if i > 0 {
			b = append(b, '\n')
		}
		b = strconv.AppendInt(b, int64(a.Seq), 10)
		b = append(b, '|')
		b = strconv.AppendInt(b, a.EventSeq, 10)
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(a.Voids), 10)
		b = append(b, '|')
		b = appendText(b, a.Reason)
		b = append(b, '|')
		if a.ByHost != nil {
			b = strconv.AppendBool(b, *a.ByHost)
		}
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(a.Action.Player), 10)
		b = append(b, '|')
		b = append(b, a.Action.Kind...)
		b = append(b, '|')
		if a.Action.Kind == game.ActionRoll && a.Action.Roll != nil {
			b = appendArray(b, a.Action.Roll.Dice)
			b = appendArray(b, a.Action.Roll.Rethrow)
			b = appendText(b, a.Action.Roll.Path)
		}
	}
	sum := md5.Sum(b) // as PostgreSQL's md5() gives it, in hex
	return hex.EncodeToString(sum[:])
}

// appendText appends s after its length in bytes, so that no text can
// read as the fields after it.
func appendText(b []byte, s string) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	return append(b, s...)
}
