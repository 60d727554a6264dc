package api

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/tally-dice/tally/game/royale"
)

// royaleScene is a Battleship Royale table with a phone for each player.
type royaleScene struct {
	*scene
	names  []string
	tokens map[string]string // by player name
}

// newRoyale makes a Royale table of players names with opts, and joins a
// phone for each.
func newRoyale(t *testing.T, opts map[string]any, names ...string) *royaleScene {
	t.Helper()
	s := newScene(t, map[string]any{"name": "Royale night", "game": "royale", "royale": opts, "players": names})
	r := &royaleScene{scene: s, names: names, tokens: map[string]string{}}
	for _, n := range names {
		r.tokens[n] = s.join(n)
	}
	return r
}

// gameView is a game as the API shows it.
type gameView struct {
	Number      int                      `json:"number"`
	Actions     int                      `json:"actions"`
	Phase       string                   `json:"phase"`
	Turn        int64                    `json:"turn"`
	Die         int                      `json:"die"`
	ShotsLeft   int                      `json:"shotsLeft"`
	CanSonar    bool                     `json:"canSonar"`
	Pot         int64                    `json:"pot"`
	Players     []royalePlayer           `json:"players"`
	Board       []royale.Peg             `json:"board"`
	SunkCards   []royale.Sinking         `json:"sunkCards"`
	Sonar       []royale.SonarCall       `json:"sonar"`
	Commitments map[string]string        `json:"commitments"`
	Result      *royale.Result           `json:"result"`
	Hand        royale.Fleet             `json:"hand"`
	Fleet       []royale.FleetCard       `json:"fleet"`
	Salt        []byte                   `json:"salt"`
	Revealed    []royale.Revealed        `json:"revealed"`
	Held        []struct{ Player int64 } `json:"held"`
}

// royalePlayer is a player as a game shows them.
type royalePlayer struct {
	Player     int64           `json:"player"`
	Ready      bool            `json:"ready"`
	Afloat     int             `json:"afloat"`
	Eliminated bool            `json:"eliminated"`
	BonusShots int             `json:"bonusShots"`
	Sonars     int             `json:"sonars"`
	Trophies   []royale.Trophy `json:"trophies"`
}

// player is player id as the game shows them.
func (v gameView) player(id int64) royalePlayer {
	for _, p := range v.Players {
		if p.Player == id {
			return p
		}
	}
	return royalePlayer{}
}

// shot reports whether cell was shot.
func (v gameView) shot(cell string) bool {
	return slices.ContainsFunc(v.Board, func(p royale.Peg) bool { return p.Cell.String() == cell })
}

func (r *royaleScene) start(body any) gameView {
	r.t.Helper()
	var v gameView
	r.must(http.StatusCreated, req{method: http.MethodPost, path: r.tb.path("/royale"), token: r.tb.Host, body: body}, &v)
	return v
}

func (r *royaleScene) view(token string, n int) gameView {
	r.t.Helper()
	var v gameView
	r.must(http.StatusOK, req{method: http.MethodGet, path: r.tb.path("/royale/%d", n), token: token}, &v)
	return v
}

func (r *royaleScene) act(token string, n int, body map[string]any) gameView {
	r.t.Helper()
	var v gameView
	r.must(http.StatusOK, req{method: http.MethodPost, path: r.tb.path("/royale/%d/actions", n), token: token, body: body}, &v)
	return v
}

// name is the name of player id.
func (r *royaleScene) name(id int64) string {
	for n, p := range r.tb.Players {
		if p == id {
			return n
		}
	}
	r.t.Fatalf("no player %d", id)
	return ""
}

// keepAll has every player keep their hand but its last two cards (the
// advanced game's submarine is dealt first).
func (r *royaleScene) keepAll(n int) gameView {
	r.t.Helper()
	var v gameView
	for _, name := range r.names {
		hand := r.view(r.tokens[name], n).Hand
		v = r.act(r.tokens[name], n, map[string]any{"kind": "keep", "discard": []int{len(hand) - 2, len(hand) - 1}})
	}
	return v
}

