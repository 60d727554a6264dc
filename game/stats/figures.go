package stats

import (
	"cmp"
	"slices"
	"time"
)

// Figures are one member's lifetime figures with the crew.
type Figures struct {
	Member Member `json:"member"`
	Name   string `json:"name"`
	// Nights counts the nights the member played: sat in at least one round
	// or closed the night with a balance.
	Nights int `json:"nights"`
	// Rounds counts the rounds the member had a score in, whatever the
	// score: no score and a turn forfeited to an automatic count too.
	Rounds int `json:"rounds"`
	// Wins counts the rounds the member won. A split is a win for each of
	// its winners; a carried tie, a playoff call, a refund and a round of
	// Scarne's game of rounds (which only scores) are no one's win.
	Wins int `json:"wins"`
	// WinRate is Wins over Rounds, 0 before the first round.
	WinRate float64 `json:"winRate"`
	// Presets are the rounds and wins under each ruleset preset, by name.
	Presets []PresetRecord `json:"presets"`
	// Scores is how often the member made each qualified score, lowest
	// first; an automatic counts as the score of its dice.
	Scores []ScoreCount `json:"scores"`
	// NoScore counts turns that did not complete the sequence (did not put to
	// sea); Forfeited counts turns never thrown because an automatic ended the
	// round first. Rounds = NoScore + Forfeited + the counts of Scores.
	NoScore   int `json:"noScore"`
	Forfeited int `json:"forfeited"`
	// Automatics counts the member's scores marked automatic (the engine
	// marks the automatic that ended a round).
	Automatics int `json:"automatics"`
	// BiggestPot is the most the member took out of one pot in a round they
	// won (a refund of a round nobody won is not a pot taken).
	BiggestPot int64 `json:"biggestPot"`
	// NetByNight is the member's money night by night, in the order the
	// nights were played, one point per night played: for a plot.
	NetByNight []NetPoint `json:"netByNight"`
	// Net is the member's money over all nights: the sum of Night.Net.
	Net int64 `json:"net"`
	// Rivals is the member's head-to-head against each member met in at
	// least one round, in roster order.
	Rivals []Rival `json:"rivals"`
}

// PresetRecord is a member's rounds and wins under one preset.
type PresetRecord struct {
	Preset  string  `json:"preset"`
	Rounds  int     `json:"rounds"`
	Wins    int     `json:"wins"`
	WinRate float64 `json:"winRate"`
}

// ScoreCount is how many rounds a member finished on one qualified score.
type ScoreCount struct {
	Score  int `json:"score"`
	Rounds int `json:"rounds"`
}

// NetPoint is a member's money after one night: that night's balance and
// the running total up to and including it.
type NetPoint struct {
	Table  int64     `json:"table"`
	Night  string    `json:"night"`
	Played time.Time `json:"played"`
	Net    int64     `json:"net"`
	Total  int64     `json:"total"`
}

// tally gathers one member's figures round by round.
type tally struct {
	Figures
	presets map[string]*PresetRecord
	scores  map[int]int
}

// figures computes every member's figures from the nights in order.
func figures(people []Person, nights []Night) []Figures {
	ts := make([]tally, len(people))
	at := make(map[Member]int, len(people))
	for i, p := range people {
		ts[i] = tally{Figures: Figures{Member: p.ID, Name: p.Name}, presets: map[string]*PresetRecord{}, scores: map[int]int{}}
		at[p.ID] = i
	}
	for _, n := range nights {
		played := map[Member]bool{}
		for m := range n.Net {
			played[m] = true
		}
		for _, r := range n.Rounds {
			for _, s := range r.Scores {
				played[s.Member] = true
				ts[at[s.Member]].round(n.Preset, r, s)
			}
		}
		for i := range ts {
			if played[ts[i].Member] {
				ts[i].night(n)
			}
		}
	}
	out := make([]Figures, len(ts))
	for i := range ts {
		out[i] = ts[i].finish()
	}
	rivalries(out, at, nights)
	return out
}

// round counts one round the member played.
func (t *tally) round(preset string, r Round, s Score) {
	won := slices.Contains(r.Winners, s.Member)
	t.Rounds++
	p := t.presets[preset]
	if p == nil {
		p = &PresetRecord{Preset: preset}
		t.presets[preset] = p
	}
	p.Rounds++
	switch {
	case s.Qualified:
		t.scores[s.Score]++
	case s.Forfeited:
		t.Forfeited++
	default:
		t.NoScore++
	}
	if s.Automatic {
		t.Automatics++
	}
	if !won {
		return
	}
	t.Wins++
	p.Wins++
	t.BiggestPot = max(t.BiggestPot, r.Payouts[s.Member])
}

// night adds one night the member played to the money series.
func (t *tally) night(n Night) {
	net := n.Net[t.Member]
	t.Nights++
	t.Net += net
	t.NetByNight = append(t.NetByNight, NetPoint{Table: n.Table, Night: n.Name, Played: n.Played, Net: net, Total: t.Net})
}

// finish turns the counts into the figures: rates, and lists in a fixed
// order, empty rather than nil.
func (t *tally) finish() Figures {
	f := t.Figures
	f.WinRate = rate(f.Wins, f.Rounds)
	f.Presets = make([]PresetRecord, 0, len(t.presets))
	for _, p := range t.presets {
		p.WinRate = rate(p.Wins, p.Rounds)
		f.Presets = append(f.Presets, *p)
	}
	slices.SortFunc(f.Presets, func(a, b PresetRecord) int { return cmp.Compare(a.Preset, b.Preset) })
	f.Scores = make([]ScoreCount, 0, len(t.scores))
	for s, n := range t.scores {
		f.Scores = append(f.Scores, ScoreCount{Score: s, Rounds: n})
	}
	slices.SortFunc(f.Scores, func(a, b ScoreCount) int { return cmp.Compare(a.Score, b.Score) })
	if f.NetByNight == nil {
		f.NetByNight = []NetPoint{}
	}
	return f
}
