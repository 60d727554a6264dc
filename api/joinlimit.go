package api

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/tally-dice/tally/table"
)

// JoinLimits bound the guessing of join codes, the only secret between a
// stranger and a seat. POST /v1/join and GET /v1/join/{code} share them.
// An address is an IPv4 address or an IPv6 /64 (one home or phone network
// is handed a whole /64, so its addresses are one guesser). A zero field
// takes its value from DefaultJoinLimits.
type JoinLimits struct {
	// PerAddress attempts an address may make at once, then PerAddressRate
	// a second.
	PerAddress     int
	PerAddressRate float64
	// Global attempts all addresses together may make at once, then
	// GlobalRate a second. The join code's length is chosen so that a year
	// of guessing at GlobalRate is hopeless (table.joinCodeLength): raise it
	// only with the codes.
	Global     int
	GlobalRate float64
	// Misses codes that no open table has, tried from one address within
	// MissWindow of the first, lock that address out for LockOut.
	Misses     int
	MissWindow time.Duration
	LockOut    time.Duration
}

// DefaultJoinLimits are the limits tallyd runs with.
//
// Per address, a burst of 48 then one a second: a full table of 16 phones
// behind the bar's one public address, all at once, each looking the code up,
// joining and trying once more on a flaky connection.
//
// Globally, a burst of 500 then 50 a second: ten such tables starting in the
// same second, then some 1,500 phones joining a minute, far beyond any
// Friday night, while keeping a year of guessing at that rate hopeless for
// 14-character codes (the arithmetic is beside table.joinCodeLength).
//
// Twenty misses within 15 minutes lock an address out for 15 minutes:
// a table of phones mistyping a code now and then stays far below, while one
// guesser gets 20 tries per quarter hour instead of 900, so that a handful of
// addresses cannot spend the global budget that everyone shares.
var DefaultJoinLimits = JoinLimits{
	PerAddress: 48, PerAddressRate: 1,
	Global: 500, GlobalRate: 50,
	Misses: 20, MissWindow: 15 * time.Minute, LockOut: 15 * time.Minute,
}

// withDefaults fills in the zero fields.
func (l JoinLimits) withDefaults() JoinLimits {
	d := DefaultJoinLimits
	if l.PerAddress <= 0 {
		l.PerAddress = d.PerAddress
	}
	if l.PerAddressRate <= 0 {
		l.PerAddressRate = d.PerAddressRate
	}
	if l.Global <= 0 {
		l.Global = d.Global
	}
	if l.GlobalRate <= 0 {
		l.GlobalRate = d.GlobalRate
	}
	if l.Misses <= 0 {
		l.Misses = d.Misses
	}
	if l.MissWindow <= 0 {
		l.MissWindow = d.MissWindow
	}
	if l.LockOut <= 0 {
		l.LockOut = d.LockOut
	}
	return l
}

// joinLimiter keeps the limits' state in memory. Several tallyd instances
// behind one load balancer each keep their own, so together they allow
// that many times the budget; that is acceptable for now, and the code's
// length leaves room for it (a global rate of 240 a second still keeps a
// year's odds under one in a million).
type joinLimiter struct {
	limits JoinLimits
	log    *slog.Logger
	now    func() time.Time

	mu        sync.Mutex
	global    bucket
	addresses map[string]*addressState
	swept     time.Time
}

// addressState is what the limiter knows about one address.
type addressState struct {
	bucket      bucket
	misses      int
	firstMiss   time.Time
	lockedUntil time.Time
	seen        time.Time
}

// newJoinLimiter starts with every bucket full; now is the clock (time.Now
// but in tests).
func newJoinLimiter(limits JoinLimits, log *slog.Logger, now func() time.Time) *joinLimiter {
	l := &joinLimiter{limits: limits.withDefaults(), log: log, now: now, addresses: map[string]*addressState{}}
	l.global = bucket{tokens: float64(l.limits.Global), at: l.now()}
	l.swept = l.global.at
	return l
}

