package play

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
)

// AuditReport is the answer to "wait, who won that round?": whether the
// table's history is intact and every round's recorded outcome and money
// are what the rules give when the rolls are replayed.
type AuditReport struct {
	OK         bool         `json:"ok"`
	Events     int          `json:"events"`
	ChainOK    bool         `json:"chainOk"`
	FirstBreak string       `json:"firstBreak,omitempty"`
	Rounds     []RoundAudit `json:"rounds"`
	BalancesOK bool         `json:"balancesOk"`
}

// RoundAudit is one round's check.
type RoundAudit struct {
	Number int    `json:"number"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail,omitempty"`
}

// Audit verifies the event hash chain, replays every round through the
// engine and checks each settled round's stored result and its journal
// postings against the replay, and checks that the books balance.
func Audit(ctx context.Context, q db.DBTX, tableID int64) (AuditReport, error) {
	chain, err := ledger.Verify(ctx, q, tableID)
	if err != nil {
		return AuditReport{}, err
	}
	rep := AuditReport{Events: chain.Events, ChainOK: chain.OK, Rounds: []RoundAudit{}}
	if !chain.OK {
		rep.FirstBreak = fmt.Sprintf("event %d: %s", chain.BrokenAt, chain.Problem)
	}
	st, loadErr := loadReplayed(ctx, q, tableID)
	if loadErr != nil {
		rep.Rounds = append(rep.Rounds, RoundAudit{OK: false, Detail: loadErr.Error()})
	} else {
		journal, err := ledger.Statement(ctx, q, tableID)
		if err != nil {
			return AuditReport{}, err
		}
		turns, err := db.TurnListByTable(ctx, q, tableID)
		if err != nil {
			return AuditReport{}, err
		}
		for _, pr := range st.rounds {
			ra := auditRound(pr, journal)
			if ra.OK {
				if err := checkTurns(pr, turns[pr.row.ID]); err != nil {
					ra = RoundAudit{Number: pr.row.Number, Detail: err.Error()}
				}
			}
			rep.Rounds = append(rep.Rounds, ra)
		}
	}
	sheet, err := ledger.Balances(ctx, q, tableID)
	if err != nil {
		return AuditReport{}, err
	}
	total := sheet.Pot + sheet.World
	for _, p := range sheet.Players {
		total += p.Balance
	}
	rep.BalancesOK = total == 0
	if loadErr == nil && st.current() == nil && st.game != nil && st.table.Status == db.TableOpen {
		rep.BalancesOK = rep.BalancesOK && st.game.Pot() == sheet.Pot
	}
	rep.OK = rep.ChainOK && rep.BalancesOK
	for _, r := range rep.Rounds {
		rep.OK = rep.OK && r.OK
	}
	return rep, nil
}

// auditRound compares a settled round's stored result and postings with
// what the replay gives.
func auditRound(pr *playedRound, journal []ledger.Transaction) RoundAudit {
	ra := RoundAudit{Number: pr.row.Number, OK: true}
	if pr.row.Status == db.RoundOpen {
		ra.Detail = "being played"
		return ra
	}
	res, _ := pr.round.Result() // replay succeeded, so a settled round is over
	var stored storedResult
	if err := json.Unmarshal(pr.row.Result, &stored); err != nil {
		return RoundAudit{Number: pr.row.Number, Detail: "unreadable stored result: " + err.Error()}
	}
	if !reflect.DeepEqual(normalize(stored.Round), normalize(res)) {
		return RoundAudit{Number: pr.row.Number, Detail: "the stored result differs from the replayed rolls"}
	}
	money := res.Settlement
	if stored.Game != nil {
		money = stored.Game.Settlement
	}
	for _, t := range journal {
		if t.Kind == ledger.KindRoundSettle && t.RoundID != nil && *t.RoundID == pr.row.ID {
			if err := checkPostings(t, money); err != nil {
				return RoundAudit{Number: pr.row.Number, Detail: err.Error()}
			}
			return ra
		}
	}
	return RoundAudit{Number: pr.row.Number, Detail: "no settlement in the journal"}
}

// normalize round-trips a value through JSON so that nil and empty slices
// compare equal.
func normalize(v any) any {
	raw, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(raw, &out)
	return out
}

// checkTurns compares the turns recorded as they ended with the replay:
// the same players, in play order, with the same outcomes.
func checkTurns(pr *playedRound, turns []db.Turn) error {
	players := pr.round.State().Players
	done := 0
	for _, ps := range players {
		if ps.Status == game.StatusDone {
			done++
		}
	}
	if len(turns) != done {
		return fmt.Errorf("%d turns recorded, the replay finishes %d", len(turns), done)
	}
	for _, t := range turns {
		if t.Seq < 1 || t.Seq > len(players) || players[t.Seq-1].Player != sid(t.PlayerID) {
			return fmt.Errorf("turn %d is recorded for player %d, who does not throw there", t.Seq, t.PlayerID)
		}
		var recorded any
		if err := json.Unmarshal(t.Outcome, &recorded); err != nil {
			return fmt.Errorf("turn %d: unreadable outcome: %w", t.Seq, err)
		}
		if !reflect.DeepEqual(recorded, normalize(players[t.Seq-1].Outcome)) {
			return fmt.Errorf("player %d's recorded turn differs from the replayed rolls", t.PlayerID)
		}
	}
	return nil
}
