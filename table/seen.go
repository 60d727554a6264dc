package table

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/game"
	"github.com/tally-dice/tally/game/royale"
)

// This file is one throw, one record: a write of play may say how many
// actions of the round (of the game, at Battleship Royale) the phone had
// seen when it drew what was tapped, and is refused when the table has
// recorded more since. Two phones that tap the same throw at once then
// store it once, and the one refused is told what was recorded and by
// whose phone, as far as the caller may know it: a throw still under the
// cup is named as one, never by its dice, whatever they are.

// recordedSince is ErrRecordedSince with its message, which is all the
// phone shows.
type recordedSince string

func (e recordedSince) Error() string        { return string(e) }
func (e recordedSince) Is(target error) bool { return target == ErrRecordedSince }

// unseen is how many of the recorded actions of what came after the
// first seen. A phone cannot have seen more than were recorded.
func unseen(seen uint, recorded int, what string) (int, error) {
	if seen > uint(recorded) {
		return 0, fmt.Errorf("%w: seen is %d, but %s has recorded %s; read it again and send what it shows",
			ErrInvalid, seen, what, plural(recorded, "action"))
	}
	return recorded - int(seen), nil
}

// seenRound refuses a write entered against the first seen actions of
// round number when the round has recorded more since, settled or not. A
// write that does not say (nil), or names a round that is not the latest
// or was reversed, is judged as it would be without it.
func (w *writer) seenRound(number int, seen *uint) error {
	pr := w.st.dice().last
	if seen == nil || w.st.plays(db.GameDice) != nil || pr == nil || pr.row.Number != number || pr.row.Status == db.RoundVoid {
		return nil
	}
	n, err := unseen(*seen, len(pr.actions), fmt.Sprintf("round %d", number))
	if err != nil || n == 0 {
		return err
	}
	since := pr.actions[len(pr.actions)-n:]
	hidden, err := w.st.sealedEvents(w.who)
	if err != nil {
		return err
	}
	out := make([]recording, len(since))
	for i, a := range since {
		_, under := hidden[a.EventSeq]
		out[i] = recording{byHost: recordedByHost(a), player: w.st.playerName(a.Action.Player), what: actionWords(a, under)}
	}
	return sayRecorded(out)
}

// recordedByHost is whether the host's phone recorded a round action for a
// player other than the host's own seat, as stored with it (nil: not
// known). A take-back is a correction, which only the host makes: one
// stored before the table kept who recorded what was made before a host
// had a seat of its own, so for someone else's seat.
func recordedByHost(a db.Action) *bool {
	if a.ByHost == nil && a.Action.Kind == actionVoid {
		host := true
		return &host
	}
	return a.ByHost
}

// actionWords names a round action as the refusal says it: a throw by its
// dice ("1-2-3-4-2"), unless it is hidden from the caller under the cup.
func actionWords(a db.Action, hidden bool) string {
	switch a.Action.Kind {
	case game.ActionRoll:
		if hidden || a.Action.Roll == nil {
			return "a throw under the cup"
		}
		return dashed(a.Action.Roll.Dice)
	case game.ActionStand:
		return "a stand"
	case game.ActionClaimAutomatic:
		return "the claim of an automatic"
	case game.ActionLiftCups:
		return "the call to lift the cups"
	case actionVoid:
		return "the take-back of an entry"
	}
	return string(a.Action.Kind)
}

// seenRoyale refuses action in of game g when the game has recorded an
// action since the first seen that it could clash with: any, except that
// the fleets of different players (hold, keep, enter) are chosen at once
// on their own phones and never clash.
func (w *writer) seenRoyale(g *royaleGame, in RoyaleActionInput) error {
	if in.Seen == nil {
		return nil
	}
	n, err := unseen(*in.Seen, len(g.actions), fmt.Sprintf("game %d", g.row.Number))
	if err != nil || n == 0 {
		return err
	}
	var out []recording
	for _, a := range g.actions[len(g.actions)-n:] {
		if fleetChoice(a.Action.Kind) && fleetChoice(in.Kind) && a.Action.Player != in.Player {
			continue
		}
		byHost := a.ByHost
		out = append(out, recording{byHost: &byHost, player: w.st.playerName(a.Action.Player), what: royaleWords(a.Action)})
	}
	if len(out) == 0 {
		return nil
	}
	return sayRecorded(out)
}

