package table

import (
	"errors"
	"testing"
	"time"

	"github.com/tally-dice/tally/game"
)

// TestATokenRevokedByHandWritesNoMore: a player's token whose hash was
// replaced in players by hand (an operator revoking a lost phone) no
// longer writes, on a kept state too: the kept check asks the stored row
// and players for the caller's token, as TableLockAs does (kept.go).
func TestATokenRevokedByHandWritesNoMore(t *testing.T) {
	t.Parallel()
	f := newFixture(t, NewTable{Preset: "bar", Players: []string{"Ann", "Bob", "Cy"}})
	ann := f.players[0]
	j, err := f.svc.Join(f.ctx, Key{}, JoinInput{Code: f.created.JoinCode, Name: "Ann"})
	noErr(t, err)
	annAuth := Auth{TableID: f.host.TableID, Token: j.Value.(Joined).PlayerToken}
	r, err := f.svc.StartRound(f.ctx, f.host, Key{}, StartRoundInput{})
	noErr(t, err)
	rd := r.Value.(RoundView)
	if rd.Turn != ann {
		t.Fatalf("round 1 begins with player %d, the test wants Ann (%d)", rd.Turn, ann)
	}
	// Ann's phone is lost: the operator revokes its token by hand.
	f.asOwner(`UPDATE players SET token_hash = sha256('revoked') WHERE table_id = $1 AND id = $2`, f.host.TableID, ann)
	before := f.svc.states.decided.Load()
	_, err = f.svc.SubmitTurn(f.ctx, annAuth, Key{}, rd.Number, TurnInput{Player: ann,
		Rolls: []game.Roll{{Dice: []int{6, 5, 4, 1, 2}}}, Stand: true})
	if !errors.Is(err, ErrUnknownToken) {
		t.Errorf("a token revoked in players wrote a turn: err %v (decided on the kept state: %v), want %v",
			err, f.svc.states.decided.Load() != before, ErrUnknownToken)
	}
	if n := f.count(`SELECT count(*) FROM round_actions WHERE table_id = $1`, f.host.TableID); n != 0 {
		t.Errorf("%d actions stored by a revoked token", n)
	}
}

// TestKeysOnAKeptStateAnswerAsBefore: a key replayed, or reused for another
// request, on a kept state answers as on the full path.
func TestKeysOnAKeptStateAnswerAsBefore(t *testing.T) {
	t.Parallel()
	f := newFixture(t, NewTable{Preset: "bar", Players: []string{"Ann", "Bob", "Cy"}})
	ann := f.players[0]
	_, err := f.svc.StartRound(f.ctx, f.host, Key{}, StartRoundInput{})
	noErr(t, err)
	k := keyed("k1", []byte("body-1"), 201)
	before := f.svc.states.decided.Load()
	r1, err := f.svc.Deposit(f.ctx, f.host, k, CashInput{Player: ann, Amount: 5})
	noErr(t, err)
	if f.svc.states.decided.Load() != before+1 {
		t.Fatal("the first deposit was not decided on the kept state: the test proves nothing")
	}
	n1 := f.count(`SELECT count(*) FROM journal_transactions WHERE table_id = $1`, f.host.TableID)
	// The state is kept again: the same key and body replays.
	r2, err := f.svc.Deposit(f.ctx, f.host, k, CashInput{Player: ann, Amount: 5})
	noErr(t, err)
	if !r2.Replayed || string(r2.Answer.Body) != string(r1.Answer.Body) {
		t.Errorf("replay: %+v", r2)
	}
	// Another write keeps the state; then the key with another body.
	_, err = f.svc.Deposit(f.ctx, f.host, Key{}, CashInput{Player: ann, Amount: 1})
	noErr(t, err)
	_, err = f.svc.Deposit(f.ctx, f.host, keyed("k1", []byte("body-2"), 201), CashInput{Player: ann, Amount: 7})
	if !errors.Is(err, ErrKeyMismatch) {
		t.Errorf("same key, another body: %v, want %v", err, ErrKeyMismatch)
	}
	if n := f.count(`SELECT count(*) FROM journal_transactions WHERE table_id = $1`, f.host.TableID); n != n1+1 {
		t.Errorf("%d journal transactions, want %d (the keyed deposit once, then the unkeyed one)", n, n1+1)
	}
	checkInvariants(t, f.ctx, f.pool)
}

