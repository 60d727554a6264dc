package stats

import (
	"cmp"
	"slices"
)

// Standing is one line of the season table.
type Standing struct {
	// Rank is the place in the table, from 1. Members level on both money and
	// wins share a rank (1, 2, 2, 4); their order between them is by name,
	// then id, only so that the table always reads the same.
	Rank    int     `json:"rank"`
	Member  Member  `json:"member"`
	Name    string  `json:"name"`
	Nights  int     `json:"nights"`
	Rounds  int     `json:"rounds"`
	Wins    int     `json:"wins"`
	WinRate float64 `json:"winRate"`
	Net     int64   `json:"net"`
}

// season ranks the members by money won over the season, then by wins. A
// member who never played is on the table with nothing, so everyone on
// the crew sees where they stand.
func season(figs []Figures) []Standing {
	out := make([]Standing, len(figs))
	for i, f := range figs {
		out[i] = Standing{Member: f.Member, Name: f.Name, Nights: f.Nights,
			Rounds: f.Rounds, Wins: f.Wins, WinRate: f.WinRate, Net: f.Net}
	}
	slices.SortFunc(out, func(a, b Standing) int {
		if c := level(a, b); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return cmp.Compare(a.Member, b.Member)
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && level(out[i-1], out[i]) == 0 {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// level orders two standings by what ranks them: more money first, then
// more wins.
func level(a, b Standing) int {
	if c := cmp.Compare(b.Net, a.Net); c != 0 {
		return c
	}
	return cmp.Compare(b.Wins, a.Wins)
}
