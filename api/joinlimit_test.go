package api

import (
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

// The API tests of the join limits pose as many addresses by trusting the
// test client's own address (127.0.0.1) as a proxy and naming the address in
// X-Forwarded-For. Rates are so slow that no token comes back during a test,
// so nothing depends on timing.
const never = 1e-6 // tokens a second

// newLimitedClient is a client for a server with the given join limits that
// trusts the proxies named, and a table on it.
func newLimitedClient(t *testing.T, limits JoinLimits, trusted ...string) (*client, apiTable) {
	t.Helper()
	var proxies []netip.Prefix
	for _, p := range trusted {
		proxies = append(proxies, netip.MustParsePrefix(p))
	}
	c := newClient(t, New(Config{Tables: table.New(dbtest.Pool(t), seal.Random(), nil), JoinLimits: limits, TrustedProxies: proxies}))
	return c, makeTable(t, c, map[string]any{"players": []string{"Ann", "Bob"}})
}

// unknownCode is a well-formed join code that no table has.
func unknownCode(i int) string {
	const alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
	return "ZZZZ-ZZZZ-ZZZZ-" + string(alphabet[i/31%31]) + string(alphabet[i%31])
}

// lookUp is GET /v1/join/{code} from an address.
func lookUp(t *testing.T, c *client, code, from string) resp {
	t.Helper()
	return c.do(t, req{method: http.MethodGet, path: "/v1/join/" + code, forwardedFor: from})
}

// tooMany checks r is a 429 problem with Retry-After, and returns the wait
// in seconds and the detail.
func tooMany(t *testing.T, r resp, what string) (int, string) {
	t.Helper()
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("%s: %d, want 429: %s", what, r.status, r.body)
	}
	p := r.problem(t)
	wait, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || wait < 1 || p.Type != "/problems/too-many-requests" {
		t.Fatalf("%s: 429 without a Retry-After in seconds or its problem type: %v %s", what, r.header, r.body)
	}
	return wait, p.Detail
}

