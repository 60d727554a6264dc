package table

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/royale"
	"github.com/tally-dice/tally/seal"
)

// TestRoyaleGamesOfTheFirstRulesPlayAsDecided loads Battleship Royale
// games that Tally wrote before games named their rules
// (testdata/royale_rules0.sql, played over HTTP as phones would by
// royale_rules0.sh on the tallyd of the time, under migration 10, less
// the stored answers to retries; royale_rules0_tokens.json holds the
// tables' tokens and the master secret that sealed them): at the advanced
// table Deep, a patrol boat entered without its bonus number (so worth 0),
// sonar lines typed " j" and "d " and cells " D2", " B2" and " d3", game 1
// played to its end and game 2 left in play; at Tie, a tie that left a unit
// in the pot and then a game, started by the second seat, abandoned with 4
// among 3 players, its odd unit paid in seat order; at Carry, such a tie
// left in the pot of an open table. Every audit passes, every balance is
// what it was, each game reads as it was decided, and each table plays on:
// the old game to its end, with its new input read strictly; the pot left
// after an old game goes back in seat order; new games follow the latest
// rules.
func TestRoyaleGamesOfTheFirstRulesPlayAsDecided(t *testing.T) {
	t.Parallel()
	onEveryClock(t, testRoyaleGamesOfTheFirstRules)
}

func testRoyaleGamesOfTheFirstRules(t *testing.T, clock func() time.Time) {
	ctx := context.Background()
	var saved map[string]string
	raw, err := os.ReadFile("testdata/royale_rules0_tokens.json")
	noErr(t, err)
	noErr(t, json.Unmarshal(raw, &saved))
	secret, err := hex.DecodeString(saved["secret"])
	noErr(t, err)
	keys, err := seal.New(secret)
	noErr(t, err)
	// The rows were written under migration 10; they are migrated on from
	// there, as a bar's database is.
	dsn := dbtest.DSNAt(t, 10)
	dbtest.LoadFixture(t, dsn, "testdata/royale_rules0.sql", clock())
	dbtest.Upgrade(t, dsn)
	pool, err := pgxpool.New(ctx, dsn)
	noErr(t, err)
	t.Cleanup(pool.Close)
	f := &fixture{t: t, ctx: ctx, pool: pool, svc: New(pool, keys, nil).WithClock(clock)}
	deep, tie, carry := Auth{TableID: 1, Token: saved["1"]}, Auth{TableID: 2, Token: saved["2"]}, Auth{TableID: 3, Token: saved["3"]}
	audits := []Auth{{TableID: 1, Token: saved["audit1"]}, {TableID: 2, Token: saved["audit2"]}, {TableID: 3, Token: saved["audit3"]}}
	f.auditsPass(audits, 2, 2, 1)
	f.balancesAre(deep, 2, 1, -3)
	f.balancesAre(tie, 0, 0, 0, 0)
	f.balancesAre(carry, 1, -1, 0, 0)
	for _, a := range []Auth{deep, tie, carry} {
		_, err := f.svc.Table(ctx, a) // the latest game replays
		noErr(t, err)
	}

	// Deep's game 1 reads as it was played: Ann's sonar on " j" is row J,
	// Bob's trophy of her patrol boat gives no shots, Ann won the pot.
	const ann, bob game.PlayerID = 1, 2
	g1 := f.royaleGame(deep, 1)
	if len(g1.Sonar) != 1 || g1.Sonar[0] != (royale.SonarCall{Player: ann, Line: "J", Ping: true}) ||
		g1.Players[1].Trophies[0] != (royale.Trophy{Owner: ann, Kind: royale.PatrolBoat}) ||
		g1.Result == nil || g1.Result.Winners[0] != ann || g1.Result.Settlement.Payouts[0].Amount != 2 {
		t.Fatalf("Deep's game 1: %+v", g1.View)
	}
	// Game 2 is Bob's turn. New input is read strictly, in an old game too.
	g2 := f.royaleGame(deep, 2)
	if g2.Phase != royale.PhasePlaying || g2.Turn != bob || len(g2.Sonar) != 2 || g2.Sonar[0].Line != "D" || g2.Sonar[1].Line != "J" {
		t.Fatalf("Deep's game 2: %+v", g2.View)
	}
	_, err = f.svc.RoyaleAct(ctx, deep, Key{}, 2, RoyaleActionInput{Player: bob, Kind: royale.ActSonar, Line: " j"})
	if !errors.Is(err, royale.ErrLine) {
		t.Fatalf("a sonar on \" j\" in an old game: %v", err)
	}
	f.play(deep, 2,
		RoyaleActionInput{Player: bob, Kind: royale.ActRoll, Die: 3},
		RoyaleActionInput{Player: bob, Kind: royale.ActShoot, Cells: []string{"A1", "A2", "A3"}},
		RoyaleActionInput{Player: bob, Kind: royale.ActEnd},
		RoyaleActionInput{Player: ann, Kind: royale.ActRoll, Die: 3},
		RoyaleActionInput{Player: ann, Kind: royale.ActShoot, Cells: []string{"J2", "J3", "I9"}},
		RoyaleActionInput{Player: ann, Kind: royale.ActEnd},
		RoyaleActionInput{Player: bob, Kind: royale.ActRoll, Die: 3},
		RoyaleActionInput{Player: bob, Kind: royale.ActShoot, Cells: []string{"E5", "E6", "E7"}})
	if g2 = f.royaleGame(deep, 2); g2.Result == nil || g2.Result.Winners[0] != bob {
		t.Fatalf("Deep's game 2 played out: %+v", g2.View)
	}
	f.balancesAre(deep, 0, 0, 0)

	// Tie's abandoned game paid its odd unit to the first seat, Cy, though
	// Di played first, and reads so.
	const cy, di, ed game.PlayerID = 3, 4, 5
	if g := f.royaleGame(tie, 2); g.Result == nil || !g.Result.Abandoned ||
		!slices.Equal(g.Result.Settlement.Payouts, []game.Amount{{Player: cy, Amount: 2}, {Player: di, Amount: 1}, {Player: ed, Amount: 1}}) {
		t.Fatalf("Tie's game 2: %+v", g.View)
	}

	// Carry closes after its old game: the unit left goes to the first
	// seat, Fay, as that game's rules return it, though Gus played first.
	_, err = f.svc.Close(ctx, carry, Key{})
	noErr(t, err)
	f.balancesAre(carry, 0, 0, 0, 0)

	// New games at the old tables are set up under the latest rules.
	for _, a := range []Auth{deep, tie} {
		r, err := f.svc.StartRoyale(ctx, a, Key{}, RoyaleStartInput{})
		noErr(t, err)
		number := r.Value.(RoyaleView).Number
		if rules := f.countAll(`SELECT (setup->>'rules')::int FROM royale_games WHERE table_id = $1 AND number = $2`,
			a.TableID, number); rules != int64(royale.CurrentRules) {
			t.Fatalf("table %d's game %d is set up under rules %d", a.TableID, number, rules)
		}
	}
	f.play(deep, 3, RoyaleActionInput{Player: ann, Kind: actHold})
	_, err = f.svc.RoyaleAct(ctx, deep, Key{}, 3, RoyaleActionInput{Player: ann, Kind: royale.ActEnter, Fleet: []CardInput{
		{Kind: royale.Submarine, Cells: []string{"A1", "A2", "A3"}},
		{Kind: royale.PatrolBoat, Cells: []string{"D2", "D3"}},
		{Kind: royale.Destroyer, Cells: []string{"E5", "E6", "E7"}, Bonus: 2}}})
	if !errors.Is(err, royale.ErrCard) {
		t.Fatalf("a new game's patrol boat entered without its bonus number: %v", err)
	}
	_, err = f.svc.AbandonRoyale(ctx, tie, Key{}, 3)
	noErr(t, err)
	f.auditsPass(audits, 3, 3, 1)
	checkInvariants(t, ctx, pool)
}

