package table

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

// This file is the audit of a dice table's rounds: every stored action
// against the event that recorded it, and every round replayed through the
// engine from the first (or from a checkpoint), its turns and its money
// checked against the replay.

// auditReads reads every round, action and finished turn.
func (d *diceGame) auditReads(b *db.Batch, _ *auditHistory) {
	id := d.st.row.ID
	b.RoundList(id, &d.rounds)
	b.ActionListByTable(id, &d.actions)
	b.TurnListByTable(id, &d.turns)
}

// audit checks the stored actions against the log and replays the rounds;
// it returns how far the replay got, for a checkpoint.
func (d *diceGame) audit(au *audit, h *auditHistory, q AuditQuery) *replayed {
	au.actions(d.actions)
	return au.rounds(&d.diceState, d.st.accounts, d.rounds, d.actions, d.turns, h.journal, h.checkpoint, q.Full)
}

// rounds replays the rounds (from a valid checkpoint, unless full) and
// checks each; it returns how far it got when everything replays and a
// round was settled since the checkpoint.
func (au *audit) rounds(st *diceState, accounts []db.Account, rounds []db.Round, actions []db.Action, turns []db.Turn,
	journal []db.JournalEntry, cp db.Checkpoint, full bool) *replayed {
	au.rep.Rounds = []RoundAudit{}
	from := 0
	if !full && au.checkpointHolds(cp, rounds, actions, turns) {
		g, err := game.ResumeGame(st.rules, decodeState(cp.State))
		if err == nil {
			st.game, from = g, cp.Round
			for _, r := range rounds[:from] {
				au.rep.Rounds = append(au.rep.Rounds, RoundAudit{Number: r.Number, OK: true,
					Detail: fmt.Sprintf("replayed by an earlier audit (checkpoint at event %d); unchanged since", cp.Seq)})
			}
		}
	}
	byRound := map[int][]db.Action{}
	for _, a := range actions {
		byRound[a.Round] = append(byRound[a.Round], a)
	}
	turnsOf := map[int][]db.Turn{}
	for _, t := range turns {
		turnsOf[t.Round] = append(turnsOf[t.Round], t)
	}
	corrected := corrections{rounds: au.reversedRounds(), entries: ledger.Reversed(journal)}
	settled, roundsOK := 0, true
	var state []byte
	for _, row := range rounds[from:] {
		pr := &playedRound{row: row, actions: byRound[row.Number]}
		if err := st.replayNext(pr); err != nil {
			err = fmt.Errorf("%w: round %d does not replay: %w", ErrHistoryBroken, row.Number, err)
			au.rep.Rounds = append(au.rep.Rounds, RoundAudit{Number: row.Number, Detail: err.Error()})
			au.problem("%v", err)
			return nil
		}
		au.rep.Replayed++
		st.rounds = append(st.rounds, pr)
		st.last = pr
		ra := auditRound(pr, turnsOf[row.Number], journal, corrected)
		au.rep.Rounds = append(au.rep.Rounds, ra)
		if !ra.OK {
			roundsOK = false
			au.problem("round %d: %s", ra.Number, ra.Detail)
		}
		if row.Status == db.RoundSettled && roundsOK {
			snap, err := st.game.Snapshot()
			if err != nil {
				return nil
			}
			settled, state = row.Number, encodeState(snap)
		}
	}
	if st.current() == nil && st.game != nil && au.row.Status == db.TableOpen {
		var pot int64
		for _, a := range accounts {
			if a.Kind == db.AccountPot {
				pot = a.Balance
			}
		}
		if st.game.Pot() != pot {
			au.rep.BalancesOK = false
			au.problem("the pot holds %d, but the replayed game leaves %d in it", pot, st.game.Pot())
		}
	}
	if !roundsOK || settled == 0 { // nothing settled since the checkpoint, or something broke
		return nil
	}
	var upto []db.Round
	for _, r := range rounds {
		if r.Number <= settled {
			upto = append(upto, r)
		}
	}
	return &replayed{round: settled, rows: rowsDigest(upto, actions, turns), state: state}
}

