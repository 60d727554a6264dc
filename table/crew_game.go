package table

import (
	"fmt"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
)

// crewGame is a crew (migration 9): running balances that its nights
// roll into. It plays no rounds, so nothing of a game refuses a change of
// seats or closing it; its audit checks the roll-overs against its nights.
type crewGame struct {
	st *tableState
	// what the audit reads of the nights (auditReads)
	books []nightHistory
}

func (crewGame) resume(db.Loaded) error   { return nil }
func (crewGame) stored(db.Loaded) bool    { return true }
func (crewGame) refusal() string          { return "is a crew, which plays no rounds: make a night for it" }
func (crewGame) underway() error          { return nil }
func (crewGame) leaving(db.Player) error  { return nil }
func (crewGame) freeing(db.Player) error  { return nil }
func (crewGame) claiming(db.Player) error { return nil }
func (crewGame) closing() error           { return nil }
func (crewGame) played() []game.PlayerID  { return nil }
func (crewGame) view(v *TableView)        { v.Kind = db.GameCrew }
func (crewGame) checkpointed() bool       { return false }
func (crewGame) ownMoney(e db.JournalEntry) error {
	return fmt.Errorf("%w: event %d (%s) is not a buy-in, cash-out or payment; only those are reversed on their own", ErrNotCorrectable, e.EventSeq, e.Kind)
}

// auditReads reads the nights listed under the crew.
func (c *crewGame) auditReads(b *db.Batch, h *auditHistory) {
	c.books = queueNights(b, nightIDs(h.nights), false)
}

// audit checks the roll-overs against the nights.
func (c *crewGame) audit(au *audit, h *auditHistory, _ AuditQuery) *replayed {
	au.crew(h.journal, c.books)
	return nil
}