// targets are the cells still afloat of every fleet but the shooter's, as
// their owners' phones show them, then every other cell not shot yet: a
// player who knew where the ships are would shoot them first.
func (r *royaleScene) targets(n int, shooter string) []string {
	r.t.Helper()
	board := r.view(r.tb.Host, n)
	var out []string
	for _, name := range r.names {
		if name == shooter {
			continue
		}
		for _, c := range r.view(r.tokens[name], n).Fleet {
			for _, x := range c.Cells {
				if s := x.String(); !board.shot(s) && !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	for row := range royale.Size {
		for col := range royale.Size {
			if s := (royale.Cell{Row: row, Col: col}).String(); !board.shot(s) && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// play plays game n to its end: each turn the player rolls (the real die
// cycles 1, 2, 3), shoots the cells afloat of the others, uses every bonus
// shot and ends the turn; in the advanced game they sonar a row first
// whenever they may. It returns the game as the host sees it at the end.
func (r *royaleScene) play(n int, advanced, tallyDie bool) gameView {
	r.t.Helper()
	for turn := 0; ; turn++ {
		if turn > 400 {
			r.t.Fatal("the game did not end in 400 turns")
		}
		v := r.view(r.tb.Host, n)
		if v.Phase == "over" {
			return v
		}
		name := r.name(v.Turn)
		tok := r.tokens[name]
		if advanced && v.CanSonar {
			line := r.targets(n, name)[0][:1]
			r.act(tok, n, map[string]any{"kind": "sonar", "line": line})
		}
		roll := map[string]any{"kind": "roll", "die": turn%3 + 1}
		if tallyDie {
			roll = map[string]any{"kind": "roll"}
		}
		v = r.act(tok, n, roll)
		for v.Phase == "playing" && v.Turn == r.tb.Players[name] && v.ShotsLeft > 0 {
			t := r.targets(n, name)
			if advanced {
				v = r.act(tok, n, map[string]any{"kind": "shoot", "cells": t[:min(v.ShotsLeft, len(t))]})
			} else {
				v = r.act(tok, n, map[string]any{"kind": "shoot", "cells": t[:1]})
			}
		}
		for v.Phase == "playing" && v.Turn == r.tb.Players[name] {
			me := v.player(r.tb.Players[name])
			if me.BonusShots == 0 {
				v = r.act(tok, n, map[string]any{"kind": "end"})
				break
			}
			t := r.targets(n, name)
			if !advanced {
				v = r.act(tok, n, map[string]any{"kind": "bonus", "cells": t[:1]})
				continue
			}
			for i, tr := range me.Trophies {
				if !tr.Used && tr.Shots > 0 {
					v = r.act(tok, n, map[string]any{"kind": "bonus", "card": i + 1, "cells": t[:min(tr.Shots, len(t))]})
					break
				}
			}
		}
	}
}

// checkEnd checks a finished game: one winner, the last afloat, or players
// tied; every revealed fleet opens the commitment published for it; the
// money adds up; the audit passes, with the game replayed.
func (r *royaleScene) checkEnd(end gameView) {
	r.t.Helper()
	if end.Result == nil || len(end.Result.Winners) == 0 {
		r.t.Fatalf("no winner: %+v", end.Result)
	}
	afloat := 0
	for _, p := range end.Players {
		if !p.Eliminated {
			afloat++
			if int64(end.Result.Winners[0]) != p.Player || len(end.Result.Winners) != 1 {
				r.t.Errorf("player %d is afloat but the winners are %v", p.Player, end.Result.Winners)
			}
		}
	}
	if afloat > 1 {
		r.t.Errorf("%d players afloat at the end", afloat)
	}
	if len(end.Revealed) != len(r.names) {
		r.t.Fatalf("%d fleets revealed, want %d", len(end.Revealed), len(r.names))
	}
	for _, f := range end.Revealed {
		h, err := hex.DecodeString(end.Commitments[fmt.Sprint(f.Player)])
		if err != nil || len(h) != 32 || !royale.Opens([32]byte(h), f.Fleet, f.Salt) {
			r.t.Errorf("player %d's revealed fleet does not open its commitment %q", f.Player, end.Commitments[fmt.Sprint(f.Player)])
		}
	}
	b := r.balances()
	var sum int64
	for _, p := range b.Players {
		sum += p.Balance
	}
	if sum+b.Pot != 0 || b.Pot != end.Result.Settlement.CarryOver {
		r.t.Errorf("balances %+v do not add up with the pot %d (carry %d)", b, b.Pot, end.Result.Settlement.CarryOver)
	}
	var rep struct {
		OK    bool `json:"ok"`
		Games []struct {
			Number int    `json:"number"`
			OK     bool   `json:"ok"`
			Detail string `json:"detail"`
		} `json:"games"`
		Problems []string `json:"problems"`
	}
	r.must(http.StatusOK, req{method: http.MethodGet, path: r.tb.path("/audit"), token: r.tb.Audit}, &rep)
	if !rep.OK || len(rep.Games) == 0 || !rep.Games[len(rep.Games)-1].OK {
		r.t.Fatalf("audit: %+v", rep)
	}
}
