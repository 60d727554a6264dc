package game

// This file is what players see of a round: the whole truth for the audit
// and replay, and each player's view in which other players' closed rolls
// stay sealed under the cup until they are revealed (docs/rules.md §4).

// PlayerStatus says where a player is in the round.
type PlayerStatus string

// The player statuses.
const (
	StatusWaiting   PlayerStatus = "waiting"   // has not thrown yet
	StatusPlaying   PlayerStatus = "playing"   // it is this player's turn
	StatusDone      PlayerStatus = "done"      // turn over
	StatusForfeited PlayerStatus = "forfeited" // an automatic ended the round first
)

// PlayerState is one player's part of a round.
type PlayerState struct {
	Player PlayerID     `json:"player"`
	Status PlayerStatus `json:"status"`
	// Outcome is the turn so far; in a view, Sealed when closed throws are
	// hidden from the viewer.
	Outcome Outcome `json:"outcome"`
	// Revealed says the player's cups were lifted on another player's call.
	Revealed bool `json:"revealed,omitempty"`
	// AutomaticWon says this player's claimed automatic won the round.
	AutomaticWon bool `json:"automaticWon,omitempty"`
}

// RoundState is a round as a phone shows it.
type RoundState struct {
	Players []PlayerState `json:"players"`
	// Turn is whose turn it is, 0 once the round is over.
	Turn PlayerID `json:"turn,omitempty"`
	// Next is what that player may do now.
	Next Next `json:"next"`
	// Point is the best score among finished turns the viewer can see; nil
	// before anyone has one. In a low game it is the lowest.
	Point *int `json:"point,omitempty"`
	// Hammer is the player who throws last in the round (docs/rules.md §4).
	Hammer PlayerID `json:"hammer,omitempty"`
	// Pot is what the pot holds: the carried pot plus this round's antes.
	Pot      int64    `json:"pot"`
	Declared int      `json:"declared,omitempty"`
	Declarer PlayerID `json:"declarer,omitempty"`
	Playoff  bool     `json:"playoff,omitempty"`
	// Claimable names the player who may still claim a closed automatic.
	// Views show it only to that player.
	Claimable PlayerID `json:"claimable,omitempty"`
	// MayLiftCups says the player whose turn it is may call the preceding
	// closed rollers to lift their cups.
	MayLiftCups bool `json:"mayLiftCups,omitempty"`
	Over        bool `json:"over"`
}

// State is the complete truth of the round, for the audit trail and replay.
func (r *Round) State() RoundState {
	return r.view(0, true)
}

// View is what viewer may see: other players' sealed closed rolls show as
// sealed (no dice, no score) until revealed by lifted cups or the end of
// the round. A viewer of 0 is the public.
func (r *Round) View(viewer PlayerID) RoundState {
	return r.view(viewer, false)
}

func (r *Round) view(viewer PlayerID, all bool) RoundState {
	st := RoundState{
		Players:     make([]PlayerState, len(r.seats)),
		Pot:         r.pot(),
		Declared:    r.setup.Declared,
		Declarer:    r.setup.Declarer,
		Playoff:     r.setup.Playoff,
		MayLiftCups: r.mayLiftCups(),
		Over:        r.over,
	}
	if r.over {
		st.Next = Next{Over: true}
	} else {
		st.Turn = r.seats[r.cur].player
		st.Next = r.seats[r.cur].turn.Next()
	}
	// The hammer is a seat, not a moment: the player who throws last in
	// the round, who will know the point before throwing.
	st.Hammer = r.seats[len(r.seats)-1].player
	if r.claimable >= 0 && (all || r.seats[r.claimable].player == viewer) {
		st.Claimable = r.seats[r.claimable].player
	}
	for i := range r.seats {
		s := &r.seats[i]
		ps := PlayerState{Player: s.player, Status: r.status(i), Outcome: s.turn.Outcome(),
			Revealed: s.revealed, AutomaticWon: i == r.autoWin}
		if !all && r.sealedFrom(i, viewer) {
			ps.Outcome = sealed(ps.Outcome)
		}
		st.Players[i] = ps
		o := ps.Outcome
		if ps.Status == StatusDone && o.Qualified && !o.Sealed && (st.Point == nil || r.better(o.Score, *st.Point)) {
			st.Point = &o.Score
		}
		if i == r.cur && o.Sealed {
			// The faces a player may re-roll are their cargo: listing them
			// would unseal what the closed throw showed.
			st.Next.Rerollable = nil
		}
	}
	return st
}

// Claimable is the player whose closed automatic may still be claimed, or
// 0: the whole truth, which View shows only to that player. The table may
// show it to the phone that recorded the throw, which saw the dice.
func (r *Round) Claimable() PlayerID {
	if r.claimable < 0 {
		return 0
	}
	return r.seats[r.claimable].player
}

// sealedFrom reports whether seat i's closed throws are sealed from viewer:
// until the round ends or the cups are lifted, from everyone but the
// player who threw them.
func (r *Round) sealedFrom(i int, viewer PlayerID) bool {
	s := &r.seats[i]
	return !r.over && !s.revealed && s.player != viewer && s.turn.closed
}

// SealsFrom reports whether viewer's view of the round seals any throw, so
// that what is said to viewer may not depend on the round's scores.
func (r *Round) SealsFrom(viewer PlayerID) bool {
	for i := range r.seats {
		if r.sealedFrom(i, viewer) {
			return true
		}
	}
	return false
}

// status says where seat i is in the round.
func (r *Round) status(i int) PlayerStatus {
	s := &r.seats[i]
	switch {
	case s.forfeited:
		return StatusForfeited
	case s.turn.over:
		return StatusDone
	case i == r.cur && !r.over:
		return StatusPlaying
	}
	return StatusWaiting
}

// better reports whether score a beats score b under the ruleset.
func (r *Round) better(a, b int) bool {
	if r.rs.Low {
		return a < b
	}
	return a > b
}

// sealed hides what closed throws showed. What was thrown in the open stays
// visible: the values banked in open rolls and whether the player had
// qualified in the open. The cargo, score and automatic are hidden, since a
// closed throw may have changed them, and so is whether the player stood: a
// turn that ends on a closed re-roll without a stand ended on an automatic
// that may still be claimed.
func sealed(o Outcome) Outcome {
	out := Outcome{Rolls: make([]RollResult, len(o.Rolls)), Path: o.Path, Closed: true, Sealed: true, Over: o.Over}
	nb := 0
	for i, rr := range o.Rolls {
		if rr.Closed {
			// The dice are an empty list, not null: a throw always has its
			// dice, and a sealed one shows none of them.
			out.Rolls[i] = RollResult{Roll: Roll{Dice: []int{}}, CargoReroll: rr.CargoReroll, Closed: true, Sealed: true}
			continue
		}
		out.Rolls[i] = rr
		nb += len(rr.Banked)
		out.Qualified = out.Qualified || rr.Cargo != nil
	}
	if nb > 0 {
		out.Banked = o.Banked[:nb:nb]
	} else {
		out.Path = nil // a closed throw may have fixed a low-or-high path
	}
	return out
}

// pot is the carried pot plus this round's antes.
func (r *Round) pot() int64 {
	p := r.setup.CarriedPot
	if r.setup.Ante {
		p += r.rs.Ante * int64(len(r.seats))
	}
	return p
}
