package odds

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/tally-dice/tally/game"
)

// sentinels are every error Advise may wrap.
var sentinels = []error{ErrRuleset, ErrRollsLeft, ErrLater, ErrPoint, ErrBanked, ErrCargoNotQualified, ErrCargoCount, ErrFace, ErrPathHint, ErrImpossibleState}

// FuzzAdvise throws arbitrary queries at the advisor: each must either be
// rejected with one of the package's sentinel errors or answered with
// consistent odds, and never panic.
func FuzzAdvise(f *testing.F) {
	f.Add(uint8(0), false, []byte{6, 5, 4}, []byte{3, 4}, int8(1), int8(8), int8(2), uint8(0))
	f.Add(uint8(5), false, []byte{1}, []byte{}, int8(2), int8(-1), int8(1), uint8(2))
	f.Add(uint8(6), true, []byte{2, 1}, []byte{5}, int8(2), int8(0), int8(0), uint8(0))
	f.Add(uint8(4), false, []byte{6, 5}, []byte{6, 6, 6}, int8(0), int8(18), int8(19), uint8(1))
	presets := game.Presets()
	hints := []string{"", "6-5-4", "1-2-3", "6-5"}
	f.Fuzz(func(t *testing.T, preset uint8, low bool, banked, cargo []byte, rolls, point, later int8, hint uint8) {
		if len(banked) > 6 || len(cargo) > 6 {
			return
		}
		rs, err := game.NewRuleset(presets[int(preset)%len(presets)].Name, game.Options{Low: &low})
		if err != nil {
			return // a preset that cannot be played low
		}
		q := Query{Ruleset: rs, RollsLeft: int(rolls), Later: int(later), PathHint: hints[int(hint)%len(hints)]}
		for _, b := range banked {
			q.Banked = append(q.Banked, int(b))
		}
		for _, c := range cargo {
			q.Cargo = append(q.Cargo, int(c))
		}
		if point >= 0 {
			q.Point = intp(int(point))
		}
		adv, err := Advise(q)
		if err != nil {
			for _, s := range sentinels {
				if errors.Is(err, s) {
					return
				}
			}
			t.Fatalf("Advise(%+v) = %v, not one of the sentinels", q, err)
		}
		checkConsistent(t, q, adv)
	})
}

func TestQueryAndAdviceTravelAsJSON(t *testing.T) {
	t.Parallel()
	bar := ruleset(t, "bar", game.Options{})
	rsJSON, err := json.Marshal(bar)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"ruleset":` + string(rsJSON) + `,"banked":[6,5,4],"cargo":[4,3],"rollsLeft":1,"point":8,"later":2}`
	var q Query
	if err := json.Unmarshal([]byte(body), &q); err != nil {
		t.Fatal(err)
	}
	adv := advise(t, q)
	direct := advise(t, Query{Ruleset: bar, Banked: []int{6, 5, 4}, Cargo: []int{3, 4}, RollsLeft: 1, Point: intp(8), Later: 2})
	if math.Abs(adv.Choices[1].PWin-direct.Choices[1].PWin) != 0 {
		t.Errorf("decoded query gives %+v, direct %+v", adv.Choices[1], direct.Choices[1])
	}
	out, err := json.Marshal(adv)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"kind":"stand"`, `"kind":"reroll"`, `"rethrow":[3,4]`, `"pWin":`, `"pTie":`, `"pLose":`, `"expectedScore":`, `"pNoScore":`, `"best":{"win":{"choice":1`, `"winOrTie":`, `"score":`} {
		if !strings.Contains(string(out), key) {
			t.Errorf("advice JSON lacks %s: %s", key, out)
		}
	}
}
