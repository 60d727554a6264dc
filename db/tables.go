package db

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db/internal/dbsqlc"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/royale"
)

// Table statuses.
const (
	TableOpen   = "open"
	TableClosed = "closed"
)

// Table is a game table: its rules, its currency, the hashes of the tokens
// that let the host act and auditors read, and what the writer holding its
// row's lock keeps current: the head of its audit chain and the number of
// its latest round.
type Table struct {
	ID             int64
	Name           string
	Rules          game.Ruleset
	Currency       string
	JoinCode       string
	HostTokenHash  []byte
	AuditTokenHash []byte
	NoOverdraft    bool
	Status         string
	CreatedAt      time.Time
	ClosedAt       *time.Time
	Head           chain.Head
	HeadSeal       []byte // the head's seal (package seal); nil before it was sealed
	// Rounds is the number of the latest round, or at a Battleship Royale
	// table of the latest game.
	Rounds int
	// Game is the game the table plays (migration 13): GameDice,
	// GameRoyale or GameCrew.
	Game string
	// Royale is a Battleship Royale table's options; nil at any other.
	Royale *royale.Options
	// Crew is the crew a night was made for, 0 for none.
	Crew int64
	// Unit is what one of the table's units is worth (migration 15); zero
	// for none.
	Unit UnitValue
}

// The games a table plays, as the tables.game column names them.
const (
	GameDice   = "dice"   // the dice games (docs/rules.md)
	GameRoyale = "royale" // Battleship Royale (docs/royale.md)
	GameCrew   = "crew"   // a crew's running balances; it plays no rounds
)

// Games are every game a table plays, as the CHECK constraint of
// migration 13 lists them.
var Games = []string{GameDice, GameRoyale, GameCrew}

// NewTable is a table about to be made.
type NewTable struct {
	ID             int64 // from TableNextID
	Name           string
	Rules          game.Ruleset
	Currency       string
	JoinCode       string
	HostTokenHash  []byte
	AuditTokenHash []byte
	NoOverdraft    bool
	Game           string // GameDice, GameRoyale or GameCrew; GameDice when empty
	Royale         *royale.Options
	Crew           int64 // the crew a night is made for, 0 for none
}

// TableInsert queues making a table, with its pot and bank accounts, and
// its join code (JoinCodeInsert, a statement of its own: the code's lookup
// is keyed by the code, not the table), and fills out with it. A join code
// already taken is ErrConflict (KeyJoinCode).
func (b *Batch) TableInsert(t NewTable, out *Table) {
	rules, err := json.Marshal(t.Rules)
	if err != nil {
		panic(fmt.Sprintf("db: a ruleset always encodes: %v", err))
	}
	var opts []byte
	if t.Royale != nil {
		if opts, err = json.Marshal(t.Royale); err != nil {
			panic(fmt.Sprintf("db: Royale options always encode: %v", err))
		}
	}
	if t.Game == "" {
		t.Game = GameDice
	}
	var crew *int64
	if t.Crew != 0 {
		crew = &t.Crew
	}
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.JoinCodeInsert(b.ctx, q, dbsqlc.JoinCodeInsertParams{Code: t.JoinCode, TableID: t.ID})
	})
	b.queue(func(q dbsqlc.DBTX) error {
		row, err := queries.TableInsert(b.ctx, q, dbsqlc.TableInsertParams{ID: t.ID, Name: t.Name, Ruleset: rules,
			Currency: t.Currency, JoinCode: t.JoinCode, HostTokenHash: t.HostTokenHash,
			AuditTokenHash: t.AuditTokenHash, NoOverdraft: t.NoOverdraft, Royale: opts, Game: t.Game, Crew: crew})
		if err != nil {
			return err
		}
		return toTable(dbsqlc.Table(row), out)
	})
	b.exec(func(q dbsqlc.DBTX) error { return queries.TableAccountsInsert(b.ctx, q, t.ID) })
}

// TableNextID queues taking the id of a table about to be made.
func (b *Batch) TableNextID(out *int64) {
	b.queue(func(q dbsqlc.DBTX) error {
		id, err := queries.TableNextID(b.ctx, q)
		*out = id
		return err
	})
}

// TableLock queues reading a table and locking its row until the
// transaction ends. Every writer of a table takes this lock first: it
// serializes them per table (so the audit chain and the counters in the row
// are theirs alone until they commit) and, taken before any other lock,
// rules out lock-order deadlocks between them. A missing table leaves out
// zero (ID 0).
func (b *Batch) TableLock(id int64, out *Table) {
	b.queue(func(q dbsqlc.DBTX) error {
		return optional(out, func() (dbsqlc.Table, error) { return queries.TableLock(b.ctx, q, id) }, toTable)
	})
}

