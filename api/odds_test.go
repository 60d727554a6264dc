package api

import (
	"math"
	"net/http"
	"testing"

	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/odds"
)

func TestOddsEndpoint(t *testing.T) {
	t.Parallel()
	c := newClient(t, New(Config{}))
	eight := 8
	// The table question: 6-5-4 with cargo 7 (5+2), one roll left, point 8,
	// two players to come, bar rules.
	r := c.do(t, req{method: http.MethodPost, path: "/v1/odds", body: map[string]any{
		"preset": "bar", "banked": []int{6, 5, 4}, "cargo": []int{5, 2}, "rollsLeft": 1, "point": eight, "later": 2}})
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var got odds.Advice
	r.decode(t, &got)
	rs, _ := game.NewRuleset("bar", game.Options{})
	want, err := odds.Advise(odds.Query{Ruleset: rs, Banked: []int{6, 5, 4}, Cargo: []int{5, 2}, RollsLeft: 1, Point: &eight, Later: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Choices) != len(want.Choices) || got.Best != want.Best {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i, ch := range got.Choices {
		if ch.Kind != want.Choices[i].Kind || math.Abs(ch.PWin-want.Choices[i].PWin) > 1e-15 {
			t.Fatalf("choice %d = %+v, want %+v", i, ch, want.Choices[i])
		}
	}
	stand := got.Choices[0]
	if stand.Kind != odds.KindStand || stand.PWin != 0 || stand.PLose != 1 {
		t.Fatalf("standing on 7 against 8 must lose for sure: %+v", stand)
	}

	// The same question with the ruleset a table reports gives the same answer.
	r = c.do(t, req{method: http.MethodPost, path: "/v1/odds", body: map[string]any{
		"ruleset": rs, "banked": []int{6, 5, 4}, "cargo": []int{5, 2}, "rollsLeft": 1, "point": eight, "later": 2}})
	var again odds.Advice
	r.decode(t, &again)
	if r.status != http.StatusOK || again.Best != got.Best {
		t.Fatalf("with ruleset: %d %s", r.status, r.body)
	}

	for name, body := range map[string]map[string]any{
		"cargo before qualifying": {"preset": "bar", "banked": []int{6}, "cargo": []int{5, 2}, "rollsLeft": 1},
		"four rolls left":         {"preset": "bar", "rollsLeft": 4},
		"unknown preset":          {"preset": "poker", "rollsLeft": 3},
	} {
		r := c.do(t, req{method: http.MethodPost, path: "/v1/odds", body: body, invalid: true})
		if r.status != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %s", name, r.status, r.body)
		}
	}
}
