package table

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/royale"
	"github.com/tally-dice/tally/ledger"
)

// This file is the audit of a Battleship Royale table's games: each game
// replayed through the engine from its stored setup and actions, every
// event checked against the replay (what each action did, the commitments
// published when play began), every revealed fleet against the commitment
// published for it, and the games' money (antes, bounties, the pot) against
// the journal.

// royaleAudit is the check of one game.
type royaleAudit struct {
	au     *audit
	rep    RoundAudit
	events map[int64]chain.Event
}

func (ra *royaleAudit) fail(format string, args ...any) {
	detail := fmt.Sprintf(format, args...)
	if ra.rep.OK {
		ra.rep.OK, ra.rep.Detail = false, detail
	}
	ra.au.problem("game %d: %s", ra.rep.Number, detail)
}

// auditReads reads every game and its actions.
func (r *royaleTable) auditReads(b *db.Batch, _ *auditHistory) {
	b.RoyaleList(r.st.row.ID, &r.games, &r.acts)
}

// audit audits every game; the games leave no checkpoint.
func (r *royaleTable) audit(au *audit, h *auditHistory, _ AuditQuery) *replayed {
	au.royale(r.games, r.acts, h.journal, r.st.accounts)
	return nil
}

// royale audits every game of a Battleship Royale table.
func (au *audit) royale(games []db.RoyaleGame, actions []db.RoyaleAction, journal []db.JournalEntry, accounts []db.Account) {
	au.rep.Games = []RoundAudit{}
	events := make(map[int64]chain.Event, len(au.events))
	for _, e := range au.events {
		events[e.Seq] = e
	}
	byGame := map[int][]db.RoyaleAction{}
	for _, a := range actions {
		byGame[a.Game] = append(byGame[a.Game], a)
	}
	au.royaleEvents(games, actions)
	var money []ledger.Entry // the games' entries, in the order they were posted
	var last *royale.Game
	for _, row := range games {
		ra := &royaleAudit{au: au, rep: RoundAudit{Number: row.Number, OK: true}, events: events}
		g, entries := ra.replay(row, byGame[row.Number])
		money = append(money, entries...)
		au.rep.Games = append(au.rep.Games, ra.rep)
		if g == nil {
			return
		}
		last = g
	}
	au.royaleMoney(money, journal)
	if last == nil || au.row.Status != db.TableOpen {
		return
	}
	pot := last.Pot()
	if res := last.Result(); res != nil {
		pot = res.Settlement.CarryOver
	}
	for _, a := range accounts {
		if a.Kind == db.AccountPot && a.Balance != pot {
			au.rep.BalancesOK = false
			au.problem("the pot holds %d, but the replayed games leave %d in it", a.Balance, pot)
		}
	}
}

// royaleEvents checks that the stored games and actions are exactly those
// the log records: games numbered from 1, each named by its royale.started
// event, and every royale.action event named by one stored action (an
// action stored without its event, or removed, is caught here; each
// action's content against its event, in replay).
func (au *audit) royaleEvents(games []db.RoyaleGame, actions []db.RoyaleAction) {
	started, acted := map[int64]bool{}, map[int64]bool{}
	for i, g := range games {
		if g.Number != i+1 {
			au.rep.ChainOK = false
			au.problem("game %d is stored where game %d should be", g.Number, i+1)
		}
		started[g.EventSeq] = true
	}
	for _, a := range actions {
		if acted[a.EventSeq] {
			au.rep.ChainOK = false
			au.problem("game %d's action %d names event %d, which another action names too", a.Game, a.Seq, a.EventSeq)
		}
		acted[a.EventSeq] = true
	}
	for _, e := range au.events {
		switch {
		case e.Kind == "royale.started" && !started[e.Seq]:
			au.problem("event %d starts a game the table does not have", e.Seq)
		case e.Kind == "royale.action" && !acted[e.Seq]:
			au.problem("event %d records an action the game does not have", e.Seq)
		default:
			continue
		}
		au.rep.ChainOK = false
	}
}

