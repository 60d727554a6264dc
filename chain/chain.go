// Package chain is a table's tamper-evident history: every change to a table
// is an event, and each event's hash covers the event before it, so that
// changing, removing or reordering any event breaks every hash after it.
//
// An event's hash is SHA-256(prev_hash || record), where prev_hash is the
// hash of the event before it (32 zero bytes for the first) and record is
// the canonical JSON object
//
//	{"created_at":…,"kind":…,"payload":…,"seq":…,"table":…}
//
// Canonical JSON has the keys of every object sorted by their UTF-8 bytes,
// no whitespace, strings escaped as encoding/json escapes them without HTML
// escaping, and numbers as plain decimal integers (payloads hold integers
// only: ErrNonInteger). created_at is UTC with exactly six fractional
// digits, 2006-01-02T15:04:05.000000Z, because PostgreSQL keeps
// microseconds.
//
// A payload is encoded canonically once, from the typed value it is built
// from (Encode), and stored. Whoever verifies the chain later re-encodes
// the stored JSON canonically (Canonicalize), so a store that normalizes
// JSON its own way (PostgreSQL's jsonb reorders keys) cannot break it.
package chain

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// ErrNonInteger refuses a payload with a fractional number: amounts are
// whole units, and integers are the only numbers every JSON reader agrees on.
var ErrNonInteger = errors.New("audit payload numbers must be integers")

// Genesis is the prev_hash of a table's first event.
var Genesis = make([]byte, sha256.Size)

// TimeLayout is the canonical timestamp.
const TimeLayout = "2006-01-02T15:04:05.000000Z"

// Event is one entry of a table's history.
type Event struct {
	TableID   int64
	Seq       int64
	Kind      string
	Payload   []byte // JSON; canonical when made by Head.Append
	CreatedAt time.Time
	PrevHash  []byte
	Hash      []byte
	// Seal is the server's keyed seal over the table, seq and hash (package
	// seal); it is not part of the hash, and only the server can check it.
	Seal []byte
}

// Head is where a table's chain ends: the last event's sequence number and
// hash (0 and Genesis before the first event).
type Head struct {
	Seq  int64
	Hash []byte
}

// Start is the head of a chain with no events.
func Start() Head { return Head{Hash: Genesis} }

// Append makes the event that follows the head and moves the head on to it.
// The payload is encoded canonically from its typed value, once; at is
// truncated to microseconds as it will be stored.
func (h *Head) Append(tableID int64, kind string, payload any, at time.Time) (Event, error) {
	canon, err := Encode(payload)
	if err != nil {
		return Event{}, fmt.Errorf("%s event: %w", kind, err)
	}
	prev := h.Hash
	if len(prev) == 0 {
		prev = Genesis
	}
	e := Event{TableID: tableID, Seq: h.Seq + 1, Kind: kind, Payload: canon,
		CreatedAt: at.UTC().Truncate(time.Microsecond), PrevHash: prev}
	e.Hash = hash(e, canon)
	h.Seq, h.Hash = e.Seq, e.Hash
	return e, nil
}

// hash is SHA-256(prev_hash || record) over the canonical payload.
func hash(e Event, canonPayload []byte) []byte {
	rec := make([]byte, 0, 96+len(e.Kind)+len(canonPayload))
	rec = append(rec, `{"created_at":"`...)
	rec = e.CreatedAt.UTC().AppendFormat(rec, TimeLayout)
	rec = append(rec, `","kind":`...)
	rec = appendString(rec, e.Kind)
	rec = append(rec, `,"payload":`...)
	rec = append(rec, canonPayload...)
	rec = append(rec, `,"seq":`...)
	rec = strconv.AppendInt(rec, e.Seq, 10)
	rec = append(rec, `,"table":`...)
	rec = strconv.AppendInt(rec, e.TableID, 10)
	rec = append(rec, '}')
	h := sha256.New()
	h.Write(e.PrevHash)
	h.Write(rec)
	return h.Sum(nil)
}

// Hash recomputes an event's hash from its stored contents, re-encoding
// the payload canonically first.
func Hash(e Event) ([]byte, error) {
	canon, err := Canonicalize(e.Payload)
	if err != nil {
		return nil, err
	}
	return hash(e, canon), nil
}

// Report is the outcome of walking a table's chain.
type Report struct {
	Events int
	OK     bool
	Head   []byte // the last good hash
	// BrokenAt is the seq of the first event that does not verify; Problem
	// says what differs.
	BrokenAt int64
	Problem  string
}

// Verify walks a table's events, in order from the first, and reports the
// first break: a missing or repeated sequence number, a prev_hash that is
// not the previous event's hash, or a stored hash that does not match the
// event's contents.
func Verify(events []Event) Report {
	r := Report{Events: len(events), OK: true}
	prev := Genesis
	for i, e := range events {
		if problem := check(e, int64(i+1), prev); problem != "" {
			r.OK, r.BrokenAt, r.Problem = false, e.Seq, problem
			return r
		}
		prev, r.Head = e.Hash, e.Hash
	}
	return r
}

// check says what is wrong with one event, or "" when it verifies.
func check(e Event, wantSeq int64, prev []byte) string {
	if e.Seq != wantSeq {
		return fmt.Sprintf("sequence gap: expected seq %d, found %d", wantSeq, e.Seq)
	}
	if !bytes.Equal(e.PrevHash, prev) {
		return fmt.Sprintf("prev_hash %x is not the hash of the previous event %x", e.PrevHash, prev)
	}
	h, err := Hash(e)
	if err != nil {
		return fmt.Sprintf("payload cannot be encoded canonically: %v", err)
	}
	if !bytes.Equal(h, e.Hash) {
		return fmt.Sprintf("stored hash %x does not match the event's contents (recomputed %x)", e.Hash, h)
	}
	return ""
}
