package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// twins are tables played alike except for one player's sealed throws.
type twins struct {
	t      *testing.T
	tables []*scene
	tokens []map[string]string // each table's tokens by who holds them
	// askers are the tokens that may not read the sealed throws.
	askers []string
	// reads are read paths asked besides the table's own.
	reads []string
}

// newTwins makes n tables from one body, each in its own database so that
// their ids are the same, and joins phones from each. The host's own seat,
// when body names one (host), plays from the host's phone: its token is
// the host's.
func newTwins(t *testing.T, n int, body map[string]any, phones ...string) *twins {
	t.Helper()
	tw := &twins{t: t, askers: []string{"host", "audit"}}
	host, _ := body["host"].(string)
	for range n {
		s := newScene(t, body)
		toks := map[string]string{"host": s.tb.Host, "audit": s.tb.Audit}
		for _, p := range phones {
			if p == host {
				toks[p] = s.tb.Host
				continue
			}
			toks[p] = s.join(p)
		}
		tw.tables = append(tw.tables, s)
		tw.tokens = append(tw.tokens, toks)
	}
	first := tw.tables[0].tb
	for _, s := range tw.tables[1:] {
		// The tables must differ in nothing the normalization does not
		// cover: the same table id and the same player ids.
		if s.tb.ID != first.ID || fmt.Sprint(s.tb.Players) != fmt.Sprint(first.Players) {
			t.Fatalf("the twin tables differ: %+v and %+v", first, s.tb)
		}
	}
	return tw
}

// each does something at every table, the i-th table's own way.
func (tw *twins) each(do func(i int, s *scene, tokens map[string]string)) {
	tw.t.Helper()
	for i, s := range tw.tables {
		do(i, s, tw.tokens[i])
	}
}

// ask sends the same request with the same kind of token to every table
// (to those numbered in only, when given) and fails unless every answer is
// the same. It returns the first table's.
func (tw *twins) ask(what, who, method, path string, body any, only ...int) resp {
	tw.t.Helper()
	if only == nil {
		for i := range tw.tables {
			only = append(only, i)
		}
	}
	var first resp
	var firstNorm string
	for n, i := range only {
		s := tw.tables[i]
		r := s.c.do(tw.t, req{method: method, path: s.tb.path("%s", path), token: tw.tokens[i][who], body: body})
		norm := fmt.Sprintf("%d %s\n%s", r.status, r.header.Get("Content-Type"), tw.normalize(i, r.body))
		if n == 0 {
			first, firstNorm = r, norm
			continue
		}
		switch {
		case norm == firstNorm:
		case method != http.MethodGet && (r.status < 400) != (first.status < 400):
			// One table took the write and another refused it: they now
			// differ in more than the sealed dice, so nothing after this
			// compares.
			tw.t.Fatalf("%s (%s %s as %s): table %d and table %d do not both take it or both refuse it, which gives the sealed dice away:\n%s\n%s",
				what, method, path, who, only[0], i, firstNorm, norm)
		default:
			tw.t.Errorf("%s (%s %s as %s): table %d and table %d answer differently, which gives the sealed dice away:\n%s\n%s",
				what, method, path, who, only[0], i, firstNorm, norm)
		}
	}
	return first
}

// refusedAlike is ask for a write that every table must refuse with status
// and, for an invalid roll, rule: a refusal alike at every table says
// nothing of the sealed dice, and the status and rule say that the request
// reached what it tests.
func (tw *twins) refusedAlike(what, who, path string, body any, status int, rule string, only ...int) {
	tw.t.Helper()
	r := tw.ask(what, who, http.MethodPost, path, body, only...)
	if p := r.problem(tw.t); r.status != status || p.Rule != rule {
		tw.t.Errorf("%s (as %s): %d %s, want %d with rule %q", what, who, r.status, r.body, status, rule)
	}
}

