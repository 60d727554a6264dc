package db

import (
	"time"

	"github.com/tally-dice/tally/db/internal/dbsqlc"
	"github.com/tally-dice/tally/game"
)

// HostRecovery is a table's host recovery code, by its hash: the one-time
// code that moves the host role to another phone.
type HostRecovery struct {
	CodeHash   []byte
	CreatedAt  time.Time
	ExpiresAt  time.Time
	RedeemedAt *time.Time // when it was spent; nil while it is not
}

// HostRecoveryOffer queues making codeHash the table's host recovery code
// from now until expires, replacing the one offered before.
func (b *Batch) HostRecoveryOffer(tableID int64, codeHash []byte, now, expires time.Time) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.HostRecoveryOffer(b.ctx, q, dbsqlc.HostRecoveryOfferParams{TableID: tableID, CodeHash: codeHash,
			CreatedAt: now, ExpiresAt: expires})
	})
}

// HostRecoveryGet queues reading the table's host recovery code if its
// hash is codeHash; otherwise out is left zero (CodeHash nil).
func (b *Batch) HostRecoveryGet(tableID int64, codeHash []byte, out *HostRecovery) {
	b.queue(func(q dbsqlc.DBTX) error {
		return optional(out, func() (dbsqlc.HostRecovery, error) {
			return queries.HostRecoveryGet(b.ctx, q, dbsqlc.HostRecoveryGetParams{TableID: tableID, CodeHash: codeHash})
		}, func(r dbsqlc.HostRecovery, out *HostRecovery) error {
			*out = HostRecovery{CodeHash: r.CodeHash, CreatedAt: r.CreatedAt, ExpiresAt: r.ExpiresAt, RedeemedAt: r.RedeemedAt}
			return nil
		})
	})
}

// HostRecoverySpend queues spending the table's unspent code codeHash and
// giving the host role to the token whose hash is hostTokenHash; the old
// host token stops working when the transaction commits.
func (b *Batch) HostRecoverySpend(tableID int64, codeHash, hostTokenHash []byte, now time.Time) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.HostRecoverySpend(b.ctx, q, dbsqlc.HostRecoverySpendParams{TableID: tableID, CodeHash: codeHash,
			HostTokenHash: hostTokenHash, RedeemedAt: now})
	})
}

// Why a token was retired.
const (
	RetiredSeatFreed = "seat-freed" // the host freed the seat the token's phone held
	RetiredHostMoved = "host-moved" // the host role moved to another phone
)

// RetiredToken is a token that stopped working, and why.
type RetiredToken struct {
	Reason    string        // RetiredSeatFreed or RetiredHostMoved
	Player    game.PlayerID // the seat freed
	RetiredAt time.Time
}

// RetiredTokenInsert queues keeping why the token whose hash is tokenHash
// stopped working (player: the seat freed, 0 for the host's token).
func (b *Batch) RetiredTokenInsert(tableID int64, tokenHash []byte, reason string, player game.PlayerID, at time.Time) {
	var id *int64
	if player != 0 {
		id = new(int64)
		*id = int64(player)
	}
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.RetiredTokenInsert(b.ctx, q, dbsqlc.RetiredTokenInsertParams{TableID: tableID, TokenHash: tokenHash,
			Reason: reason, PlayerID: id, RetiredAt: at})
	})
}

// RetiredTokenGet queues reading why the token whose hash is tokenHash
// stopped working at the table; a token never retired leaves out zero
// (Reason "").
func (b *Batch) RetiredTokenGet(tableID int64, tokenHash []byte, out *RetiredToken) {
	b.queue(func(q dbsqlc.DBTX) error {
		return optional(out, func() (dbsqlc.RetiredToken, error) {
			return queries.RetiredTokenGet(b.ctx, q, dbsqlc.RetiredTokenGetParams{TableID: tableID, TokenHash: tokenHash})
		}, func(r dbsqlc.RetiredToken, out *RetiredToken) error {
			*out = RetiredToken{Reason: r.Reason, RetiredAt: r.RetiredAt}
			if r.PlayerID != nil {
				out.Player = game.PlayerID(*r.PlayerID)
			}
			return nil
		})
	})
}
