package table

import (
	"sync"
	"testing"
	"time"

	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/seal"
)

// testClock is a clock a test sets by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// TestStoredAnswersAgeByTheServiceClock: a stored answer is replayed while
// the service's clock says it is younger than KeyRetention, and is
// forgotten, then removed, once that clock has passed it, whatever the
// database's clock says. The clock starts years from today, so an answer
// aged by the database's clock instead would never expire here.
func TestStoredAnswersAgeByTheServiceClock(t *testing.T) {
	t.Parallel()
	clock := &testClock{now: time.Now().AddDate(3, 0, 0)}
	pool := dbtest.Pool(t)
	f := &fixture{t: t, ctx: t.Context(), pool: pool, svc: New(pool, seal.Random(), nil).WithClock(clock.Now)}
	f.addTable(NewTable{Players: []string{"Ann", "Bob"}})
	key := keyed("round-1", []byte("the start of round 1"), 201)
	first, err := f.svc.StartRound(f.ctx, f.host, key, StartRoundInput{})
	noErr(t, err)
	if first.Replayed {
		t.Fatal("the first start of round 1 was a replay")
	}

	clock.advance(KeyRetention - time.Minute)
	again, err := f.svc.StartRound(f.ctx, f.host, key, StartRoundInput{})
	noErr(t, err)
	if !again.Replayed || string(again.Answer.Body) != string(first.Answer.Body) {
		t.Fatalf("a retry a minute before the answer expires: %+v", again)
	}
	if n, err := f.svc.ExpireKeysOnce(f.ctx, KeyRetention); err != nil || n != 0 {
		t.Fatalf("expiring answers before any is due: %d removed, err %v", n, err)
	}

	clock.advance(2 * time.Minute)
	if _, err := f.svc.StartRound(f.ctx, f.host, key, StartRoundInput{}); err == nil {
		t.Fatal("a retry after the answer expired was answered as before: it should start round 1 again, which is refused")
	}
	if n, err := f.svc.ExpireKeysOnce(f.ctx, KeyRetention); err != nil || n != 1 {
		t.Fatalf("expiring the answer that is due: %d removed, err %v", n, err)
	}
}
