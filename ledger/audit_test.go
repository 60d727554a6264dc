package ledger_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/ledger"
)

// playSome writes a few events: three movements and a custom one.
func playSome(f *fixture) {
	f.t.Helper()
	f.must(func(tx pgx.Tx) error {
		if _, err := ledger.AppendEvent(f.ctx, tx, f.table.ID, "player.joined", map[string]any{"name": "Ann <3", "seat": 1}); err != nil {
			return err
		}
		if _, err := ledger.Deposit(f.ctx, tx, f.table.ID, f.players[0], 20); err != nil {
			return err
		}
		if _, err := ledger.Ante(f.ctx, tx, f.table.ID, nil, []ledger.PlayerAmount{{f.players[0], 5}, {f.players[1], 5}}); err != nil {
			return err
		}
		_, err := ledger.Payout(f.ctx, tx, f.table.ID, nil, f.players[1])
		return err
	})
}

func TestAuditChainVerifies(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false, "Ann", "Bob")
	playSome(f)
	r, err := ledger.Verify(f.ctx, f.pool, f.table.ID)
	if err != nil || !r.OK || r.Events != 4 || len(r.Head) != 32 {
		t.Fatalf("report %+v, %v", r, err)
	}
	events, err := db.EventList(f.ctx, f.pool, f.table.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{"player.joined", "ledger.deposit", "ledger.ante", "ledger.payout"}
	for i, e := range events {
		if e.Seq != int64(i+1) || e.Kind != kinds[i] {
			t.Errorf("event %d: seq %d kind %s, want %d %s", i, e.Seq, e.Kind, i+1, kinds[i])
		}
	}
	if err := f.do(func(tx pgx.Tx) error {
		_, err := ledger.AppendEvent(f.ctx, tx, f.table.ID, "odd", map[string]any{"x": 0.5})
		return err
	}); !errors.Is(err, ledger.ErrNonInteger) {
		t.Errorf("fractional payload: err = %v, want ErrNonInteger", err)
	}
}

func TestAuditTamperingIsCaught(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		sql    string
		seq    int64
		reason string
	}{
		{"payload edited", `UPDATE events SET payload = jsonb_set(payload, '{postings,0,amount}', '200') WHERE seq = 2`, 2, "does not match"},
		{"kind edited", `UPDATE events SET kind = 'ledger.refund' WHERE seq = 3`, 3, "does not match"},
		{"timestamp edited", `UPDATE events SET created_at = created_at + interval '1 microsecond' WHERE seq = 1`, 1, "does not match"},
		{"payload replaced", `UPDATE events SET payload = '{"name":"Eve","seat":1}' WHERE seq = 1`, 1, "does not match"},
		{"hash replaced", `UPDATE events SET hash = sha256('forged') WHERE seq = 2`, 2, "does not match"},
		{"prev_hash relinked", `UPDATE events SET prev_hash = sha256('forged') WHERE seq = 4`, 4, "prev_hash"},
		{"event removed", `DELETE FROM events WHERE seq = 2`, 3, "sequence gap"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, false, "Ann", "Bob")
			playSome(f)
			// The append-only trigger has to be switched off to tamper at all.
			f.must(func(tx pgx.Tx) error {
				for _, sql := range []string{`ALTER TABLE events DISABLE TRIGGER events_append_only`, tc.sql,
					`ALTER TABLE events ENABLE TRIGGER events_append_only`} {
					if _, err := tx.Exec(f.ctx, sql); err != nil {
						return err
					}
				}
				return nil
			})
			r, err := ledger.Verify(f.ctx, f.pool, f.table.ID)
			if err != nil {
				t.Fatal(err)
			}
			if r.OK || r.BrokenAt != tc.seq || !strings.Contains(r.Problem, tc.reason) {
				t.Fatalf("report %+v, want a break at seq %d (%s)", r, tc.seq, tc.reason)
			}
		})
	}
}

func TestAuditLogIsAppendOnly(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false, "Ann", "Bob")
	playSome(f)
	for _, sql := range []string{`UPDATE events SET kind = 'x'`, `DELETE FROM events`} {
		_, err := f.pool.Exec(f.ctx, sql)
		if db.SentinelFor(err) != db.ErrAppendOnly {
			t.Errorf("%s: err = %v, want the append-only refusal", sql, err)
		}
	}
}
