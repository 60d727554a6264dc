package api

import (
	"net/http"
	"testing"
)

// TestHostReleasesATakenSeat: Bob joins as Ann, whom the host plays for, to
// confirm a payment to "Ann". The host frees Ann's seat: the phone that took
// it is locked out at once, and Ann's own phone can then claim it.
func TestHostReleasesATakenSeat(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	ann := s.id("Ann")
	impostor := s.join("Ann")
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path(""), token: impostor}, nil)

	for _, tok := range []string{impostor, s.tb.Audit} {
		s.refused(req{method: http.MethodPost, path: s.tb.path("/players/%d/release", ann), token: tok},
			http.StatusForbidden, "/problems/forbidden", "only the host")
	}
	var freed struct {
		Claimed bool `json:"claimed"`
	}
	s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/players/%d/release", ann), token: s.tb.Host}, &freed)
	if freed.Claimed {
		t.Fatal("the released seat still reads as claimed")
	}
	if r := s.c.do(t, req{method: http.MethodGet, path: s.tb.path(""), token: impostor}); r.status != http.StatusUnauthorized {
		t.Fatalf("the released phone still reads the table: %d", r.status)
	}
	s.refused(req{method: http.MethodPost, path: s.tb.path("/players/%d/release", ann), token: s.tb.Host},
		http.StatusUnprocessableEntity, "/problems/invalid-request", "no phone holds Ann's seat")
	annTok := s.join("Ann")
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path(""), token: annTok}, nil)
}
