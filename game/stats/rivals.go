package stats

import "slices"

// Rival is a member's head-to-head record against one other member, over
// the rounds both played. In each such round one of the two beat the other,
// or it was even:
//
//   - a member who won the round beat one who did not;
//   - otherwise (neither won, or both shared a split) a qualified score beat
//     no score, and of two qualified scores the better one won: the higher,
//     or the lower at a low table;
//   - otherwise it was even: equal scores, neither scored, or both forfeited.
//
// So Won + Lost + Even = Rounds, and a's Won against b is b's Lost against a.
type Rival struct {
	Opponent Member `json:"opponent"`
	Name     string `json:"name"`
	Rounds   int    `json:"rounds"`
	Won      int    `json:"won"`
	Lost     int    `json:"lost"`
	Even     int    `json:"even"`
}

// rivalries fills in each member's head-to-head records.
func rivalries(figs []Figures, at map[Member]int, nights []Night) {
	n := len(figs)
	grid := make([]Rival, n*n) // grid[i*n+j] is i's record against j
	for _, night := range nights {
		for _, r := range night.Rounds {
			for x, a := range r.Scores {
				for _, b := range r.Scores[x+1:] {
					i, j := at[a.Member], at[b.Member]
					if i == j {
						continue
					}
					ij, ji := &grid[i*n+j], &grid[j*n+i]
					ij.Rounds++
					ji.Rounds++
					switch beat(r, a, b, night.Low) {
					case 1:
						ij.Won++
						ji.Lost++
					case -1:
						ij.Lost++
						ji.Won++
					default:
						ij.Even++
						ji.Even++
					}
				}
			}
		}
	}
	for i := range figs {
		figs[i].Rivals = []Rival{}
		for j := range figs {
			if rv := grid[i*n+j]; rv.Rounds > 0 {
				rv.Opponent, rv.Name = figs[j].Member, figs[j].Name
				figs[i].Rivals = append(figs[i].Rivals, rv)
			}
		}
	}
}

// beat is 1 when a beat b in round r, -1 when b beat a, and 0 when it was
// even (see Rival).
func beat(r Round, a, b Score, low bool) int {
	aw, bw := slices.Contains(r.Winners, a.Member), slices.Contains(r.Winners, b.Member)
	switch {
	case aw && !bw:
		return 1
	case bw && !aw:
		return -1
	case a.Qualified && !b.Qualified:
		return 1
	case b.Qualified && !a.Qualified:
		return -1
	case !a.Qualified || a.Score == b.Score:
		return 0
	case (a.Score > b.Score) != low:
		return 1
	}
	return -1
}