// middleware refuses an attempt over a limit with 429 and Retry-After, and
// counts the attempt as a miss when the table service found no open table
// with its code (table.ErrNotFound). Hits are not misses, and do not forgive
// earlier ones: knowing one's own table's code must not buy more guesses.
func (l *joinLimiter) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		addr := addressGroup(c.RealIP())
		if wait, why := l.admit(addr); why != "" {
			c.Response().Header().Set("Retry-After", strconv.Itoa(retryAfter(wait)))
			return fail(kindTooMany, why)
		}
		err := next(c)
		if errors.Is(err, table.ErrNotFound) {
			l.miss(addr)
		}
		return err
	}
}

// admit takes one attempt from the address's budget and then the global
// one, or says why not and how long to wait. A refused attempt takes
// nothing from the global budget, so an address over its own limit cannot
// spend everyone's; and an address is remembered only once the global
// budget admits it, which bounds the memory a flood of addresses can take.
func (l *joinLimiter) admit(addr string) (time.Duration, string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.sweep(now)
	a := l.addresses[addr]
	if a != nil && now.Before(a.lockedUntil) {
		wait := a.lockedUntil.Sub(now)
		return wait, fmt.Sprintf("too many join codes that no open table has were tried from this address; try again in %s",
			minutes(wait))
	}
	if a != nil {
		if wait := a.bucket.wait(now, l.limits.PerAddress, l.limits.PerAddressRate); wait > 0 {
			return wait, "too many join-code requests from this address; wait a second and try again"
		}
	}
	if wait := l.global.wait(now, l.limits.Global, l.limits.GlobalRate); wait > 0 {
		return wait, "too many join-code requests from everyone at once; wait a few seconds and try again"
	}
	if a == nil {
		a = &addressState{bucket: bucket{tokens: float64(l.limits.PerAddress), at: now}}
		l.addresses[addr] = a
	}
	a.bucket.tokens--
	l.global.tokens--
	a.seen = now
	return 0, ""
}

// miss counts a code no open table has against addr, and locks the address
// out at the limit.
func (l *joinLimiter) miss(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	a := l.addresses[addr]
	if a == nil {
		a = &addressState{bucket: bucket{tokens: float64(l.limits.PerAddress), at: now}}
		l.addresses[addr] = a
	}
	a.seen = now
	if a.misses == 0 || now.Sub(a.firstMiss) > l.limits.MissWindow {
		a.misses, a.firstMiss = 0, now
	}
	a.misses++
	if a.misses >= l.limits.Misses {
		a.misses, a.lockedUntil = 0, now.Add(l.limits.LockOut)
		l.log.Warn("join codes locked out", "address", addr, "misses", l.limits.Misses, "for", l.limits.LockOut)
	}
}

// sweep forgets, about once a minute, the addresses that are neither locked
// out nor counting misses and whose bucket has filled up again.
func (l *joinLimiter) sweep(now time.Time) {
	if now.Sub(l.swept) < time.Minute {
		return
	}
	l.swept = now
	refill := time.Duration(float64(l.limits.PerAddress) / l.limits.PerAddressRate * float64(time.Second))
	for addr, a := range l.addresses {
		idle := now.Sub(a.seen)
		if now.After(a.lockedUntil) && (a.misses == 0 || now.Sub(a.firstMiss) > l.limits.MissWindow) && idle > refill {
			delete(l.addresses, addr)
		}
	}
}

// bucket is a token bucket: it holds up to its burst, gains rate tokens a
// second, and an attempt takes one.
type bucket struct {
	tokens float64
	at     time.Time
}

// wait refills the bucket to now and says how long until it holds a whole
// token, 0 if it does.
func (b *bucket) wait(now time.Time, burst int, rate float64) time.Duration {
	if now.After(b.at) {
		b.tokens = math.Min(float64(burst), b.tokens+now.Sub(b.at).Seconds()*rate)
		b.at = now
	}
	if b.tokens >= 1 {
		return 0
	}
	return time.Duration((1 - b.tokens) / rate * float64(time.Second))
}

// addressGroup is the address an attempt is counted against: an IPv4
// address as it is, an IPv6 address as its /64.
func addressGroup(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}

// retryAfter is Retry-After in whole seconds, at least one.
func retryAfter(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// minutes says a wait in words, rounded up to the minute.
func minutes(d time.Duration) string {
	if n := int(math.Ceil(d.Minutes())); n > 1 {
		return fmt.Sprintf("%d minutes", n)
	}
	return "a minute"
}
