package stats

import (
	"reflect"
	"testing"
	"time"

	"github.com/tally-dice/tally/game"
)

// The crew of the worked history. Eve is on the crew but never played.
const (
	ann Member = iota + 1
	bob
	cat
	dan
	eve
)

var (
	friday   = time.Date(2026, 3, 6, 23, 30, 0, 0, time.UTC)
	saturday = time.Date(2026, 3, 7, 23, 45, 0, 0, time.UTC)
)

// scored is a qualified score; noScore and forfeit are the two ways to end
// a round without one.
func scored(m Member, s int) Score { return Score{Member: m, Qualified: true, Score: s} }
func noScore(m Member) Score       { return Score{Member: m} }
func forfeit(m Member) Score       { return Score{Member: m, Forfeited: true} }

// worked is a small history whose every figure is worked out by hand in the
// tests below. Antes are 1 a player a round.
//
// Friday, classic (ties split), table 10:
//
//	r1 Ann 8, Bob 8, Cat 3, Dan no score: split, pot 4, Ann 2 and Bob 2.
//	r2 Ann no score, Bob 5, Cat 9, Dan 7: Cat wins the pot of 4.
//	r3 Ann 6, Bob 10, Cat 2 (Dan sits out): Bob wins the pot of 3.
//	Net: Ann 2-3 = -1, Bob 5-3 = +2, Cat 4-3 = +1, Dan 0-2 = -2.
//
// Saturday, bar (one tie, all tie), table 11; Cat stays home:
//
//	r1 Ann 9, Bob 9, Dan 4: tie, the pot of 3 carries.
//	r2 Ann rolls an automatic (12); Bob and Dan forfeit: Ann wins 3+3 = 6.
//	r3 Ann no score, Bob 7, Dan 11: Dan wins the pot of 3.
//	Net: Ann 6-3 = +3, Bob 0-3 = -3, Dan 3-3 = 0.
//
// The nights are listed out of order: Compute must put Friday first.
func worked() History {
	return History{
		Members: []Person{{ann, "Ann"}, {bob, "Bob"}, {cat, "Cat"}, {dan, "Dan"}, {eve, "Eve"}},
		Nights: []Night{
			{Table: 11, Name: "Saturday", Played: saturday, Preset: "bar",
				Net: map[Member]int64{ann: 3, bob: -3, dan: 0},
				Rounds: []Round{
					{Number: 1, Kind: game.ResultTie, Pot: 3,
						Scores: []Score{scored(ann, 9), scored(bob, 9), scored(dan, 4)}},
					{Number: 2, Kind: game.ResultWin, Pot: 6, Winners: []Member{ann}, Payouts: map[Member]int64{ann: 6},
						Scores: []Score{{Member: ann, Qualified: true, Score: 12, Automatic: true}, forfeit(bob), forfeit(dan)}},
					{Number: 3, Kind: game.ResultWin, Pot: 3, Winners: []Member{dan}, Payouts: map[Member]int64{dan: 3},
						Scores: []Score{noScore(ann), scored(bob, 7), scored(dan, 11)}},
				}},
			{Table: 10, Name: "Friday", Played: friday, Preset: "classic",
				Net: map[Member]int64{ann: -1, bob: 2, cat: 1, dan: -2},
				Rounds: []Round{
					{Number: 1, Kind: game.ResultSplit, Pot: 4, Winners: []Member{ann, bob}, Payouts: map[Member]int64{ann: 2, bob: 2},
						Scores: []Score{scored(ann, 8), scored(bob, 8), scored(cat, 3), noScore(dan)},
						Throws: []Throw{
							{ann, []int{6, 5, 4, 3, 5}},                           // 6-5-4 at once, cargo 3+5
							{bob, []int{6, 2, 2, 1, 1}}, {bob, []int{5, 4, 6, 2}}, // 6 banked, then 5-4, cargo 6+2
							{cat, []int{6, 5, 4, 1, 2}},                                                           // cargo 1+2
							{dan, []int{1, 1, 2, 3, 3}}, {dan, []int{2, 2, 3, 3, 1}}, {dan, []int{1, 1, 1, 1, 1}}, // never a 6
						}},
					{Number: 2, Kind: game.ResultWin, Pot: 4, Winners: []Member{cat}, Payouts: map[Member]int64{cat: 4},
						Scores: []Score{noScore(ann), scored(bob, 5), scored(cat, 9), scored(dan, 7)}},
					{Number: 3, Kind: game.ResultWin, Pot: 3, Winners: []Member{bob}, Payouts: map[Member]int64{bob: 3},
						Scores: []Score{scored(ann, 6), scored(bob, 10), scored(cat, 2)}},
				}},
		},
	}
}

