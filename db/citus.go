package db

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Distributed is a table of Tally's schema as Citus spreads it over its
// nodes: by the value of Column, its rows kept on the same node as the rows
// of ColocateWith with the same value.
type Distributed struct {
	Table        string
	Column       string
	ColocateWith string // "" starts a colocation group of its own
}

// Distribution is how Tally's tables are distributed on Citus: every row
// belongs to one game table, so the table id is the distribution column
// and all of a table's rows live on one shard; a join code, looked up
// before its table is known, is distributed by the code. It is in the
// order the tables are distributed (a table before the tables whose
// foreign keys point at it).
//
// The routing check (package db/routing) holds every statement the app
// runs to it: each statement pins the distribution column of every table
// it touches to one value, so that it runs on one shard.
//
// acme_cache (migration 11), the HTTPS certificate cache of the whole
// service, is left out on purpose: a local table of the coordinator
// (docs/citus.md).
var Distribution = []Distributed{
	{Table: "tables", Column: "id"},
	{Table: "players", Column: "table_id", ColocateWith: "tables"},
	{Table: "accounts", Column: "table_id", ColocateWith: "tables"},
	{Table: "rounds", Column: "table_id", ColocateWith: "tables"},
	{Table: "round_actions", Column: "table_id", ColocateWith: "tables"},
	{Table: "turns", Column: "table_id", ColocateWith: "tables"},
	{Table: "events", Column: "table_id", ColocateWith: "tables"},
	{Table: "journal_transactions", Column: "table_id", ColocateWith: "tables"},
	{Table: "postings", Column: "table_id", ColocateWith: "tables"},
	{Table: "idempotency_keys", Column: "table_id", ColocateWith: "tables"},
	{Table: "audit_checkpoints", Column: "table_id", ColocateWith: "tables"},
	{Table: "royale_games", Column: "table_id", ColocateWith: "tables"},
	{Table: "royale_actions", Column: "table_id", ColocateWith: "tables"},
	{Table: "host_recoveries", Column: "table_id", ColocateWith: "tables"},
	{Table: "retired_tokens", Column: "table_id", ColocateWith: "tables"},
	{Table: "crew_nights", Column: "table_id", ColocateWith: "tables"},
	{Table: "payment_handles", Column: "table_id", ColocateWith: "tables"},
	{Table: "payment_claims", Column: "table_id", ColocateWith: "tables"},
	{Table: "join_codes", Column: "code"},
}

// DistributedFunctions are the functions that write a table's money or
// seals, as Citus runs them: on the node that holds the table's shard (the
// distribution argument is the table id), delegated by the coordinator even
// inside a transaction (force_delegation), over the connection the
// transaction already holds there. Run on the coordinator instead, a
// SECURITY DEFINER function would reach the shard over a connection of its
// owner's, which would not see the rows the transaction wrote (the round a
// payout names), and its guard setting (tally.posting) would not reach the
// shard's triggers.
var DistributedFunctions = []string{
	"tally_journal_post(bigint, text, int, text, jsonb, bigint, bigint[], bigint[])",
	"tally_seal_events(bigint, bigint[], bytea[])",
	"tally_seal_head(bigint, bigint, bytea)",
}

// ErrNotCitus is Distribute's answer for a database without Citus.
var ErrNotCitus = errors.New("not a Citus coordinator")

// Distribute makes the migrated schema of the Citus coordinator at dsn
// (connected as the schema's owner) distributed, as Distribution says. A
// table distributed already is left as it is, so it can run after every
// migration. It returns the tables it distributed now.
func Distribute(ctx context.Context, dsn string) ([]string, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("distribute: %w", err)
	}
	defer conn.Close(context.Background())
	// Every tallyd started with --citus distributes, and two at once fail:
	// both find a table not distributed yet and the second to distribute
	// it is refused, or Citus fails the second create_distributed_function
	// (tuple concurrently updated). So they take turns, as golang-migrate's
	// migrations do: a lock of the session's, given back before Distribute
	// returns (and by the connection's end, whatever happened).
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", DistributeLock); err != nil {
		return nil, fmt.Errorf("distribute: waiting for another tallyd to finish distributing: %w", err)
	}
	defer conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", DistributeLock) //nolint:errcheck // the connection's end unlocks too
	citus, err := hasCitus(ctx, conn)
	if err != nil {
		return nil, fmt.Errorf("distribute: %w", err)
	}
	if !citus {
		return nil, fmt.Errorf("distribute: %w: the database has no citus extension (docs/citus.md: CREATE EXTENSION citus and add the workers first)", ErrNotCitus)
	}
	done, err := distributeTables(ctx, conn)
	if err != nil {
		return nil, err
	}
	return done, distributeFunctions(ctx, conn)
}