// TestJoinCodeGuessingIsLimited: with the default limits one address may
// look up or try join codes in a burst of 48 (a bar table of phones behind
// one address never notices), then is told to slow down with 429 and
// Retry-After; nothing else is limited.
func TestJoinCodeGuessingIsLimited(t *testing.T) {
	t.Parallel()
	c := newDBClient(t)
	tb := makeTable(t, c, map[string]any{"players": []string{"Ann", "Bob"}})
	for i := range 48 {
		if r := c.do(t, req{method: http.MethodGet, path: "/v1/join/" + tb.Code}); r.status != http.StatusOK {
			t.Fatalf("attempt %d of the burst: %d %s", i, r.status, r.body)
		}
	}
	limited := 0
	for i := range 10 {
		r := c.do(t, req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": tb.Code, "name": "Bob"}})
		if r.status == http.StatusTooManyRequests {
			limited++
			tooMany(t, r, "attempt "+strconv.Itoa(48+i))
		}
	}
	// One a second comes back, so a slow machine may see a few through.
	if limited < 5 {
		t.Fatalf("10 quick attempts after the burst, only %d refused", limited)
	}
	if r := c.do(t, req{method: http.MethodGet, path: tb.path(""), token: tb.Host}); r.status != http.StatusOK {
		t.Fatalf("the table itself is limited too: %d", r.status)
	}
}

// TestJoinLimitPerAddress: each address has its own burst; hits count as
// attempts like misses do.
func TestJoinLimitPerAddress(t *testing.T) {
	t.Parallel()
	c, tb := newLimitedClient(t, JoinLimits{PerAddress: 5, PerAddressRate: never}, "127.0.0.1/32")
	for i := range 5 {
		if r := lookUp(t, c, tb.Code, "198.51.100.1"); r.status != http.StatusOK {
			t.Fatalf("attempt %d: %d %s", i, r.status, r.body)
		}
	}
	_, detail := tooMany(t, c.do(t, req{method: http.MethodPost, path: "/v1/join",
		body: map[string]any{"code": tb.Code, "name": "Cy"}, forwardedFor: "198.51.100.1"}), "the sixth attempt")
	if !strings.Contains(detail, "from this address") {
		t.Fatalf("the refusal does not say it is this address's limit: %q", detail)
	}
	if r := lookUp(t, c, tb.Code, "198.51.100.2"); r.status != http.StatusOK {
		t.Fatalf("another address is limited too: %d %s", r.status, r.body)
	}
}

// TestJoinLimitGroupsIPv6By64: the addresses of one IPv6 /64 are one
// address; the next /64 is another.
func TestJoinLimitGroupsIPv6By64(t *testing.T) {
	t.Parallel()
	c, tb := newLimitedClient(t, JoinLimits{PerAddress: 4, PerAddressRate: never}, "127.0.0.1/32")
	for i, from := range []string{"2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2:abcd::9"} {
		if r := lookUp(t, c, tb.Code, from); r.status != http.StatusOK {
			t.Fatalf("attempt %d from %s: %d %s", i, from, r.status, r.body)
		}
	}
	tooMany(t, lookUp(t, c, tb.Code, "2001:db8:1:2::77"), "a fifth attempt from the same /64")
	for _, from := range []string{"2001:db8:1:3::1", "2001:db8:2:2::1"} {
		if r := lookUp(t, c, tb.Code, from); r.status != http.StatusOK {
			t.Fatalf("%s, in another /64, is limited too: %d %s", from, r.status, r.body)
		}
	}
}

// TestJoinLimitGlobal: all addresses together have one budget, and an
// attempt an address's own limit refuses does not spend it.
func TestJoinLimitGlobal(t *testing.T) {
	t.Parallel()
	c, tb := newLimitedClient(t, JoinLimits{PerAddress: 2, PerAddressRate: never, Global: 6, GlobalRate: never}, "127.0.0.1/32")
	statuses := func(from string, n int) []int {
		var out []int
		for range n {
			out = append(out, lookUp(t, c, tb.Code, from).status)
		}
		return out
	}
	// 203.0.113.1 is refused its last three by its own limit: four of the
	// six remain for everyone else.
	if got := statuses("203.0.113.1", 5); got[1] != http.StatusOK || got[2] != http.StatusTooManyRequests || got[4] != http.StatusTooManyRequests {
		t.Fatalf("one address's five attempts: %v", got)
	}
	for _, from := range []string{"203.0.113.2", "203.0.113.3"} {
		if got := statuses(from, 2); got[0] != http.StatusOK || got[1] != http.StatusOK {
			t.Fatalf("%s within the global budget: %v", from, got)
		}
	}
	_, detail := tooMany(t, c.do(t, req{method: http.MethodPost, path: "/v1/join",
		body: map[string]any{"code": tb.Code, "name": "Cy"}, forwardedFor: "203.0.113.4"}), "a fresh address past the global budget")
	if !strings.Contains(detail, "everyone") {
		t.Fatalf("the refusal does not say it is everyone's limit: %q", detail)
	}
}

// TestJoinLockOutAfterMisses: an address whose attempts name codes no open
// table has is locked out after so many, for minutes, even with the right
// code; joins and look-ups that find the table are no misses and forgive
// none; other addresses are not locked out.
func TestJoinLockOutAfterMisses(t *testing.T) {
	t.Parallel()
	c, tb := newLimitedClient(t, JoinLimits{Misses: 3, LockOut: 10 * time.Minute}, "127.0.0.1/32")
	const guesser, player = "192.0.2.66", "2001:db8:77:1::5"
	for i := range 3 {
		if r := lookUp(t, c, unknownCode(i), guesser); r.status != http.StatusNotFound {
			t.Fatalf("miss %d: %d %s", i, r.status, r.body)
		}
	}
	wait, detail := tooMany(t, c.do(t, req{method: http.MethodPost, path: "/v1/join",
		body: map[string]any{"code": tb.Code, "name": "Cy"}, forwardedFor: guesser}), "the right code after three misses")
	if wait <= 60 || wait > 600 || !strings.Contains(detail, "no open table") || !strings.Contains(detail, "10 minutes") {
		t.Fatalf("locked out for %d s: %q", wait, detail)
	}

	// Two misses, then any number of hits: still two misses.
	for i := range 2 {
		if r := lookUp(t, c, unknownCode(100+i), player); r.status != http.StatusNotFound {
			t.Fatalf("a mistyped code: %d %s", r.status, r.body)
		}
	}
	for i := range 5 {
		if r := lookUp(t, c, strings.ToLower(tb.Code), player); r.status != http.StatusOK {
			t.Fatalf("look-up %d after two misses: %d %s", i, r.status, r.body)
		}
	}
	if r := c.do(t, req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": tb.Code, "name": "Bob"},
		forwardedFor: "2001:db8:77:1::6"}); r.status != http.StatusCreated {
		t.Fatalf("join after two misses: %d %s", r.status, r.body)
	}
	if r := c.do(t, req{method: http.MethodPost, path: "/v1/join", body: map[string]any{"code": unknownCode(200), "name": "Dee"},
		forwardedFor: player}); r.status != http.StatusNotFound {
		t.Fatalf("a third miss: %d %s", r.status, r.body)
	}
	tooMany(t, lookUp(t, c, tb.Code, player), "the right code after a third miss between hits")
	if r := lookUp(t, c, tb.Code, "2001:db8:77:2::5"); r.status != http.StatusOK {
		t.Fatalf("the next /64 is locked out too: %d %s", r.status, r.body)
	}
}

