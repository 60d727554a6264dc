package game

// This file is the per-point payoff of docs/rules.md §6: each other player pays
// the winner the stake times the winner's margin over them.

// perPoint lists the per-point payments of a round won by winners (seat
// indexes, all on the same score). A player without a score counts as 0; in
// a low game, where the margin is measured the other way, a player without
// a score counts as the worst score there is, so that not putting to sea
// never pays less than a poor cargo. Nobody pays on a margin of 0 or less.
//
// Tied winners split each loser's payment: stake × margin is divided equally
// and the leftover units go one each to the tied winners in play order, so a
// loser pays the same as against a single winner.
func perPoint(rs Ruleset, scores []PlayerScore, winners []int) []Payment {
	win := scores[winners[0]].Score
	var out []Payment
	for i, s := range scores {
		if isIn(i, winners) {
			continue
		}
		due := rs.Stake * int64(margin(rs, win, s))
		if due <= 0 {
			continue
		}
		out = append(out, divide(s.Player, due, scores, winners)...)
	}
	return out
}

// margin is how far the winning score is ahead of a player's.
func margin(rs Ruleset, win int, s PlayerScore) int {
	v := s.Score
	if rs.Low {
		if !s.Qualified {
			_, v = scoreRange(rs)
		}
		return v - win
	}
	if !s.Qualified {
		v = 0
	}
	return win - v
}

// divide splits one loser's payment among the winners in whole units.
func divide(from PlayerID, due int64, scores []PlayerScore, winners []int) []Payment {
	out := make([]Payment, 0, len(winners))
	for i, amt := range Shares(due, len(winners)) {
		if amt > 0 {
			out = append(out, Payment{From: from, To: scores[winners[i]].Player, Amount: amt})
		}
	}
	return out
}

func isIn(i int, set []int) bool {
	for _, v := range set {
		if v == i {
			return true
		}
	}
	return false
}
