package stats

import (
	"cmp"
	"slices"
)

// Report is a crew's figures: each member's lifetime, the season table and
// the fairness of everyone's dice. It holds no NaN or infinity, so it always
// encodes as JSON.
type Report struct {
	// Nights and Rounds count the crew's nights and the rounds played in them.
	Nights int `json:"nights"`
	Rounds int `json:"rounds"`
	// Members are the lifetime figures, one per member in roster order
	// (History.Members, then unlisted members by id).
	Members []Figures `json:"members"`
	// Season is the season table, best first.
	Season []Standing `json:"season"`
	// Dice is the fairness of each member's dice and of the table's.
	Dice Fairness `json:"dice"`
}

// Compute works out a crew's figures from its history. It is deterministic:
// the same history gives the same report, whatever the order of its nights
// or of its maps. It fails only with ErrBadHistory.
func Compute(h History) (Report, error) {
	if err := h.check(); err != nil {
		return Report{}, err
	}
	nights := inOrder(h.Nights)
	people := roster(h.Members, nights)
	figs := figures(people, nights)
	rep := Report{
		Nights:  len(nights),
		Members: figs,
		Season:  season(figs),
		Dice:    fairness(people, nights),
	}
	for _, n := range nights {
		rep.Rounds += len(n.Rounds)
	}
	return rep, nil
}

// inOrder is the nights in the order they were played: by closing time, then
// by table id, so that nights closed at the same moment still have one order.
func inOrder(nights []Night) []Night {
	out := slices.Clone(nights)
	slices.SortStableFunc(out, func(a, b Night) int {
		if c := a.Played.Compare(b.Played); c != 0 {
			return c
		}
		return cmp.Compare(a.Table, b.Table)
	})
	return out
}

// roster is the listed members followed by anyone who appears in the nights
// without being listed, by id.
func roster(listed []Person, nights []Night) []Person {
	out := slices.Clone(listed)
	known := map[Member]bool{}
	for _, p := range listed {
		known[p.ID] = true
	}
	var extra []Member
	add := func(m Member) {
		if !known[m] {
			known[m] = true
			extra = append(extra, m)
		}
	}
	for _, n := range nights {
		for m := range n.Net {
			add(m)
		}
		for _, r := range n.Rounds {
			for _, s := range r.Scores {
				add(s.Member)
			}
			for _, t := range r.Throws {
				add(t.Member)
			}
		}
	}
	slices.Sort(extra)
	for _, m := range extra {
		out = append(out, Person{ID: m})
	}
	return out
}

// rate is part of whole as a fraction, 0 when whole is 0 (never NaN).
func rate(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return float64(part) / float64(whole)
}
