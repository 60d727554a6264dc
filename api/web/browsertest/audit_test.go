package browsertest

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/receipt"
)

// storedHead is the head the phone keeps for a table, "SEQ:HASH", or "".
func (p *phone) storedHead(id int64) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`(() => {
  const t = JSON.parse(localStorage.getItem('tally.tables') || '{}')[%d];
  return t && t.head ? t.head.seq + ':' + t.head.hash : '';
})()`, id))
}

// waitHead waits until the phone keeps head for the table.
func (p *phone) waitHead(id int64, head string) {
	p.t.Helper()
	p.waitFor("the head "+head+" kept on the phone", fmt.Sprintf(`(() => {
  const t = JSON.parse(localStorage.getItem('tally.tables') || '{}')[%d];
  return !!t && !!t.head && t.head.seq + ':' + t.head.hash === %q;
})()`, id, head))
}

// serverHead is where the table's log ends in the database, "SEQ:HASH".
func (s *server) serverHead(t *testing.T, id int64) string {
	t.Helper()
	var seq int64
	var hash []byte
	if err := s.pool.QueryRow(context.Background(), `SELECT event_seq, event_hash FROM tables WHERE id = $1`, id).Scan(&seq, &hash); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d:%x", seq, hash)
}

// seqOf is the sequence number of a head.
func seqOf(t *testing.T, head string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(head[:strings.IndexByte(head, ':')], 10, 64)
	if err != nil {
		t.Fatalf("head %q: %v", head, err)
	}
	return n
}

// TestPhonesKeepTheHeadTheySaw: the host's phone, its live stream refused,
// keeps the head each of its writes answers with; Bob's phone, which
// writes nothing, keeps the head the stream announces. Each keeps the
// latest only, across a reload, and sends it with the audit, which finds
// it in the history; a change to the live round asks no new audit.
func TestPhonesKeepTheHeadTheySaw(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	id := m.Table.ID
	srv.mute(m.HostToken)
	b := startBrowser(t)
	host := newPhone(t, b, srv.URL, "host")
	host.hostOf(m)
	if h := host.storedHead(id); h != "" {
		t.Fatalf("the host's phone has written nothing and has no stream, yet keeps the head %q", h)
	}
	bob := newPhone(t, b, srv.URL, "bob")
	bob.open("/#join=" + m.JoinCode + "&seat=Bob")
	bob.waitSeats()
	bob.tap(`button.seat[data-name="Bob"]`)
	bob.waitText(`header .role`, "You: Bob")
	bob.waitHead(id, srv.serverHead(t, id))

	host.tap(`[data-testid=start-round]`)
	host.waitText(`[data-testid=whose-turn]`, "Ann")
	started := srv.serverHead(t, id)
	host.waitHead(id, started)
	host.enter(6, 5, 4, 3, 3)
	host.tap(`[data-testid=send]`)
	host.waitText(`[data-testid=verdict]`, "banked 6-5-4")
	thrown := srv.serverHead(t, id)
	if seqOf(t, thrown) <= seqOf(t, started) {
		t.Fatalf("a throw left the log at %s, from %s", thrown, started)
	}
	host.waitHead(id, thrown)
	bob.waitHead(id, thrown)

	// An older head, seen late, does not replace the latest.
	older := eval[string](host, fmt.Sprintf(`import('/app/store.js').then((s) => { s.sawHead(%d, %q); return s.head(%d); })`, id, started, id),
		chromedp.EvalAwaitPromise)
	if older != thrown {
		t.Fatalf("after seeing the older head %s the phone keeps %s, want %s", started, older, thrown)
	}

	// A reload keeps it, and the audit is asked with it.
	host.open("/" + eval[string](host, `location.hash`))
	host.tap(`[data-testid=go-history]`)
	host.waitText(`[data-testid=audit]`, "Audit: all checks pass")
	host.waitText(`[data-testid=audit]`, fmt.Sprintf("Witnessed: this phone saw event %d, and the history still holds it.", seqOf(t, thrown)))
	if q := srv.auditQueries(); len(q) != 1 || q[0] != "witness="+thrown {
		t.Fatalf("the audits asked: %q, want one with witness=%s", q, thrown)
	}
	if eval[bool](host, `!!document.querySelector('[data-testid=audit-alarm]')`) {
		t.Fatal("an untouched history raises the alarm")
	}
	host.shot("audit")

	// Bob's phone audits with the head from its stream; Ann standing while
	// it shows the history changes the live round, which asks no new audit.
	bob.tap(`[data-testid=go-history]`)
	bob.waitText(`[data-testid=audit]`, "Audit: all checks pass")
	if q := srv.auditQueries(); len(q) != 2 || q[1] != "witness="+thrown {
		t.Fatalf("the audits asked: %q, want Bob's with witness=%s", q, thrown)
	}
	host.tap(`[data-testid=go-play]`)
	host.tap(`[data-testid=stand]`)
	host.waitText(`[data-testid=whose-turn]`, "Bob")
	stood := srv.serverHead(t, id)
	host.waitHead(id, stood)
	bob.waitHead(id, stood)
	bob.waitFor("Ann's stand in Bob's history", `/stood|stands/i.test(document.querySelector('[data-testid=turns-1]')?.textContent)`)
	time.Sleep(500 * time.Millisecond)
	if q := srv.auditQueries(); len(q) != 2 {
		t.Fatalf("a throw in the live round asked the audit again: %q", q)
	}
}

