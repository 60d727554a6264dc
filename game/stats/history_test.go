package stats

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/tally-dice/tally/game"
)

// TestBadHistory checks that a history that cannot be counted is refused.
func TestBadHistory(t *testing.T) {
	t.Parallel()
	round := func(s []Score, th []Throw) History {
		return History{Nights: []Night{{Table: 1, Rounds: []Round{{Number: 1, Scores: s, Throws: th}}}}}
	}
	tests := []struct {
		name string
		h    History
	}{
		{"a face of 7", round(nil, []Throw{{ann, []int{6, 7}}})},
		{"a face of 0", round(nil, []Throw{{ann, []int{0}}})},
		{"a throw by nobody", round(nil, []Throw{{0, []int{3}}})},
		{"a score for nobody", round([]Score{{Member: 0}}, nil)},
		{"a member with id 0", History{Members: []Person{{0, "Nobody"}}}},
		{"a member listed twice", History{Members: []Person{{ann, "Ann"}, {ann, "Annie"}}}},
		{"a balance for nobody", History{Nights: []Night{{Net: map[Member]int64{0: 5}}}}},
	}
	for _, tc := range tests {
		if _, err := Compute(tc.h); !errors.Is(err, ErrBadHistory) {
			t.Errorf("%s: err = %v, want ErrBadHistory", tc.name, err)
		}
	}
}

// TestEmptyHistories checks the histories with nothing in them yet: a crew
// with no nights, a member with no rounds, a night with no rounds.
func TestEmptyHistories(t *testing.T) {
	t.Parallel()
	rep, err := Compute(History{})
	if err != nil {
		t.Fatal(err)
	}
	want := Report{Members: []Figures{}, Season: []Standing{},
		Dice: Fairness{Level: Level, Members: []DiceCheck{}, Table: DiceCheck{Name: "the table", Verdict: VerdictTooFew,
			Summary:     "not enough dice yet (0 of 30)",
			Explanation: "No dice counted yet for the table's dice; it takes 30 before luck and loaded dice can be told apart."}}}
	if !reflect.DeepEqual(rep, want) {
		t.Errorf("empty history:\n got %+v\nwant %+v", rep, want)
	}

	// One member, one night closed with a balance but no rounds played.
	rep, err = Compute(History{Members: []Person{{ann, "Ann"}},
		Nights: []Night{{Table: 3, Name: "Quiet", Played: friday, Net: map[Member]int64{ann: 0}}}})
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Members[0]
	if f.Nights != 1 || f.Rounds != 0 || f.WinRate != 0 || len(f.Rivals) != 0 || len(f.NetByNight) != 1 {
		t.Errorf("one member, no rounds: %+v", f)
	}
	if s := rep.Season; len(s) != 1 || s[0].Rank != 1 || s[0].Member != ann {
		t.Errorf("one member's season: %+v", s)
	}
}

// TestPartialNights checks a member who played only some nights and one who
// is not on the roster: the series has a point only for the nights played,
// and the unlisted member is added, unnamed, after the roster.
func TestPartialNights(t *testing.T) {
	t.Parallel()
	night := func(table int64, played time.Time, net map[Member]int64, s ...Score) Night {
		return Night{Table: table, Name: "n", Played: played, Preset: "classic", Net: net,
			Rounds: []Round{{Number: 1, Kind: game.ResultWin, Winners: []Member{s[0].Member}, Scores: s}}}
	}
	h := History{
		Members: []Person{{bob, "Bob"}, {ann, "Ann"}},
		Nights: []Night{
			night(3, saturday, map[Member]int64{ann: 4, bob: -4}, scored(ann, 9), scored(bob, 4)),
			night(2, friday, map[Member]int64{ann: 1, 99: -1}, scored(ann, 5), scored(99, 3)),
			// Closed at the same time as table 2, so it comes after it.
			night(1, saturday, map[Member]int64{bob: 2, 99: -2}, scored(bob, 8), noScore(99)),
		},
	}
	rep, err := Compute(h)
	if err != nil {
		t.Fatal(err)
	}
	var ids []Member
	for _, f := range rep.Members {
		ids = append(ids, f.Member)
	}
	if want := []Member{bob, ann, 99}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("members %v, want %v", ids, want)
	}
	series := func(f Figures) (tables []int64, totals []int64) {
		for _, p := range f.NetByNight {
			tables, totals = append(tables, p.Table), append(totals, p.Total)
		}
		return tables, totals
	}
	// Friday: table 2. Saturday: tables 1 and 3, by id.
	cases := []struct {
		f              Figures
		tables, totals []int64
	}{
		{rep.Members[0], []int64{1, 3}, []int64{2, -2}},  // Bob
		{rep.Members[1], []int64{2, 3}, []int64{1, 5}},   // Ann
		{rep.Members[2], []int64{2, 1}, []int64{-1, -3}}, // member 99
	}
	for _, c := range cases {
		tables, totals := series(c.f)
		if !reflect.DeepEqual(tables, c.tables) || !reflect.DeepEqual(totals, c.totals) {
			t.Errorf("member %d: tables %v totals %v, want %v %v", c.f.Member, tables, totals, c.tables, c.totals)
		}
	}
	if rep.Members[2].Name != "" || rep.Dice.Members[2].Member != 99 {
		t.Errorf("the unlisted member: %+v", rep.Members[2])
	}
}

// TestLowTable checks that at a low table the lower score beats the higher
// in head to head, while a winner still beats everyone.
func TestLowTable(t *testing.T) {
	t.Parallel()
	r := Round{Winners: []Member{cat}}
	tests := []struct {
		a, b Score
		low  bool
		want int
	}{
		{scored(ann, 3), scored(bob, 9), false, -1},
		{scored(ann, 3), scored(bob, 9), true, 1},
		{scored(ann, 3), noScore(bob), true, 1},
		{noScore(ann), forfeit(bob), true, 0},
		{scored(ann, 3), scored(cat, 2), true, -1},
		{scored(cat, 12), scored(ann, 2), true, 1},
	}
	for _, tc := range tests {
		if got := beat(r, tc.a, tc.b, tc.low); got != tc.want {
			t.Errorf("beat(%+v, %+v, low %v) = %d, want %d", tc.a, tc.b, tc.low, got, tc.want)
		}
	}
}
