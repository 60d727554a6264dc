package table

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger"
	"github.com/tally-dice/tally/seal"
)

// Key makes a write idempotent: the request's Idempotency-Key, a
// fingerprint of the request, and how the write's answer is encoded. The
// answer is stored with the key in the write's own transaction, so a retry
// replays it and never applies twice; a write that fails stores nothing. A
// zero Key stores nothing.
//
// The service scopes a key to whoever sent it: the token's hash
// ("token:<hex>", as stored since before migration 3), the table's joins
// (scopeJoin) or the tables being made (scopeCreate).
type Key struct {
	Key  string
	Hash []byte
	// Encode makes the write's answer of its value: the caller's
	// protocol decides how it says what happened (package api: an HTTP
	// status and JSON). A key that is sent needs it; without it, a write
	// answers with its value alone.
	Encode Encoder
	scope  string
	// made says the key is of a table being made, whose id its sender
	// could not know: it is stored under table 0 (in its sender's scope).
	made bool
}

// Encoder makes a write's answer of the value the write returns.
type Encoder func(v any) (Answer, error)

// Answer is a write's answer as its caller's protocol gives it (for api, an
// HTTP status, a content type and the body). The service only stores it
// with the key, locked, and gives the same back when the key is replayed.
type Answer struct {
	Status      int
	ContentType string
	Body        []byte
}

// tokenScope is the scope of the keys a token sends.
func tokenScope(hash []byte) string { return "token:" + hex.EncodeToString(hash) }

// Reply is what a write did: its typed value (nil for a replay), its
// answer as the key's encoder made it (for a replay, exactly as stored),
// and whether it is a replay.
type Reply struct {
	Value    any
	Answer   Answer
	Replayed bool
	// Head is the table's chain head after the write (for a replay, the
	// head now): phones keep the latest they saw, to check the audit with.
	Head chain.Head
}

// maxAttempts bounds how often a write aborted by a concurrent one (a
// serialization failure or a deadlock) is run again.
const maxAttempts = 5

// writer is one write request in progress: the table as read under its
// lock, who asks, and what the request will write.
type writer struct {
	ctx    context.Context
	conn   *pgxpool.Conn
	keys   *seal.Keys
	who    Principal
	st     *tableState
	out    *db.Batch // the writes, sent with the commit
	head   chain.Head
	events []chain.Event
	now    time.Time
	ledger *ledger.Books
	rounds int          // the table's round count after the write
	seated []*db.Player // players queued by seat, filled in by flush
	// history is what the write adds to the table's rounds: their actions
	// and finished turns, and the round it settles.
	history db.Append
	// journal is what a correction read of the journal (correctionWrite).
	journal []db.JournalEntry
	// keep says the write leaves st as the database will hold it once it
	// commits (its accounts as the books moved them): the state is kept
	// for the table's next write (stateCache). Writes that do not say so
	// leave the next one to read the table whole.
	keep bool
}

// target is the table a write is about and how its caller is known: by
// their token, or (joining with a code) not at all.
type target struct {
	tableID int64
	token   string
	hash    []byte // the token's
	open    bool   // the caller proves nothing: the join code found the table
	// royale: the write needs the table's latest Battleship Royale game
	// (royaleWrite); the others leave it unread.
	royale bool
	// also queues more reads into the first round trip: a host recovery
	// code being redeemed, the journal entries a correction may reverse, a
	// night being rolled into its crew. It may run again (a retried
	// write), so it resets what it reads into.
	also func(*db.Batch)
	// missing is the error for a table that is not there, for an open
	// write (the join code's, unless set).
	missing error
}

// tokenTarget is the table a's token writes to, with the token's hash.
func tokenTarget(a Auth) target {
	return target{tableID: a.TableID, token: a.Token, hash: hashToken(a.Token)}
}

// write runs one write in one transaction: it locks the table (if the
// caller's token is one of the table's) and reads it, authenticates the
// caller and looks the key up (one round trip), lets do decide and queue
// the writes, and sends them with the audit events, the table's new head,
// one notification, the key's answer and the COMMIT (another round trip).
func (s *Service) write(ctx context.Context, t target, k Key, do func(w *writer) (any, error)) (Reply, error) {
	for attempt := 1; ; attempt++ {
		reply, err := s.writeOnce(ctx, t, k, do)
		if !retryable(err) || attempt == maxAttempts {
			s.noteWrite(reply, err)
			return reply, serviceError(err)
		}
	}
}

