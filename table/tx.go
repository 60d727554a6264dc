package table

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger"
)

// Key makes a write idempotent: the request's Idempotency-Key, the scope
// it belongs to (who sent it), a fingerprint of the request and the status
// the answer goes out with. The answer is stored with the key in the
// write's own transaction, so a retry replays it and never applies twice;
// a write that fails stores nothing. A zero Key stores nothing.
type Key struct {
	Key    string
	Scope  string
	Hash   []byte
	Status int
}

// Reply is a write's answer, exactly as stored for its key: the status and
// the JSON body, and whether it is a replay. Value is the typed answer of a
// write that was just applied (nil for a replay).
type Reply struct {
	Status   int
	Body     []byte
	Replayed bool
	Value    any
}

// maxAttempts bounds how often a write aborted by a concurrent one (a
// serialization failure or a deadlock) is run again.
const maxAttempts = 5

// writer is one write request in progress: the table as read under its
// lock, who asks, and what the request will write.
type writer struct {
	ctx    context.Context
	conn   *pgxpool.Conn
	who    Principal
	st     *tableState
	out    *db.Batch // the writes, sent with the commit
	head   chain.Head
	events []chain.Event
	now    time.Time
	ledger *ledger.Books
	rounds int          // the table's round count after the write
	seated []*db.Player // players queued by seat, filled in by flush
}

// target is the table a write is about and how its caller is known: by
// their token, or (joining with a code) not at all.
type target struct {
	tableID int64
	token   string
	open    bool // the caller proves nothing: the join code found the table
}

// write runs one write in one transaction: it locks and reads the table,
// authenticates the caller and looks the key up (one round trip), lets do
// decide and queue the writes, and sends them with the audit events, the
// table's new head, one notification, the key's answer and the COMMIT
// (another round trip).
func (s *Service) write(ctx context.Context, t target, k Key, do func(w *writer) (any, error)) (Reply, error) {
	for attempt := 1; ; attempt++ {
		reply, err := s.writeOnce(ctx, t, k, do)
		if !retryable(err) || attempt == maxAttempts {
			return reply, serviceError(err)
		}
	}
}

func (s *Service) writeOnce(ctx context.Context, t target, k Key, do func(w *writer) (any, error)) (reply Reply, err error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return Reply{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	defer release(conn, &err)
	b := db.NewBatch(ctx)
	b.Begin()
	var row db.Table
	var caller db.Player
	var stored db.IdempotencyKey
	b.TableLock(t.tableID, &row)
	if !t.open && isPlayerToken(t.token) {
		b.PlayerByToken(t.tableID, hashToken(t.token), &caller)
	}
	if k.Key != "" {
		b.IdempotencyKeyGet(t.tableID, k.Scope, k.Key, &stored)
	}
	l := queueState(b, t.tableID, true)
	if err := b.Send(conn); err != nil {
		return Reply{}, err
	}
	who := Principal{TableID: t.tableID}
	if !t.open {
		if who, err = authenticate(Auth{TableID: t.tableID, Token: t.token}, row, caller); err != nil {
			return Reply{}, err
		}
	} else if row.ID == 0 {
		return Reply{}, fmt.Errorf("%w: no open table has that join code", ErrNotFound)
	}
	if stored.RequestHash != nil {
		return replay(stored, k)
	}
	st, err := l.state(row)
	if err != nil {
		return Reply{}, err
	}
	w := &writer{ctx: ctx, conn: conn, who: who, st: st, out: db.NewBatch(ctx), head: row.Head, now: time.Now(),
		rounds: row.Rounds}
	v, err := do(w)
	if err != nil {
		return Reply{}, err
	}
	return w.commit(k, v)
}

// replay answers with a key's stored response, or refuses a key used
// before for another request.
func replay(stored db.IdempotencyKey, k Key) (Reply, error) {
	if !bytes.Equal(stored.RequestHash, k.Hash) {
		return Reply{}, fmt.Errorf("%w: Idempotency-Key %q was used for another request; use a new key for a new request", ErrKeyMismatch, k.Key)
	}
	return Reply{Status: stored.Status, Body: stored.Body, Replayed: true}, nil
}

// release ends the connection's transaction if the request failed before
// COMMIT, and hands the connection back.
func release(conn *pgxpool.Conn, err *error) {
	if conn.Conn().PgConn().TxStatus() != 'I' {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if _, rbErr := conn.Exec(ctx, "ROLLBACK"); rbErr != nil && *err == nil {
			*err = rbErr
		}
		cancel()
	}
	conn.Release()
}

// commit sends the queued writes with everything every write ends with:
// the audit events, the table's new chain head and round count, one
// notification of the change, the key's answer, and COMMIT.
func (w *writer) commit(k Key, v any) (Reply, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return Reply{}, err
	}
	id := w.st.row.ID
	if len(w.events) > 0 {
		w.out.EventInsert(id, w.events)
		w.out.TableAdvance(id, w.head, w.rounds)
		last := w.events[len(w.events)-1]
		w.out.Notify(id, db.Notice{Seq: last.Seq, Kind: last.Kind})
	}
	if k.Key != "" {
		w.out.IdempotencyKeyInsert(db.IdempotencyKey{TableID: keyTable(id, k), Scope: k.Scope, Key: k.Key,
			RequestHash: k.Hash, Status: k.Status, Body: body, ContentType: "application/json"})
	}
	w.out.Commit()
	if err := w.out.Send(w.conn); err != nil {
		return Reply{}, err
	}
	return Reply{Status: k.Status, Body: body, Value: v}, nil
}

