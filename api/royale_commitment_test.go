package api

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// commitmentDoc describes the fleet commitment byte by byte, for anyone to
// check a game without Tally's code.
const commitmentDoc = "../docs/royale-commitment.md"

// TestRoyaleCommitmentRecomputedFromItsDocumentation recomputes fleet
// commitments with docCommitment, written from docs/royale-commitment.md
// alone (it calls none of Tally's code): the page's worked examples, and
// the commitments the server published for real games, from the fleets
// and salts it revealed when they ended, as the table's log and the game
// view give them. An advanced game dealt and played to its end carries
// bonus numbers and a submarine; a standard game entered, two cards of one
// kind, the order the page gives them.
func TestRoyaleCommitmentRecomputedFromItsDocumentation(t *testing.T) {
	t.Parallel()
	examples := docExamples(t)
	if len(examples) < 2 {
		t.Fatalf("%s has %d worked examples", commitmentDoc, len(examples))
	}
	for _, ex := range examples {
		salt, err := base64.StdEncoding.DecodeString(ex.salt)
		if err != nil {
			t.Fatalf("%s: salt %q: %v", ex.name, ex.salt, err)
		}
		if got := docCanonical(t, ex.fleet); got != ex.canonical {
			t.Errorf("%s: the page's steps encode\n%q\nand the page shows\n%q", ex.name, got, ex.canonical)
		}
		if got := docCommitment(t, ex.fleet, salt); got != ex.commitment {
			t.Errorf("%s: the page's steps hash to %s, and the page shows %s", ex.name, got, ex.commitment)
		}
	}

	t.Run("an advanced game dealt and played to its end", func(t *testing.T) {
		t.Parallel()
		r := newRoyale(t, map[string]any{"mode": "advanced", "ante": 1}, "Ann", "Bob", "Cid")
		r.start(nil)
		r.keepAll(1)
		r.checkCommitments(r.play(1, true, false), 3)
	})
	t.Run("a standard game entered and abandoned", func(t *testing.T) {
		t.Parallel()
		r := newRoyale(t, map[string]any{"fleet": "entered"}, "Ann", "Bob")
		r.start(nil)
		r.act(r.tokens["Ann"], 1, map[string]any{"kind": "enter", "fleet": []map[string]any{
			{"kind": "carrier", "cells": []string{"J10", "I10", "H10", "G10", "F10"}},
			{"kind": "destroyer", "cells": []string{"c3", "C2", "C1"}},
			{"kind": "destroyer", "cells": []string{"A7", "A6", "A5"}},
		}})
		r.act(r.tokens["Bob"], 1, map[string]any{"kind": "enter", "fleet": bobFleet})
		var end gameView
		r.must(http.StatusOK, req{method: http.MethodPost, path: r.tb.path("/royale/1/abandon"), token: r.tb.Host}, &end)
		r.checkCommitments(end, 2)
	})
}

// checkCommitments recomputes, from the fleets and salts the log revealed
// at the end of game 1, the commitment the log published for each of its
// players when play began, and finds each in the game's view too.
func (r *royaleScene) checkCommitments(end gameView, players int) {
	r.t.Helper()
	var sealed struct {
		Commitments []struct {
			Player     int64  `json:"player"`
			Commitment string `json:"commitment"`
		} `json:"commitments"`
	}
	var revealed struct {
		Fleets []struct {
			Player int64     `json:"player"`
			Fleet  []docCard `json:"fleet"`
			Salt   string    `json:"salt"`
		} `json:"fleets"`
	}
	for _, e := range r.royaleEvents() {
		switch e.Kind {
		case "royale.sealed":
			if err := json.Unmarshal(e.Payload, &sealed); err != nil {
				r.t.Fatal(err)
			}
		case "royale.revealed":
			if err := json.Unmarshal(e.Payload, &revealed); err != nil {
				r.t.Fatal(err)
			}
		}
	}
	if len(sealed.Commitments) != players || len(revealed.Fleets) != players {
		r.t.Fatalf("%d commitments published and %d fleets revealed, for %d players", len(sealed.Commitments), len(revealed.Fleets), players)
	}
	for _, c := range sealed.Commitments {
		i := slices.IndexFunc(revealed.Fleets, func(f struct {
			Player int64     `json:"player"`
			Fleet  []docCard `json:"fleet"`
			Salt   string    `json:"salt"`
		}) bool {
			return f.Player == c.Player
		})
		if i < 0 {
			r.t.Fatalf("player %d's fleet is not revealed", c.Player)
		}
		f := revealed.Fleets[i]
		salt, err := base64.StdEncoding.DecodeString(f.Salt)
		if err != nil || len(f.Salt) != 44 || len(salt) != 32 {
			r.t.Fatalf("player %d's salt %q is not 32 bytes in padded base64: %v", c.Player, f.Salt, err)
		}
		if got := docCommitment(r.t, f.Fleet, salt); got != c.Commitment {
			r.t.Errorf("player %d: %s recomputes %s from the revealed fleet %+v; the server published %s",
				c.Player, commitmentDoc, got, f.Fleet, c.Commitment)
		}
		if v := end.Commitments[strconv.FormatInt(c.Player, 10)]; v != c.Commitment {
			r.t.Errorf("player %d: the game shows the commitment %s, the log %s", c.Player, v, c.Commitment)
		}
	}
}