// cutTail removes the table's events after seq as the database's superuser
// and seals the shorter log with the server's own key: a cut that the audit
// alone cannot tell from an honest history.
func (s *server) cutTail(t *testing.T, id, seq int64) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbtest.OwnerDSN(t, s.pool.Config().ConnString()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var hash []byte
	for _, step := range []func() error{
		func() error { _, err := tx.Exec(ctx, `SET LOCAL session_replication_role = replica`); return err },
		func() error {
			return tx.QueryRow(ctx, `SELECT hash FROM events WHERE table_id = $1 AND seq = $2`, id, seq).Scan(&hash)
		},
		// What the cut events recorded goes with them (the actions, and the
		// turns they finished), so that what is left agrees with itself.
		func() error {
			_, err := tx.Exec(ctx, `DELETE FROM turns u WHERE u.table_id = $1 AND EXISTS (SELECT 1 FROM round_actions a
				WHERE a.table_id = $1 AND a.round_id = u.round_id AND a.player_id = u.player_id AND a.event_seq > $2)`, id, seq)
			return err
		},
		func() error {
			_, err := tx.Exec(ctx, `DELETE FROM round_actions WHERE table_id = $1 AND event_seq > $2`, id, seq)
			return err
		},
		func() error {
			_, err := tx.Exec(ctx, `DELETE FROM events WHERE table_id = $1 AND seq > $2`, id, seq)
			return err
		},
		func() error {
			_, err := tx.Exec(ctx, `UPDATE tables SET event_seq = $2, event_hash = $3, head_seal = $4 WHERE id = $1`,
				id, seq, hash, s.sealKeys.Head(id, seq, hash))
			return err
		},
		func() error { return tx.Commit(ctx) },
	} {
		if err := step(); err != nil {
			t.Fatalf("cutting the log after event %d: %v", seq, err)
		}
	}
}

// auditAlone asks the audit with no witness, as a client that kept no
// head would.
func auditAlone(t *testing.T, base, token string, id int64) (ok bool, problems []string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/v1/tables/%d/audit", base, id), nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var rep struct {
		OK       bool     `json:"ok"`
		Problems []string `json:"problems"`
	}
	if err := json.NewDecoder(res.Body).Decode(&rep); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("audit: %d %v", res.StatusCode, err)
	}
	return rep.OK, rep.Problems
}