// TestAFrozenRowStillReadsAsKept: VACUUM FREEZE keeps the row's
// xmin as it reads (PostgreSQL 9.4 on): the next write is still decided on
// the kept state, and a row changed by hand after it is not.
func TestAFrozenRowStillReadsAsKept(t *testing.T) {
	t.Parallel()
	f := newFixture(t, NewTable{Preset: "bar", Players: []string{"Ann", "Bob", "Cy"}})
	ann := f.players[0]
	_, err := f.svc.StartRound(f.ctx, f.host, Key{}, StartRoundInput{})
	noErr(t, err)
	f.asOwner(`VACUUM (FREEZE) tables`)
	before := f.svc.states.decided.Load()
	_, err = f.svc.Deposit(f.ctx, f.host, Key{}, CashInput{Player: ann, Amount: 5})
	noErr(t, err)
	if f.svc.states.decided.Load() != before+1 {
		t.Error("after VACUUM FREEZE the write was not decided on the kept state")
	}
	f.asOwner(`VACUUM (FREEZE) tables`)
	f.asOwner(`UPDATE tables SET name = name || '!' WHERE id = $1`, f.host.TableID)
	before = f.svc.states.decided.Load()
	_, err = f.svc.Deposit(f.ctx, f.host, Key{}, CashInput{Player: ann, Amount: 5})
	noErr(t, err)
	if f.svc.states.decided.Load() != before {
		t.Error("a row changed by hand after a freeze passed the kept check")
	}
}

// TestAnExpiredKeyStillStoredMakesANewRequest: a key whose answer is older
// than KeyRetention, which the upkeep has not removed yet, makes a new
// request (Key), on a kept state too: its answer replaces the expired one.
func TestAnExpiredKeyStillStoredMakesANewRequest(t *testing.T) {
	t.Parallel()
	f := newFixture(t, NewTable{Preset: "bar", Players: []string{"Ann", "Bob", "Cy"}})
	ann := f.players[0]
	_, err := f.svc.StartRound(f.ctx, f.host, Key{}, StartRoundInput{})
	noErr(t, err)
	k := keyed("k1", []byte("body-1"), 201)
	_, err = f.svc.Deposit(f.ctx, f.host, k, CashInput{Player: ann, Amount: 5})
	noErr(t, err)
	n := f.count(`SELECT count(*) FROM journal_transactions WHERE table_id = $1`, f.host.TableID)
	f.asOwner(`UPDATE idempotency_keys SET created_at = $2 WHERE table_id = $1`, f.host.TableID,
		f.svc.now().Add(-KeyRetention-time.Hour))
	r, err := f.svc.Deposit(f.ctx, f.host, k, CashInput{Player: ann, Amount: 5})
	if err != nil || r.Replayed {
		t.Fatalf("an expired key still stored: replayed %v, err %v; want a new deposit", r.Replayed, err)
	}
	if got := f.count(`SELECT count(*) FROM journal_transactions WHERE table_id = $1`, f.host.TableID); got != n+1 {
		t.Fatalf("%d journal transactions after the new deposit, want %d", got, n+1)
	}
	r, err = f.svc.Deposit(f.ctx, f.host, k, CashInput{Player: ann, Amount: 5})
	if err != nil || !r.Replayed {
		t.Fatalf("the key again, now answered anew: replayed %v, err %v; want its replay", r.Replayed, err)
	}
	checkInvariants(t, f.ctx, f.pool)
}

// TestAnExpiredKeyMakesANewTable: making a table with a key whose answer
// expired but is still stored makes a new table.
func TestAnExpiredKeyMakesANewTable(t *testing.T) {
	t.Parallel()
	f := newFixture(t, NewTable{Preset: "bar", Players: []string{"Ann", "Bob"}})
	k := keyed("make-1", []byte("body-1"), 201)
	first, err := f.svc.CreateTable(f.ctx, k, NewTable{Preset: "bar", Players: []string{"Cy", "Dee"}})
	noErr(t, err)
	f.asOwner(`UPDATE idempotency_keys SET created_at = $1 WHERE table_id = 0`, f.svc.now().Add(-KeyRetention-time.Hour))
	again, err := f.svc.CreateTable(f.ctx, k, NewTable{Preset: "bar", Players: []string{"Cy", "Dee"}})
	if err != nil || again.Replayed || again.Value.(Created).Table.ID == first.Value.(Created).Table.ID {
		t.Fatalf("a table made with an expired key still stored: replayed %v, err %v; want a new table", again.Replayed, err)
	}
	replay, err := f.svc.CreateTable(f.ctx, k, NewTable{Preset: "bar", Players: []string{"Cy", "Dee"}})
	if err != nil || !replay.Replayed {
		t.Fatalf("the key again: replayed %v, err %v; want the new table's answer", replay.Replayed, err)
	}
}
