package api

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// offer makes a host recovery code with token and returns it.
func (s *scene) offer(token string) (code string, expires time.Time) {
	s.t.Helper()
	var o struct {
		Code      string    `json:"code"`
		ExpiresAt time.Time `json:"expiresAt"`
	}
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/host-recovery"), token: token}, &o)
	return o.Code, o.ExpiresAt
}

// redeem redeems a host recovery code from another phone and returns the
// new host token.
func (s *scene) redeem(code string) string {
	s.t.Helper()
	var out struct {
		HostToken string `json:"hostToken"`
		Table     struct {
			ID       int64  `json:"id"`
			JoinCode string `json:"joinCode"`
		} `json:"table"`
	}
	s.must(http.StatusCreated, req{method: http.MethodPost, path: "/v1/host-recovery", body: map[string]any{"code": code}}, &out)
	if !strings.HasPrefix(out.HostToken, "tly_h_") || out.Table.ID != s.tb.ID || out.Table.JoinCode == "" {
		s.t.Fatalf("the redeemed code answered %+v: want a host token and the table as its host sees it", out)
	}
	return out.HostToken
}

// TestHostRecoveryMovesTheHostRole: the host phone shows a one-time code;
// another phone redeems it and becomes the host with a new token; the old
// host token is refused at once with "the host role moved"; the code works
// once; only the host may make one; the move is on the audit chain without
// the code.
func TestHostRecoveryMovesTheHostRole(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"preset": "classic", "players": []string{"Ann", "Bob"}})
	bob := s.join("Bob")
	for _, tok := range []string{bob, s.tb.Audit} {
		s.refused(req{method: http.MethodPost, path: s.tb.path("/host-recovery"), token: tok},
			http.StatusForbidden, "/problems/forbidden", "only the host may make a host recovery code")
	}
	first, _ := s.offer(s.tb.Host)
	code, expires := s.offer(s.tb.Host) // a new code replaces the last
	if !regexp.MustCompile(`^[1-9][0-9]*-[A-HJKMNP-Z2-9]{14}$`).MatchString(code) || code == first {
		t.Fatalf("recovery codes %q then %q: want <table>-<14 characters>, a new one each time", first, code)
	}
	if left := time.Until(expires); left < 14*time.Minute || left > 15*time.Minute+time.Second {
		t.Fatalf("the code expires in %s, want 15 minutes", left)
	}
	s.refused(req{method: http.MethodPost, path: "/v1/host-recovery", body: map[string]any{"code": first}},
		http.StatusNotFound, "/problems/not-found", "no table has that host recovery code")

	// Typed loosely (lower case, spaces) it still works; a retry with the
	// same key gets the same token back.
	loose := strings.ToLower(code[:len(code)-6]) + " " + code[len(code)-6:len(code)-3] + " " + code[len(code)-3:]
	key := randomKey()
	var moved, again struct {
		HostToken string `json:"hostToken"`
	}
	s.must(http.StatusCreated, req{method: http.MethodPost, path: "/v1/host-recovery", key: key, body: map[string]any{"code": loose}}, &moved)
	r := s.must(http.StatusCreated, req{method: http.MethodPost, path: "/v1/host-recovery", key: key, body: map[string]any{"code": loose}}, &again)
	if again.HostToken != moved.HostToken || r.header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("a retry of the redemption answered another token (or was not a replay): %v", r.header)
	}
	newHost := moved.HostToken

	// The old host phone is told, on a read and on a write.
	oldHost := s.tb.Host
	s.tb.Host = newHost
	for _, q := range []req{
		{method: http.MethodGet, path: s.tb.path(""), token: oldHost},
		{method: http.MethodGet, path: s.tb.path("/ledger"), token: oldHost},
		{method: http.MethodPost, path: s.tb.path("/players"), token: oldHost, body: map[string]any{"name": "Cy"}},
	} {
		s.refused(q, http.StatusUnauthorized, "/problems/host-moved", "the host role moved to another phone with a host recovery code")
	}
	s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/players"), token: newHost, body: map[string]any{"name": "Cy"}}, nil)

	// The code works once.
	s.refused(req{method: http.MethodPost, path: "/v1/host-recovery", body: map[string]any{"code": code}},
		http.StatusConflict, "/problems/conflict", "used already")
	// A token the table never had is still only unknown.
	s.refused(req{method: http.MethodGet, path: s.tb.path(""), token: oldHost[:len(oldHost)-4] + "AAAA"},
		http.StatusUnauthorized, "/problems/unauthorized", "not known here")

	var events struct {
		Events []struct {
			Kind    string         `json:"kind"`
			Payload map[string]any `json:"payload"`
		} `json:"events"`
	}
	r = s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path("/events?kind=host"), token: bob}, &events)
	kinds := []string{}
	for _, e := range events.Events {
		kinds = append(kinds, e.Kind)
	}
	if strings.Join(kinds, ",") != "host.recovery-offered,host.recovery-offered,host.moved" {
		t.Fatalf("host events %v, want two codes offered and the move", kinds)
	}
	secret := code[strings.Index(code, "-")+1:]
	if strings.Contains(string(r.body), secret) || strings.Contains(string(r.body), first[strings.Index(first, "-")+1:]) {
		t.Fatalf("the audit log names a recovery code: %s", r.body)
	}
	s.auditOK()
}