// distributeTables distributes, in one transaction, each table of
// Distribution not distributed yet, and returns those it distributed.
//
// Tally's append-only guards and its money's guards are triggers on the
// distributed tables; each reads only the row it fires for, or the
// transaction's own setting, and so never reaches another shard. The round
// status guard (migration 10) reads its table's events too: the colocated
// shard on the same node, which Citus reads in the same backend and
// transaction. Citus takes these triggers only with
// citus.enable_unsafe_triggers, set here for the tables' transaction; a
// migration that adds a trigger to a table distributed already sets it
// itself (migration 10 says how, docs/citus.md).
func distributeTables(ctx context.Context, conn *pgx.Conn) ([]string, error) {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("distribute: %w", err)
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck // after Commit, a no-op
	if _, err := tx.Exec(ctx, "SET LOCAL citus.enable_unsafe_triggers = on"); err != nil {
		return nil, fmt.Errorf("distribute: %w", err)
	}
	var done []string
	for _, d := range Distribution {
		// A table a later migration makes is not there yet in a database
		// at an older version: it is distributed by the Distribute that
		// follows the migration that makes it (tallyd serve --citus and
		// tallyd migrate up --citus distribute after migrating).
		var missing, already bool
		if err := tx.QueryRow(ctx, `SELECT to_regclass($1) IS NULL,
			EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass($1))`,
			"public."+d.Table).Scan(&missing, &already); err != nil {
			return nil, fmt.Errorf("distribute %s: %w", d.Table, err)
		}
		if missing || already {
			continue
		}
		if err := distributeTable(ctx, tx, d); err != nil {
			return nil, err
		}
		done = append(done, d.Table)
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("distribute: %w", err)
	}
	return done, nil
}

// distributeTable distributes one table in tx. The rows it holds already are
// copied into its shards, which fires its insert guards: they stand aside for
// the copy (legacy history has no seals yet; balances and the journal arrive
// as they are), in the one transaction that distributes everything, so that
// they are never off once it commits.
func distributeTable(ctx context.Context, tx pgx.Tx, d Distributed) error {
	colocate := d.ColocateWith
	if colocate == "" {
		colocate = "none"
	}
	guards := insertGuards[d.Table]
	for _, g := range guards {
		if _, err := tx.Exec(ctx, "ALTER TABLE public."+d.Table+" DISABLE TRIGGER "+g); err != nil {
			return fmt.Errorf("distribute %s: %w", d.Table, err)
		}
	}
	if _, err := tx.Exec(ctx, "SELECT create_distributed_table($1, $2, colocate_with => $3)",
		"public."+d.Table, d.Column, colocate); err != nil {
		return fmt.Errorf("distribute %s by %s: %w", d.Table, d.Column, err)
	}
	for _, g := range guards {
		if _, err := tx.Exec(ctx, "ALTER TABLE public."+d.Table+" ENABLE TRIGGER "+g); err != nil {
			return fmt.Errorf("distribute %s: %w", d.Table, err)
		}
	}
	return nil
}

// distributeFunctions distributes Tally's functions, which Citus takes only
// after the tables' transaction has committed.
func distributeFunctions(ctx context.Context, conn *pgx.Conn) error {
	for _, f := range DistributedFunctions {
		var already bool
		if err := conn.QueryRow(ctx, functionDistributed, "public."+f).Scan(&already); err != nil {
			return fmt.Errorf("distribute %s: %w", f, err)
		}
		if already {
			continue
		}
		if _, err := conn.Exec(ctx, "SELECT create_distributed_function($1, 'p_table', colocate_with => 'tables', force_delegation => true)",
			"public."+f); err != nil {
			return fmt.Errorf("distribute %s: %w", f, err)
		}
	}
	return nil
}

// DistributeLock is the key of the advisory lock Distribute holds while it
// distributes, so that two tallyd started at once take turns. Advisory
// locks are the database's, so each of a server's databases has its own.
const DistributeLock int64 = 7_411_023_907

// functionDistributed says whether a function is distributed as
// Distribute makes it: by p_table, with the tables, delegated even inside
// a transaction. Such a function is left as it is, so that a start changes
// nothing in Citus's catalog that it need not.
const functionDistributed = `SELECT EXISTS (SELECT 1 FROM pg_dist_object o
	JOIN pg_proc p ON p.oid = o.objid
	WHERE o.classid = 'pg_proc'::regclass AND o.objid = $1::regprocedure
	AND o.distribution_argument_index = array_position(p.proargnames, 'p_table') - 1
	AND o.colocationid = (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = 'public.tables'::regclass)
	AND o.force_delegation)`

// insertGuards are the triggers that check rows as they are inserted,
// by table: distributing a table copies its rows, which they would refuse.
var insertGuards = map[string][]string{
	"accounts":             {"accounts_open_empty"},
	"events":               {"events_sealed"},
	"journal_transactions": {"journal_transactions_guard"},
	"postings":             {"postings_guard"},
}

// ErrDistributedDown refuses migrating a distributed schema down.
var ErrDistributedDown = errors.New("the tables are distributed (Citus): migrations do not go down; restore a backup of the version you want")

// distributed reports whether the database at dsn has Tally's tables
// distributed by Citus.
func distributed(ctx context.Context, dsn string) (bool, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return false, err
	}
	defer conn.Close(context.Background())
	if citus, err := hasCitus(ctx, conn); err != nil || !citus {
		return false, err
	}
	// Citus cannot make a table with an identity column local again
	// (undistribute_table), and older constraints (a join code unique in
	// the table row) cannot hold on distributed tables.
	var on bool
	err = conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass('public.tables'))").Scan(&on)
	return on, err
}

// hasCitus reports whether the database conn is on has the citus extension.
func hasCitus(ctx context.Context, conn *pgx.Conn) (bool, error) {
	var citus bool
	err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')").Scan(&citus)
	return citus, err
}
