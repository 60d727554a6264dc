package game

// This file is Scarne's game of rounds (docs/rules.md §4): points accumulate
// round by round (a turn without a score adds 0); the game ends when someone
// reaches the target (that round is completed and the highest total wins)
// or after the set number of rounds. A tie for the win is settled by a
// one-round playoff among the tied players, repeated while they tie. The
// game's winner takes the pot; with per-point payoff each other player pays
// the stake times the winner's margin in total points.

// Total is a player's points in a game of rounds.
type Total struct {
	Player PlayerID `json:"player"`
	Points int64    `json:"total"`
}

// GameResult is a won game of rounds and its money.
type GameResult struct {
	Totals     []Total    `json:"totals"`
	Winner     PlayerID   `json:"winner"`
	Settlement Settlement `json:"settlement"`
}

// recordScarne adds a round of a game of rounds to the totals, or settles a
// playoff, and ends the game when it is won.
func (g *Game) recordScarne(s RoundSetup, res Result) {
	if s.Playoff {
		// Playoff scores decide the tie only; they are not added to totals.
		g.playoff = nil
		tied := bestScorers(res.Scores)
		if len(tied) == 1 {
			g.over, g.winner = true, tied[0]
		} else {
			g.playoff = tied
		}
		return
	}
	for _, sc := range res.Scores {
		g.totals[g.seatOf(sc.Player)] += int64(sc.Score)
	}
	g.rounds++
	g.first = nextFirst(g.rs, g.seats, g.first, res)
	// The pot of a game of rounds is made once, before the first round.
	g.ante = false
	var top []PlayerID
	var high int64
	for _, p := range playOrder(g.seats, g.first) {
		switch v := g.totals[g.seatOf(p)]; {
		case len(top) == 0 || v > high:
			top, high = []PlayerID{p}, v
		case v == high:
			top = append(top, p)
		}
	}
	ended := g.rounds >= g.rs.Goal.Target
	if g.rs.Goal.Kind == GoalPoints {
		ended = high >= int64(g.rs.Goal.Target)
	}
	switch {
	case !ended:
	case len(top) == 1:
		g.over, g.winner = true, top[0]
	default:
		g.playoff = top
	}
}

// bestScorers lists the players with the highest score of a round, a turn
// without a score counting 0.
func bestScorers(scores []PlayerScore) []PlayerID {
	var out []PlayerID
	high := -1
	for _, s := range scores {
		switch {
		case s.Score > high:
			out, high = []PlayerID{s.Player}, s.Score
		case s.Score == high:
			out = append(out, s.Player)
		}
	}
	return out
}

// Totals are the points of a game of rounds, in seat order.
func (g *Game) Totals() []Total {
	out := make([]Total, len(g.seats))
	for i, p := range g.seats {
		out[i] = Total{p, g.totals[i]}
	}
	return out
}

// Result is the game's result once a game of rounds is won: the pot to the
// winner and, with per-point payoff, payments by total margins.
func (g *Game) Result() (GameResult, bool) {
	if !g.over {
		return GameResult{}, false
	}
	res := GameResult{Totals: g.Totals(), Winner: g.winner}
	st := &res.Settlement
	st.PotBefore = g.pot
	if g.pot > 0 {
		st.Payouts = []Amount{{g.winner, g.pot}}
	}
	if g.rs.Payoff == PayoffPerPoint {
		win := g.totals[g.seatOf(g.winner)]
		for _, t := range res.Totals {
			if m := win - t.Points; m > 0 && t.Player != g.winner {
				st.PerPoint = append(st.PerPoint, Payment{From: t.Player, To: g.winner, Amount: g.rs.Stake * m})
			}
		}
	}
	res.Settlement.fill()
	return res, true
}

func (g *Game) seatOf(player PlayerID) int {
	for i, p := range g.seats {
		if p == player {
			return i
		}
	}
	return -1
}
