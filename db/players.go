package db

import (
	"time"

	"github.com/tally-dice/tally/db/internal/dbsqlc"
	"github.com/tally-dice/tally/game"
)

// Player is a person seated at a table. A player who left keeps the row,
// because their postings and turns refer to it.
type Player struct {
	ID        game.PlayerID
	Name      string
	Seat      int
	TokenHash []byte
	JoinedAt  time.Time
	LeftAt    *time.Time
	// ClaimedAt is when a phone joined as this player; nil for a seat the
	// host made that nobody has claimed yet.
	ClaimedAt *time.Time
	// Member is, at a crew's night, the crew's player this player is; 0
	// elsewhere.
	Member game.PlayerID
	// Host marks the host's own seat: the host's phone is this player's.
	Host bool
}

// NewPlayer is a player about to be seated.
type NewPlayer struct {
	Name      string
	Seat      int
	TokenHash []byte
	Claimed   bool // a phone takes the seat as it is made
	Member    game.PlayerID
	Host      bool // the host's own seat, which the host's phone claims as it is made
}

// PlayerInsert queues seating a player, with their account, and fills out
// with them. A seat or name (any case) taken by a player still at the table
// is ErrConflict.
func (b *Batch) PlayerInsert(tableID int64, p NewPlayer, out *Player) {
	b.queue(func(q dbsqlc.DBTX) error {
		row, err := queries.PlayerInsert(b.ctx, q, dbsqlc.PlayerInsertParams{TableID: tableID, Name: p.Name,
			Seat: int32(p.Seat), TokenHash: p.TokenHash, Claimed: p.Claimed, Member: memberRef(p.Member), Host: p.Host})
		if err != nil {
			return err
		}
		return toPlayer(dbsqlc.Player(row), out)
	})
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.PlayerAccountInsert(b.ctx, q, tableID)
	})
}

// PlayerList queues reading a table's players by seat, those who left
// included.
func (b *Batch) PlayerList(tableID int64, out *[]Player) {
	b.queue(func(q dbsqlc.DBTX) error {
		rows, err := queries.PlayerList(b.ctx, q, tableID)
		if err != nil {
			return err
		}
		*out = make([]Player, len(rows))
		for i, r := range rows {
			_ = toPlayer(r, &(*out)[i])
		}
		return nil
	})
}

// PlayerClaim queues a phone claiming a seat nobody has claimed: the seat
// gets the phone's token hash.
func (b *Batch) PlayerClaim(tableID int64, id game.PlayerID, tokenHash []byte) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.PlayerClaim(b.ctx, q, dbsqlc.PlayerClaimParams{TableID: tableID, ID: int64(id), TokenHash: tokenHash})
	})
}

// PlayerRelease queues freeing a claimed seat: the phone that held it
// loses its token (tokenHash is of a token nobody holds).
func (b *Batch) PlayerRelease(tableID int64, id game.PlayerID, tokenHash []byte) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.PlayerRelease(b.ctx, q, dbsqlc.PlayerReleaseParams{TableID: tableID, ID: int64(id), TokenHash: tokenHash})
	})
}

// PlayerLeave queues a player leaving the table, which frees the seat.
func (b *Batch) PlayerLeave(tableID int64, id game.PlayerID) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.PlayerLeave(b.ctx, q, dbsqlc.PlayerLeaveParams{TableID: tableID, ID: int64(id)})
	})
}

func toPlayer(r dbsqlc.Player, out *Player) error {
	*out = Player{ID: game.PlayerID(r.ID), Name: r.Name, Seat: int(r.Seat), TokenHash: r.TokenHash,
		JoinedAt: r.JoinedAt, LeftAt: r.LeftAt, ClaimedAt: r.ClaimedAt, Host: r.Host}
	if r.Member != nil {
		out.Member = game.PlayerID(*r.Member)
	}
	return nil
}

// memberRef is a crew member's id as stored: NULL for none.
func memberRef(m game.PlayerID) *int64 {
	if m == 0 {
		return nil
	}
	id := int64(m)
	return &id
}
