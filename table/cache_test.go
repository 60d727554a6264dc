package table

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/gametest"
	"github.com/tally-dice/tally/game/royale"
	"github.com/tally-dice/tally/seal"
)

// TestAStaleStateIsNeverUsed runs two instances of the service on one
// database, as tallyd behind a load balancer does. Each keeps the states
// its own writes left (stateCache); a write on the other instance moves
// the table on, and the next write here must be judged on the table as it
// now is: the turn order the other instance moved on, and the balance it
// took away.
func TestAStaleStateIsNeverUsed(t *testing.T) {
	t.Parallel()
	keys := seal.Random()
	pool := dbtest.Pool(t)
	f := &fixture{t: t, ctx: t.Context(), pool: pool, svc: New(pool, keys, nil)}
	f.addTable(NewTable{Preset: "bar", NoOverdraft: true, Players: []string{"Ann", "Bob", "Cy"}})
	here, there := f.svc, New(pool, keys, nil)
	ann, bob, cy := f.players[0], f.players[1], f.players[2]
	rng := rand.New(rand.NewPCG(25, 1))
	for _, p := range f.players {
		_, err := here.Deposit(f.ctx, f.host, Key{}, CashInput{Player: p, Amount: 50})
		noErr(t, err)
	}
	r, err := here.StartRound(f.ctx, f.host, Key{}, StartRoundInput{})
	noErr(t, err)
	rd := r.Value.(RoundView)
	turn := func(svc *Service, p game.PlayerID) (RoundView, error) {
		r, err := svc.SubmitTurn(f.ctx, f.host, Key{}, rd.Number, TurnInput{Player: p, Rolls: gametest.RandomTurn(rng, f.created.Table.Ruleset)})
		if err != nil {
			return RoundView{}, err
		}
		return r.Value.(RoundView), nil
	}
	// Ann's turn here: this instance keeps the round with Ann's turn done.
	_, err = turn(here, ann)
	noErr(t, err)
	if _, ok := f.svc.states.entries[f.host.TableID]; !ok {
		t.Fatal("the turn left no state kept: the test would prove nothing")
	}
	// Bob's turn on the other instance, then Cy's here: the state kept
	// here still waits on Bob, the table waits on Cy.
	_, err = turn(there, bob)
	noErr(t, err)
	v, err := turn(here, cy)
	if err != nil {
		t.Fatalf("Cy's turn, after Bob's on the other instance: %v (judged on the state before Bob's turn)", err)
	}
	if v.Status != statusSettled || v.Actions < 3 {
		t.Fatalf("after the three turns the round is %s with %d actions, want it settled", v.Status, v.Actions)
	}
	agreeCached(t, f, f.host.TableID)

	// The other instance takes Ann's whole balance; here, Ann can no
	// longer ante at a table where nobody may go below zero.
	sheet, err := there.Balances(f.ctx, f.host)
	noErr(t, err)
	var annHas int64
	for _, b := range sheet.Players {
		if b.PlayerID == ann {
			annHas = b.Balance
		}
	}
	if annHas <= 0 {
		t.Fatalf("Ann has %d after one round: the test needs her to have something to cash out", annHas)
	}
	_, err = there.Withdraw(f.ctx, f.host, Key{}, CashInput{Player: ann, Amount: annHas})
	noErr(t, err)
	_, err = here.StartRound(f.ctx, f.host, Key{}, StartRoundInput{})
	if !errors.Is(err, ErrInsufficientFunds) {
		t.Fatalf("a round started here after Ann cashed out everything on the other instance: %v, want %v", err, ErrInsufficientFunds)
	}
	checkInvariants(t, f.ctx, f.pool)
}

