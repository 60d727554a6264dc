package table

import (
	"context"

	"github.com/tally-dice/tally/db"
)

// This file is the service's reads: one read-only snapshot, the caller
// authenticated before anything read is used.

// reading is what a read found: the table row and, of what TableLoad
// reads for a write, what the read asked for.
type reading struct {
	row db.Table
	db.Loaded
}

// state rebuilds the table's game and latest round; a history that no
// longer replays is ErrHistoryBroken.
func (r reading) state() (*tableState, error) { return stateOf(r.row, r.Loaded) }

// readPlan is what a read needs besides the table row and its players,
// which every read reads to authenticate the caller.
type readPlan struct {
	accounts bool            // the table's accounts
	round    bool            // the latest round and its actions
	royale   bool            // the latest Battleship Royale game and its actions
	queue    func(*db.Batch) // more, in the same round trip
	// history is the table's whole history (its rounds, its ledger, its
	// audit log): read in a second round trip of the same snapshot, once
	// the caller is authenticated, so that a token the table does not know
	// makes the server read no more than one round trip's small reads.
	history func(*db.Batch)
	// then, when set, is called with what history read (and the reading so
	// far) and may queue more reads of the same snapshot, sent in a third
	// round trip with the COMMIT.
	then func(*db.Batch, *reading)
}

// read runs one read in a read-only snapshot, in one round trip (two with
// a history): the table row, its players and what p asks for. The caller
// is authenticated before anything read is used.
func (s *Service) read(ctx context.Context, a Auth, p readPlan) (r reading, who Principal, err error) {
	if err := checkAuth(a); err != nil {
		return reading{}, Principal{}, err
	}
	conn, err := s.acquire(ctx)
	if err != nil {
		return reading{}, Principal{}, err
	}
	defer release(conn, &err)
	b := db.NewBatch(ctx)
	b.BeginRead()
	b.TableGet(a.TableID, &r.row)
	b.PlayerList(a.TableID, &r.Players)
	if p.accounts {
		b.AccountList(a.TableID, &r.Accounts)
	}
	if p.round {
		b.RoundLatest(a.TableID, &r.Latest, &r.Actions)
	}
	if p.royale {
		b.RoyaleLatest(a.TableID, &r.Game, &r.GameActions)
	}
	if p.queue != nil {
		p.queue(b)
	}
	if p.history == nil {
		b.Commit()
	}
	if err = b.Send(conn); err != nil {
		return reading{}, Principal{}, serviceError(err)
	}
	h := hashToken(a.Token)
	if who, err = authenticate(a.Token, h, r.row, r.Players); err != nil {
		return r, who, whyRetired(ctx, conn, a.TableID, a.Token, h, r.Players, err)
	}
	if p.history == nil {
		return r, who, nil
	}
	p.history(b)
	if p.then == nil {
		b.Commit()
	}
	if err = b.Send(conn); err != nil {
		return reading{}, Principal{}, serviceError(err)
	}
	if p.then == nil {
		return r, who, nil
	}
	p.then(b, &r)
	b.Commit()
	if err = b.Send(conn); err != nil {
		return reading{}, Principal{}, serviceError(err)
	}
	return r, who, nil
}
