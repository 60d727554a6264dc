package table

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/tally-dice/tally/chain"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/ledger"
	"github.com/tally-dice/tally/seal"
)

// This file is the audit's checks of what every table's history holds:
// the hash chain, its seals, the heads phones witnessed, the table and its
// players against the events that made them, and the money.

// chain checks the hash chain and that it ends where the table row says.
func (au *audit) chain() {
	r := chain.Verify(au.events)
	head := au.row.Head
	au.rep.Events, au.rep.ChainOK, au.rep.Head = r.Events, r.OK, headView(head)
	switch {
	case !r.OK:
		au.rep.FirstBreak = fmt.Sprintf("event %d: %s", r.BrokenAt, r.Problem)
	case int64(len(au.events)) != head.Seq || (len(au.events) > 0 && string(r.Head) != string(head.Hash)):
		au.rep.ChainOK = false
		au.rep.FirstBreak = fmt.Sprintf("event %d: the log ends at event %d, but the table's last event is %d",
			len(au.events)+1, len(au.events), head.Seq)
	}
	if !au.rep.ChainOK {
		au.problem("the hash chain breaks at %s", au.rep.FirstBreak)
	}
}

// seals checks every event's seal and the head's.
func (au *audit) seals() {
	au.rep.SealsOK = true
	bad := 0
	for _, e := range au.events {
		switch {
		case len(e.Seal) == 0:
			bad++
			if bad <= 3 {
				au.problem("event %d has no seal", e.Seq)
			}
		case !seal.Valid(e.Seal, au.keys.Event(au.row.ID, e.Seq, e.Hash)):
			bad++
			if bad <= 3 {
				au.problem("event %d's seal does not match it: it was written or changed without this server's key", e.Seq)
			}
		}
	}
	if bad > 3 {
		au.problem("%d events in all fail their seals", bad)
	}
	h := au.row.Head
	if !seal.Valid(au.row.HeadSeal, au.keys.Head(au.row.ID, h.Seq, h.Hash)) {
		bad++
		au.problem("the table's head (event %d) does not carry this server's seal: the log was cut or rewritten", h.Seq)
	}
	au.rep.SealsOK = bad == 0
}

// witness checks that the history holds every witnessed head.
func (au *audit) witness(heads []chain.Head) {
	au.rep.WitnessOK, au.rep.Witnessed = true, []WitnessCheck{}
	for _, h := range heads {
		c := WitnessCheck{Seq: h.Seq, Hash: hex.EncodeToString(h.Hash), OK: true}
		switch {
		case h.Seq < 1 || h.Seq > int64(len(au.events)) || au.events[h.Seq-1].Seq != h.Seq:
			c.OK = false
			c.Detail = fmt.Sprintf("a phone saw event %d, which this history does not have (it ends at event %d): events were removed after it was seen",
				h.Seq, len(au.events))
		case string(au.events[h.Seq-1].Hash) != string(h.Hash):
			c.OK = false
			c.Detail = fmt.Sprintf("a phone saw event %d with another hash: the history was rewritten after it was seen", h.Seq)
		}
		if !c.OK {
			au.rep.WitnessOK = false
			au.problem("%s", c.Detail)
		}
		au.rep.Witnessed = append(au.rep.Witnessed, c)
	}
}

// money reconciles the journal with the log and the balances with the
// postings.
func (au *audit) money(journal []db.JournalEntry, accounts []db.Account, players []db.Player) {
	found := ledger.Reconcile(au.events, journal, accounts)
	au.rep.JournalOK = len(found) == 0
	au.problems = append(au.problems, found...)
	total := ledger.Sheet(au.row.Currency, accounts, players).Total()
	au.rep.BalancesOK = total == 0 && len(found) == 0
	if total != 0 {
		au.problem("the balances sum to %d, not 0", total)
	}
}

// table checks the table row's settings and its players against the events
// that recorded them: the rules, currency, name and overdraft setting
// against table.created, each player's id, name and seat against a
// player.seated.
func (au *audit) table(players []db.Player) {
	var created tableCreated
	if len(au.events) == 0 || au.events[0].Kind != "table.created" || json.Unmarshal(au.events[0].Payload, &created) != nil {
		au.problem("the log does not begin with the table's creation")
		au.rep.ChainOK = false
		return
	}
	t := au.row
	if created.Name != t.Name || created.Currency != t.Currency || created.NoOverdraft != t.NoOverdraft ||
		!reflect.DeepEqual(normalize(created.Ruleset), normalize(t.Rules)) || !reflect.DeepEqual(created.Royale, t.Royale) ||
		created.game() != t.Game || created.Crew != t.Crew {
		au.rep.ChainOK = false
		au.problem("the table's name, currency, rules, overdraft setting, game or crew differ from those event 1 recorded when it was made")
	}
	seated := map[game.PlayerID]playerSeated{}
	for _, e := range au.events {
		var p playerSeated
		if e.Kind == "player.seated" && json.Unmarshal(e.Payload, &p) == nil {
			seated[p.Player] = p
		}
	}
	for _, p := range players {
		if s, ok := seated[p.ID]; !ok || s.Name != p.Name || s.Seat != p.Seat || s.Member != p.Member || s.Host != p.Host {
			au.rep.ChainOK = false
			au.problem("player %d (%s, seat %d) is not the player an event seated", p.ID, p.Name, p.Seat)
		}
	}
}

// game is the game event 1 says the table plays: it names a crew's kind
// and a Battleship Royale table's options, and a dice table by neither.
func (c tableCreated) game() string {
	switch {
	case c.Kind == db.GameCrew:
		return db.GameCrew
	case c.Royale == nil:
		return db.GameDice
	}
	return db.GameRoyale
}