// TestAKeptStateIsTheStoredState plays random rounds at tables of several
// presets on one instance and, after every write, checks that the state
// the instance keeps for the table's next write is the one a fresh read
// of the database rebuilds.
func TestAKeptStateIsTheStoredState(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(25, 2))
	f := newFixture(t, NewTable{Preset: "bar", Players: []string{"Ann", "Bob", "Cy"}})
	for _, preset := range []string{"bar", "classic", "ship-of-fools", "scarne"} {
		in := NewTable{Preset: preset, Players: []string{"Ann", "Bob", "Cy"}}
		if preset == "scarne" {
			in.Options.Goal = &game.Goal{Kind: game.GoalPoints, Target: 15}
			in.Options.Start = ptr(game.StartRotateLeft)
		}
		f.addTable(in)
		kept := 0
		for round := 1; round <= 5; round++ {
			r, err := f.svc.StartRound(f.ctx, f.host, Key{}, StartRoundInput{})
			if err != nil {
				break // a won game of rounds starts no more rounds
			}
			rd := r.Value.(RoundView)
			kept += agreeCached(t, f, f.host.TableID)
			for _, p := range rd.Players {
				turn := TurnInput{Player: p, Rolls: gametest.RandomTurn(rng, f.created.Table.Ruleset)}
				r, err := f.svc.SubmitTurn(f.ctx, f.host, Key{}, rd.Number, turn)
				noErr(t, err)
				kept += agreeCached(t, f, f.host.TableID)
				if r.Value.(RoundView).Status == statusSettled {
					break // an automatic may end the round early
				}
			}
		}
		if kept < 6 {
			t.Fatalf("%s: only %d writes left a state kept: the test proves too little", preset, kept)
		}
	}
}

// agreeCached checks the state the fixture's service keeps for its table,
// if any (and says whether there is one), against a fresh read: the same
// players and balances, and the same round, game or Battleship Royale
// game in play, whose actions the next write finds as they were kept.
func agreeCached(t testing.TB, f *fixture, tableID int64) int {
	t.Helper()
	f.svc.states.mu.Lock()
	e, ok := f.svc.states.entries[tableID]
	f.svc.states.mu.Unlock()
	if !ok {
		return 0
	}
	conn, err := f.pool.Acquire(f.ctx)
	noErr(t, err)
	defer conn.Release()
	var row db.Table
	var l db.Loaded
	b := db.NewBatch(f.ctx)
	b.TableGet(tableID, &row)
	b.TableLoad(tableID, db.KeyRef{}, &l)
	b.RoyaleLatest(tableID, &l.Game, &l.GameActions)
	noErr(t, b.Send(conn))
	if !e.holds(row.Head) {
		t.Fatalf("the state is kept at head %d, the table's is %d", e.head.Seq, row.Head.Seq)
	}
	fresh, err := stateOf(row, l)
	noErr(t, err)
	kept := e.st
	var since db.Loaded // what the next write reads, at the kept head
	b = db.NewBatch(f.ctx)
	b.TableLoadChanged(tableID, e.head, db.KeyRef{}, &since)
	if e.royale {
		b.RoyaleLatestSince(tableID, e.head, &since)
	}
	noErr(t, b.Send(conn))
	if len(since.Players) > 0 || len(since.Accounts) > 0 || since.Latest.Number != 0 || len(since.GameActions) > 0 {
		t.Fatalf("at the kept head the next write reads the table again: %+v", since)
	}
	if !kept.game.stored(since) || !sameRules(kept.row, row) {
		// The next write would read the table again, in a round trip of
		// its own, as if it had been changed behind the service's back.
		t.Fatalf("the kept game does not read as the stored one: kept %+v, read %+v", kept.dice().last, since)
	}
	if !reflect.DeepEqual(kept.players, fresh.players) || !reflect.DeepEqual(kept.accounts, fresh.accounts) {
		t.Fatalf("kept players and accounts\n%+v\n%+v\nfresh\n%+v\n%+v", kept.players, kept.accounts, fresh.players, fresh.accounts)
	}
	kd, fd := kept.dice(), fresh.dice()
	if (kd.last == nil) != (fd.last == nil) || (kd.game == nil) != (fd.game == nil) {
		t.Fatalf("one state has a round or a game, the other not")
	}
	if kd.last != nil {
		if kd.last.row.Number != fd.last.row.Number || kd.last.row.Status != fd.last.row.Status ||
			!reflect.DeepEqual(kd.last.round.State(), fd.last.round.State()) || len(kd.last.actions) != len(fd.last.actions) {
			t.Fatalf("the latest round differs:\nkept  %+v %+v\nfresh %+v %+v", kd.last.row, kd.last.round.State(), fd.last.row, fd.last.round.State())
		}
	}
	if kd.last != nil && kd.current() == nil {
		a, errA := kd.game.Snapshot()
		b, errB := fd.game.Snapshot()
		if errA != nil || errB != nil || !reflect.DeepEqual(normalize(a), normalize(b)) {
			t.Fatalf("the games differ:\nkept  %+v %v\nfresh %+v %v", a, errA, b, errB)
		}
	}
	kr, fr := kept.royale(), fresh.royale()
	if e.royale && (kr == nil) != (fr == nil) {
		t.Fatalf("one state has a Battleship Royale game, the other not")
	}
	if e.royale && kr != nil {
		host := Principal{Role: RoleHost, TableID: tableID}
		if kv, fv := kept.royaleView(kr, host), fresh.royaleView(fr, host); !reflect.DeepEqual(normalize(kv), normalize(fv)) {
			t.Fatalf("the Battleship Royale game differs:\nkept  %+v\nfresh %+v", kv, fv)
		}
	}
	return 1
}

