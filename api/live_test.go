package api

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

func TestStreamAnnouncesChanges(t *testing.T) {
	t.Parallel()
	c := newDBClient(t)
	tb := makeTable(t, c, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// A browser's EventSource sends the token as access_token.
	hr, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.base+tb.path("/stream?access_token=%s", tb.Audit), nil)
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func(prefix string) string {
		t.Helper()
		for l := range lines {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
		t.Fatalf("stream ended before %q", prefix)
		return ""
	}
	if l := next("event: "); l != "event: sync" {
		t.Fatalf("first event %q, want sync", l)
	}
	started := c.do(t, req{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Host})
	if started.status != http.StatusCreated {
		t.Fatalf("start: %d %s", started.status, started.body)
	}
	// Starting the round is announced once, as a change that ends the log
	// at the request's last event (the antes come just before it).
	for next("event: ") != "event: change" {
	}
	var events struct{ Events []struct{ Seq int64 } }
	if r := c.do(t, req{method: http.MethodGet, path: tb.path("/events?limit=500"), token: tb.Audit}); r.status != http.StatusOK {
		t.Fatalf("events: %d %s", r.status, r.body)
	} else {
		r.decode(t, &events)
	}
	// The change carries the chain's head, as the write's answer did.
	last := events.Events[len(events.Events)-1].Seq
	seq, hash, _ := strings.Cut(started.header.Get("Tally-Head"), ":")
	if want := fmt.Sprintf(`data: {"seq":%d,"hash":"%s","kind":"round.started"}`, last, hash); next("data: ") != want ||
		seq != fmt.Sprint(last) {
		t.Fatalf("change, want %s (Tally-Head %s:%s)", want, seq, hash)
	}
	// Without a token the stream is refused.
	r := c.do(t, req{method: http.MethodGet, path: tb.path("/stream")})
	if r.status != http.StatusUnauthorized {
		t.Fatalf("stream without token: %d", r.status)
	}
}

// TestARevokedTokenLosesItsStream: a phone's seat is released by the host;
// its open stream is told and closed at the next sync.
func TestARevokedTokenLosesItsStream(t *testing.T) {
	t.Parallel()
	c := newClient(t, New(Config{Tables: table.New(dbtest.Pool(t), seal.Random(), nil), StreamSync: 100 * time.Millisecond}))
	tb := makeTable(t, c, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	var joined struct {
		PlayerToken string `json:"playerToken"`
		Player      struct {
			ID int64 `json:"id"`
		} `json:"player"`
	}
	r := c.do(t, req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": tb.Code, "name": "Ann"}})
	if r.status != http.StatusCreated {
		t.Fatalf("join: %d %s", r.status, r.body)
	}
	r.decode(t, &joined)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hr, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.base+tb.path("/stream?access_token=%s", joined.PlayerToken), nil)
	res, err := http.DefaultClient.Do(hr)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("stream: %v %v", res, err)
	}
	defer res.Body.Close()
	if r := c.do(t, req{method: http.MethodPost, path: tb.path("/players/%d/release", joined.Player.ID), token: tb.Host}); r.status != http.StatusOK {
		t.Fatalf("release: %d %s", r.status, r.body)
	}
	sc := bufio.NewScanner(res.Body)
	var events []string
	for sc.Scan() { // ends when the server closes the stream
		if l := sc.Text(); strings.HasPrefix(l, "event: ") {
			events = append(events, l)
		}
	}
	if ctx.Err() != nil || len(events) == 0 || events[len(events)-1] != "event: revoked" {
		t.Fatalf("the revoked stream saw %v (ctx %v), want it to end with event: revoked", events, ctx.Err())
	}
}