// TestFiguresWorked checks every member's figures against the hand-worked
// history, except head to head (TestRivalsWorked).
func TestFiguresWorked(t *testing.T) {
	t.Parallel()
	rep, err := Compute(worked())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Nights != 2 || rep.Rounds != 6 {
		t.Errorf("crew: %d nights, %d rounds; want 2, 6", rep.Nights, rep.Rounds)
	}
	fri := func(net, total int64) NetPoint {
		return NetPoint{Table: 10, Night: "Friday", Played: friday, Net: net, Total: total}
	}
	sat := func(net, total int64) NetPoint {
		return NetPoint{Table: 11, Night: "Saturday", Played: saturday, Net: net, Total: total}
	}
	want := []Figures{
		// Ann: 3 + 3 rounds; wins Friday r1 (split) and Saturday r2 (the
		// automatic); qualified 8, 6, 9, 12; no score Friday r2 and
		// Saturday r3; biggest pot 6; money -1 then +3.
		{Member: ann, Name: "Ann", Nights: 2, Rounds: 6, Wins: 2, WinRate: 2.0 / 6,
			Presets:    []PresetRecord{{"bar", 3, 1, 1.0 / 3}, {"classic", 3, 1, 1.0 / 3}},
			Scores:     []ScoreCount{{6, 1}, {8, 1}, {9, 1}, {12, 1}},
			NoScore:    2,
			Automatics: 1, BiggestPot: 6,
			NetByNight: []NetPoint{fri(-1, -1), sat(3, 2)}, Net: 2},
		// Bob: wins Friday r1 (split, 2) and r3 (3); forfeits Saturday r2.
		{Member: bob, Name: "Bob", Nights: 2, Rounds: 6, Wins: 2, WinRate: 2.0 / 6,
			Presets:    []PresetRecord{{"bar", 3, 0, 0}, {"classic", 3, 2, 2.0 / 3}},
			Scores:     []ScoreCount{{5, 1}, {7, 1}, {8, 1}, {9, 1}, {10, 1}},
			Forfeited:  1,
			BiggestPot: 3,
			NetByNight: []NetPoint{fri(2, 2), sat(-3, -1)}, Net: -1},
		// Cat: Friday only; wins r2 (4).
		{Member: cat, Name: "Cat", Nights: 1, Rounds: 3, Wins: 1, WinRate: 1.0 / 3,
			Presets:    []PresetRecord{{"classic", 3, 1, 1.0 / 3}},
			Scores:     []ScoreCount{{2, 1}, {3, 1}, {9, 1}},
			BiggestPot: 4,
			NetByNight: []NetPoint{fri(1, 1)}, Net: 1},
		// Dan: 2 rounds Friday (sat out r3), 3 Saturday; wins Saturday r3.
		{Member: dan, Name: "Dan", Nights: 2, Rounds: 5, Wins: 1, WinRate: 1.0 / 5,
			Presets: []PresetRecord{{"bar", 3, 1, 1.0 / 3}, {"classic", 2, 0, 0}},
			Scores:  []ScoreCount{{4, 1}, {7, 1}, {11, 1}},
			NoScore: 1, Forfeited: 1,
			BiggestPot: 3,
			NetByNight: []NetPoint{fri(-2, -2), sat(0, -2)}, Net: -2},
		// Eve: on the crew, never played.
		{Member: eve, Name: "Eve", Presets: []PresetRecord{}, Scores: []ScoreCount{}, NetByNight: []NetPoint{}},
	}
	for i, w := range want {
		got := rep.Members[i]
		got.Rivals = nil
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s:\n got %+v\nwant %+v", w.Name, got, w)
		}
	}
}

