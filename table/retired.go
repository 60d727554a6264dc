package table

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db"
)

// This file is what a phone is told when its token stopped working because
// of something done at the table: the host freed the seat it held, or the
// host role moved to another phone. Such a token is kept by its hash with
// the reason (db.RetiredToken), and a request with it is refused in plain
// words the phone can act on, instead of "unknown token".

// ErrSeatFreed refuses the token of a phone whose seat the host freed.
var ErrSeatFreed = errors.New("the host freed the seat this phone held")

// ErrHostMoved refuses the host token of a phone the host role moved away
// from (a host recovery code was redeemed on another phone).
var ErrHostMoved = errors.New("the host role moved to another phone")

// whyRetired turns err, a token the table does not know, into the reason
// the table retired it, when it did; any other error, or a token that is
// not a current Tally token of this table (which no table retires), is
// returned as it is. The lookup costs the refused request one statement,
// sent with the ROLLBACK of a transaction still open: a request with a
// working token never makes it.
func whyRetired(ctx context.Context, conn *pgxpool.Conn, tableID int64, token string, hash []byte, players []db.Player, err error) error {
	if !errors.Is(err, ErrUnknownToken) || tokenTable(token) != tableID ||
		!strings.HasPrefix(token, prefixHost) && !strings.HasPrefix(token, prefixPlayer) {
		return err
	}
	var r db.RetiredToken
	b := db.NewBatch(ctx)
	b.RetiredTokenGet(tableID, hash, &r)
	if conn.Conn().PgConn().TxStatus() != 'I' {
		b.Rollback()
	}
	if sendErr := b.Send(conn); sendErr != nil {
		return serviceError(sendErr)
	}
	switch r.Reason {
	case db.RetiredSeatFreed:
		name := fmt.Sprintf("player %d", r.Player)
		for _, p := range players {
			if p.ID == r.Player {
				name = p.Name
			}
		}
		return fmt.Errorf("%w (%s's), so its token no longer works; join again with the table's code, as %s if the seat is still open or under another name",
			ErrSeatFreed, name, name)
	case db.RetiredHostMoved:
		return fmt.Errorf("%w with a host recovery code, so this phone's host token no longer works; ask the new host phone for the join code to play, or for a recovery code to take the host role back",
			ErrHostMoved)
	}
	return err
}
