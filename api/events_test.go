package api

import (
	"net/http"
	"testing"

	"github.com/tally-dice/tally/table"
)

// TestEventPagesWalkTheWholeLog reads the log two events at a time with the
// cursor and gets every event exactly once, in order, with a chain whose
// links match across pages.
func TestEventPagesWalkTheWholeLog(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	s.start(nil)
	s.turn(1, "Ann", []int{6, 5, 4, 6, 3})
	s.turn(1, "Bob", []int{6, 5, 4, 1, 2})
	var all table.EventPage
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?limit=500"), token: s.tb.Audit}, &all)
	if len(all.Events) < 6 || all.Next != "" {
		t.Fatalf("whole log: %d events, next %q", len(all.Events), all.Next)
	}
	var walked []table.EventView
	path := s.tb.path("/events?limit=2")
	for pages := 0; ; pages++ {
		if pages > len(all.Events) {
			t.Fatal("the cursor never ends")
		}
		var page table.EventPage
		s.must(http.StatusOK, req{method: http.MethodGet, path: path, token: s.tb.Audit}, &page)
		if len(page.Events) > 2 {
			t.Fatalf("a page of %d events, limit 2", len(page.Events))
		}
		walked = append(walked, page.Events...)
		if page.Next == "" {
			break
		}
		path = s.tb.path("/events?limit=2&after=%s", page.Next)
	}
	if len(walked) != len(all.Events) {
		t.Fatalf("walked %d events, the log has %d", len(walked), len(all.Events))
	}
	for i, e := range walked {
		if e.Seq != all.Events[i].Seq || e.Hash != all.Events[i].Hash {
			t.Fatalf("event %d: %+v, want %+v", i, e, all.Events[i])
		}
		if i > 0 && e.PrevHash != walked[i-1].Hash {
			t.Fatalf("event %d does not chain to the one before", e.Seq)
		}
	}
}