// fleetChoice says whether an action of kind chooses a player's fleet.
func fleetChoice(kind royale.ActionKind) bool {
	return kind == actHold || kind == royale.ActKeep || kind == royale.ActEnter
}

// royaleWords names a Battleship Royale action as the refusal says it:
// only what the whole table sees (never a hand or a fleet).
func royaleWords(a royale.Action) string {
	cells := make([]string, len(a.Cells))
	for i, c := range a.Cells {
		cells[i] = c.String()
	}
	shots := "a shot at "
	if len(cells) > 1 {
		shots = "a volley at "
	}
	switch a.Kind {
	case actHold:
		return "a hold of the fleet"
	case royale.ActKeep:
		return "a fleet kept from the hand"
	case royale.ActEnter:
		return "a fleet entered"
	case royale.ActSonar:
		if _, err := strconv.Atoi(a.Line); err == nil {
			return "sonar on column " + a.Line
		}
		return "sonar on row " + a.Line
	case royale.ActRoll:
		return "the die: " + strconv.Itoa(a.Die)
	case royale.ActShoot:
		return shots + strings.Join(cells, ", ")
	case royale.ActBonus:
		return "a bonus " + strings.TrimPrefix(shots, "a ") + strings.Join(cells, ", ")
	case royale.ActEnd:
		return "the end of the turn"
	case royale.ActAbandon:
		return "the end of the game (abandoned)"
	}
	return string(a.Kind)
}

// recording is one action recorded since the phone's view, as a refusal
// names it: whether the host's phone recorded it for a player other than
// its own seat (nil: not known), for which player (by name; "" for none)
// and what it was.
type recording struct {
	byHost *bool
	player string
	what   string
}

// phone names the phone that recorded r, first in a sentence or not. A
// player's token records only that player's actions, and so does the
// host's for its own seat, as that player's phone.
func (r recording) phone(first bool) string {
	switch {
	case r.byHost == nil && first:
		return "A phone"
	case r.byHost == nil:
		return "a phone"
	case *r.byHost && first:
		return "The host's phone"
	case *r.byHost:
		return "the host's phone"
	}
	return r.player + "'s phone"
}

// samePhone says whether r and o were recorded by one phone for one
// player.
func (r recording) samePhone(o recording) bool {
	return r.player == o.player && (r.byHost == nil) == (o.byHost == nil) && (r.byHost == nil || *r.byHost == *o.byHost)
}

// maxNamed is how many recordings a refusal names; it counts the rest.
const maxNamed = 3

// sayRecorded is the refusal of a write entered before recordings: the
// recordings of one phone for one player in a row make one clause ("Bob's
// phone already recorded 6-5-4-3-3 and a stand, then the host's phone
// recorded 1-1-2-3-4 for Cy").
func sayRecorded(rs []recording) error {
	named := rs[:min(len(rs), maxNamed)]
	var clauses []string
	for i := 0; i < len(named); {
		r := named[i]
		var whats []string
		for ; i < len(named) && named[i].samePhone(r); i++ {
			whats = append(whats, named[i].what)
		}
		verb := " recorded "
		if len(clauses) == 0 {
			verb = " already recorded "
		}
		c := r.phone(len(clauses) == 0) + verb + andList(whats)
		if r.player != "" && (r.byHost == nil || *r.byHost) {
			c += " for " + r.player
		}
		clauses = append(clauses, c)
	}
	msg := strings.Join(clauses, ", then ")
	if more := len(rs) - len(named); more > 0 {
		msg += ", and " + plural(more, "more action")
	}
	return recordedSince(msg)
}

// andList joins words as a sentence lists them: "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// plural is n things: "1 action", "2 actions".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// playerName is the name of player id, "" for none (the table's own
// actions, such as abandoning a game).
func (st *tableState) playerName(id game.PlayerID) string {
	if p, err := st.player(id); err == nil {
		return p.Name
	}
	return ""
}

// dashed writes dice as a phone shows a throw: 1-2-3-4-2.
func dashed(dice []int) string {
	s := make([]string, len(dice))
	for i, d := range dice {
		s[i] = strconv.Itoa(d)
	}
	return strings.Join(s, "-")
}