// actions checks the stored actions, which rounds are replayed from,
// against the round.action events that recorded them: each action names
// its event, which holds the same action, and each such event is one
// action's.
func (au *audit) actions(actions []db.Action) {
	recorded := map[int64]bool{}
	bad := 0
	for _, a := range actions {
		problem := au.actionProblem(a, recorded)
		recorded[a.EventSeq] = true
		if problem != "" {
			bad++
			if bad <= 3 {
				au.problem("round %d's action %d %s", a.Round, a.Seq, problem)
			}
		}
	}
	for _, e := range au.events {
		if (e.Kind == "round.action" || e.Kind == "round.voided") && !recorded[e.Seq] {
			bad++
			if bad <= 3 {
				au.problem("event %d records an action the round does not have", e.Seq)
			}
		}
	}
	if bad > 3 {
		au.problem("%d actions in all differ from the log", bad)
	}
	if bad > 0 {
		au.rep.ChainOK = false
	}
}

// actionProblem says how a stored action differs from the event that
// recorded it (a round.action, or a round.voided for a correction), or "".
func (au *audit) actionProblem(a db.Action, recorded map[int64]bool) string {
	if a.EventSeq < 1 || a.EventSeq > int64(len(au.events)) {
		return "names no event of the log"
	}
	if recorded[a.EventSeq] {
		return fmt.Sprintf("names event %d, which another action names too", a.EventSeq)
	}
	e := au.events[a.EventSeq-1]
	if a.Action.Kind == actionVoid {
		var ev roundVoided
		if e.Kind != "round.voided" || json.Unmarshal(e.Payload, &ev) != nil {
			return fmt.Sprintf("names event %d, which records no correction", a.EventSeq)
		}
		if ev.Round != a.Round || ev.Seq != a.Seq || ev.Voids != a.Voids || ev.Player != a.Action.Player || ev.Reason != a.Reason ||
			!sameRecorder(ev.ByHost, a.ByHost) {
			return fmt.Sprintf("differs from event %d, which recorded it", a.EventSeq)
		}
		return ""
	}
	var ev roundAction
	if e.Kind != "round.action" || json.Unmarshal(e.Payload, &ev) != nil {
		return fmt.Sprintf("names event %d, which records no action", a.EventSeq)
	}
	if ev.Round != a.Round || ev.Seq != a.Seq || !sameRecorder(ev.ByHost, a.ByHost) || !sameAction(ev.Action, a.Action) {
		return fmt.Sprintf("differs from event %d, which recorded it", a.EventSeq)
	}
	return ""
}

// sameRecorder reports whether an event and its stored action say the same
// of whether the host's phone recorded it: both true, both false, or
// neither saying (an action recorded before the table kept it).
func sameRecorder(event, stored *bool) bool {
	if event == nil || stored == nil {
		return event == nil && stored == nil
	}
	return *event == *stored
}

// sameAction reports whether two actions are the same: player, kind and
// throw (an empty list and none alike).
func sameAction(a, b game.Action) bool {
	if a.Player != b.Player || a.Kind != b.Kind || (a.Roll == nil) != (b.Roll == nil) {
		return false
	}
	return a.Roll == nil || slices.Equal(a.Roll.Dice, b.Roll.Dice) && slices.Equal(a.Roll.Rethrow, b.Roll.Rethrow) &&
		a.Roll.Path == b.Roll.Path
}