// keyTable is the table a key is stored under: 0 for the keys of tables
// being made (whose id the client could not know).
func keyTable(id int64, k Key) int64 {
	if k.Scope == scopeCreate {
		return 0
	}
	return id
}

// flush sends the writes queued so far, for a write whose later steps need
// their results (a new player's id): the players seated meanwhile join the
// table's players.
func (w *writer) flush() error {
	if err := w.out.Send(w.conn); err != nil {
		return err
	}
	for _, p := range w.seated {
		w.st.players = append(w.st.players, *p)
	}
	w.seated = nil
	return nil
}

// emit appends an event to the table's audit chain; it is written with the
// commit.
func (w *writer) emit(kind string, payload any) (chain.Event, error) {
	e, err := w.head.Append(w.st.row.ID, kind, payload, w.now)
	if err != nil {
		return chain.Event{}, err
	}
	w.events = append(w.events, e)
	return e, nil
}

// post checks a movement of money against the table's books and queues it,
// with its ledger event.
func (w *writer) post(e ledger.Entry) error {
	p, err := w.books().Post(e)
	if err != nil {
		return err
	}
	ev, err := w.emit("ledger."+string(e.Kind), p.Event)
	if err != nil {
		return err
	}
	p.Journal.EventSeq = ev.Seq
	w.out.JournalInsert(w.st.row.ID, p.Journal)
	return nil
}

// books are the table's accounts as this write has moved them.
func (w *writer) books() *ledger.Books {
	if w.ledger == nil {
		w.ledger = ledger.NewBooks(w.st.row, w.st.accounts, w.st.players)
	}
	return w.ledger
}

// openTable refuses writes to a closed table.
func (w *writer) openTable() error {
	if w.st.row.Status != db.TableOpen {
		return fmt.Errorf("%w: table %d was closed at %s", ErrTableClosed, w.st.row.ID, w.st.row.ClosedAt.Format(time.RFC3339))
	}
	return nil
}

// loading is a table's state queued in a batch: filled in when it is sent.
type loading struct {
	players  []db.Player
	accounts []db.Account
	latest   db.Round
	actions  []db.Action
}

// queueState queues reading what a request needs of a table: its players,
// accounts, latest round and that round's actions.
func queueState(b *db.Batch, tableID int64, withAccounts bool) *loading {
	l := &loading{}
	b.PlayerList(tableID, &l.players)
	if withAccounts {
		b.AccountList(tableID, &l.accounts)
	}
	b.RoundLatest(tableID, &l.latest)
	b.ActionListLatest(tableID, &l.actions)
	return l
}

// state rebuilds the table once the batch is answered.
func (l *loading) state(row db.Table) (*tableState, error) {
	st := &tableState{row: row, players: l.players, accounts: l.accounts}
	for i := range l.actions {
		l.actions[i].Round = l.latest.Number
	}
	return st, st.resume(l.latest, l.actions)
}

// read runs one read: the table row and the caller's player row queued
// with whatever queue adds, in one round trip in a read-only snapshot. The
// caller is authenticated before anything read is used.
func (s *Service) read(ctx context.Context, a Auth, queue func(b *db.Batch)) (db.Table, Principal, error) {
	if err := checkAuth(a); err != nil {
		return db.Table{}, Principal{}, err
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return db.Table{}, Principal{}, serviceError(fmt.Errorf("%w: %w", ErrUnavailable, err))
	}
	defer release(conn, &err)
	b := db.NewBatch(ctx)
	b.BeginRead()
	var row db.Table
	var caller db.Player
	b.TableGet(a.TableID, &row)
	if isPlayerToken(a.Token) {
		b.PlayerByToken(a.TableID, hashToken(a.Token), &caller)
	}
	if queue != nil {
		queue(b)
	}
	b.Commit()
	if err = b.Send(conn); err != nil {
		return db.Table{}, Principal{}, serviceError(err)
	}
	who, err := authenticate(a, row, caller)
	return row, who, err
}

// retryable reports whether PostgreSQL aborted the transaction only because
// of a concurrent one, so that running it again may succeed.
func retryable(err error) bool {
	return errors.Is(err, db.ErrRetry) || db.SentinelFor(err) == db.ErrRetry
}

// serviceError turns the database's sentinels into the service's.
func serviceError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrUnavailable):
		return err
	case errors.Is(err, db.ErrUnavailable), retryable(err), db.SentinelFor(err) == db.ErrUnavailable,
		errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return err
}
