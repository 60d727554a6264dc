package api

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
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
	if r := c.do(t, req{method: http.MethodPost, path: tb.path("/rounds"), token: tb.Host}); r.status != http.StatusCreated {
		t.Fatalf("start: %d %s", r.status, r.body)
	}
	// Antes and the round's start are announced, in order, as changes.
	var kinds []string
	for len(kinds) < 2 {
		if next("event: ") == "event: change" {
			kinds = append(kinds, next("data: "))
		}
	}
	if !strings.Contains(kinds[0], `"kind":"ledger.ante"`) || !strings.Contains(kinds[1], `"kind":"round.started"`) {
		t.Fatalf("changes %v, want the ante then round.started", kinds)
	}
	// Without a token the stream is refused.
	r := c.do(t, req{method: http.MethodGet, path: tb.path("/stream")})
	if r.status != http.StatusUnauthorized {
		t.Fatalf("stream without token: %d", r.status)
	}
}
