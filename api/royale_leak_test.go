package api

import (
	"net/http"
	"testing"
)

// TestRoyaleFleetLeaksToNoOtherToken holds three Battleship Royale tables
// that are the same in everything but the fleet Ann entered: her carrier
// lies in row E, in column 10, or in row H. Until a card of hers sinks or
// the game ends, nobody but Ann may tell the tables apart: not by any read
// (the game, the table, the log, the audit, the ledger, the stream), not by
// what a write answers, and not by a refusal, with the host's token, the
// auditor's or another player's. It is played with a host who does not
// play, and with the host playing Cy (who enters its own fleet, with no
// hold).
func TestRoyaleFleetLeaksToNoOtherToken(t *testing.T) {
	t.Parallel()
	bothWays(t, "Cy", royaleFleetLeaksToNoOtherToken)
}

func royaleFleetLeaksToNoOtherToken(t *testing.T, host string) {
	carriers := [][]string{
		{"E1", "E2", "E3", "E4", "E5"},
		{"B10", "C10", "D10", "E10", "F10"},
		{"H4", "H5", "H6", "H7", "H8"},
	}
	tw := newTwins(t, len(carriers), withHost(map[string]any{"name": "Royale", "game": "royale", "players": []string{"Ann", "Bob", "Cy"},
		"royale": map[string]any{"fleet": "entered", "ante": 2, "bounty": 1}}, host), "Ann", "Bob", "Cy")
	tw.askers = append(tw.askers, "Bob", "Cy")
	tw.reads = []string{"/royale/1"}
	first := tw.tables[0]
	bob := first.id("Bob")
	game := func(cells ...string) map[string]any {
		return map[string]any{"kind": "shoot", "cells": cells}
	}
	tw.each(func(i int, s *scene, tok map[string]string) {
		s.must(http.StatusCreated, req{method: http.MethodPost, path: s.tb.path("/royale"), token: s.tb.Host,
			body: map[string]any{"first": bob}}, nil)
		s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/royale/1/actions"), token: tok["Ann"],
			body: map[string]any{"kind": "enter", "fleet": []map[string]any{
				{"kind": "patrol-boat", "cells": []string{"A1", "A2"}},
				{"kind": "destroyer", "cells": []string{"C1", "C2", "C3"}},
				{"kind": "carrier", "cells": carriers[i]},
			}}}, nil)
	})
	tw.readsAlike("Ann's fleet entered")
	// What entering answers Bob, and then Cy, whose fleet starts play.
	tw.ask("Bob enters", "Bob", http.MethodPost, "/royale/1/actions", map[string]any{"kind": "enter", "fleet": bobFleet})
	tw.refusedAlike("the host enters for Ann", "host", "/royale/1/actions",
		map[string]any{"player": first.id("Ann"), "kind": "enter", "fleet": annFleet}, http.StatusForbidden, "")
	tw.ask("Cy enters", "Cy", http.MethodPost, "/royale/1/actions", map[string]any{"kind": "enter", "fleet": []map[string]any{
		{"kind": "patrol-boat", "cells": []string{"J9", "J10"}},
		{"kind": "destroyer", "cells": []string{"G1", "G2", "G3"}},
		{"kind": "submarine", "cells": []string{"C9", "D9", "E9"}},
	}})
	tw.readsAlike("play begun")
	// Bob's turn: shots that hit nothing of Ann's at any table, a hit on
	// her patrol boat (the same at every table), and refusals.
	tw.ask("Bob rolls", "Bob", http.MethodPost, "/royale/1/actions", map[string]any{"kind": "roll", "die": 3})
	tw.ask("Bob misses", "Bob", http.MethodPost, "/royale/1/actions", game("B5"))
	tw.refusedAlike("Bob shoots a cell shot", "Bob", "/royale/1/actions", game("B5"), 422, "already-shot")
	tw.refusedAlike("Cy out of turn", "Cy", "/royale/1/actions", game("E1"), http.StatusConflict, "")
	tw.refusedAlike("Bob ends early", "Bob", "/royale/1/actions", map[string]any{"kind": "end"}, 422, "not-done")
	tw.ask("Bob hits Ann's boat", "Bob", http.MethodPost, "/royale/1/actions", game("A1"))
	tw.refusedAlike("Bob's bonus before he has one", "Bob", "/royale/1/actions", map[string]any{"kind": "bonus", "cells": []string{"E2"}}, 422, "too-many-shots")
	tw.ask("Bob sinks Ann's boat", "Bob", http.MethodPost, "/royale/1/actions", game("A2"))
	tw.readsAlike("a card of Ann's sunk")
	tw.ask("Bob ends his turn", "Bob", http.MethodPost, "/royale/1/actions", map[string]any{"kind": "end"})
	tw.streamAlike("Cy rolls", "host", func() {
		tw.each(func(i int, s *scene, tok map[string]string) {
			s.must(http.StatusOK, req{method: http.MethodPost, path: s.tb.path("/royale/1/actions"), token: tok["Cy"],
				body: map[string]any{"kind": "roll", "die": 1}}, nil)
		})
	})
	tw.readsAlike("Cy's turn")
}
