package main

import (
	"context"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5"
)

// With --statements N (and --tallyd), PostgreSQL loads pg_stat_statements;
// its counts are reset as each Tally measurement starts (its warm-up
// included) and, once it ends, the N statements of Tally's database that
// took the most time are printed with their calls, time, WAL and buffers,
// and how often each index of Tally's tables was read: what a write costs
// PostgreSQL, statement by statement, and which index nothing reads. The
// totals per request count the statements Tally sends (a function's or a
// trigger's own statements are in their caller's figures, and listed on
// their own too). Planning is timed apart: a statement planned again for
// its parameters on every call (a custom plan) pays it each time, one
// planned once (a generic plan) only once a connection. Buffers and WAL are counts, which a busy machine does
// not move as it moves CPU time.

// statementsLibrary is the setting that loads pg_stat_statements.
var statementsLibrary = map[string]string{"shared_preload_libraries": "pg_stat_statements",
	"pg_stat_statements.track": "all", "pg_stat_statements.track_planning": "on"}

// resetStatements creates the extension in Tally's database (once) and
// clears its counts and the index statistics.
func resetStatements(ctx context.Context, dsn string) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	for _, sql := range []string{"CREATE EXTENSION IF NOT EXISTS pg_stat_statements",
		"SELECT pg_stat_statements_reset()", "SELECT pg_stat_reset()"} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			return fmt.Errorf("%s: %w", sql, err)
		}
	}
	return nil
}

// reportStatements prints the top statements of Tally's database and the
// index reads of its tables, per request where requests > 0.
func reportStatements(ctx context.Context, w io.Writer, dsn string, top, requests int) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `
		SELECT s.calls, s.total_exec_time, s.plans, s.total_plan_time, s.rows, s.wal_bytes::bigint, s.shared_blks_hit + s.shared_blks_read,
		       sum(s.total_exec_time) FILTER (WHERE s.toplevel) OVER (), sum(s.wal_bytes) FILTER (WHERE s.toplevel) OVER ()::bigint,
		       sum(s.shared_blks_hit + s.shared_blks_read) FILTER (WHERE s.toplevel) OVER ()::bigint,
		       left(regexp_replace(s.query, '\s+', ' ', 'g'), 110)
		FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
		WHERE d.datname = current_database()
		ORDER BY s.total_exec_time DESC LIMIT $1`, top)
	if err != nil {
		return err
	}
	defer rows.Close()
	per := float64(max(requests, 1))
	first := true
	for rows.Next() {
		var calls, plans, nrows, wal, blocks, allWAL, allBlocks int64
		var ms, planMS, allMS float64
		var query string
		if err := rows.Scan(&calls, &ms, &plans, &planMS, &nrows, &wal, &blocks, &allMS, &allWAL, &allBlocks, &query); err != nil {
			return err
		}
		if first {
			fmt.Fprintf(w, "  statements (pg_stat_statements, warm-up included): per request %.0fµs of execution, %.0f bytes of WAL, %.1f buffers read (hit or not)\n",
				allMS*1000/per, float64(allWAL)/per, float64(allBlocks)/per)
			fmt.Fprintf(w, "    %8s %9s %7s %7s %9s %8s %8s %8s  %s\n", "calls/rq", "µs/call", "share", "plans/c", "plan µs/c",
				"rows/c", "WAL B/c", "bufs/c", "statement")
			first = false
		}
		c := float64(max(calls, 1))
		fmt.Fprintf(w, "    %8.2f %9.1f %6.1f%% %7.2f %9.1f %8.1f %8.0f %8.1f  %s\n", float64(calls)/per, ms*1000/c,
			100*ms/max(allMS, 1e-9), float64(plans)/c, planMS*1000/c, float64(nrows)/c, float64(wal)/c, float64(blocks)/c, query)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return reportIndexes(ctx, w, conn)
}

// reportIndexes prints each index of Tally's tables with how often it was
// read: one read by nothing under load is only written.
func reportIndexes(ctx context.Context, w io.Writer, conn *pgx.Conn) error {
	rows, err := conn.Query(ctx, `
		SELECT relname, indexrelname, idx_scan FROM pg_stat_user_indexes
		WHERE schemaname = 'public' ORDER BY idx_scan, relname, indexrelname`)
	if err != nil {
		return err
	}
	defer rows.Close()
	fmt.Fprintln(w, "  index reads (pg_stat_user_indexes):")
	for rows.Next() {
		var table, index string
		var scans int64
		if err := rows.Scan(&table, &index, &scans); err != nil {
			return err
		}
		fmt.Fprintf(w, "    %10d  %s.%s\n", scans, table, index)
	}
	return rows.Err()
}
