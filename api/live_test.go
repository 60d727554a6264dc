package api

import (
	"bufio"
	"context"
	"fmt"
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
	last := events.Events[len(events.Events)-1].Seq
	if data := next("data: "); data != fmt.Sprintf(`data: {"seq":%d,"kind":"round.started"}`, last) {
		t.Fatalf("change %s, want round.started at seq %d", data, last)
	}
	// Without a token the stream is refused.
	r := c.do(t, req{method: http.MethodGet, path: tb.path("/stream")})
	if r.status != http.StatusUnauthorized {
		t.Fatalf("stream without token: %d", r.status)
	}
}