var (
	// timestamps are written as RFC 3339 in JSON and in the CSV.
	timestamp = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})`)
	// hashes are SHA-256 in hex.
	hexHash = regexp.MustCompile(`\b[0-9a-f]{64}\b`)
	// a throw's event carries 128 random bits, drawn afresh for every
	// throw whatever its dice.
	nonce = regexp.MustCompile(`"nonce":"[0-9a-f]{32}"`)
	// a fleet's salt (Battleship Royale) is 256 random bits, shown to its
	// owner (base64 in JSON).
	salt = regexp.MustCompile(`"salt":"[A-Za-z0-9+/]{43}="`)
)

// normalize sets aside what differs between the tables whatever the dice:
// the join code, the time of each write, the random nonce of each throw's
// event, the random salt of the asker's own Battleship Royale fleet and the hashes, which cover the time and the nonce and so differ
// too. Each is replaced by a placeholder where it stood,
// so that whether it is shown, and where, is still compared; a hash
// withheld (an empty string) stays empty. Whether a shown hash could be
// recomputed from guessed dice is TestSealedRollNotRecoverableFromEventHashes's
// question.
func (tw *twins) normalize(i int, body []byte) string {
	out := strings.ReplaceAll(string(body), tw.tables[i].tb.Code, "<join-code>")
	out = timestamp.ReplaceAllString(out, "<time>")
	out = nonce.ReplaceAllString(out, `"nonce":"<nonce>"`)
	out = salt.ReplaceAllString(out, `"salt":"<salt>"`)
	return hexHash.ReplaceAllString(out, "<hash>")
}

// readsAlike asks every read path with every asker's token.
func (tw *twins) readsAlike(when string) {
	tw.t.Helper()
	paths := []string{"", "/rounds", "/rounds/1", "/events?limit=500", "/events?after=4&limit=3", "/audit",
		"/balances", "/ledger", "/ledger.csv", "/settle-up"}
	paths = append(paths, tw.reads...)
	for _, who := range tw.askers {
		for _, p := range paths {
			tw.ask(when, who, http.MethodGet, p, nil)
		}
		tw.streamAlike(when, who, nil)
	}
}

// streamAlike opens every table's event stream with who's token, does
// write (when given) and compares what the streams say up to and including
// the first event after it: the opening sync, and then write's change.
func (tw *twins) streamAlike(when, who string, write func()) {
	tw.t.Helper()
	var streams []*sse
	for i, s := range tw.tables {
		streams = append(streams, openSSE(tw.t, s.c.base+s.tb.path("/stream"), tw.tokens[i][who]))
	}
	var seen []string
	var synced []int64
	for i, st := range streams {
		sync := st.next(tw.t, "sync")
		seen = append(seen, tw.normalize(i, []byte(sync)))
		synced = append(synced, eventSeq(sync))
	}
	if write != nil {
		write()
		for i, st := range streams {
			// A change the sync already covered (the notice of a write
			// committed just before the stream opened, delivered after
			// it) says nothing new: the write's own change follows.
			change := st.next(tw.t, "change")
			for eventSeq(change) <= synced[i] {
				change = st.next(tw.t, "change")
			}
			seen[i] += "\n" + tw.normalize(i, []byte(change))
		}
	}
	for _, st := range streams {
		st.close()
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] != seen[0] {
			tw.t.Errorf("%s (stream as %s): table 0 and table %d announce differently:\n%s\n%s", when, who, i, seen[0], seen[i])
		}
	}
}

// eventSeq is the chain sequence number a stream event's data names.
func eventSeq(event string) int64 {
	for _, line := range strings.Split(event, "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var v struct{ Seq int64 }
			if json.Unmarshal([]byte(data), &v) == nil {
				return v.Seq
			}
		}
	}
	return 0
}

// sse is one server-sent event stream being read.
type sse struct {
	lines  chan string
	cancel context.CancelFunc
}

func openSSE(t *testing.T, url, token string) *sse {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	hr, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	hr.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		cancel()
		t.Fatalf("stream: %d", res.StatusCode)
	}
	s := &sse{lines: make(chan string, 64), cancel: cancel}
	go func() {
		defer res.Body.Close()
		defer close(s.lines)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	return s
}

// next reads up to the next event named name and returns it whole.
func (s *sse) next(t *testing.T, name string) string {
	t.Helper()
	var ev []string
	for l := range s.lines {
		if l != "" {
			ev = append(ev, l)
			continue
		}
		if slices.Contains(ev, "event: "+name) {
			return strings.Join(ev, "\n")
		}
		ev = nil
	}
	t.Fatalf("the stream ended before a %s event", name)
	return ""
}

func (s *sse) close() { s.cancel() }

// reroll is the body of a cargo re-roll recorded for player; a nil rethrow
// re-rolls all of the cargo.
func reroll(player int64, dice, rethrow []int) map[string]any {
	body := as(player, roll(dice...))
	if rethrow != nil {
		body["rethrow"] = rethrow
	}
	return body
}

// bothWays runs a test of hidden information twice: with a host who only
// keeps the books, and with a host who plays seat (its phone is that
// player's, so it sees that seat's closed rolls and none other).
func bothWays(t *testing.T, seat string, test func(t *testing.T, host string)) {
	for _, host := range []string{"", seat} {
		name := "the host does not play"
		if host != "" {
			name = "the host plays " + host
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, host)
		})
	}
}

// withHost is a table's body with the host's own seat, if any.
func withHost(body map[string]any, host string) map[string]any {
	if host != "" {
		body["host"] = host
	}
	return body
}