// auditRound checks a replayed round's recorded turns and its journal
// entries against the replay: a settled round's settlement moves what the
// engine decided and stands, a round being played has none standing, and
// a reversed round (c: what the log and the journal say was reversed) has
// every movement of money reversed.
func auditRound(pr *playedRound, turns []db.Turn, journal []db.JournalEntry, c corrections) RoundAudit {
	n := pr.row.Number
	fail := func(format string, args ...any) RoundAudit {
		return RoundAudit{Number: n, Detail: fmt.Sprintf(format, args...)}
	}
	if err := checkTurns(pr, turns); err != nil {
		return fail("%v", err)
	}
	if c.rounds[n] != (pr.row.Status == db.RoundVoid) {
		return fail("its status is %s, but the log says it was reversed: %t", pr.row.Status, c.rounds[n])
	}
	var settles []db.JournalEntry
	for _, j := range journal {
		if j.Round != n || (j.Kind != string(ledger.KindRoundSettle) && j.Kind != string(ledger.KindAnte)) {
			continue
		}
		_, gone := c.entries[j.EventSeq]
		switch {
		case pr.row.Status == db.RoundVoid && !gone && len(j.Postings) > 0:
			return fail("it was reversed, but its %s (event %d) stands", j.Kind, j.EventSeq)
		case pr.row.Status != db.RoundVoid && gone && j.Kind == string(ledger.KindAnte):
			return fail("its antes were reversed, but the round stands")
		case j.Kind == string(ledger.KindRoundSettle) && !gone:
			settles = append(settles, j)
		}
	}
	// A settlement that moved nothing (the pot carried) is not reversed
	// when its round is opened again: only the last settlement of a
	// settled round counts, and every other one standing moved nothing.
	last := len(settles)
	if pr.row.Status == db.RoundSettled {
		last--
	}
	for _, j := range settles[:max(last, 0)] {
		if len(j.Postings) > 0 {
			return fail("a settlement of it (event %d) stands beside the one it ended with", j.EventSeq)
		}
	}
	switch pr.row.Status {
	case db.RoundVoid:
		return RoundAudit{Number: n, OK: true, Detail: "reversed"}
	case db.RoundOpen:
		return RoundAudit{Number: n, OK: true, Detail: "being played"}
	}
	if len(settles) == 0 {
		return fail("no settlement in the journal")
	}
	res, _ := pr.round.Result() // the replay checked a settled round is over
	money := res.Settlement
	if pr.gameResult != nil {
		money = pr.gameResult.Settlement
	}
	if err := ledger.RoundSettlement(n, money, "").Matches(settles[len(settles)-1].Postings); err != nil {
		return fail("%v", err)
	}
	return RoundAudit{Number: n, OK: true}
}

// corrections are what the log and the journal say was reversed: the
// rounds, and the ledger events of the entries.
type corrections struct {
	rounds  map[int]bool
	entries map[int64]int64
}

// reversedRounds are the rounds the log says were reversed.
func (au *audit) reversedRounds() map[int]bool {
	out := map[int]bool{}
	for _, e := range au.events {
		var r roundReversed
		if e.Kind == "round.reversed" && json.Unmarshal(e.Payload, &r) == nil {
			out[r.Round] = true
		}
	}
	return out
}

// checkTurns compares the turns recorded as they ended with the replay:
// the same players, in play order, with the same outcomes. A turn whose
// ending action was taken back was ended again or is being played again:
// it only has to name an action that was taken back.
func checkTurns(pr *playedRound, turns []db.Turn) error {
	standing, err := standingActions(pr.actions)
	if err != nil {
		return err
	}
	stands := map[int]bool{}
	for _, a := range standing {
		stands[a.Seq] = true
	}
	voided := map[int]bool{}
	for _, a := range pr.actions {
		if a.Action.Kind == actionVoid {
			voided[a.Voids] = true
		}
	}
	players := pr.round.State().Players
	// A turn recorded before migration 7 names no action: it stands while
	// its turn is over and was not recorded again since.
	again := map[int]bool{}
	for _, t := range turns {
		if t.ActionSeq > 0 {
			again[t.Seq] = true
		}
	}
	if len(voided) > 0 {
		voided[0] = true
	}
	done, live := 0, 0
	for _, ps := range players {
		if ps.Status == game.StatusDone {
			done++
		}
	}
	for _, t := range turns {
		standsNow := stands[t.ActionSeq]
		if t.ActionSeq == 0 {
			standsNow = !again[t.Seq] && t.Seq >= 1 && t.Seq <= len(players) && players[t.Seq-1].Status == game.StatusDone
		}
		if !standsNow {
			if !voided[t.ActionSeq] {
				return fmt.Errorf("turn %d is recorded as ended by action %d, which the round does not have", t.Seq, t.ActionSeq)
			}
			continue
		}
		live++
		if t.Seq < 1 || t.Seq > len(players) || players[t.Seq-1].Player != t.Player {
			return fmt.Errorf("turn %d is recorded for player %d, who does not throw there", t.Seq, t.Player)
		}
		want := db.TurnOf(t.Round, t.Seq, t.Player, players[t.Seq-1].Outcome)
		want.ActionSeq = t.ActionSeq
		if !reflect.DeepEqual(normalize(t), normalize(want)) {
			return fmt.Errorf("player %d's recorded turn differs from the replayed rolls", t.Player)
		}
	}
	if live != done {
		return fmt.Errorf("%d turns recorded, the replay finishes %d", live, done)
	}
	return nil
}