// royaleEvents is the table's log of Battleship Royale events, every page.
func (r *royaleScene) royaleEvents() []struct {
	Kind    string          `json:"kind"`
	Payload json.RawMessage `json:"payload"`
} {
	r.t.Helper()
	var out []struct {
		Kind    string          `json:"kind"`
		Payload json.RawMessage `json:"payload"`
	}
	for after := ""; ; {
		var page struct {
			Events []struct {
				Kind    string          `json:"kind"`
				Payload json.RawMessage `json:"payload"`
			} `json:"events"`
			Next string `json:"next"`
		}
		path := r.tb.path("/events?kind=royale&limit=500")
		if after != "" {
			path += "&after=" + url.QueryEscape(after)
		}
		r.must(http.StatusOK, req{method: http.MethodGet, path: path, token: r.tb.Audit}, &page)
		out = append(out, page.Events...)
		if page.Next == "" {
			return out
		}
		after = page.Next
	}
}

// docCard is a card as docs/royale-commitment.md says the game reveals it.
type docCard struct {
	Kind  string   `json:"kind"`
	Cells []string `json:"cells"`
	Bonus int      `json:"bonus"`
}

// docKinds is the order of kinds the page gives.
var docKinds = []string{"patrol-boat", "destroyer", "submarine", "battleship", "carrier"}

// docBoardOrder is a cell's place in board order: by row, A first, then by
// column, compared as numbers.
func docBoardOrder(t testing.TB, cell string) int {
	t.Helper()
	col, err := strconv.Atoi(cell[1:])
	if len(cell) < 2 || cell[0] < 'A' || cell[0] > 'J' || err != nil || col < 1 || col > 10 {
		t.Fatalf("%q is not a cell as the page writes one", cell)
	}
	return int(cell[0]-'A')*10 + col - 1
}

// docCanonical is a fleet's canonical encoding, step by step as the page
// gives it.
func docCanonical(t testing.TB, fleet []docCard) string {
	t.Helper()
	type card struct {
		kind, bonus int
		cells       []int // board order
		line        string
	}
	cards := make([]card, len(fleet))
	for i, c := range fleet {
		k := slices.Index(docKinds, c.Kind)
		if k < 0 {
			t.Fatalf("no kind %q on the page", c.Kind)
		}
		cells := slices.Clone(c.Cells)
		slices.SortFunc(cells, func(a, b string) int { return docBoardOrder(t, a) - docBoardOrder(t, b) })
		cards[i] = card{kind: k, bonus: c.Bonus, line: c.Kind + " " + strconv.Itoa(c.Bonus) + " " + strings.Join(cells, " ") + "\n"}
		for _, x := range cells {
			cards[i].cells = append(cards[i].cells, docBoardOrder(t, x))
		}
	}
	slices.SortFunc(cards, func(a, b card) int {
		if a.kind != b.kind {
			return a.kind - b.kind
		}
		if a.bonus != b.bonus {
			return a.bonus - b.bonus
		}
		return slices.Compare(a.cells, b.cells)
	})
	out := "tally royale fleet v1\n"
	for _, c := range cards {
		out += c.line
	}
	return out
}

// docCommitment is SHA-256 over the page's prefix line, the salt's bytes
// and the fleet's canonical encoding, in lower-case hex.
func docCommitment(t testing.TB, fleet []docCard, salt []byte) string {
	t.Helper()
	h := sha256.Sum256(append(append([]byte("tally royale commitment v1\n"), salt...), docCanonical(t, fleet)...))
	return hex.EncodeToString(h[:])
}

// docExample is one of the page's worked examples.
type docExample struct {
	name                        string
	fleet                       []docCard
	salt, canonical, commitment string
}

// docExamples reads the page's worked examples: under "## Worked examples",
// each "### " section's code blocks are its fleet (JSON), its salt, its
// canonical encoding and its commitment, in that order.
func docExamples(t *testing.T) []docExample {
	t.Helper()
	page, err := os.ReadFile(commitmentDoc)
	if err != nil {
		t.Fatal(err)
	}
	_, worked, ok := strings.Cut(string(page), "\n## Worked examples\n")
	if !ok {
		t.Fatalf("%s has no worked examples", commitmentDoc)
	}
	worked, _, _ = strings.Cut(worked, "\n## ")
	block := regexp.MustCompile("(?s)```(?:json|text)\n(.*?)```")
	var out []docExample
	for _, section := range strings.Split(worked, "\n### ")[1:] {
		name, _, _ := strings.Cut(section, "\n")
		blocks := block.FindAllStringSubmatch(section, -1)
		if len(blocks) != 4 {
			t.Fatalf("%s: example %q has %d code blocks, not 4", commitmentDoc, name, len(blocks))
		}
		ex := docExample{name: name, salt: strings.TrimSpace(blocks[1][1]), canonical: blocks[2][1],
			commitment: strings.TrimSpace(blocks[3][1])}
		if err := json.Unmarshal([]byte(blocks[0][1]), &ex.fleet); err != nil {
			t.Fatalf("%s: example %q's fleet: %v", commitmentDoc, name, err)
		}
		out = append(out, ex)
	}
	return out
}
