package table

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// Auth is how a request names its table and proves who sends it.
type Auth struct {
	TableID int64
	Token   string // the bearer token
}

// Role is what a token lets its bearer do at a table.
type Role string

// The roles. The host may do anything at the table, including recording any
// player's turn; a player records only their own turns; the auditor reads
// everything and writes nothing. A host who plays has a seat of its own
// (db.Player.Host): the host's phone is that player's phone too.
const (
	RoleHost   Role = "host"
	RolePlayer Role = "player"
	RoleAudit  Role = "audit"
)

// Principal is who a request acts as.
type Principal struct {
	Role    Role
	TableID int64
	Player  game.PlayerID // for RolePlayer; for RoleHost, the host's own seat, if it plays
	Left    bool          // a player who left: reads, and confirms payments received
}

// tokenBytes is the randomness of a token: 256 bits.
const tokenBytes = 32

// Token prefixes say what kind of token a string is, so a person pasting
// one can tell them apart.
const (
	prefixHost   = "tly_h_"
	prefixPlayer = "tly_p_"
	prefixAudit  = "tly_a_"
)

// newToken makes a random token of a table, tly_h_<table>.<secret>, and the
// hash that is stored for it.
func newToken(prefix string, tableID int64) (string, []byte) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err)) // the OS has no randomness: nothing can be safe
	}
	tok := prefix + strconv.FormatInt(tableID, 10) + "." + base64.RawURLEncoding.EncodeToString(b)
	return tok, hashToken(tok)
}

// hashToken is what is stored for a token: tokens themselves never are.
func hashToken(tok string) []byte {
	h := sha256.Sum256([]byte(tok))
	return h[:]
}

// tokenTable is the table a token names, or 0 for a token made before
// tokens carried their table.
func tokenTable(tok string) int64 {
	rest := tok[min(len(tok), len(prefixHost)):]
	id, _, ok := strings.Cut(rest, ".")
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// checkAuth refuses a request before any database work when its token is
// not a Tally token or names another table.
func checkAuth(a Auth) error {
	switch {
	case a.Token == "":
		return fmt.Errorf("%w: send the table's token as `Authorization: Bearer <token>`", ErrUnknownToken)
	case !strings.HasPrefix(a.Token, prefixHost) && !strings.HasPrefix(a.Token, prefixPlayer) && !strings.HasPrefix(a.Token, prefixAudit):
		return fmt.Errorf("%w: this token is not known here (not a Tally token); ask the host for the join code and join again", ErrUnknownToken)
	}
	if t := tokenTable(a.Token); t != 0 && t != a.TableID {
		return fmt.Errorf("%w: this token belongs to another table, not table %d", ErrForbidden, a.TableID)
	}
	return nil
}

// authenticate finds who a token (and its hash) is at a table read from
// the database: the host or the auditor by the table row's hashes, a
// player by the hash among the table's players. A table not read (ID 0:
// missing, or not locked for this token) knows no token.
func authenticate(token string, h []byte, t db.Table, players []db.Player) (Principal, error) {
	switch {
	case t.ID == 0:
		return Principal{}, errTokenUnknown
	case strings.HasPrefix(token, prefixHost) && subtle.ConstantTimeCompare(h, t.HostTokenHash) == 1:
		return Principal{Role: RoleHost, TableID: t.ID, Player: hostSeat(players)}, nil
	case strings.HasPrefix(token, prefixAudit) && subtle.ConstantTimeCompare(h, t.AuditTokenHash) == 1:
		return Principal{Role: RoleAudit, TableID: t.ID}, nil
	case strings.HasPrefix(token, prefixPlayer):
		for _, p := range players {
			if subtle.ConstantTimeCompare(h, p.TokenHash) == 1 {
				return Principal{Role: RolePlayer, TableID: t.ID, Player: p.ID, Left: p.LeftAt != nil}, nil
			}
		}
	}
	return Principal{}, errTokenUnknown
}

// errTokenUnknown refuses a token the table does not know, whichever way.
var errTokenUnknown = fmt.Errorf("%w: this token is not known here; ask the host for the join code and join again", ErrUnknownToken)

// errAuditReadsOnly refuses a write to the audit token, which every write
// does the same way.
var errAuditReadsOnly = fmt.Errorf("%w: the audit token can read but not write", ErrForbidden)

// mayWrite says why p may not change the table's play, or nil: the auditor
// only reads, and a player who left keeps a token that reads and confirms
// payments they receive while the table settles up, nothing more.
func (p Principal) mayWrite() error {
	switch {
	case p.Role == RoleAudit:
		return errAuditReadsOnly
	case p.Left:
		return fmt.Errorf("%w: player %d has left the table; their token can still read and confirm payments they receive", ErrForbidden, p.Player)
	}
	return nil
}

// hostSeat is the host's own seat among a table's players, or 0 when the
// host does not play (or left the table). It goes with the host role, not
// with a token: a phone that becomes the host takes the seat with it.
func hostSeat(players []db.Player) game.PlayerID {
	for _, p := range players {
		if p.Host && p.LeftAt == nil {
			return p.ID
		}
	}
	return 0
}

// mayActFor checks that p may record an action of player.
func (p Principal) mayActFor(player game.PlayerID) error {
	switch {
	case p.Role == RoleHost:
		return nil
	case p.Role == RolePlayer && p.Player == player:
		return p.mayWrite()
	case p.Role == RolePlayer:
		return fmt.Errorf("%w: a player token records only its own player's turn (player %d), not player %d's", ErrForbidden, p.Player, player)
	}
	return errAuditReadsOnly
}

// mustHost refuses anyone but the table's host.
func (p Principal) mustHost(what string) error {
	if p.Role != RoleHost {
		return fmt.Errorf("%w: only the host may %s", ErrForbidden, what)
	}
	return nil
}

// viewer is whose sealed rolls the principal may read: a player their own,
// as the host who plays its own seat's; the auditor, and a host who does
// not play, what the whole table sees.
func (p Principal) viewer() game.PlayerID {
	if p.Role == RoleAudit {
		return 0
	}
	return p.Player
}

// byHost says that an action p records for player is the host's for
// someone else, not the player's own: a host's for its own seat is the
// player's own.
func (p Principal) byHost(player game.PlayerID) bool {
	return p.Role == RoleHost && player != p.Player
}

// mayClaimFor checks that p may claim player's closed automatic: only the
// phone that saw the dice under the cup may, which is the player's own (the
// host's, for its own seat), or the host's when it recorded the player's
// latest throw (hostThrew), as for a player without a phone. Anyone else is
// refused here, before the engine looks, and alike whether or not an
// automatic is under the cup: the engine's answer would lift the cup.
func (p Principal) mayClaimFor(player game.PlayerID, hostThrew bool) error {
	if p.Player == player || p.Role == RoleHost && hostThrew {
		return nil
	}
	return fmt.Errorf("%w: only player %d's own phone, or the host's when it recorded their last throw, may claim their automatic",
		ErrForbidden, player)
}
