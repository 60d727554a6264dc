package table

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/seal"
)

// TestUpgradeFromSchema2 loads tables that Tally wrote before migration 3
// (testdata/v2_tables.sql: the README's round and two more at a bar table,
// with round 3 open and a closed cargo re-roll under the cup; a roll-off
// table; a Scarne game tied and waiting on its playoff, all with player ids
// stored as strings), migrates, and carries on: every audit passes, the
// sealed throw stays sealed, and each table plays on to its end with its
// old tokens. It runs today and with the clock a year on.
func TestUpgradeFromSchema2(t *testing.T) {
	t.Parallel()
	onEveryClock(t, testUpgradeFromSchema2)
}

func testUpgradeFromSchema2(t *testing.T, clock func() time.Time) {
	ctx := context.Background()
	runtimeDSN := schema2Database(t, clock())
	dbtest.Upgrade(t, runtimeDSN)
	var tokens map[string]string
	raw, err := os.ReadFile("testdata/v2_tokens.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &tokens); err != nil {
		t.Fatal(err)
	}
	// Tally serves as the runtime role, and seals the old history first.
	pool, err := pgxpool.New(ctx, runtimeDSN)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	svc := New(pool, seal.Random(), nil).WithClock(clock)
	if n, err := svc.SealHistory(ctx); err != nil || n == 0 {
		t.Fatalf("sealing the old history: %d sealed, err %v", n, err)
	}
	bar := Auth{TableID: 1, Token: tokens["1"]}
	rolloff := Auth{TableID: 2, Token: tokens["2"]}
	scarne := Auth{TableID: 3, Token: tokens["3"]}
	audit := Auth{TableID: 1, Token: tokens["audit1"]}
	for _, a := range []Auth{bar, rolloff, scarne, audit} {
		if rep, err := svc.Audit(ctx, a, AuditQuery{}); err != nil || !rep.OK {
			t.Fatalf("table %d after the upgrade: %+v %v", a.TableID, rep, err)
		}
	}

	// A retry of a keyed request sent before the upgrade (the host started
	// round 1 with the key round-1) replays its stored answer.
	reqHash, _ := hex.DecodeString("cb85d4961215f15ed63f23b0a3554053782858568f87ded71db923433652c3fb")
	again, err := svc.StartRound(ctx, bar, keyed("round-1", reqHash, 201), StartRoundInput{})
	noErr(t, err)
	if !again.Replayed || again.Answer.Status != 201 || !strings.Contains(string(again.Answer.Body), `"number":1,`) {
		t.Fatalf("the retried start of round 1: %+v %s", again, again.Answer.Body)
	}

	// The bar table: round 3 is being played, Cy's closed re-roll sealed.
	tv, err := svc.Table(ctx, bar)
	noErr(t, err)
	if tv.CurrentRound != 3 || tv.RoundsPlayed != 2 || tv.Pot != 6 {
		t.Fatalf("the bar table: %+v", tv)
	}
	r3, err := svc.Round(ctx, bar, 3)
	noErr(t, err)
	cy := r3.Turns[0]
	if r3.Turn != r3.Players[1] || len(cy.Outcome.Rolls) != 3 || !cy.Outcome.Rolls[2].Sealed || cy.Outcome.Score != 0 {
		t.Fatalf("round 3 as the host sees it: %+v", r3)
	}
	page, err := svc.Events(ctx, audit, 0, 500, nil)
	noErr(t, err)
	last := page.Events[len(page.Events)-1]
	if !strings.Contains(string(last.Payload), `"sealed":true`) || last.Hash != "" || page.Events[0].Hash == "" {
		t.Fatalf("the sealed throw in the log: %s %q", last.Payload, last.Hash)
	}
	for _, p := range r3.Players[1:] {
		dice := []int{6, 5, 4, 5, 5}
		if p == r3.Players[2] {
			dice = []int{6, 5, 4, 1, 1}
		}
		_, err := svc.SubmitTurn(ctx, bar, answered(201), 3, TurnInput{Player: p, Rolls: []game.Roll{{Dice: dice}}})
		noErr(t, err)
	}
	r3, err = svc.Round(ctx, bar, 3)
	noErr(t, err)
	if r3.Status != statusSettled || r3.Result.Kind != game.ResultWin || r3.Result.Winners[0] != r3.Players[1] ||
		r3.Turns[0].Outcome.Score != 5 {
		t.Fatalf("round 3 after it was played out: %+v", r3)
	}
	sheet, err := svc.Balances(ctx, bar)
	noErr(t, err)
	if sheet.Pot != 0 || sheet.Players[0].Balance != 4 || sheet.Players[1].Balance != -2 {
		t.Fatalf("the bar table's balances: %+v", sheet)
	}

	// The roll-off table reads as it was.
	sheet, err = svc.Balances(ctx, rolloff)
	noErr(t, err)
	if sheet.Bank != -10 || sheet.Players[0].Balance != 9 || sheet.Players[1].Balance != 1 {
		t.Fatalf("the roll-off table's balances: %+v", sheet)
	}

	// The Scarne game plays its playoff and is won.
	r, err := svc.StartRound(ctx, scarne, answered(201), StartRoundInput{})
	noErr(t, err)
	playoff := r.Value.(RoundView)
	if !playoff.Playoff || len(playoff.Players) != 2 {
		t.Fatalf("the playoff: %+v", playoff)
	}
	_, err = svc.SubmitTurn(ctx, scarne, answered(201), 3, TurnInput{Player: playoff.Players[0], Rolls: []game.Roll{{Dice: []int{6, 5, 4, 6, 6}}}})
	noErr(t, err)
	r, err = svc.SubmitTurn(ctx, scarne, answered(201), 3, TurnInput{Player: playoff.Players[1], Rolls: []game.Roll{{Dice: []int{6, 5, 4, 1, 1}}}})
	noErr(t, err)
	end := r.Value.(RoundView)
	if end.Game == nil || end.Game.Winner != playoff.Players[0] || end.Game.Settlement.Payouts[0].Amount != 2 {
		t.Fatalf("the game's end: %+v", end)
	}

	for _, a := range []Auth{bar, rolloff, scarne} {
		if rep, err := svc.Audit(ctx, a, AuditQuery{}); err != nil || !rep.OK {
			t.Fatalf("table %d after playing on: %+v %v", a.TableID, rep, err)
		}
	}
	// New tables take new ids, and their tokens name them.
	f := &fixture{t: t, ctx: ctx, pool: pool, svc: svc}
	f.addTable(NewTable{Players: []string{"Zed", "Yan"}})
	if f.host.TableID != 4 || !strings.HasPrefix(f.host.Token, "tly_h_4.") {
		t.Fatalf("a new table after the upgrade: %+v", f.host)
	}
	checkInvariants(t, ctx, pool)
}

// onEveryClock runs test, which reads a fixture holding times, under two
// clocks: today's, and one a year on. Its fixture moves to the clock's
// present as it loads (dbtest.LoadFixture) and its service reads that
// clock, so a test that passes today passes on any later day.
func onEveryClock(t *testing.T, test func(t *testing.T, clock func() time.Time)) {
	clocks := []struct {
		name  string
		clock func() time.Time
	}{
		{"today", time.Now},
		{"a year on", func() time.Time { return time.Now().AddDate(1, 0, 0) }},
	}
	for _, c := range clocks {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			test(t, c.clock)
		})
	}
}

// schema2Database is a fresh database holding testdata/v2_tables.sql, the
// rows Tally wrote under migration 2, moved to the present now and not
// migrated further. It returns its connection as the runtime role; its
// owner migrates.
func schema2Database(t *testing.T, now time.Time) string {
	t.Helper()
	runtimeDSN := dbtest.DSNAt(t, 2)
	dbtest.LoadFixture(t, runtimeDSN, "testdata/v2_tables.sql", now)
	return runtimeDSN
}
