package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tally-dice/tally/game/royale"
)

// TestRoyaleCellsAndLinesHaveOneSpelling: a cell is a row letter A-J (either
// case) then a column 1-10 without a leading zero, and nothing else; a sonar
// line is a row letter or a column number alike, as openapi.yaml's patterns
// say. Any other spelling, in a shot, an entered card or a sonar, is refused
// with a 400 naming the field and the spelling, and changes nothing; what is
// taken is stored and logged upper case.
func TestRoyaleCellsAndLinesHaveOneSpelling(t *testing.T) {
	t.Parallel()
	r := newRoyale(t, map[string]any{"mode": "advanced", "fleet": "entered"}, "Ann", "Bob")
	ann, bob := r.tokens["Ann"], r.tokens["Bob"]
	r.start(map[string]any{"first": r.id("Ann")})
	misspelt := func(q req, field, text string) {
		t.Helper()
		q.invalid = true // openapi.yaml's patterns refuse it too
		r.refuse(q, http.StatusBadRequest, "/problems/malformed-request", "", field+": ", fmt.Sprintf("%q", text))
		p := r.c.do(t, q).problem(t)
		if want := royale.CellSpelling; field == "line" {
			if want = royale.LineSpelling; !strings.Contains(p.Detail, want) {
				t.Fatalf("%s: %q does not say how a line is written", text, p.Detail)
			}
		} else if !strings.Contains(p.Detail, want) {
			t.Fatalf("%s: %q does not say how a cell is written", text, p.Detail)
		}
	}

	annCards := func(destroyer ...string) []map[string]any {
		return []map[string]any{
			{"kind": "submarine", "cells": []string{"a1", "a2", "a3"}},
			{"kind": "destroyer", "cells": destroyer, "bonus": 2},
			{"kind": "battleship", "cells": []string{"E1", "E2", "E3", "E4"}, "bonus": 3},
		}
	}
	for _, bad := range []string{" C1", "C1 ", "C1\n", "C01", "c01", "K1", "C0", "C 1", "C+1"} {
		misspelt(r.move(ann, map[string]any{"kind": "enter", "fleet": annCards("C2", bad, "C3")}), "fleet[1].cells[1]", bad)
	}
	v := r.act(ann, 1, map[string]any{"kind": "enter", "fleet": annCards("c1", "C2", "c3")})
	if got := v.Fleet[0].Cells; !slices.Equal(got, cells(t, "A1 A2 A3")) {
		t.Fatalf("Ann's submarine, typed a1 a2 a3, is kept as %v", got)
	}
	r.act(bob, 1, map[string]any{"kind": "enter", "fleet": []map[string]any{
		{"kind": "submarine", "cells": []string{"H1", "H2", "H3"}},
		{"kind": "patrol-boat", "cells": []string{"J9", "J10"}, "bonus": 1},
		{"kind": "carrier", "cells": []string{"J1", "J2", "J3", "J4", "J5"}, "bonus": 4},
	}})

	for _, bad := range []string{" j", "j ", "j\n", "01", "07", "0", "11", "K", "+1", "AB", "A1"} {
		misspelt(r.move(ann, map[string]any{"kind": "sonar", "line": bad}), "line", bad)
	}
	r.refuse(r.move(ann, map[string]any{"kind": "sonar"}), http.StatusBadRequest, "/problems/malformed-request", "", "line: ", "none given")
	if v := r.act(ann, 1, map[string]any{"kind": "sonar", "line": "j"}); len(v.Sonar) != 1 || v.Sonar[0].Line != "J" {
		t.Fatalf("sonar on row j: %+v", v.Sonar)
	}
	r.act(ann, 1, map[string]any{"kind": "roll", "die": 2})
	for _, bad := range []string{" B2", "B2 ", "B2\n", "\tB2", "B02", "b02", "B11", "L2", "B", ""} {
		misspelt(r.move(ann, map[string]any{"kind": "shoot", "cells": []string{"F5", bad}}), "cells[1]", bad)
	}
	if v := r.act(ann, 1, map[string]any{"kind": "shoot", "cells": []string{"f5", "J10"}}); !v.shot("F5") || !v.shot("J10") {
		t.Fatalf("the volley f5 J10: %+v", v.Board)
	}

	// The log tells each action as the board writes it.
	var events struct {
		Events []struct {
			Kind    string          `json:"kind"`
			Payload json.RawMessage `json:"payload"`
		} `json:"events"`
	}
	r.must(http.StatusOK, req{method: http.MethodGet, path: r.tb.path("/events?limit=500"), token: bob}, &events)
	var told []string
	for _, e := range events.Events {
		var a struct {
			Kind  string   `json:"kind"`
			Line  string   `json:"line"`
			Cells []string `json:"cells"`
		}
		if e.Kind == "royale.action" && json.Unmarshal(e.Payload, &a) == nil && (a.Kind == "sonar" || a.Kind == "shoot") {
			told = append(told, fmt.Sprint(a.Kind, a.Line, a.Cells))
		}
	}
	if want := []string{"sonarJ[]", "shoot[F5 J10]"}; !slices.Equal(told, want) {
		t.Fatalf("the log tells %q, want %q", told, want)
	}
	r.auditOK()
}

// cells reads cells written as "A1 B2".
func cells(t *testing.T, s string) []royale.Cell {
	t.Helper()
	var out []royale.Cell
	for _, w := range strings.Fields(s) {
		x, err := royale.ParseCell(w)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, x)
	}
	return out
}