// auditsPass audits each table in full, which replays every game: each
// table has games[i] games and every check passes.
func (f *fixture) auditsPass(audits []Auth, games ...int) {
	f.t.Helper()
	for i, a := range audits {
		rep, err := f.svc.Audit(f.ctx, a, AuditQuery{Full: true})
		if err != nil || !rep.OK || len(rep.Games) != games[i] {
			f.t.Fatalf("the audit of table %d: %+v %v", a.TableID, rep, err)
		}
	}
}

// balancesAre checks the pot and each player's balance, in seat order.
func (f *fixture) balancesAre(a Auth, pot int64, players ...int64) {
	f.t.Helper()
	sheet, err := f.svc.Balances(f.ctx, a)
	noErr(f.t, err)
	ok := sheet.Pot == pot && len(sheet.Players) == len(players)
	for i := 0; ok && i < len(players); i++ {
		ok = sheet.Players[i].Balance == players[i]
	}
	if !ok {
		f.t.Fatalf("table %d's balances: %+v, want pot %d and players %v", a.TableID, sheet, pot, players)
	}
}

// royaleGame reads game number as a's token sees it.
func (f *fixture) royaleGame(a Auth, number int) RoyaleView {
	f.t.Helper()
	v, err := f.svc.RoyaleGame(f.ctx, a, number)
	noErr(f.t, err)
	return v
}

// play records each action of game number in turn, as the host.
func (f *fixture) play(a Auth, number int, actions ...RoyaleActionInput) {
	f.t.Helper()
	for _, in := range actions {
		if _, err := f.svc.RoyaleAct(f.ctx, a, Key{}, number, in); err != nil {
			f.t.Fatalf("%+v: %v", in, err)
		}
		agreeCached(f.t, f, a.TableID)
	}
}
