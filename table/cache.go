package table

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// stateCache keeps, in this instance, each table's state as the last write
// here left it, with the chain head that write committed. A write takes
// the entry of its table and asks the database for the table's state only
// if the head has moved since (db.Batch.TableLoadChanged): the head is
// read under the lock the write takes, in the same round trip, so a state
// is used exactly while no write of any instance has changed the table
// since it was built. Every change the service makes to a table's
// players, accounts, rounds and games appends to its audit chain, and so
// moves its head. A row changed behind the service's back (by hand, or by
// a role that can write it) moves nothing: so a write still reads the
// actions of the round or game in play, and judges on the table read
// whole when they are not the ones kept (tableGame.stored; Service.
// writeState), as it did before states were kept.
//
// A write owns the entry it took: it puts back the state it leaves only
// when it committed and said the state is the one the database now holds
// (writer.keep); any other ending drops it, and the next write reads the
// table whole.
type stateCache struct {
	mu      sync.Mutex
	entries map[int64]cachedState
}

// cachedState is a table's state as of chain head.
type cachedState struct {
	head chain.Head
	st   *tableState
	// royale says st holds the latest Battleship Royale game (the write
	// that left it read it: target.royale).
	royale bool
}

// maxCachedStates bounds the cache: a state is a few kilobytes (a table's
// players, accounts and the round or game in play), so this is tens of
// megabytes at most. A bar's tables are written every few seconds while
// they play, so a full cache drops an arbitrary table, which reads itself
// whole at its next write.
const maxCachedStates = 20000

// take removes and returns table id's state, if it is kept and holds what
// the write needs (the latest Battleship Royale game when royale).
func (c *stateCache) take(id int64, royale bool) (cachedState, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[id]
	if !ok {
		return cachedState{}, false
	}
	delete(c.entries, id)
	return e, e.royale == royale
}

// keep puts back a table's state after a write that committed it.
func (c *stateCache) keep(id int64, e cachedState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = make(map[int64]cachedState)
	}
	if len(c.entries) >= maxCachedStates {
		for other := range c.entries { // Go's map order: an arbitrary one
			delete(c.entries, other)
			break
		}
	}
	c.entries[id] = e
}

// holds says whether e was built at head: the table's head as the write
// read it under the table's lock.
func (e cachedState) holds(head chain.Head) bool {
	return e.st != nil && e.head.Seq == head.Seq && bytes.Equal(e.head.Hash, head.Hash)
}

// sameRules says whether the table row a state was kept with and the one
// read now give the same game: the row's game, its dice rules and its
// Battleship Royale options (which the engines' states were built under).
func sameRules(kept, now db.Table) bool {
	return kept.Game == now.Game && reflect.DeepEqual(kept.Rules, now.Rules) && reflect.DeepEqual(kept.Royale, now.Royale)
}

// sameActions says whether the actions of a round kept and read are the
// same, what they did and the events that record them (not when the
// database says they were stored).
func sameActions(kept, read []db.Action) bool {
	if len(kept) != len(read) {
		return false
	}
	for i, k := range kept {
		r := read[i]
		if k.Seq != r.Seq || k.EventSeq != r.EventSeq || k.Voids != r.Voids || k.Reason != r.Reason ||
			(k.ByHost == nil) != (r.ByHost == nil) || (k.ByHost != nil && *k.ByHost != *r.ByHost) ||
			k.Action.Player != r.Action.Player || k.Action.Kind != r.Action.Kind || !sameRoll(k.Action.Roll, r.Action.Roll) {
			return false
		}
	}
	return true
}

func sameRoll(a, b *game.Roll) bool {
	if a == nil || b == nil {
		return a == b
	}
	return slices.Equal(a.Dice, b.Dice) && slices.Equal(a.Rethrow, b.Rethrow) && a.Path == b.Path
}

// load queues what a write reads of its table besides the row: all of it,
// or, when this instance kept the table's state (which the write now
// owns), only what has changed since (db.Batch.TableLoadChanged) and what
// it checks the kept game against.
func (s *Service) load(b *db.Batch, t target, ref db.KeyRef, l *db.Loaded) (kept cachedState, cached bool) {
	if !t.open && t.also == nil {
		kept, cached = s.states.take(t.tableID, t.royale)
	}
	switch {
	case cached && t.royale:
		b.TableLoadChanged(t.tableID, kept.head, ref, l)
		b.RoyaleLatestSince(t.tableID, kept.head, l)
	case cached:
		b.TableLoadChanged(t.tableID, kept.head, ref, l)
	case t.royale:
		b.TableLoad(t.tableID, ref, l)
		b.RoyaleLatest(t.tableID, &l.Game, &l.GameActions)
	default:
		b.TableLoad(t.tableID, ref, l)
	}
	return kept, cached
}

// writeState is the table's state for a write: the one kept from this
// instance's last write when the table's head is still the one it was
// kept at (cached) and the game in play reads as it was kept, else the
// one rebuilt from l. A game that reads otherwise than it was kept, at the
// same head, was changed behind the service's back (the chain says nothing
// happened): the table is read whole again, in a round trip of its own,
// and judged on what is stored, as a write without a kept state is.
func (s *Service) writeState(ctx context.Context, conn *pgxpool.Conn, t target, row db.Table, l db.Loaded,
	kept cachedState, cached bool) (*tableState, error) {
	if !cached {
		return stateOf(row, l)
	}
	if kept.st.game.stored(l) && sameRules(kept.st.row, row) {
		kept.st.row = row
		return kept.st, nil
	}
	var whole db.Loaded
	b := db.NewBatch(ctx)
	b.TableLoad(t.tableID, db.KeyRef{}, &whole)
	if t.royale {
		b.RoyaleLatest(t.tableID, &whole.Game, &whole.GameActions)
	}
	if err := b.Send(conn); err != nil {
		return nil, err
	}
	return stateOf(row, whole)
}
