package play

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

// The errors of seating and tables.
var (
	ErrInvalid      = errors.New("invalid request")
	ErrNotFound     = errors.New("not found")
	ErrTableClosed  = ledger.ErrTableClosed
	ErrRoundPlaying = errors.New("a round is being played")
	ErrNoRound      = errors.New("no round is being played")
	ErrNameTaken    = errors.New("name taken")
	// ErrHistoryBroken says a table's stored rounds no longer replay through
	// the engine: they were changed behind its back. GET audit names where.
	ErrHistoryBroken = errors.New("the table's stored history no longer replays; its audit shows where it breaks")
	// ErrGameUnderway refuses a change of seats while a game of rounds is
	// being played: the totals would no longer compare (game.Reseat), so a
	// seat taken or left would stop the game from ever starting a round.
	ErrGameUnderway = errors.New("a game of rounds is under way")
)

// maxPlayers bounds a table. Sixteen is more than any bar table and keeps
// settle-up exact.
const maxPlayers = 16

// NewTable is what a host asks for when making a table.
type NewTable struct {
	Name        string       `json:"name"`
	Preset      string       `json:"preset"`
	Options     game.Options `json:"options"`
	Currency    string       `json:"currency"`
	NoOverdraft bool         `json:"noOverdraft"`
	Players     []string     `json:"players"`
}

// Created is a new table with the secrets only its host ever sees.
type Created struct {
	Table      TableView `json:"table"`
	HostToken  string    `json:"hostToken"`
	AuditToken string    `json:"auditToken"`
	JoinCode   string    `json:"joinCode"`
}

// CreateTable makes a table, its accounts and its first seats.
func CreateTable(ctx context.Context, tx pgx.Tx, in NewTable) (Created, error) {
	rs, err := game.NewRuleset(in.Preset, in.Options)
	if err != nil {
		return Created{}, err
	}
	if len(in.Players) > maxPlayers {
		return Created{}, fmt.Errorf("%w: at most %d players, not %d", ErrInvalid, maxPlayers, len(in.Players))
	}
	name, err := cleanText(in.Name, "the table's name", maxTableRunes)
	if err != nil {
		return Created{}, err
	}
	if name == "" {
		name = "Table"
	}
	currency, err := cleanText(in.Currency, "the currency", maxCurrencyRunes)
	if err != nil {
		return Created{}, err
	}
	if currency == "" {
		currency = "units"
	}
	rules, err := json.Marshal(rs)
	if err != nil {
		return Created{}, err
	}
	host, hostHash := newToken(prefixHost)
	audit, auditHash := newToken(prefixAudit)
	var t db.Table
	for attempt := 0; ; attempt++ {
		t, err = db.TableInsert(ctx, tx, db.TableInsertParams{Name: name, Ruleset: rules, Currency: currency,
			JoinCode: newJoinCode(), HostTokenHash: hostHash, AuditTokenHash: auditHash, NoOverdraft: in.NoOverdraft})
		if !errors.Is(err, db.ErrConflict) || attempt == 5 {
			break
		}
	}
	if err != nil {
		return Created{}, err
	}
	if _, err := ledger.AppendEvent(ctx, tx, t.ID, "table.created", map[string]any{
		"name": name, "ruleset": rs, "currency": currency, "noOverdraft": in.NoOverdraft}); err != nil {
		return Created{}, err
	}
	for _, n := range in.Players {
		if _, err := seat(ctx, tx, t.ID, n); err != nil {
			return Created{}, err
		}
	}
	view, err := Table(ctx, tx, t.ID, Principal{Role: RoleHost, TableID: t.ID})
	if err != nil {
		return Created{}, err
	}
	return Created{Table: view, HostToken: host, AuditToken: audit, JoinCode: t.JoinCode}, nil
}

// joinAlphabet leaves out letters and digits people confuse across a bar
// table (0/O, 1/I/L).
const joinAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// newJoinCode is six characters from joinAlphabet: about 887 million codes.
func newJoinCode() string {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err))
	}
	for i := range b {
		b[i] = joinAlphabet[int(b[i])%len(joinAlphabet)]
	}
	return string(b)
}

// tablePlayer reads a player and checks they belong to the table.
func tablePlayer(ctx context.Context, q db.DBTX, tableID, playerID int64) (db.Player, error) {
	p, err := db.PlayerGet(ctx, q, playerID)
	if errors.Is(err, db.ErrNotFound) || (err == nil && p.TableID != tableID) {
		return db.Player{}, fmt.Errorf("%w: player %d does not sit at table %d", ErrNotFound, playerID, tableID)
	}
	return p, err
}

// lockOpenTable locks the table row (the first lock of every write, see
// db.TableLock) and refuses closed tables.
func lockOpenTable(ctx context.Context, tx pgx.Tx, tableID int64) (db.Table, error) {
	t, err := db.TableLock(ctx, tx, tableID)
	if errors.Is(err, db.ErrNotFound) {
		return db.Table{}, fmt.Errorf("%w: no table %d", ErrNotFound, tableID)
	}
	if err != nil {
		return db.Table{}, err
	}
	if t.Status != db.TableOpen {
		return db.Table{}, fmt.Errorf("%w: table %d was closed at %s", ErrTableClosed, tableID, t.ClosedAt.Format(time.RFC3339))
	}
	return t, nil
}

// ruleset decodes a table's stored ruleset.
func ruleset(t db.Table) (game.Ruleset, error) {
	var rs game.Ruleset
	if err := json.Unmarshal(t.Ruleset, &rs); err != nil {
		return rs, fmt.Errorf("table %d has an unreadable ruleset: %w", t.ID, err)
	}
	return rs, nil
}
