package db

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// EventChannel is the PostgreSQL NOTIFY channel that announces new audit
// events, so that every tallyd serving a table can tell its phones at once.
const EventChannel = "tally_events"

// EventNotify announces e on EventChannel. PostgreSQL delivers the
// notification only if and when the transaction commits, so listeners never
// hear of a change that was rolled back.
func EventNotify(ctx context.Context, q DBTX, e Event) error {
	_, err := q.Exec(ctx, `SELECT pg_notify($1, $2)`, EventChannel, fmt.Sprintf("%d:%d:%s", e.TableID, e.Seq, e.Kind))
	if err != nil {
		return fmt.Errorf("notify event %d of table %d: %w", e.Seq, e.TableID, interpretError(err))
	}
	return nil
}

// ParseEventNotice reads a notification sent by EventNotify.
func ParseEventNotice(payload string) (tableID, seq int64, kind string, err error) {
	parts := strings.SplitN(payload, ":", 3)
	if len(parts) != 3 {
		return 0, 0, "", fmt.Errorf("event notice %q: want table:seq:kind", payload)
	}
	if tableID, err = strconv.ParseInt(parts[0], 10, 64); err != nil {
		return 0, 0, "", fmt.Errorf("event notice %q: %w", payload, err)
	}
	if seq, err = strconv.ParseInt(parts[1], 10, 64); err != nil {
		return 0, 0, "", fmt.Errorf("event notice %q: %w", payload, err)
	}
	return tableID, seq, parts[2], nil
}