// TestRivalsWorked checks head to head on the worked history, round by
// round (W: the first named won the round, B: beat by score, =: even).
func TestRivalsWorked(t *testing.T) {
	t.Parallel()
	rep, err := Compute(worked())
	if err != nil {
		t.Fatal(err)
	}
	rival := func(m Member, name string, won, lost, even int) Rival {
		return Rival{Opponent: m, Name: name, Rounds: won + lost + even, Won: won, Lost: lost, Even: even}
	}
	want := map[Member][]Rival{
		// Ann-Bob, six rounds: Fri r1 split 8=8 (=), r2 Ann no score v 5
		// (Bob), r3 Bob won (Bob); Sat r1 tie 9=9 (=), r2 Ann won (Ann), r3
		// Ann no score v 7 (Bob). Ann-Cat: r1 Ann won, r2 Cat won, r3 6 v 2
		// (Ann). Ann-Dan: Fri r1 Ann won, r2 no score v 7 (Dan); Sat r1 9 v 4
		// (Ann), r2 Ann won, r3 Dan won.
		ann: {rival(bob, "Bob", 1, 3, 2), rival(cat, "Cat", 2, 1, 0), rival(dan, "Dan", 3, 2, 0)},
		// Bob-Cat: r1 Bob won, r2 Cat won, r3 Bob won. Bob-Dan: Fri r1 Bob won,
		// r2 5 v 7 (Dan); Sat r1 9 v 4 (Bob), r2 both forfeit (=), r3 Dan won.
		bob: {rival(ann, "Ann", 3, 1, 2), rival(cat, "Cat", 2, 1, 0), rival(dan, "Dan", 2, 2, 1)},
		// Cat-Dan: r1 3 v no score (Cat), r2 Cat won.
		cat: {rival(ann, "Ann", 1, 2, 0), rival(bob, "Bob", 1, 2, 0), rival(dan, "Dan", 2, 0, 0)},
		dan: {rival(ann, "Ann", 2, 3, 0), rival(bob, "Bob", 2, 2, 1), rival(cat, "Cat", 0, 2, 0)},
		eve: {},
	}
	for _, f := range rep.Members {
		if !reflect.DeepEqual(f.Rivals, want[f.Member]) {
			t.Errorf("%s:\n got %+v\nwant %+v", f.Name, f.Rivals, want[f.Member])
		}
	}
}

// TestSeasonWorked checks the season table of the worked history: by money,
// Eve (who never played, 0) between Cat (+1) and Bob (-1).
func TestSeasonWorked(t *testing.T) {
	t.Parallel()
	rep, err := Compute(worked())
	if err != nil {
		t.Fatal(err)
	}
	want := []Standing{
		{Rank: 1, Member: ann, Name: "Ann", Nights: 2, Rounds: 6, Wins: 2, WinRate: 2.0 / 6, Net: 2},
		{Rank: 2, Member: cat, Name: "Cat", Nights: 1, Rounds: 3, Wins: 1, WinRate: 1.0 / 3, Net: 1},
		{Rank: 3, Member: eve, Name: "Eve"},
		{Rank: 4, Member: bob, Name: "Bob", Nights: 2, Rounds: 6, Wins: 2, WinRate: 2.0 / 6, Net: -1},
		{Rank: 5, Member: dan, Name: "Dan", Nights: 2, Rounds: 5, Wins: 1, WinRate: 1.0 / 5, Net: -2},
	}
	if !reflect.DeepEqual(rep.Season, want) {
		t.Errorf("season:\n got %+v\nwant %+v", rep.Season, want)
	}
}

// TestSeasonTies checks the tie-breaks: money, then wins share a rank only
// when both are level, and the order within a shared rank is by name, then
// id.
func TestSeasonTies(t *testing.T) {
	t.Parallel()
	figs := []Figures{
		{Member: 1, Name: "Zed", Wins: 3, Net: 5},
		{Member: 2, Name: "Amy", Wins: 1, Net: 5},
		{Member: 3, Name: "Amy", Wins: 3, Net: 5},
		{Member: 4, Name: "Bea", Wins: 3, Net: 5},
		{Member: 5, Name: "Cal", Wins: 9, Net: -1},
	}
	var got []Member
	var ranks []int
	for _, s := range season(figs) {
		got, ranks = append(got, s.Member), append(ranks, s.Rank)
	}
	if want := []Member{3, 4, 1, 2, 5}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if want := []int{1, 1, 1, 4, 5}; !reflect.DeepEqual(ranks, want) {
		t.Errorf("ranks %v, want %v", ranks, want)
	}
}
