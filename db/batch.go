package db

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tally-dice/tally/db/internal/dbsqlc"
)

// Conn is what a Batch is sent on: a connection taken from the pool
// (*pgxpool.Conn), a *pgx.Conn or a pgx.Tx.
type Conn interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// Batch is a list of statements sent to PostgreSQL together and answered
// together: one round trip, however many statements. A request queues what
// it reads (the table locked, its players, its round) in one batch and what
// it writes (and the COMMIT) in another.
//
// The statements are sqlc's generated queries, whose methods run one
// statement synchronously on a DBTX. To pipeline them, each queued
// operation runs twice: once against a recorder that adds its SQL and
// arguments to the pgx batch, and once, after Send, against the batch's
// results, where the generated code scans its rows as usual. An operation
// runs exactly one statement; queue checks that.
type Batch struct {
	ctx   context.Context
	batch pgx.Batch
	ops   []func(dbsqlc.DBTX) error
}

// queries is the generated code; it holds no state.
var queries = dbsqlc.New()

// NewBatch starts an empty batch whose statements run under ctx.
func NewBatch(ctx context.Context) *Batch { return &Batch{ctx: ctx} }

// Len is the number of statements queued.
func (b *Batch) Len() int { return len(b.ops) }

// queue records one operation. The recording run's results are empty and
// thrown away; op must not act on them beyond returning.
func (b *Batch) queue(op func(q dbsqlc.DBTX) error) {
	b.record(op)
	b.ops = append(b.ops, op)
}

// record runs op against the recorder, which adds its statement to the
// batch.
func (b *Batch) record(op func(q dbsqlc.DBTX) error) {
	rec := &recorder{batch: &b.batch}
	_ = op(rec)
	if rec.n != 1 {
		panic(fmt.Sprintf("db: a batch operation ran %d statements, not 1", rec.n))
	}
}

// exec queues a statement of the generated code that returns nothing (a
// :exec query, whose generated method only returns Exec's error). It runs
// once, to be recorded: its result is Exec's, read without running the
// generated method again, which would build and box its arguments a second
// time for nothing (TableAppend's are some fifty).
func (b *Batch) exec(op func(q dbsqlc.DBTX) error) {
	b.record(op)
	b.ops = append(b.ops, execResult)
}

// execResult reads an exec's result: its error alone.
func execResult(q dbsqlc.DBTX) error {
	_, err := q.Exec(context.Background(), "")
	return err
}

// Begin queues BEGIN: the statements after it, in this batch and the next
// ones on the same connection, are one transaction.
func (b *Batch) Begin() { b.raw("BEGIN") }

// BeginRead queues the start of a read-only transaction that sees one
// snapshot of the database from its first statement to its last.
func (b *Batch) BeginRead() { b.raw("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") }

// BeginSnapshot queues the start of a transaction that sees one snapshot
// of the database from its first statement to its last, and fails
// (ErrRetry) rather than change a row that another transaction changed
// after that snapshot.
func (b *Batch) BeginSnapshot() { b.raw("BEGIN ISOLATION LEVEL REPEATABLE READ") }

// Commit queues COMMIT. After a failed statement the transaction is
// aborted and COMMIT rolls it back: nothing of it is written.
func (b *Batch) Commit() { b.raw("COMMIT") }

// Rollback queues ROLLBACK: nothing of the transaction is written.
func (b *Batch) Rollback() { b.raw("ROLLBACK") }

func (b *Batch) raw(sql string) {
	b.queue(func(q dbsqlc.DBTX) error {
		_, err := q.Exec(b.ctx, sql)
		return err
	})
}

// Send sends the queued statements on conn in one round trip, reads every
// result into the places the queueing methods named, and empties the batch
// for reuse. The first error is returned, as one of this package's
// sentinels where it stands for one; PostgreSQL skips the statements after
// a failed one, so a transaction that fails is left for the caller to roll
// back.
func (b *Batch) Send(conn Conn) error {
	if len(b.ops) == 0 {
		return nil
	}
	br := conn.SendBatch(b.ctx, &b.batch)
	var first error
	for _, op := range b.ops {
		if err := op(results{br}); err != nil && first == nil {
			first = err
		}
	}
	if err := br.Close(); err != nil && first == nil {
		first = err
	}
	b.batch, b.ops = pgx.Batch{}, nil
	return interpretError(first)
}

// recorder is the DBTX of an operation's recording run.
type recorder struct {
	batch *pgx.Batch
	n     int
}

// errRecorded ends a recording run's :one query, which has no row yet.
var errRecorded = errors.New("recorded")

func (r *recorder) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	r.batch.Queue(sql, args...)
	r.n++
	return pgconn.CommandTag{}, nil
}

func (r *recorder) Query(_ context.Context, sql string, args ...any) (pgx.Rows, error) {
	r.batch.Queue(sql, args...)
	r.n++
	return nil, errRecorded
}

func (r *recorder) QueryRow(_ context.Context, sql string, args ...any) pgx.Row {
	r.batch.Queue(sql, args...)
	r.n++
	return errRow{}
}

type errRow struct{}

func (errRow) Scan(...any) error { return errRecorded }

// results is the DBTX of an operation's second run: it answers with the
// next result of the batch, in the order the statements were queued.
type results struct{ br pgx.BatchResults }

func (r results) Exec(context.Context, string, ...any) (pgconn.CommandTag, error) { return r.br.Exec() }
func (r results) Query(context.Context, string, ...any) (pgx.Rows, error)         { return r.br.Query() }
func (r results) QueryRow(context.Context, string, ...any) pgx.Row                { return r.br.QueryRow() }