// TestTrustedProxies: X-Forwarded-For names the client only when the
// connection comes from a trusted proxy, and then the address a trusted
// proxy saw, not what the client wrote in front of it.
func TestTrustedProxies(t *testing.T) {
	t.Parallel()
	t.Run("no proxy trusted", func(t *testing.T) {
		t.Parallel()
		c, tb := newLimitedClient(t, JoinLimits{PerAddress: 2, PerAddressRate: never})
		for i, from := range []string{"198.51.100.1", "198.51.100.2"} {
			if r := lookUp(t, c, tb.Code, from); r.status != http.StatusOK {
				t.Fatalf("attempt %d: %d %s", i, r.status, r.body)
			}
		}
		tooMany(t, lookUp(t, c, tb.Code, "198.51.100.3"), "a third address in a forged X-Forwarded-For")
	})
	t.Run("untrusted peer", func(t *testing.T) {
		t.Parallel()
		c, tb := newLimitedClient(t, JoinLimits{PerAddress: 3, PerAddressRate: never}, "192.0.2.0/24", "2001:db8::/32")
		for i, from := range []string{"198.51.100.1", "198.51.100.2", "198.51.100.3"} {
			if r := lookUp(t, c, tb.Code, from); r.status != http.StatusOK {
				t.Fatalf("attempt %d: %d %s", i, r.status, r.body)
			}
		}
		tooMany(t, lookUp(t, c, tb.Code, "198.51.100.4"), "a fourth address spoofed from an untrusted peer")
	})
	t.Run("trusted peer", func(t *testing.T) {
		t.Parallel()
		c, tb := newLimitedClient(t, JoinLimits{PerAddress: 3, PerAddressRate: never}, "127.0.0.0/8")
		for i, from := range []string{"203.0.113.1, 198.51.100.7", "203.0.113.2, 198.51.100.7", "198.51.100.7"} {
			if r := lookUp(t, c, tb.Code, from); r.status != http.StatusOK {
				t.Fatalf("attempt %d: %d %s", i, r.status, r.body)
			}
		}
		tooMany(t, lookUp(t, c, tb.Code, "203.0.113.3, 198.51.100.7"), "a fourth attempt from 198.51.100.7")
		if r := lookUp(t, c, tb.Code, "198.51.100.8"); r.status != http.StatusOK {
			t.Fatalf("another client behind the proxy is limited too: %d %s", r.status, r.body)
		}
	})
}

// TestJoinLimiterOverTime runs the limiter on a clock the test moves: a
// lock-out ends when it says, misses older than the window are forgotten,
// a spent address gets its attempts back at its rate, and addresses that
// need no remembering are forgotten.
func TestJoinLimiterOverTime(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 21, 0, 0, 0, time.UTC)
	l := newJoinLimiter(JoinLimits{PerAddress: 3, PerAddressRate: 0.5, Misses: 2, MissWindow: 5 * time.Minute,
		LockOut: 10 * time.Minute}, slog.New(slog.DiscardHandler), func() time.Time { return now })
	admitted := func(addr string) bool {
		t.Helper()
		wait, why := l.admit(addr)
		if (wait > 0) != (why != "") {
			t.Fatalf("admit(%s) = %v, %q", addr, wait, why)
		}
		return why == ""
	}

	// Spent, then one attempt back every two seconds.
	for range 3 {
		if !admitted("a") {
			t.Fatal("refused within the burst")
		}
	}
	if wait, _ := l.admit("a"); wait != 2*time.Second {
		t.Fatalf("a spent address waits %v, want 2s", wait)
	}
	now = now.Add(2 * time.Second)
	if !admitted("a") || admitted("a") {
		t.Fatal("two seconds did not give back exactly one attempt")
	}

	// Two misses lock out for ten minutes, to the second.
	l.miss("b")
	l.miss("b")
	if wait, why := l.admit("b"); wait != 10*time.Minute || !strings.Contains(why, "10 minutes") {
		t.Fatalf("locked out: %v %q", wait, why)
	}
	now = now.Add(10*time.Minute - time.Second)
	if wait, why := l.admit("b"); wait != time.Second || !strings.Contains(why, "a minute") {
		t.Fatalf("a second before the end: %v %q", wait, why)
	}
	now = now.Add(time.Second)
	if !admitted("b") {
		t.Fatal("still locked out when the lock-out ended")
	}

	// A miss outside the window of the first starts counting again.
	l.miss("c")
	now = now.Add(5*time.Minute + time.Second)
	l.miss("c")
	if !admitted("c") {
		t.Fatal("misses 5 minutes apart locked the address out")
	}
	l.miss("c")
	if admitted("c") {
		t.Fatal("two misses within the window did not lock the address out")
	}

	// A minute later, a and b (full again, no misses) are forgotten; c,
	// locked out, is not.
	now = now.Add(time.Minute)
	admitted("d")
	for addr, want := range map[string]bool{"a": false, "b": false, "c": true, "d": true} {
		if _, kept := l.addresses[addr]; kept != want {
			t.Errorf("address %s remembered: %v, want %v", addr, kept, want)
		}
	}
}

func TestAddressGroup(t *testing.T) {
	t.Parallel()
	for ip, want := range map[string]string{
		"198.51.100.7":                     "198.51.100.7",
		"::ffff:198.51.100.7":              "198.51.100.7",
		"2001:db8:1:2:3:4:5:6":             "2001:db8:1:2::/64",
		"2001:db8:1:2::1":                  "2001:db8:1:2::/64",
		"fe80::1%eth0":                     "fe80::/64",
		"2001:db8:1:3:ffff:ffff:ffff:ffff": "2001:db8:1:3::/64",
		"":                                 "",
	} {
		if got := addressGroup(ip); got != want {
			t.Errorf("addressGroup(%q) = %q, want %q", ip, got, want)
		}
	}
}