// TestHostRecoveryCodeExpires: a code older than its 15 minutes is refused
// in words, and the host keeps the role.
func TestHostRecoveryCodeExpires(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"players": []string{"Ann", "Bob"}})
	code, _ := s.offer(s.tb.Host)
	// The stored code is aged as a quarter of an hour would: the service
	// reads its expiry from the row.
	if _, err := s.pool.Exec(context.Background(), `UPDATE host_recoveries SET created_at = now() - interval '20 minutes',
		expires_at = now() - interval '5 minutes' WHERE table_id = $1`, s.tb.ID); err != nil {
		t.Fatal(err)
	}
	s.refused(req{method: http.MethodPost, path: "/v1/host-recovery", body: map[string]any{"code": code}},
		http.StatusConflict, "/problems/conflict", "expired", "ask the host phone for a new one")
	s.must(http.StatusOK, req{method: http.MethodGet, path: s.tb.path(""), token: s.tb.Host}, nil)
	// A fresh code works again.
	code, _ = s.offer(s.tb.Host)
	s.tb.Host = s.redeem(code)
	s.auditOK()
}

// TestHostRecoveryRefusesBadInput: a missing, malformed or unknown code is
// a clear refusal that changes nothing.
func TestHostRecoveryRefusesBadInput(t *testing.T) {
	t.Parallel()
	s := newScene(t, map[string]any{"players": []string{"Ann", "Bob"}})
	s.offer(s.tb.Host)
	for _, c := range []struct {
		body   any
		status int
		typ    string
		detail string
	}{
		{map[string]any{"code": ""}, http.StatusUnprocessableEntity, "/problems/invalid-request", "type the host recovery code"},
		{map[string]any{"code": "ABCD-EFGH"}, http.StatusNotFound, "/problems/not-found", "no table has that host recovery code"},
		{map[string]any{"code": "999999-ABCDEFGHJKMNPQ"}, http.StatusNotFound, "/problems/not-found", "no table has that host recovery code"},
		{map[string]any{"code": strings.Repeat("9", 3) + "-ABCDEFGHJKMNPQ"}, http.StatusNotFound, "/problems/not-found", "no table has that host recovery code"},
		{map[string]any{"code": "1-ABCDEFGHJKMNPQ", "name": "x"}, http.StatusBadRequest, "/problems/malformed-request", "name"},
	} {
		s.refused(req{method: http.MethodPost, path: "/v1/host-recovery", body: c.body, invalid: c.status == http.StatusBadRequest || c.status == http.StatusUnprocessableEntity},
			c.status, c.typ, c.detail)
	}
	s.refused(req{method: http.MethodPost, path: "/v1/host-recovery", body: map[string]any{"code": "1-ABCDEFGHJKMNPQ"}, noKey: true, invalid: true},
		http.StatusBadRequest, "/problems/malformed-request", "Idempotency-Key is required")
}

// TestHostRecoveryGuessingIsLimited: wrong recovery codes count as misses
// against the address, with join codes, and lock it out.
func TestHostRecoveryGuessingIsLimited(t *testing.T) {
	t.Parallel()
	c, tb := newLimitedClient(t, JoinLimits{Misses: 3, MissWindow: time.Hour, LockOut: time.Hour})
	for i := range 3 {
		r := c.do(t, req{method: http.MethodPost, path: "/v1/host-recovery", body: map[string]any{"code": strconv.FormatInt(tb.ID, 10) + "-" + strings.ReplaceAll(unknownCode(i), "-", "")}})
		if r.status != http.StatusNotFound {
			t.Fatalf("guess %d: %d %s", i, r.status, r.body)
		}
	}
	_, detail := tooMany(t, c.do(t, req{method: http.MethodPost, path: "/v1/host-recovery", body: map[string]any{"code": strconv.FormatInt(tb.ID, 10) + "-ABCDEFGHJKMNPQ"}}), "after three misses")
	if !strings.Contains(detail, "try again in") {
		t.Fatalf("the lock-out says %q", detail)
	}
	tooMany(t, lookUp(t, c, tb.Code, ""), "a join-code lookup from the locked-out address")
}