// TestAlarmWhenEventsThePhoneSawAreCut: the host's phone records a throw
// and a stand; then someone with the database and the server's key cuts
// both from the log and seals what is left. The audit alone passes; the
// phone's History tab, asking with the head it saw, raises the alarm and
// names the cut.
func TestAlarmWhenEventsThePhoneSawAreCut(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	id := m.Table.ID
	host := newPhone(t, startBrowser(t), srv.URL, "host")
	host.hostOf(m)
	host.tap(`[data-testid=start-round]`)
	host.enter(6, 5, 4, 3, 3)
	host.tap(`[data-testid=send]`)
	host.tap(`[data-testid=stand]`)
	host.waitText(`[data-testid=whose-turn]`, "Bob")
	seen := srv.serverHead(t, id)
	host.waitHead(id, seen)

	n := seqOf(t, seen)
	srv.cutTail(t, id, n-2)
	if ok, problems := auditAlone(t, srv.URL, m.HostToken, id); !ok {
		t.Fatalf("the cut was sealed with the key, yet the audit alone caught it: %q (the test is wrong)", problems)
	}

	host.tap(`[data-testid=go-history]`)
	host.waitFor("the alarm", `!!document.querySelector('[data-testid=audit-alarm]')`)
	want := fmt.Sprintf("This phone saw event %d of this table, but the history now ends at event %d: events were removed after this phone saw them.", n, n-2)
	host.waitText(`[data-testid=audit-alarm]`, want)
	host.waitText(`[data-testid=audit]`, "Audit: PROBLEM")
	host.waitText(`[data-testid=audit]`, fmt.Sprintf("Witnessed: this phone saw event %d, and the history no longer holds it.", n))
	if first := eval[string](host, `document.querySelector('[data-testid=tab-history]').firstElementChild?.dataset.testid ?? ''`); first != "audit-alarm" {
		t.Fatalf("the History tab starts with %q, not the alarm", first)
	}
	// The alarm names the cut once, in the phone's words, not the server's.
	if text := host.text(`[data-testid=audit-alarm]`); strings.Count(text, fmt.Sprintf("event %d", n)) != 1 {
		t.Fatalf("the alarm says:\n%s", text)
	}
	host.shot("alarm")
	if h := host.storedHead(id); h != seen {
		t.Fatalf("after the cut the phone keeps %s, want the %s it saw", h, seen)
	}
}

// TestReceiptFromThePhone: Bob's phone cannot have the receipt while Ann's
// closed re-roll is under the cup, and says why; once the round is settled
// it downloads the file, and the file verifies under the server's key.
func TestReceiptFromThePhone(t *testing.T) {
	srv := startServer(t)
	m := makeTableFull(t, srv.URL, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	id := m.Table.ID
	b := startBrowser(t)
	host := newPhone(t, b, srv.URL, "host")
	host.hostOf(m)
	bob := newPhone(t, b, srv.URL, "bob")
	bob.open("/#join=" + m.JoinCode + "&seat=Bob")
	bob.waitSeats()
	bob.tap(`button.seat[data-name="Bob"]`)
	dir := t.TempDir()
	bob.do(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllow, BrowserContextID: chromedp.FromContext(ctx).BrowserContextID, DownloadPath: dir})
		return err
	}))

	host.tap(`[data-testid=start-round]`)
	host.enter(6, 5, 4, 1, 1)
	host.tap(`[data-testid=send]`)
	host.tap(`[data-testid=reroll]`)
	host.enter(3, 3)
	host.tap(`[data-testid=send]`)
	host.tap(`[data-testid=stand]`)
	bob.waitFor("Ann's cup on Bob's phone", row("Ann")+`?.querySelector('.cup') !== null`)

	bob.tap(`[data-testid=go-history]`)
	bob.waitText(`[data-testid=receipt]`, "tallyd verify FILE")
	bob.tap(`[data-testid=download-receipt]`)
	bob.waitText(`[data-testid=receipt-error]`, "No receipt yet. A round is being played: round 1 has throws still under the cup")
	bob.waitText(`[data-testid=receipt-error]`, "download it once the round is settled.")
	bob.shot("receipt-refused")
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Fatalf("a refused receipt saved %d files", len(files))
	}

	bob.tap(`[data-testid=go-play]`)
	bob.enter(6, 5, 4, 2, 1)
	bob.tap(`[data-testid=send]`)
	bob.tap(`[data-testid=stand]`)
	bob.waitFor("the round's result", `!!document.querySelector('[data-testid=result]')`)
	bob.tap(`[data-testid=go-history]`)
	bob.tap(`[data-testid=download-receipt]`)
	name := fmt.Sprintf("tally-table-%d-receipt.txt", id)
	bob.waitText(`[data-testid=receipt-done]`, "Saved as "+name+".")
	bob.shot("receipt-saved")

	var (
		got     receipt.Verified
		lastErr error
	)
	for deadline := time.Now().Add(stepTimeout); ; {
		file, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil {
			got, err = receipt.Verify(file, hex.EncodeToString(srv.sealKeys.PublicKey()))
		}
		if err == nil {
			break
		}
		lastErr = err
		if time.Now().After(deadline) {
			t.Fatalf("the downloaded receipt: %v", lastErr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if head := srv.serverHead(t, id); got.Receipt.Table.ID != id || fmt.Sprintf("%d:%s", got.Receipt.Head.Seq, got.Receipt.Head.Hash) != head {
		t.Fatalf("the receipt is of table %d ending at %+v, want table %d ending at %s", got.Receipt.Table.ID, got.Receipt.Head, id, head)
	}
}
