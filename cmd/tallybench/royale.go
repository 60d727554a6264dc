package main

import (
	"context"
	"fmt"
	mrand "math/rand/v2"
	"net/http"
	"sync/atomic"
	"time"
)

// playGames is playRounds for Battleship Royale (--game royale): each
// client at a table of its own plays advanced games of four players
// without phones, whose dealt fleets the host holds and keeps, turn by
// turn: the real die's value, the volley at random cells nobody has shot,
// every bonus volley, the end of the turn. A turn counts when it ends, a
// game when it has a winner; every write is a request.
func playGames(ctx context.Context, e *env, clients int, warmup, d time.Duration) (loadResult, error) {
	table := map[string]any{"game": "royale", "royale": map[string]any{"mode": "advanced", "ante": 1, "bounty": 1},
		"players": []string{"Ann", "Bob", "Cy", "Dee"}}
	res, err := drive(ctx, e, clients, warmup, d, table, func(t *benchTable, rng *mrand.Rand, phase *atomic.Int32, res *loadResult) {
		t.playGame(ctx, rng, phase, res)
	})
	res.Games = true
	return res, err
}

// gameState is what the benchmark reads of a game's answer.
type gameState struct {
	Number    int    `json:"number"`
	Phase     string `json:"phase"`
	Turn      int64  `json:"turn"`
	ShotsLeft int    `json:"shotsLeft"`
	Players   []struct {
		Player   int64 `json:"player"`
		Ready    bool  `json:"ready"`
		Trophies []struct {
			Shots int  `json:"shots"`
			Used  bool `json:"used"`
		} `json:"trophies"`
	} `json:"players"`
	Board []struct {
		Cell string `json:"cell"`
	} `json:"board"`
}

// playGame plays one game to its end; a refused or failed request abandons
// it (the host abandons it at the start of the next).
func (t *benchTable) playGame(ctx context.Context, rng *mrand.Rand, phase *atomic.Int32, res *loadResult) {
	var g gameState
	if !t.timed(ctx, phase, res, "POST /royale", fmt.Sprintf("/v1/tables/%d/royale", t.id), nil, &g) {
		t.abandon(ctx)
		return
	}
	act := func(endpoint string, body map[string]any) bool {
		return t.timedAs(ctx, phase, res, http.StatusOK, endpoint, fmt.Sprintf("/v1/tables/%d/royale/%d/actions", t.id, g.Number), body, &g)
	}
	for _, p := range g.Players {
		if !act("POST hold", map[string]any{"player": p.Player, "kind": "hold"}) ||
			!act("POST keep", map[string]any{"player": p.Player, "kind": "keep", "discard": []int{3, 4}}) {
			return
		}
	}
	for g.Phase == "playing" && phase.Load() != stopped {
		who := g.Turn
		if !act("POST roll", map[string]any{"player": who, "kind": "roll", "die": 1 + rng.IntN(3)}) ||
			!act("POST shoot", map[string]any{"player": who, "kind": "shoot", "cells": randomCells(rng, g, g.ShotsLeft)}) {
			return
		}
		for card := bonusCard(g, who); card > 0 && g.Phase == "playing" && g.Turn == who; card = bonusCard(g, who) {
			n := g.Players[slotOf(g, who)].Trophies[card-1].Shots
			if !act("POST bonus", map[string]any{"player": who, "kind": "bonus", "card": card, "cells": randomCells(rng, g, n)}) {
				return
			}
		}
		if g.Phase == "playing" && g.Turn == who && !act("POST end", map[string]any{"player": who, "kind": "end"}) {
			return
		}
		if phase.Load() == counting {
			res.Turns++
		}
	}
	if g.Phase == "over" && phase.Load() == counting {
		res.Rounds++
	}
}

// abandon ends a game left open by a failed request, so the next starts.
func (t *benchTable) abandon(ctx context.Context) {
	var tbl struct {
		Royale struct {
			Current int `json:"currentGame"`
		} `json:"royale"`
	}
	if t.get(ctx, fmt.Sprintf("/v1/tables/%d", t.id), &tbl) == nil && tbl.Royale.Current > 0 {
		_, _, _ = t.post(ctx, fmt.Sprintf("/v1/tables/%d/royale/%d/abandon", t.id, tbl.Royale.Current), nil, nil)
	}
}

// randomCells are n distinct cells nobody has shot (fewer if fewer are left).
func randomCells(rng *mrand.Rand, g gameState, n int) []string {
	shot := map[string]bool{}
	for _, p := range g.Board {
		shot[p.Cell] = true
	}
	var free []string
	for r := 'A'; r <= 'J'; r++ {
		for c := 1; c <= 10; c++ {
			if cell := fmt.Sprintf("%c%d", r, c); !shot[cell] {
				free = append(free, cell)
			}
		}
	}
	rng.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	return free[:min(n, len(free))]
}

// bonusCard is the number of a trophy of who's that still gives shots, 0
// for none.
func bonusCard(g gameState, who int64) int {
	i := slotOf(g, who)
	if i < 0 {
		return 0
	}
	for k, tr := range g.Players[i].Trophies {
		if !tr.Used && tr.Shots > 0 {
			return k + 1
		}
	}
	return 0
}

func slotOf(g gameState, who int64) int {
	for i, p := range g.Players {
		if p.Player == who {
			return i
		}
	}
	return -1
}
