package stats

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/tally-dice/tally/game"
)

// randomHistory is a crew of one to six members and up to five nights, some
// closed at the same moment, in which random members play random rounds:
// scores, no scores, forfeits, splits, carried ties and throws of any size.
// Some members never play; the nights' balances are arbitrary.
func randomHistory(rng *rand.Rand) History {
	var h History
	for m := range 1 + rng.IntN(6) {
		h.Members = append(h.Members, Person{ID: Member(10 * (m + 1)), Name: string(rune('A' + rng.IntN(3)))})
	}
	start := time.Date(2026, 1, 1, 23, 0, 0, 0, time.UTC)
	for n := range rng.IntN(6) {
		night := Night{Table: int64(100 - n), Played: start.Add(time.Duration(rng.IntN(3)) * 24 * time.Hour),
			Preset: []string{"bar", "classic", "scarne"}[rng.IntN(3)], Low: rng.IntN(4) == 0, Net: map[Member]int64{}}
		var seated []Member
		for _, p := range h.Members {
			if rng.IntN(3) > 0 {
				seated = append(seated, p.ID)
				night.Net[p.ID] = rng.Int64N(41) - 20
			}
		}
		for r := range rng.IntN(7) {
			if len(seated) > 0 {
				night.Rounds = append(night.Rounds, randomRound(rng, r+1, seated))
			}
		}
		h.Nights = append(h.Nights, night)
	}
	return h
}

// randomRound is a round among some of seated: random results, the best
// qualified score winning, shared best scores split or carried.
func randomRound(rng *rand.Rand, number int, seated []Member) Round {
	r := Round{Number: number, Kind: game.ResultNoQualify, Pot: int64(len(seated)), Payouts: map[Member]int64{}}
	best := -1
	for _, m := range seated {
		if rng.IntN(4) == 0 {
			continue // sits this one out
		}
		s := Score{Member: m}
		switch rng.IntN(5) {
		case 0:
			s.Forfeited = true
		case 1:
		default:
			s.Qualified, s.Score = true, 2+rng.IntN(11)
		}
		r.Scores = append(r.Scores, s)
		for range 1 + rng.IntN(3) {
			faces := make([]int, rng.IntN(6))
			for i := range faces {
				faces[i] = 1 + rng.IntN(6)
			}
			r.Throws = append(r.Throws, Throw{Member: m, Faces: faces})
		}
		switch {
		case !s.Qualified:
		case s.Score > best:
			best, r.Winners = s.Score, []Member{m}
		case s.Score == best:
			r.Winners = append(r.Winners, m)
		}
	}
	switch {
	case len(r.Winners) == 1:
		r.Kind = game.ResultWin
	case len(r.Winners) > 1 && rng.IntN(2) == 0:
		r.Kind = game.ResultTie
		r.Winners = nil
	case len(r.Winners) > 1:
		r.Kind = game.ResultSplit
	}
	for _, w := range r.Winners {
		r.Payouts[w] = r.Pot / int64(len(r.Winners))
	}
	return r
}

// TestProperties checks what must hold of any history: the dice counted are
// the faces thrown, the season's money is the nights' money, head to head
// is the same record from both sides, each member's rounds are accounted
// for, and the report does not depend on the order of the nights.
func TestProperties(t *testing.T) {
	t.Parallel()
	for seed := range uint64(500) {
		rng := rand.New(rand.NewPCG(seed, 14))
		h := randomHistory(rng)
		rep, err := Compute(h)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkDice(t, seed, h, rep)
		checkMoney(t, seed, h, rep)
		checkRivals(t, seed, rep)
		checkRounds(t, seed, rep)
		rng.Shuffle(len(h.Nights), func(i, j int) { h.Nights[i], h.Nights[j] = h.Nights[j], h.Nights[i] })
		again, _ := Compute(h)
		if !reflect.DeepEqual(rep, again) {
			t.Errorf("seed %d: the report changed with the order of the nights", seed)
		}
		if _, err := json.Marshal(rep); err != nil {
			t.Errorf("seed %d: the report does not encode: %v", seed, err)
		}
	}
}

