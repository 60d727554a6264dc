package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"
)

// page is one page of a list: its items, as they were sent, and the
// cursor of the next.
type page struct {
	items []json.RawMessage
	next  string
}

// readPage reads one page of the list at path (rounds or ledger) and
// checks its cursor: the last item's, and only when more follow.
func (s *scene) readPage(path, field string) page {
	s.t.Helper()
	var raw map[string]json.RawMessage
	s.must(http.StatusOK, req{method: http.MethodGet, path: path, token: s.tb.Audit}, &raw)
	var p page
	if err := json.Unmarshal(raw[field], &p.items); err != nil || p.items == nil {
		s.t.Fatalf("GET %s: %s is not a list: %s", path, field, raw[field])
	}
	if n, ok := raw["next"]; ok {
		if err := json.Unmarshal(n, &p.next); err != nil || p.next == "" {
			s.t.Fatalf("GET %s: next is %s", path, n)
		}
	}
	return p
}

// readAll reads the whole list at path page by page, limit at a time,
// following next, and checks that the pages hold every item once, in
// order (by key), and that only the last has no next.
func (s *scene) readAll(path, field, key string, limit int) []json.RawMessage {
	s.t.Helper()
	var all []json.RawMessage
	for after := ""; ; {
		url := fmt.Sprintf("%s?limit=%d", s.tb.path("%s", path), limit)
		if after != "" {
			url += "&after=" + after
		}
		p := s.readPage(url, field)
		if len(p.items) > limit || (p.next != "" && len(p.items) != limit) {
			s.t.Fatalf("GET %s: %d items with next %q", url, len(p.items), p.next)
		}
		all = append(all, p.items...)
		if p.next == "" {
			return all
		}
		if last := keyOf(s.t, p.items[len(p.items)-1], key); p.next != last {
			s.t.Fatalf("GET %s: next %q, but the page ends at %s %s", url, p.next, key, last)
		}
		after = p.next
	}
}

// keyOf reads an item's number or id as a cursor would carry it.
func keyOf(t *testing.T, item json.RawMessage, key string) string {
	t.Helper()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(item, &fields); err != nil {
		t.Fatal(err)
	}
	return string(fields[key])
}

// playRounds plays n whole rounds, every player standing on their first
// throw.
func (s *scene) playRounds(n int) {
	s.t.Helper()
	for range n {
		rd := s.start(nil)
		for k, p := range rd.Players {
			s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/rounds/%d/turns", rd.Number), token: s.tb.Host,
				body: map[string]any{"player": p, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 1, k + 1}}}}}, nil)
		}
	}
}

// TestRoundsAndTheLedgerComePageByPage: GET rounds and GET ledger cut into
// pages of any size hold the same items, in the same order, as one big
// page; a page read before more rounds are played leads on to them without
// gaps or repeats; and the round being played is on the last page.
func TestRoundsAndTheLedgerComePageByPage(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob", "Cy"}})
	s.playRounds(5)
	live := s.start(nil) // round 6 is being played

	for _, list := range []struct {
		path, field, key string
		max              int
	}{
		{"/rounds", "rounds", "number", 100},
		{"/ledger", "transactions", "id", 500},
	} {
		whole := s.readPage(s.tb.path("%s?limit=%d", list.path, list.max), list.field)
		if whole.next != "" {
			t.Fatalf("%s in one page: next %q", list.path, whole.next)
		}
		if byDefault := s.readPage(s.tb.path("%s", list.path), list.field); fmt.Sprint(byDefault) != fmt.Sprint(whole) {
			t.Fatalf("%s without a limit differs from one big page", list.path)
		}
		for _, limit := range []int{1, 2, 4, len(whole.items), len(whole.items) + 1} {
			if paged := s.readAll(list.path, list.field, list.key, limit); fmt.Sprint(paged) != fmt.Sprint(whole.items) {
				t.Fatalf("%s in pages of %d:\n%s\nin one page:\n%s", list.path, limit, paged, whole.items)
			}
		}
		last := keyOf(t, whole.items[len(whole.items)-1], list.key)
		if p := s.readPage(s.tb.path("%s?after=%s", list.path, last), list.field); len(p.items) != 0 || p.next != "" {
			t.Fatalf("%s after the last item: %d items, next %q", list.path, len(p.items), p.next)
		}
	}
	rounds := s.readPage(s.tb.path("/rounds?limit=100"), "rounds").items
	if len(rounds) != 6 || keyOf(t, rounds[5], "number") != "6" || !contains(rounds[5], `"status":"playing"`) {
		t.Fatalf("the rounds: %d, the last %s", len(rounds), rounds[len(rounds)-1])
	}

	// A cursor marks a place: rounds played after a page was read follow it.
	first := s.readPage(s.tb.path("/rounds?limit=4"), "rounds")
	for k, p := range live.Players {
		s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/rounds/6/turns"), token: s.tb.Host,
			body: map[string]any{"player": p, "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 2, k + 1}}}}}, nil)
	}
	s.playRounds(2)
	second := s.readPage(s.tb.path("/rounds?after=%s&limit=100", first.next), "rounds")
	got := append(append([]json.RawMessage{}, first.items...), second.items...)
	if want := s.readAll("/rounds", "rounds", "number", 3); second.next != "" || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("pages read across new rounds:\n%s\nread at once:\n%s", got, want)
	}
	for i, rd := range got {
		if n := keyOf(t, rd, "number"); n != strconv.Itoa(i+1) {
			t.Fatalf("round %d of the list is number %s", i+1, n)
		}
	}
}

// TestABadPageIsRefused: a cursor that is not one or a limit out of range
// is a 400 that names the parameter, on every paged list.
func TestABadPageIsRefused(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "bar", "players": []string{"Ann", "Bob"}})
	s.playRounds(1)
	for _, list := range []struct {
		path string
		max  int
	}{{"/rounds", 100}, {"/ledger", 500}, {"/events", 500}} {
		for _, tc := range []struct {
			query   string
			names   []string
			invalid bool // breaks openapi.yaml's schema too
		}{
			{"after=abc", []string{"after"}, false},
			{"after=-1", []string{"after"}, false},
			{"after=1.5", []string{"after"}, false},
			{"after=99999999999999999999", []string{"after"}, false},
			{"limit=0", []string{"limit"}, true},
			{"limit=x", []string{"limit"}, true},
			{fmt.Sprintf("limit=%d", list.max+1), []string{"limit", fmt.Sprintf("from 1 to %d", list.max)}, true},
		} {
			s.refused(req{method: http.MethodGet, path: s.tb.path("%s?%s", list.path, tc.query), token: s.tb.Host, invalid: tc.invalid},
				http.StatusBadRequest, "/problems/malformed-request", tc.names...)
		}
	}
	// A cursor beyond the last round, even beyond any round number, is
	// the end of the list.
	for _, after := range []string{"7", "2147483648", "9223372036854775807"} {
		for _, path := range []string{"/rounds", "/ledger"} {
			if raw := s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("%s?after=%s", path, after), token: s.tb.Host}, nil); contains(raw.body, "next") {
				t.Fatalf("%s after %s: %s", path, after, raw.body)
			}
		}
	}
}
