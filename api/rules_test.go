package api

import (
	"net/http"
	"strings"
	"testing"
)

func TestPresetsListsEveryPreset(t *testing.T) {
	t.Parallel()
	c := newClient(t, New(Config{}))
	r := c.do(t, req{method: http.MethodGet, path: "/v1/presets"})
	if r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	var got []presetView
	r.decode(t, &got)
	want := []string{"bar", "classic", "scarne", "ship-of-fools", "ship-captain", "low-or-high", "family-meier"}
	if len(got) != len(want) {
		t.Fatalf("got %d presets, want %d", len(got), len(want))
	}
	for i, name := range want {
		if got[i].Name != name || got[i].Ruleset.Preset != name || got[i].Description == "" {
			t.Errorf("preset %d = %+v, want %s with a description", i, got[i].PresetInfo, name)
		}
	}
}

func TestCheckTurn(t *testing.T) {
	t.Parallel()
	c := newClient(t, New(Config{}))
	cases := []struct {
		name   string
		body   any
		status int
		score  int
		rule   string
		roll   int
		detail string
	}{
		{"rules worked example", map[string]any{"preset": "classic", "rolls": []any{
			map[string]any{"dice": []int{6, 4, 3, 3, 1}},
			map[string]any{"dice": []int{5, 4, 1, 2}},
			map[string]any{"dice": []int{5, 2}},
		}}, http.StatusOK, 7, "", 0, ""},
		{"too many dice after the ship", map[string]any{"rolls": []any{
			map[string]any{"dice": []int{6, 1, 1, 2, 2}},
			map[string]any{"dice": []int{5, 4, 3, 3, 3}},
		}}, http.StatusUnprocessableEntity, 0, "dice-count", 2, "roll 2"},
		{"face seven", map[string]any{"rolls": []any{map[string]any{"dice": []int{6, 5, 4, 7, 1}}}},
			http.StatusUnprocessableEntity, 0, "face", 1, "roll 1"},
		{"bar cargo must be re-rolled together", map[string]any{"preset": "bar", "rolls": []any{
			map[string]any{"dice": []int{6, 5, 4, 1, 6}},
			map[string]any{"dice": []int{6}, "rethrow": []int{1}},
		}}, http.StatusUnprocessableEntity, 0, "reroll-policy", 2, "roll 2"},
		{"unknown preset", map[string]any{"preset": "yahtzee", "rolls": []any{map[string]any{"dice": []int{6, 5, 4, 1, 1}}}},
			http.StatusUnprocessableEntity, 0, "", 0, "yahtzee"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do(t, req{method: http.MethodPost, path: "/v1/check-turn", body: tc.body})
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			if tc.status == http.StatusOK {
				var out turnOutcome
				r.decode(t, &out)
				if !out.Qualified || out.Score != tc.score {
					t.Fatalf("outcome %+v, want qualified score %d", out.Outcome, tc.score)
				}
				return
			}
			p := r.problem(t)
			if p.Rule != tc.rule || p.Roll != tc.roll || !strings.Contains(p.Detail, tc.detail) {
				t.Fatalf("problem %+v, want rule %q roll %d detail containing %q", p, tc.rule, tc.roll, tc.detail)
			}
		})
	}
}

func TestMalformedRequests(t *testing.T) {
	t.Parallel()
	c := newClient(t, New(Config{}))
	big := `{"rolls":[{"dice":[6,5,4,1,1]}],"preset":"` + strings.Repeat("x", maxBody) + `"}`
	cases := []struct {
		name, raw, contentType string
		status                 int
		typ, detail            string
	}{
		{"broken JSON", `{"rolls": [`, "", 400, "/problems/malformed-request", "ends too early"},
		{"unknown field", `{"rolls": [], "colour": "red"}`, "", 400, "/problems/malformed-request", `unknown field "colour"`},
		{"field name in the wrong case", `{"ROLLS": [{"dice": [6, 5, 4, 1, 1]}]}`, "", 400, "/problems/malformed-request", `unknown field "ROLLS"`},
		{"nested field name in the wrong case", `{"rolls": [{"Dice": [6, 5, 4, 1, 1]}]}`, "", 400, "/problems/malformed-request", `unknown field "Dice" in rolls[0]`},
		{"option in the wrong case", `{"rolls": [{"dice": [6, 5, 4, 1, 1]}], "options": {"Low": true}}`, "", 400, "/problems/malformed-request", `unknown field "Low" in options`},
		{"wrong type", `{"rolls": "six"}`, "", 400, "/problems/malformed-request", "rolls must be an array"},
		{"two values", `{"rolls": []} {}`, "", 400, "/problems/malformed-request", "more than one"},
		{"empty body", ``, "", 400, "/problems/malformed-request", "body is required"},
		{"not JSON", `dice=6`, "application/x-www-form-urlencoded", 415, "/problems/unsupported-media-type", "application/json"},
		{"too large", big, "", 413, "/problems/payload-too-large", "limit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			raw := []byte(tc.raw)
			r := c.do(t, req{method: http.MethodPost, path: "/v1/check-turn", raw: raw, contentType: tc.contentType, invalid: true})
			p := r.problem(t)
			if r.status != tc.status || p.Type != tc.typ || !strings.Contains(p.Detail, tc.detail) {
				t.Fatalf("got %d %+v, want %d %s with %q", r.status, p, tc.status, tc.typ, tc.detail)
			}
		})
	}
	r := c.do(t, req{method: http.MethodGet, path: "/v1/nowhere", invalid: true})
	if r.status != http.StatusNotFound || r.problem(t).Type != "/problems/not-found" {
		t.Fatalf("unknown path: %d %s", r.status, r.body)
	}
}