func (s *Service) writeOnce(ctx context.Context, t target, k Key, do func(w *writer) (any, error)) (reply Reply, err error) {
	conn, err := s.acquire(ctx)
	if err != nil {
		return Reply{}, err
	}
	defer release(conn, &err)
	b := db.NewBatch(ctx)
	b.Begin()
	var row db.Table
	var l db.Loaded
	if t.open {
		b.TableLock(t.tableID, &row)
	} else {
		// Only a token of the table takes its lock (and reads the row):
		// anyone else is refused below without having held up the
		// table's writers.
		b.TableLockAs(t.tableID, t.hash, &row)
	}
	ref := db.KeyRef{TableID: t.tableID, Scope: k.scope, Since: s.now().Add(-KeyRetention)}
	if k.Key != "" {
		ref.Key = s.keys.StoredKey(k.Key) // the database keeps no key a client could send again
	}
	kept, cached := s.load(b, t, ref, &l)
	if t.also != nil {
		t.also(b)
	}
	if err := b.Send(conn); err != nil {
		return Reply{}, err
	}
	switch {
	case cached && kept.holds(row.Head):
		// Nothing changed since this instance's last write: the reads
		// read nothing (TableLoadChanged), and the state is as it left it.
		l.Players = kept.st.players
	case cached && row.ID == 0 && len(l.Players) == 0:
		// A token the table does not know locked nothing, and the reads
		// may have read nothing: its refusal names the players kept.
		l.Players, cached = kept.st.players, false
	default:
		cached = false
	}
	who := Principal{TableID: t.tableID}
	switch {
	case !t.open:
		if who, err = authenticate(t.token, t.hash, row, l.Players); err != nil {
			return Reply{}, whyRetired(ctx, conn, t.tableID, t.token, t.hash, l.Players, err)
		}
	case row.ID == 0 && t.missing != nil:
		return Reply{}, t.missing
	case row.ID == 0:
		return Reply{}, fmt.Errorf("%w: no open table has that join code", ErrNotFound)
	}
	if l.Key.RequestHash != nil && k.Key != "" {
		return s.replay(l.Key, k, row.Head)
	}
	st, err := s.writeState(ctx, conn, t, row, l, kept, cached)
	if err != nil {
		return Reply{}, err
	}
	w := &writer{ctx: ctx, conn: conn, keys: s.keys, who: who, st: st, out: db.NewBatch(ctx), head: row.Head,
		now: s.now(), rounds: row.Rounds}
	v, err := do(w)
	if err != nil {
		return Reply{}, err
	}
	if reply, err = w.commit(k, v); err == nil && w.keep {
		if w.ledger != nil {
			st.accounts = w.ledger.Accounts()
		}
		s.states.keep(t.tableID, cachedState{head: w.head, st: st, royale: t.royale})
	}
	return reply, err
}

// KeyRetention is how long a stored answer to an Idempotency-Key is kept:
// long enough for any phone to retry after a night of flaky wifi. An
// older key is forgotten, and the same key then makes a new request.
const KeyRetention = 48 * time.Hour

// replay answers with a key's stored response, or refuses a key used
// before for another request. head is the table's chain head now.
func (s *Service) replay(stored db.IdempotencyKey, k Key, head chain.Head) (Reply, error) {
	if !bytes.Equal(stored.RequestHash, k.Hash) {
		return Reply{}, fmt.Errorf("%w: Idempotency-Key %q was used for another request; use a new key for a new request", ErrKeyMismatch, k.Key)
	}
	body, err := stored.Body, error(nil)
	// Answers stored before migration 4 are plain; they expire with
	// KeyRetention like the rest.
	if seal.Locked(body) {
		body, err = s.keys.Unlock(body, keyContext(stored.TableID, k))
	}
	if err != nil {
		// Locked under another secret: the answer cannot be given back,
		// and applying the request again could apply it twice.
		return Reply{}, fmt.Errorf("%w: Idempotency-Key %q was used before this server's secret changed; use a new key", ErrKeyMismatch, k.Key)
	}
	return Reply{Answer: Answer{Status: stored.Status, ContentType: stored.ContentType, Body: body}, Replayed: true, Head: head}, nil
}

// keyContext binds a stored answer to the key it answers, so that it cannot
// be moved under another key and opened there.
func keyContext(tableID int64, k Key) string {
	return strconv.FormatInt(tableID, 10) + "\x00" + k.scope + "\x00" + k.Key
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

// commit sends the queued writes with what every write ends with, in one
// statement (db.Batch.TableAppend): the rounds' new actions and turns, the
// audit events, the table's new chain head and round count, the key's
// answer, one notification of the change; and COMMIT.
func (w *writer) commit(k Key, v any) (Reply, error) {
	var answer Answer
	switch {
	case k.Encode != nil:
		var err error
		if answer, err = k.Encode(v); err != nil {
			return Reply{}, err
		}
	case k.Key != "":
		return Reply{}, errors.New("table: a write with an Idempotency-Key needs an encoder for the answer it stores")
	}
	id := w.st.row.ID
	h := w.history
	h.Events, h.Head, h.Rounds, h.At = w.events, w.head, w.rounds, w.now
	h.HeadSeal = w.keys.Head(id, w.head.Seq, w.head.Hash)
	if k.Key != "" {
		// The answer may hold tokens: it is stored locked (package seal).
		kt := keyTable(id, k)
		h.Key = db.IdempotencyKey{TableID: kt, Scope: k.scope, Key: w.keys.StoredKey(k.Key), RequestHash: k.Hash,
			Status: answer.Status, Body: w.keys.Lock(answer.Body, keyContext(kt, k)), ContentType: answer.ContentType}
	}
	w.out.TableAppend(id, h)
	w.out.Commit()
	if err := w.out.Send(w.conn); err != nil {
		return Reply{}, err
	}
	return Reply{Value: v, Answer: answer, Head: w.head}, nil
}

// keyTable is the table a key is stored under: 0 for the keys of tables
// being made (whose id the client could not know).
func keyTable(id int64, k Key) int64 {
	if k.made {
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
	e.Seal = w.keys.Event(e.TableID, e.Seq, e.Hash)
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

// stateOf rebuilds a table from its row and what TableLoad read.
func stateOf(row db.Table, l db.Loaded) (*tableState, error) {
	st, err := newState(row, l.Players, l.Accounts)
	if err != nil {
		return nil, err
	}
	return st, st.game.resume(l)
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
	case db.ConflictOn(err) == db.KeyPlayerName:
		// The database compares names by its own lower-casing, which
		// folds a few letters Go's comparison does not (İ and i).
		return fmt.Errorf("%w: a player of that name (ignoring case) already sits at this table", ErrNameTaken)
	case errors.Is(err, db.ErrCorrupt):
		return fmt.Errorf("%w: %w", ErrHistoryBroken, err)
	case errors.Is(err, db.ErrNotFound):
		// A guard in the schema refused the write (tally_expect, or a
		// reference to a missing row): nothing was written.
		return fmt.Errorf("%w: %w", ErrChanged, err)
	}
	return err
}