// TableLockAs is TableLock for the holder of a token whose hash is
// tokenHash, if it is the host's, the auditor's or a player's of the table;
// any other token reads no row (out is left zero) and takes no lock.
func (b *Batch) TableLockAs(id int64, tokenHash []byte, out *Table) {
	b.queue(func(q dbsqlc.DBTX) error {
		return optional(out, func() (dbsqlc.Table, error) {
			return queries.TableLockAs(b.ctx, q, dbsqlc.TableLockAsParams{ID: id, TokenHash: tokenHash})
		}, toTable)
	})
}

// TableGet queues reading a table; a missing one leaves out zero.
func (b *Batch) TableGet(id int64, out *Table) {
	b.queue(func(q dbsqlc.DBTX) error {
		return optional(out, func() (dbsqlc.Table, error) { return queries.TableGet(b.ctx, q, id) }, toTable)
	})
}

// JoinCodeGet queues finding the table a join code opens; 0 when none.
func (b *Batch) JoinCodeGet(code string, out *int64) {
	b.queue(func(q dbsqlc.DBTX) error {
		id, err := queries.JoinCodeGet(b.ctx, q, code)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		*out = id
		return err
	})
}

// TableClose queues marking an open table closed at at.
func (b *Batch) TableClose(id int64, at time.Time) {
	b.exec(func(q dbsqlc.DBTX) error {
		return queries.TableClose(b.ctx, q, dbsqlc.TableCloseParams{ID: id, ClosedAt: &at})
	})
}

// rulesets caches decoded rulesets by table: a table's rules never change,
// and decoding them is most of the cost of reading a table row. The stored
// bytes are compared on every use, so a stale entry is never used.
var rulesets struct {
	sync.RWMutex
	byTable map[int64]cachedRules
}

type cachedRules struct {
	raw   []byte
	rules game.Ruleset
}

// maxCachedRulesets bounds the cache; it starts over when full.
const maxCachedRulesets = 4096

func decodeRules(tableID int64, raw []byte) (game.Ruleset, error) {
	rulesets.RLock()
	c, ok := rulesets.byTable[tableID]
	rulesets.RUnlock()
	if ok && bytes.Equal(c.raw, raw) {
		return c.rules, nil
	}
	var rs game.Ruleset
	if err := json.Unmarshal(raw, &rs); err != nil {
		return rs, fmt.Errorf("table %d has an unreadable ruleset: %w", tableID, err)
	}
	rulesets.Lock()
	if rulesets.byTable == nil || len(rulesets.byTable) >= maxCachedRulesets {
		rulesets.byTable = map[int64]cachedRules{}
	}
	rulesets.byTable[tableID] = cachedRules{raw: bytes.Clone(raw), rules: rs}
	rulesets.Unlock()
	return rs, nil
}

func toTable(r dbsqlc.Table, out *Table) error {
	rules, err := decodeRules(r.ID, r.Ruleset)
	if err != nil {
		return err
	}
	*out = Table{ID: r.ID, Name: r.Name, Rules: rules, Currency: r.Currency, JoinCode: r.JoinCode,
		HostTokenHash: r.HostTokenHash, AuditTokenHash: r.AuditTokenHash, NoOverdraft: r.NoOverdraft,
		Status: r.Status, CreatedAt: r.CreatedAt, ClosedAt: r.ClosedAt,
		Head: chain.Head{Seq: r.EventSeq, Hash: r.EventHash}, HeadSeal: r.HeadSeal, Rounds: int(r.Rounds), Game: r.Game}
	if r.Crew != nil {
		out.Crew = *r.Crew
	}
	if r.UnitCurrency != nil && r.UnitMinor != nil {
		out.Unit = UnitValue{Currency: *r.UnitCurrency, Minor: *r.UnitMinor}
	}
	if r.Royale != nil {
		out.Royale = new(royale.Options)
		if err := json.Unmarshal(r.Royale, out.Royale); err != nil {
			return fmt.Errorf("table %d has unreadable Battleship Royale options: %w", r.ID, err)
		}
	}
	return nil
}

// optional runs a :one query; no row leaves out as it is (zero).
func optional[R, T any](out *T, query func() (R, error), convert func(R, *T) error) error {
	row, err := query()
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	return convert(row, out)
}
