package ledger

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
)

// genesis is the prev_hash of a table's first event.
var genesis = make([]byte, sha256.Size)

// timeLayout is the canonical timestamp: UTC, always six fractional digits,
// because PostgreSQL stores microseconds.
const timeLayout = "2006-01-02T15:04:05.000000Z"

// Event is an entry of a table's audit log.
type Event = db.Event

// AppendEvent appends an event to a table's audit log inside the caller's
// transaction. It locks the table row first (a no-op if the caller already
// did), which makes sequence numbers gap-free. The payload is encoded as
// JSON and must hold integers only, no fractions (ErrNonInteger).
func AppendEvent(ctx context.Context, tx pgx.Tx, tableID int64, kind string, payload any) (Event, error) {
	if _, err := db.TableLock(ctx, tx, tableID); err != nil {
		if errors.Is(err, db.ErrNotFound) {
			return Event{}, fmt.Errorf("%w: %d", ErrTableNotFound, tableID)
		}
		return Event{}, err
	}
	return appendEvent(ctx, tx, tableID, kind, payload)
}

// appendEvent appends an event; the caller holds the table row lock.
func appendEvent(ctx context.Context, tx pgx.Tx, tableID int64, kind string, payload any) (Event, error) {
	last, err := db.EventLast(ctx, tx, tableID)
	switch {
	case errors.Is(err, db.ErrNotFound):
		return appendAfter(ctx, tx, tableID, nil, kind, payload)
	case err != nil:
		return Event{}, err
	}
	return appendAfter(ctx, tx, tableID, &last, kind, payload)
}

// appendAfter appends an event after last (nil for the first event); the
// caller holds the table row lock, so last is still the head of the log.
func appendAfter(ctx context.Context, tx pgx.Tx, tableID int64, last *Event, kind string, payload any) (Event, error) {
	raw, err := json.Marshal(payload)
	if err != nil {
		return Event{}, fmt.Errorf("encode %s event: %w", kind, err)
	}
	canon, err := canonicalJSON(raw)
	if err != nil {
		return Event{}, fmt.Errorf("encode %s event: %w", kind, err)
	}
	e := Event{TableID: tableID, Seq: 1, Kind: kind, Payload: canon, PrevHash: genesis,
		CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
	if last != nil {
		e.Seq, e.PrevHash = last.Seq+1, last.Hash
	}
	if e.Hash, err = eventHash(e); err != nil {
		return Event{}, err
	}
	if err := db.EventInsert(ctx, tx, e); err != nil {
		return Event{}, err
	}
	if err := db.EventNotify(ctx, tx, e); err != nil {
		return Event{}, err
	}
	return e, nil
}

// eventHash is SHA-256(prev_hash || canonical record), where the canonical
// record is the JSON object {"created_at","kind","payload","seq","table"}
// with keys sorted, no insignificant whitespace, integers only, and
// created_at in UTC with exactly six fractional digits. The payload is
// re-canonicalized from whatever the database returns, so jsonb's own
// normalization (key order, spacing) cannot change the hash.
func eventHash(e Event) ([]byte, error) {
	payload, err := canonicalJSON(e.Payload)
	if err != nil {
		return nil, err
	}
	record := map[string]any{
		"created_at": e.CreatedAt.UTC().Format(timeLayout),
		"kind":       e.Kind,
		"payload":    json.RawMessage(payload),
		"seq":        e.Seq,
		"table":      e.TableID,
	}
	var buf bytes.Buffer
	if err := writeCanonical(&buf, record); err != nil {
		return nil, err
	}
	h := sha256.New()
	h.Write(e.PrevHash)
	h.Write(buf.Bytes())
	return h.Sum(nil), nil
}

// canonicalJSON re-encodes a JSON document canonically: objects with keys
// sorted by their UTF-8 bytes, no whitespace, integers in plain decimal
// (so 1E2 and 100 agree), strings escaped the way encoding/json does
// without HTML escaping. Non-integer numbers are refused.
func canonicalJSON(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("audit payload: %w", err)
	}
	var buf bytes.Buffer
	if err := writeCanonical(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeCanonical writes one decoded JSON value canonically.
func writeCanonical(buf *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		fmt.Fprint(buf, v)
	case string:
		writeString(buf, v)
	case int64:
		fmt.Fprint(buf, v)
	case json.Number:
		n, ok := new(big.Int).SetString(string(v), 10)
		if !ok {
			r, ok := new(big.Rat).SetString(string(v))
			if !ok || !r.IsInt() {
				return fmt.Errorf("%w: %s", ErrNonInteger, v)
			}
			n = r.Num()
		}
		buf.WriteString(n.String())
	case json.RawMessage:
		c, err := canonicalJSON(v)
		if err != nil {
			return err
		}
		buf.Write(c)
	case []any:
		buf.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeCanonical(buf, x); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, k)
			buf.WriteByte(':')
			if err := writeCanonical(buf, v[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("audit payload: unexpected %T", v)
	}
	return nil
}

// writeString writes a JSON string as encoding/json does, minus HTML
// escaping, so the result is stable across Go versions' defaults.
func writeString(buf *bytes.Buffer, s string) {
	var tmp bytes.Buffer
	enc := json.NewEncoder(&tmp)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	buf.WriteString(strings.TrimSuffix(tmp.String(), "\n"))
}

// VerifyReport is the outcome of walking a table's audit chain.
type VerifyReport struct {
	TableID int64  `json:"tableId"`
	Events  int    `json:"events"`
	OK      bool   `json:"ok"`
	Head    []byte `json:"head,omitempty"` // the last good hash
	// BrokenAt is the seq of the first event that does not verify; Problem
	// says what differs.
	BrokenAt int64  `json:"brokenAt,omitempty"`
	Problem  string `json:"problem,omitempty"`
}

// Verify walks a table's audit log from the first event and reports the
// first break in the chain: a missing sequence number, a prev_hash that is
// not the previous event's hash, or a stored hash that does not match the
// event's contents (tampering).
func Verify(ctx context.Context, q db.DBTX, tableID int64) (VerifyReport, error) {
	events, err := db.EventList(ctx, q, tableID, 0)
	if err != nil {
		return VerifyReport{}, err
	}
	r := VerifyReport{TableID: tableID, Events: len(events), OK: true}
	prev := genesis
	for i, e := range events {
		problem := checkEvent(e, int64(i+1), prev)
		if problem != "" {
			r.OK, r.BrokenAt, r.Problem = false, e.Seq, problem
			return r, nil
		}
		prev, r.Head = e.Hash, e.Hash
	}
	return r, nil
}

// checkEvent says what is wrong with one event, or "" when it verifies.
func checkEvent(e Event, wantSeq int64, prev []byte) string {
	if e.Seq != wantSeq {
		return fmt.Sprintf("sequence gap: expected seq %d, found %d", wantSeq, e.Seq)
	}
	if !bytes.Equal(e.PrevHash, prev) {
		return fmt.Sprintf("prev_hash %x is not the hash of the previous event %x", e.PrevHash, prev)
	}
	h, err := eventHash(e)
	if err != nil {
		return fmt.Sprintf("payload cannot be encoded canonically: %v", err)
	}
	if !bytes.Equal(h, e.Hash) {
		return fmt.Sprintf("stored hash %x does not match the event's contents (recomputed %x)", e.Hash, h)
	}
	return ""
}
