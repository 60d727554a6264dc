package table

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/gametest"
)

// TestAWriteOnAKeptStateChecksTheTableFirst: a write decided on the state
// this instance kept, in one round trip (kept.go), commits only on the
// table exactly as kept. What changed behind the service's back moves no
// chain head, so only that check sees it: a row changed by hand (nobody may
// now go below zero) and an action changed by hand. Each next write is
// judged on the table as stored, as a write without a kept state is.
func TestAWriteOnAKeptStateChecksTheTableFirst(t *testing.T) {
	t.Parallel()
	f := newFixture(t, NewTable{Preset: "bar", Players: []string{"Ann", "Bob", "Cy"}})
	ann, bob, cy := f.players[0], f.players[1], f.players[2]
	rng := rand.New(rand.NewPCG(27, 1))
	r, err := f.svc.StartRound(f.ctx, f.host, Key{}, StartRoundInput{})
	noErr(t, err)
	rd := r.Value.(RoundView)
	if rd.Turn != ann {
		t.Fatalf("round 1 begins with player %d, the test wants Ann (%d)", rd.Turn, ann)
	}
	before := f.svc.states.decided.Load()
	_, err = f.svc.SubmitTurn(f.ctx, f.host, Key{}, rd.Number, TurnInput{Player: ann, Rolls: []game.Roll{{Dice: []int{6, 5, 4, 1, 2}}}, Stand: true})
	noErr(t, err)
	if f.svc.states.decided.Load() != before+1 {
		t.Fatal("Ann's turn, after the round this instance started, was not decided on the kept state: the test would prove nothing")
	}
	agreeCached(t, f, f.host.TableID)

	// Ann's throw changed by hand: the kept round says 6-5-4 and 3, the
	// table 6-5-4 and 12. Bob's turn is judged on the stored round, and
	// what is kept after it is what is stored.
	f.asOwner(`UPDATE round_actions SET dice = '{6,5,4,5,3}' WHERE table_id = $1 AND seq = 1`, f.host.TableID)
	before = f.svc.states.decided.Load()
	r, err = f.svc.SubmitTurn(f.ctx, f.host, Key{}, rd.Number, TurnInput{Player: bob, Rolls: gametest.RandomTurn(rng, f.created.Table.Ruleset)})
	noErr(t, err)
	if f.svc.states.decided.Load() != before {
		t.Fatal("Bob's turn was decided on the kept round, which is no longer the stored one")
	}
	if n := agreeCached(t, f, f.host.TableID); n != 1 {
		t.Fatal("Bob's turn left no state kept")
	}
	for _, turn := range r.Value.(RoundView).Turns {
		if turn.Player == ann && turn.Outcome.Score != 8 {
			t.Errorf("Ann's turn scores %d after Bob's; the table says 8", turn.Outcome.Score)
		}
	}

	// The table row changed by hand: nobody may go below zero now. Cy's
	// cash-out of more than Cy has is refused, as the row says.
	f.asOwner(`UPDATE tables SET no_overdraft = true WHERE id = $1`, f.host.TableID)
	_, err = f.svc.Withdraw(f.ctx, f.host, Key{}, CashInput{Player: cy, Amount: 100})
	if !errors.Is(err, ErrInsufficientFunds) {
		t.Fatalf("a cash-out below zero at a table the row says allows none: %v, want %v", err, ErrInsufficientFunds)
	}
	checkInvariants(t, f.ctx, f.pool)
}