// checkDice: each member's counts sum to the faces they threw, and the
// table's counts are the members' counts added up.
func checkDice(t *testing.T, seed uint64, h History, rep Report) {
	thrown := map[Member]int{}
	for _, n := range h.Nights {
		for _, r := range n.Rounds {
			for _, th := range r.Throws {
				thrown[th.Member] += len(th.Faces)
			}
		}
	}
	var sum Faces
	for _, c := range rep.Dice.Members {
		if c.Throws != thrown[c.Member] || c.Faces.Total() != c.Throws {
			t.Errorf("seed %d, member %d: %d throws counting %v, but %d faces thrown", seed, c.Member, c.Throws, c.Faces, thrown[c.Member])
		}
		for i, n := range c.Faces {
			sum[i] += n
		}
	}
	if rep.Dice.Table.Faces != sum || rep.Dice.Table.Throws != sum.Total() {
		t.Errorf("seed %d: the table counts %v, the members %v", seed, rep.Dice.Table.Faces, sum)
	}
}

// checkMoney: the season table's money is the nights' money, best first, and
// each member's series ends on their total.
func checkMoney(t *testing.T, seed uint64, h History, rep Report) {
	var nights, season int64
	for _, n := range h.Nights {
		for _, v := range n.Net {
			nights += v
		}
	}
	for i, s := range rep.Season {
		season += s.Net
		if i > 0 && (level(rep.Season[i-1], s) > 0 || s.Rank < rep.Season[i-1].Rank) {
			t.Errorf("seed %d: the season table is out of order at %d: %+v", seed, i, rep.Season)
		}
	}
	if season != nights {
		t.Errorf("seed %d: the season table sums to %d, the nights to %d", seed, season, nights)
	}
	for _, f := range rep.Members {
		last := int64(0)
		if len(f.NetByNight) > 0 {
			last = f.NetByNight[len(f.NetByNight)-1].Total
		}
		if len(f.NetByNight) != f.Nights || last != f.Net {
			t.Errorf("seed %d, member %d: %d nights, series %+v, net %d", seed, f.Member, f.Nights, f.NetByNight, f.Net)
		}
	}
}

// checkRivals: a's record against b is b's against a, turned round.
func checkRivals(t *testing.T, seed uint64, rep Report) {
	record := map[[2]Member]Rival{}
	for _, f := range rep.Members {
		for _, rv := range f.Rivals {
			record[[2]Member{f.Member, rv.Opponent}] = rv
			if rv.Won+rv.Lost+rv.Even != rv.Rounds || rv.Rounds == 0 || rv.Opponent == f.Member {
				t.Errorf("seed %d, member %d: %+v", seed, f.Member, rv)
			}
		}
	}
	for k, ab := range record {
		ba := record[[2]Member{k[1], k[0]}]
		if ab.Won != ba.Lost || ab.Lost != ba.Won || ab.Even != ba.Even || ab.Rounds != ba.Rounds {
			t.Errorf("seed %d: %d v %d is %+v, but %d v %d is %+v", seed, k[0], k[1], ab, k[1], k[0], ba)
		}
	}
}

// checkRounds: every round a member played is a score, a no score or a
// forfeit, under one preset, and won at most once.
func checkRounds(t *testing.T, seed uint64, rep Report) {
	for _, f := range rep.Members {
		scored := 0
		for _, s := range f.Scores {
			scored += s.Rounds
		}
		var rounds, wins int
		for _, p := range f.Presets {
			rounds, wins = rounds+p.Rounds, wins+p.Wins
		}
		if scored+f.NoScore+f.Forfeited != f.Rounds || rounds != f.Rounds || wins != f.Wins || f.Wins > f.Rounds ||
			!slices.IsSortedFunc(f.Scores, func(a, b ScoreCount) int { return a.Score - b.Score }) {
			t.Errorf("seed %d: %+v", seed, f)
		}
	}
}
