package royale

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tally-dice/tally/game"
)

// TestReplayTakesWhatItsRulesTook: a game of Rules0 replays the actions
// Rules0 took that later rules refuse (a sonar line typed " j", an advanced
// ship entered without its bonus number, worth 0), as Rules0 took them;
// Apply refuses them in every game, and a game of the current rules replays
// only what Apply takes.
func TestReplayTakesWhatItsRulesTook(t *testing.T) {
	t.Parallel()
	for _, rules := range []Rules{Rules0, Rules1} {
		t.Run(fmt.Sprintf("rules %d", rules), func(t *testing.T) {
			t.Parallel()
			g, err := NewGame(Setup{Rules: rules, Options: Options{Mode: Advanced, Fleet: Entered}, Players: []game.PlayerID{1, 2}, First: 1})
			if err != nil {
				t.Fatal(err)
			}
			enter := Action{Player: 1, Kind: ActEnter, Fleet: fleet(t, "submarine A1 A2 A3", "patrol-boat D2 D3", "destroyer:2 E5 E6 E7"), Salt: salt(1)}
			refuse(t, g, enter, ErrCard)
			_, err = g.Replay(enter)
			switch {
			case rules == Rules0 && err != nil:
				t.Fatalf("the fleet replayed under Rules0: %v", err)
			case rules != Rules0 && !errors.Is(err, ErrCard):
				t.Fatalf("the fleet replayed under rules %d: %v", rules, err)
			case rules != Rules0:
				enter.Fleet[1].Bonus = 1 // as Apply takes it: the game goes on
				apply(t, g, enter)
			}
			apply(t, g, Action{Player: 2, Kind: ActEnter, Fleet: fleet(t, "submarine J1 J2 J3", "patrol-boat:1 I9 I10", "destroyer:2 H8 H9 H10"), Salt: salt(2)})
			for _, line := range []string{" j", "j ", "\tJ\n"} {
				refuse(t, g, sonar(1, line), ErrLine)
				_, err := g.Replay(sonar(1, line))
				if rules == Rules0 {
					if err != nil {
						t.Fatalf("sonar on %q replayed under Rules0: %v", line, err)
					}
					break // the sonar is used
				}
				if !errors.Is(err, ErrLine) {
					t.Fatalf("sonar on %q replayed under rules %d: %v", line, rules, err)
				}
			}
			for _, line := range []string{"07", "+7", " K", ""} {
				if _, err := g.Replay(sonar(1, line)); !errors.Is(err, ErrLine) {
					t.Fatalf("sonar on %q replayed: %v", line, err)
				}
			}
			if rules != Rules0 {
				return
			}
			if calls := g.View(0).Sonar; len(calls) != 1 || calls[0] != (SonarCall{Player: 1, Line: "J", Ping: true}) {
				t.Fatalf("the sonar on \" j\": %+v", calls)
			}
			apply(t, g, roll(1, 1))
			apply(t, g, shoot(t, 1, "A10"))
			apply(t, g, end(1))
			apply(t, g, roll(2, 2))
			o := apply(t, g, shoot(t, 2, "D2 D3"))
			if len(o.Sunk) != 1 || o.Sunk[0].Shots != 0 || g.View(0).Players[1].BonusShots != 0 {
				t.Fatalf("the patrol boat entered without its bonus number sinks for no shots: %+v", o)
			}
		})
	}
}

// TestReturnOrder: the pot an abandoned game hands back gives its odd
// units in play order from the first player, and in seat order in a game
// of Rules0, as they were paid.
func TestReturnOrder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rules Rules
		want  []game.Amount
	}{
		{Rules0, []game.Amount{{Player: 1, Amount: 2}, {Player: 2, Amount: 1}, {Player: 3, Amount: 1}}},
		{Rules1, []game.Amount{{Player: 2, Amount: 2}, {Player: 3, Amount: 1}, {Player: 1, Amount: 1}}},
	} {
		s := Setup{Rules: tc.rules, Options: Options{Fleet: Entered, Ante: 1}, Players: []game.PlayerID{1, 2, 3}, First: 2, CarriedPot: 1}
		g, err := NewGame(s)
		if err != nil {
			t.Fatal(err)
		}
		o := apply(t, g, Action{Kind: ActAbandon})
		if got := o.Result.Settlement.Payouts; !reflect.DeepEqual(got, tc.want) {
			t.Fatalf("rules %d paid %v, want %v", tc.rules, got, tc.want)
		}
		if got := game.CloseOut(4, s.ReturnOrder()); !reflect.DeepEqual(got, tc.want) {
			t.Fatalf("rules %d return %v, want %v", tc.rules, got, tc.want)
		}
	}
}

// rules0Line is how Rules0 read a sonar line (the code of the time, less
// its test for cells): trimmed and upper-cased, a row letter or a column
// number. It is the oracle parseLineRules0 must match.
func rules0Line(line string) (string, Line, bool) {
	t := strings.ToUpper(strings.TrimSpace(line))
	if len(t) == 1 && t[0] >= 'A' && t[0] < 'A'+Size {
		return t, Line{Index: int(t[0] - 'A')}, true
	}
	if n, err := strconv.Atoi(t); err == nil && n >= 1 && n <= Size && t[0] != '+' && t[0] != '0' {
		return t, Line{Column: true, Index: n - 1}, true
	}
	return "", Line{}, false
}

// FuzzParseLineRules0: a stored sonar line of a Rules0 game is read as
// Rules0 read it, named alike, and every line in the one spelling is read
// as ParseLine reads it.
func FuzzParseLineRules0(f *testing.F) {
	for _, s := range []string{"C", " j", "j ", "\t10\n", "07", "+7", "-1", "ı", "K", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := parseLineRules0(s)
		name, want, ok := rules0Line(s)
		if (err == nil) != ok || (ok && (l != want || l.String() != name)) {
			t.Fatalf("parseLineRules0(%q) = %v, %v; Rules0 read %q %v %v", s, l, err, name, want, ok)
		}
		if strict, err := ParseLine(s); err == nil && strict != l {
			t.Fatalf("%q is %v, and %v under Rules0", s, strict, l)
		}
	})
}
