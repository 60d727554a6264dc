package play

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/tally-dice/tally/db"
)

// Role is what a token lets its bearer do at a table.
type Role string

// The roles. The host may do anything at the table, including recording any
// player's turn; a player records only their own turns; the auditor reads
// everything and writes nothing.
const (
	RoleHost   Role = "host"
	RolePlayer Role = "player"
	RoleAudit  Role = "audit"
)

// Principal is who a request acts as.
type Principal struct {
	Role     Role
	TableID  int64
	PlayerID int64 // set for RolePlayer
	Left     bool  // a player who left the table: reads, and confirms payments received
}

// The errors of authentication and permission.
var (
	ErrUnknownToken = errors.New("unknown token")
	ErrForbidden    = errors.New("not allowed")
)

// tokenBytes is the randomness of a token: 256 bits, well above the 128 the
// design asks for.
const tokenBytes = 32

// Token prefixes say what kind of token a string is, so a person pasting one
// can tell them apart and the lookup knows where to search.
const (
	prefixHost   = "tly_h_"
	prefixPlayer = "tly_p_"
	prefixAudit  = "tly_a_"
)

// newToken makes a random token with the given prefix and its stored hash.
func newToken(prefix string) (string, []byte) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err)) // the OS has no randomness: nothing can be safe
	}
	tok := prefix + base64.RawURLEncoding.EncodeToString(b)
	return tok, hashToken(tok)
}

// hashToken is what is stored for a token: tokens themselves never are.
func hashToken(tok string) []byte {
	h := sha256.Sum256([]byte(tok))
	return h[:]
}

// Authenticate finds who a bearer token belongs to.
func Authenticate(ctx context.Context, q db.DBTX, token string) (Principal, error) {
	h := hashToken(token)
	switch {
	case strings.HasPrefix(token, prefixHost):
		t, err := db.TableGetByHostTokenHash(ctx, q, h)
		if err != nil {
			return Principal{}, notFoundAs(err, ErrUnknownToken)
		}
		return Principal{Role: RoleHost, TableID: t.ID}, nil
	case strings.HasPrefix(token, prefixAudit):
		t, err := db.TableGetByAuditTokenHash(ctx, q, h)
		if err != nil {
			return Principal{}, notFoundAs(err, ErrUnknownToken)
		}
		return Principal{Role: RoleAudit, TableID: t.ID}, nil
	case strings.HasPrefix(token, prefixPlayer):
		p, err := db.PlayerGetByTokenHash(ctx, q, h)
		if err != nil {
			return Principal{}, notFoundAs(err, ErrUnknownToken)
		}
		return Principal{Role: RolePlayer, TableID: p.TableID, PlayerID: p.ID, Left: p.LeftAt != nil}, nil
	}
	return Principal{}, fmt.Errorf("%w: not a Tally token", ErrUnknownToken)
}

// notFoundAs turns db.ErrNotFound into err and passes anything else on.
func notFoundAs(err, as error) error {
	if errors.Is(err, db.ErrNotFound) {
		return as
	}
	return err
}

// mayWrite says why p may not change the table's play, or nil: the auditor
// only reads, and a player who left keeps a token that reads and confirms
// payments they receive while the table settles up, nothing more.
func (p Principal) mayWrite() error {
	switch {
	case p.Role == RoleAudit:
		return fmt.Errorf("%w: the audit token can read but not write", ErrForbidden)
	case p.Left:
		return fmt.Errorf("%w: player %d has left the table; their token can still read and confirm payments they receive", ErrForbidden, p.PlayerID)
	}
	return nil
}

// mayActFor checks that p may record an action of player.
func (p Principal) mayActFor(player int64) error {
	switch {
	case p.Role == RoleHost:
		return nil
	case p.Role == RolePlayer && p.PlayerID == player:
		return p.mayWrite()
	case p.Role == RolePlayer:
		return fmt.Errorf("%w: a player token records only its own player's turn (player %d), not player %d's", ErrForbidden, p.PlayerID, player)
	}
	return fmt.Errorf("%w: the audit token can read but not write", ErrForbidden)
}
