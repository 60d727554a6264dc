package table

import (
	"context"
	"fmt"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/stats"
)

// This file feeds a crew's figures (package game/stats) from its closed
// nights: every round replayed through the engine, as the audit replays
// it, and only what every phone at the table has seen. An open night is
// left out (its closed rolls are still under the cup), a reversed round
// too, and an action taken back is no throw.

// CrewStats reads a crew's lifetime figures, season table and dice
// fairness; any member, the crew's host or its auditor may.
func (s *Service) CrewStats(ctx context.Context, a Auth) (stats.Report, error) {
	var nights []db.CrewNight
	var books []nightHistory
	r, _, err := s.read(ctx, a, readPlan{
		history: func(b *db.Batch) { b.CrewNightList(a.TableID, &nights) },
		then:    func(b *db.Batch, _ *reading) { books = queueNights(b, nightIDs(nights), true) }})
	if err != nil {
		return stats.Report{}, err
	}
	if r.row.Game != db.GameCrew {
		return stats.Report{}, fmt.Errorf("%w: table %d is not a crew", ErrNotFound, a.TableID)
	}
	h := stats.History{}
	for _, p := range r.Players {
		h.Members = append(h.Members, stats.Person{ID: stats.Member(p.ID), Name: p.Name})
	}
	for _, b := range books {
		if b.row.Status != db.TableClosed || b.row.Crew != r.row.ID {
			continue
		}
		n, err := b.night()
		if err != nil {
			return stats.Report{}, err
		}
		h.Nights = append(h.Nights, n)
	}
	rep, err := stats.Compute(h)
	if err != nil {
		return stats.Report{}, fmt.Errorf("%w: %w", ErrHistoryBroken, err)
	}
	return rep, nil
}

// night replays a closed night's rounds and names its players by the crew
// members they are.
func (b nightHistory) night() (stats.Night, error) {
	member := map[game.PlayerID]stats.Member{}
	for p, m := range b.members() {
		member[p] = stats.Member(m)
	}
	n := stats.Night{Table: b.row.ID, Name: b.row.Name, Preset: b.row.Rules.Preset, Low: b.row.Rules.Low,
		Net: map[stats.Member]int64{}}
	if b.row.ClosedAt != nil {
		n.Played = *b.row.ClosedAt
	}
	// What each member took home is what rolled into the crew.
	e, err := b.entry()
	if err != nil {
		return stats.Night{}, err
	}
	for _, l := range e.Lines {
		if l.Account.Kind == db.AccountPlayer {
			n.Net[stats.Member(l.Account.Player)] += l.Amount
		}
	}
	st := &diceState{rules: b.row.Rules}
	if err := st.replayAll(b.rounds, b.actions); err != nil {
		return stats.Night{}, err
	}
	for _, pr := range st.rounds {
		res, over := pr.round.Result()
		if pr.row.Status != db.RoundSettled || !over {
			continue // reversed, or (a closed night has none) being played
		}
		n.Rounds = append(n.Rounds, statsRound(pr, res, member))
	}
	return n, nil
}

// statsRound is a settled round as the figures count it: the engine's
// result, and each throw's dice as thrown (a later throw holds only the
// dice thrown again; taken-back throws are no throws).
func statsRound(pr *playedRound, res game.Result, member map[game.PlayerID]stats.Member) stats.Round {
	r := stats.Round{Number: pr.row.Number, Kind: res.Kind, Pot: res.Settlement.PotBefore, Payouts: map[stats.Member]int64{}}
	for _, s := range res.Scores {
		r.Scores = append(r.Scores, stats.Score{Member: member[s.Player], Qualified: s.Qualified, Score: s.Score,
			Automatic: s.Automatic, Forfeited: s.Forfeited})
	}
	for _, w := range res.Winners {
		r.Winners = append(r.Winners, member[w])
	}
	money := res.Settlement
	if pr.gameResult != nil {
		// The round that won a game of rounds (Scarne) counts as its
		// winner's win, and pays the game's pot: its own result only
		// scores.
		r.Winners = []stats.Member{member[pr.gameResult.Winner]}
		money = pr.gameResult.Settlement
		r.Pot = money.PotBefore
	}
	for _, p := range money.Payouts {
		r.Payouts[member[p.Player]] += p.Amount
	}
	standing, _ := standingActions(pr.actions) // the replay checked them
	for _, a := range standing {
		if a.Action.Kind == game.ActionRoll && a.Action.Roll != nil && len(a.Action.Roll.Dice) > 0 {
			r.Throws = append(r.Throws, stats.Throw{Member: member[a.Action.Player], Faces: a.Action.Roll.Dice})
		}
	}
	return r
}