// TestAKeptRoyaleGameIsTheStoredOne plays Battleship Royale games with
// random shots, as tallybench does, and after every write checks the game
// this instance keeps against a fresh read.
func TestAKeptRoyaleGameIsTheStoredOne(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(25, 3))
	f := newFixture(t, NewTable{Game: GameRoyale, Royale: &royale.Options{Mode: royale.Advanced, Ante: 1, Bounty: 1},
		Players: []string{"Ann", "Bob", "Cy"}})
	kept, over := 0, 0
	for range 3 {
		r, err := f.svc.StartRoyale(f.ctx, f.host, Key{}, RoyaleStartInput{})
		noErr(t, err)
		g := r.Value.(RoyaleView)
		kept += agreeCached(t, f, f.host.TableID)
		act := func(in RoyaleActionInput) {
			t.Helper()
			r, err := f.svc.RoyaleAct(f.ctx, f.host, Key{}, g.Number, in)
			noErr(t, err)
			g = r.Value.(RoyaleView)
			kept += agreeCached(t, f, f.host.TableID)
		}
		for _, p := range g.Players {
			act(RoyaleActionInput{Player: p.Player, Kind: actHold})
			act(RoyaleActionInput{Player: p.Player, Kind: royale.ActKeep, Discard: []int{3, 4}})
		}
		for turns := 0; g.Phase == royale.PhasePlaying && turns < 200; turns++ {
			who := g.Turn
			act(RoyaleActionInput{Player: who, Kind: royale.ActRoll, Die: 1 + rng.IntN(3)})
			act(RoyaleActionInput{Player: who, Kind: royale.ActShoot, Cells: unshot(rng, g.View, g.ShotsLeft)})
			if g.Phase == royale.PhasePlaying && g.Turn == who {
				act(RoyaleActionInput{Player: who, Kind: royale.ActEnd})
			}
		}
		if g.Phase == royale.PhaseOver {
			over++
		}
	}
	if over == 0 || kept < 50 {
		t.Fatalf("%d games over and %d writes that kept a state: the test proves too little", over, kept)
	}
	checkInvariants(t, f.ctx, f.pool)
}

// unshot are n cells nobody has shot, at random (fewer if fewer are left).
func unshot(rng *rand.Rand, v royale.View, n int) []string {
	shot := map[string]bool{}
	for _, p := range v.Board {
		shot[p.Cell.String()] = true
	}
	var free []string
	for r := 'A'; r <= 'J'; r++ {
		for c := 1; c <= 10; c++ {
			if cell := fmt.Sprintf("%c%d", r, c); !shot[cell] {
				free = append(free, cell)
			}
		}
	}
	rng.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	return free[:min(n, len(free))]
}
