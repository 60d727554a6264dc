package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// This file is how the process-level tests of several instances talk to
// tallyd: a phone's requests and live stream over real HTTP.

// phone sends requests to one tallyd, or to a balancer in front of several.
type phone struct {
	base string
	http *http.Client
}

func newPhone(base string) phone {
	return phone{base: base, http: &http.Client{Timeout: 30 * time.Second}}
}

// call is one request: its body, when not nil, is sent as JSON.
type call struct {
	method, path, token, key string
	body                     any
}

// answer is a response, read whole.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// replayed says the answer is a stored one.
func (a answer) replayed() bool { return a.header.Get("Idempotent-Replayed") == "true" }

// head is the write's Tally-Head, "SEQ:HASH".
func (a answer) head() string { return a.header.Get("Tally-Head") }

// send makes the call. A request that gets no answer fails the test with
// status 0 (so it may be sent from any goroutine).
func (p phone) send(t *testing.T, c call) answer {
	t.Helper()
	var body io.Reader
	if c.body != nil {
		raw, err := json.Marshal(c.body)
		if err != nil {
			t.Errorf("%s %s: %v", c.method, c.path, err)
			return answer{}
		}
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(c.method, p.base+c.path, body)
	if err != nil {
		t.Errorf("%s %s: %v", c.method, c.path, err)
		return answer{}
	}
	if c.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.key != "" {
		req.Header.Set("Idempotency-Key", c.key)
	}
	res, err := p.http.Do(req)
	if err != nil {
		t.Errorf("%s %s%s: %v", c.method, p.base, c.path, err)
		return answer{}
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Errorf("%s %s%s: reading the answer: %v", c.method, p.base, c.path, err)
	}
	return answer{status: res.StatusCode, header: res.Header, body: raw}
}

// must makes a call that has to be answered with status, and decodes the
// answer into v when v is not nil.
func (p phone) must(t *testing.T, status int, c call, v any) answer {
	t.Helper()
	a := p.send(t, c)
	if a.status != status {
		t.Fatalf("%s %s%s: %d, want %d: %s", c.method, p.base, c.path, a.status, status, a.body)
	}
	if v != nil {
		if err := json.Unmarshal(a.body, v); err != nil {
			t.Fatalf("%s %s: %v: %s", c.method, c.path, err, a.body)
		}
	}
	return a
}

// newKey is a random Idempotency-Key of 128 bits, as a phone makes one.
func newKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// tableMade is what creating a table answers.
type tableMade struct {
	Table struct {
		ID      int64 `json:"id"`
		Players []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"players"`
	} `json:"table"`
	HostToken  string `json:"hostToken"`
	AuditToken string `json:"auditToken"`
	JoinCode   string `json:"joinCode"`
}

// player is a seated player's id by name.
func (m tableMade) player(t *testing.T, name string) int64 {
	t.Helper()
	for _, p := range m.Table.Players {
		if p.Name == name {
			return p.ID
		}
	}
	t.Fatalf("no player %q at table %d", name, m.Table.ID)
	return 0
}

// path is a path under the table.
func (m tableMade) path(format string, args ...any) string {
	return fmt.Sprintf("/v1/tables/%d", m.Table.ID) + fmt.Sprintf(format, args...)
}

// makeTable makes a table of the classic rules, ante 1, with players.
func (p phone) makeTable(t *testing.T, name string, players ...string) tableMade {
	t.Helper()
	var m tableMade
	p.must(t, http.StatusCreated, call{method: http.MethodPost, path: "/v1/tables", key: newKey(), body: tableBody(name, players...)}, &m)
	return m
}

// tableBody is the request making a table of the classic rules, ante 1.
func tableBody(name string, players ...string) map[string]any {
	return map[string]any{"name": name, "preset": "classic", "currency": "chips", "players": players}
}

// auditOK checks the table's audit: everything in order, and the head a
// phone saw (witness, "SEQ:HASH", when not empty) still in the history.
func (p phone) auditOK(t *testing.T, m tableMade, witness string) {
	t.Helper()
	path := m.path("/audit?full=true")
	if witness != "" {
		path += "&witness=" + url.QueryEscape(witness)
	}
	var rep struct {
		OK        bool     `json:"ok"`
		ChainOK   bool     `json:"chainOk"`
		SealsOK   bool     `json:"sealsOk"`
		WitnessOK *bool    `json:"witnessOk"`
		Problems  []string `json:"problems"`
	}
	a := p.must(t, http.StatusOK, call{method: http.MethodGet, path: path, token: m.AuditToken}, &rep)
	if !rep.OK || !rep.ChainOK || !rep.SealsOK || (witness != "" && (rep.WitnessOK == nil || !*rep.WitnessOK)) {
		t.Fatalf("audit of table %d: %s", m.Table.ID, a.body)
	}
}

// eventKinds counts the table's audit events by kind.
func (p phone) eventKinds(t *testing.T, m tableMade) map[string]int {
	t.Helper()
	kinds := map[string]int{}
	for after := ""; ; {
		var page struct {
			Events []struct {
				Kind string `json:"kind"`
			} `json:"events"`
			Next string `json:"next"`
		}
		path := m.path("/events?limit=500")
		if after != "" {
			path += "&after=" + after
		}
		p.must(t, http.StatusOK, call{method: http.MethodGet, path: path, token: m.AuditToken}, &page)
		for _, e := range page.Events {
			kinds[e.Kind]++
		}
		if page.Next == "" {
			return kinds
		}
		after = page.Next
	}
}

// balances are the players' balances by name.
func (p phone) balances(t *testing.T, m tableMade) map[string]int64 {
	t.Helper()
	var b struct {
		Pot     int64 `json:"pot"`
		Bank    int64 `json:"bank"`
		Players []struct {
			Name    string `json:"name"`
			Balance int64  `json:"balance"`
		} `json:"players"`
	}
	p.must(t, http.StatusOK, call{method: http.MethodGet, path: m.path("/balances"), token: m.AuditToken}, &b)
	out := map[string]int64{"(pot)": b.Pot, "(bank)": b.Bank}
	for _, pl := range b.Players {
		out[pl.Name] = pl.Balance
	}
	return out
}

// liveStream is a phone's server-sent event stream, read in the
// background.
type liveStream struct {
	changes chan notice
}

// notice is one event of the stream.
type notice struct {
	Event string
	Seq   int64  `json:"seq"`
	Hash  string `json:"hash"`
	Kind  string `json:"kind"`
}

// head is the notice's head as Tally-Head writes it.
func (n notice) head() string { return strconv.FormatInt(n.Seq, 10) + ":" + n.Hash }

// watch opens the table's live stream with token and returns once its
// first sync has arrived: from then on every change is announced on it.
func (p phone) watch(t *testing.T, m tableMade, token string) *liveStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.base+m.path("/stream"), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	// The phone's transport (its TLS trust), without its timeout: a stream
	// stays open.
	res, err := (&http.Client{Transport: p.http.Transport}).Do(req)
	if err != nil {
		t.Fatalf("stream on %s: %v", p.base, err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		res.Body.Close()
		t.Fatalf("stream on %s: %d %s", p.base, res.StatusCode, res.Header.Get("Content-Type"))
	}
	s := &liveStream{changes: make(chan notice, 1024)}
	go func() {
		defer res.Body.Close()
		defer close(s.changes)
		sc := bufio.NewScanner(res.Body)
		var n notice
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				n.Event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				_ = json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &n)
			case line == "":
				s.changes <- n
				n = notice{}
			}
		}
	}()
	if first := s.next(t, 10*time.Second); first.Event != "sync" {
		t.Fatalf("stream on %s began with %+v, not a sync", p.base, first)
	}
	return s
}

// next is the next event of the stream, waiting at most wait.
func (s *liveStream) next(t *testing.T, wait time.Duration) notice {
	t.Helper()
	select {
	case n, ok := <-s.changes:
		if !ok {
			t.Fatal("the stream ended")
		}
		return n
	case <-time.After(wait):
		t.Fatalf("nothing on the stream for %s", wait)
		return notice{}
	}
}

// reaches waits, generously, for a change announcing head ("SEQ:HASH", a
// write's Tally-Head), skipping the events before it.
func (s *liveStream) reaches(t *testing.T, head string) {
	t.Helper()
	timeout := time.After(15 * time.Second)
	var seen []string
	for {
		select {
		case n, ok := <-s.changes:
			if !ok {
				t.Fatalf("the stream ended before it announced %s; it said %v", head, seen)
			}
			if n.Event == "change" && n.head() == head {
				return
			}
			seen = append(seen, n.Event+" "+n.head())
		case <-timeout:
			t.Fatalf("the stream did not announce %s within 15 s; it said %v", head, seen)
		}
	}
}