// replay replays one game, checking each event it recorded, and returns the
// engine's game (nil when it does not replay) and the money it moved.
func (ra *royaleAudit) replay(row db.RoyaleGame, actions []db.RoyaleAction) (*royale.Game, []ledger.Entry) {
	g, err := royale.NewGame(row.Setup)
	if err != nil {
		ra.fail("does not start again: %v", err)
		return nil, nil
	}
	s := row.Setup
	ra.event(row.EventSeq, "royale.started", royaleStarted{Game: row.Number, Rules: s.Rules, Options: s.Options,
		Players: s.Players, First: s.First, CarriedPot: s.CarriedPot})
	var money []ledger.Entry
	if antes := g.Antes(); len(antes) > 0 {
		money = append(money, ledger.Antes(0, antes))
	}
	var sealed fleetsSealed
	held := map[game.PlayerID]bool{}
	for _, a := range actions {
		switch k := a.Action.Kind; {
		case k == actHold:
			held[a.Action.Player] = true
		case a.ByHost && (k == royale.ActKeep || k == royale.ActEnter) && !held[a.Action.Player]:
			// The host chooses only a fleet it holds: otherwise it saw a
			// hand or fleet that was not its to see.
			ra.fail("action %d: the host chose player %d's fleet without holding it", a.Seq, a.Action.Player)
		}
		var out royale.Outcome
		var err error
		if a.Action.Kind != actHold {
			out, err = g.Replay(a.Action)
		}
		if err != nil {
			ra.fail("action %d does not replay: %v", a.Seq, err)
			return nil, money
		}
		act := a.Action
		ra.event(a.EventSeq, "royale.action", royaleActed{Game: row.Number, Seq: a.Seq, Player: act.Player, Kind: act.Kind,
			ByHost: a.ByHost, Line: act.Line, Die: act.Die, Cells: act.Cells, Card: act.Card, Outcome: out})
		if out.Started {
			sealed = ra.sealed(a.EventSeq, row.Number, g)
		}
		if len(out.Bounties) > 0 {
			money = append(money, bountyEntry(row.Number, a.Seq, out.Bounties))
		}
		if out.Result != nil {
			money = append(money, ledger.RoundSettlement(0, out.Result.Settlement, ""))
			ra.revealed(a.EventSeq, row.Number, g, sealed)
		}
	}
	return g, money
}

// event checks that event seq is of kind and records exactly want.
func (ra *royaleAudit) event(seq int64, kind string, want any) {
	e, ok := ra.events[seq]
	if !ok || e.Kind != kind {
		ra.fail("event %d is not the %s event the game names", seq, kind)
		return
	}
	if !samePayload(e.Payload, want) {
		ra.fail("event %d (%s) differs from the replay", seq, kind)
	}
}

// sealed finds the commitments published after event seq, which started
// play, and checks them against the replay's.
func (ra *royaleAudit) sealed(after int64, number int, g *royale.Game) fleetsSealed {
	for seq := after + 1; ; seq++ {
		e, ok := ra.events[seq]
		if !ok {
			ra.fail("no royale.sealed event publishes the fleets' commitments")
			return fleetsSealed{}
		}
		if e.Kind != "royale.sealed" {
			continue
		}
		var got fleetsSealed
		want := sealedFleets(number, &royaleGame{row: db.RoyaleGame{Setup: g.Setup()}, game: g})
		if json.Unmarshal(e.Payload, &got) != nil || !samePayload(e.Payload, want) {
			ra.fail("event %d publishes commitments the stored fleets do not make", seq)
		}
		return got
	}
}

// revealed checks the fleets revealed at the end: each opens the commitment
// published for it when play began, and is the fleet the game was played
// with.
func (ra *royaleAudit) revealed(after int64, number int, g *royale.Game, sealed fleetsSealed) {
	want := fleetsRevealed{Game: number, Fleets: g.View(0).Revealed}
	for seq := after + 1; ; seq++ {
		e, ok := ra.events[seq]
		if !ok {
			ra.fail("no royale.revealed event reveals the fleets")
			return
		}
		if e.Kind != "royale.revealed" {
			continue
		}
		var got fleetsRevealed
		if json.Unmarshal(e.Payload, &got) != nil || !samePayload(e.Payload, want) {
			ra.fail("event %d reveals fleets other than the ones played", seq)
			return
		}
		for _, c := range sealed.Commitments {
			i := slices.IndexFunc(got.Fleets, func(r royale.Revealed) bool { return r.Player == c.Player })
			h, err := hex.DecodeString(c.Commitment)
			if i < 0 || err != nil || len(h) != 32 || !royale.Opens([32]byte(h), got.Fleets[i].Fleet, got.Fleets[i].Salt) {
				ra.fail("player %d's revealed fleet does not open the commitment published for it", c.Player)
			}
		}
		return
	}
}

// royaleMoney checks the journal's game entries (antes, bounties,
// settlements), in order, against what the replayed games moved.
func (au *audit) royaleMoney(want []ledger.Entry, journal []db.JournalEntry) {
	var got []db.JournalEntry
	for _, j := range journal {
		switch ledger.Kind(j.Kind) {
		case ledger.KindAnte, ledger.KindBounty, ledger.KindRoundSettle:
			got = append(got, j)
		}
	}
	if len(got) != len(want) {
		au.rep.BalancesOK = false
		au.problem("the journal has %d game entries (antes, bounties, settlements); the replayed games made %d", len(got), len(want))
		return
	}
	for i, e := range want {
		if err := e.Matches(got[i].Postings); err != nil {
			au.rep.BalancesOK = false
			au.problem("journal transaction %d (%s): %v", got[i].ID, got[i].Kind, err)
		}
	}
}

// samePayload says whether a stored event payload records exactly want.
func samePayload(stored []byte, want any) bool {
	raw, err := json.Marshal(want)
	if err != nil {
		return false
	}
	a, errA := chain.Canonicalize(stored)
	b, errB := chain.Canonicalize(raw)
	return errA == nil && errB == nil && bytes.Equal(a, b)
}
