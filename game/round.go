package game

import (
	"errors"
	"fmt"
)

// This file is a round (docs/rules.md §4): every player takes one turn in play
// order; the point is the best score so far and the hammer the last player
// to throw. A round is rebuilt from its setup and its ordered actions, so the
// server stores only those and replays them through Apply.

// The ways an action or a round setup can be refused.
var (
	ErrOutOfTurn      = errors.New("not this player's turn")
	ErrRoundOver      = errors.New("the round is over")
	ErrUnknownPlayer  = errors.New("player is not in this round")
	ErrBadAction      = errors.New("invalid action")
	ErrNoAutomatic    = errors.New("no automatic to claim")
	ErrLiftNotAllowed = errors.New("lifting cups is not allowed now")
	ErrBadSetup       = errors.New("invalid round setup")
)

// RoundSetup is everything a round starts from besides the ruleset.
type RoundSetup struct {
	// Players are the player ids in play order.
	Players []PlayerID `json:"players"`
	// CarriedPot is what the pot already holds from earlier rounds.
	CarriedPot int64 `json:"carriedPot"`
	// Ante says whether every player antes rs.Ante this round.
	Ante bool `json:"ante"`
	// Declared is the progressive pot's declared winning score, else 0.
	Declared int      `json:"declared,omitempty"`
	Declarer PlayerID `json:"declarer,omitempty"`
	// Playoff marks a one-round playoff among tied players.
	Playoff bool `json:"playoff,omitempty"`
}

// ActionKind names what a player does.
type ActionKind string

// The actions of a round.
const (
	ActionRoll           ActionKind = "roll"
	ActionStand          ActionKind = "stand"
	ActionClaimAutomatic ActionKind = "claim-automatic"
	ActionLiftCups       ActionKind = "lift-cups"
)

// Action is one thing a player did, in the order it happened.
type Action struct {
	Player PlayerID   `json:"player"`
	Kind   ActionKind `json:"kind"`
	Roll   *Roll      `json:"roll,omitempty"`
}

// seat is one player's place in the round.
type seat struct {
	player    PlayerID
	turn      Turn
	started   bool // the player's first roll is recorded
	revealed  bool // the player's cups were lifted
	forfeited bool // an automatic ended the round before this turn
}

// Round is one round being played. Build it with NewRound and feed it
// actions with Apply; it is deterministic, so replaying the same actions
// always gives the same state.
type Round struct {
	rs        Ruleset
	setup     RoundSetup
	seats     []seat
	cur       int // whose turn, len(seats) once every turn is done
	claimable int // whose closed automatic may still be claimed, -1 if none
	autoWin   int // whose claimed automatic won, -1 if none
	over      bool
}

// NewRound starts a round, checking that the setup makes sense for rs.
func NewRound(rs Ruleset, s RoundSetup) (*Round, error) {
	if err := checkSetup(rs, s); err != nil {
		return nil, err
	}
	r := &Round{rs: rs, setup: s, claimable: -1, autoWin: -1}
	r.setup.Players = append([]PlayerID(nil), s.Players...)
	r.seats = make([]seat, len(s.Players))
	for i, p := range s.Players {
		r.seats[i].player = p
		r.seats[i].turn.init(rs)
	}
	return r, nil
}

// checkSetup rejects setups no table could have produced.
func checkSetup(rs Ruleset, s RoundSetup) error {
	if len(s.Players) < 2 {
		return fmt.Errorf("%w: a round needs at least two players, not %d", ErrBadSetup, len(s.Players))
	}
	seen := make(map[PlayerID]bool, len(s.Players))
	for _, p := range s.Players {
		if p <= 0 || seen[p] {
			return fmt.Errorf("%w: player ids must be positive and distinct (%d)", ErrBadSetup, p)
		}
		seen[p] = true
	}
	if s.CarriedPot < 0 {
		return fmt.Errorf("%w: the carried pot must not be negative, not %d", ErrBadSetup, s.CarriedPot)
	}
	if !rs.Progressive {
		if s.Declared != 0 || s.Declarer != 0 {
			return fmt.Errorf("%w: only a progressive pot has a declared score", ErrBadSetup)
		}
		return nil
	}
	lo, hi := scoreRange(rs)
	if s.Declared < lo || s.Declared > hi {
		return fmt.Errorf("%w: the declared score must be between %d and %d, not %d", ErrBadSetup, lo, hi, s.Declared)
	}
	if !seen[s.Declarer] {
		return fmt.Errorf("%w: the declarer %d is not playing this round", ErrBadSetup, s.Declarer)
	}
	return nil
}

// scoreRange is the lowest and highest score a qualified turn can make.
func scoreRange(rs Ruleset) (int, int) {
	if rs.Family == FamilyMeier {
		return 0, 6 * 4 // at most four children: the pair completed on the first throw
	}
	return rs.CargoDice, 6 * rs.CargoDice
}

// Apply validates one action and applies it, as its own player records
// it (or a replay of what was recorded). Out-of-turn actions fail with
// ErrOutOfTurn and illegal throws with the turn's *RollError; on error
// nothing changes.
func (r *Round) Apply(a Action) error {
	return r.ApplyAs(a.Player, a)
}

// ApplyAs is Apply for an action recorded by viewer, whose view (View) may
// seal the player's cargo: the host's phone (viewer 0) recording for a
// player without one, say. A throw on cargo sealed from viewer is judged
// without its faces, so that neither whether it is refused nor the words
// of the refusal depend on the dice under the cup; such a re-roll throws
// the whole cargo (ErrCargoSealed when it names dice picked up).
func (r *Round) ApplyAs(viewer PlayerID, a Action) error {
	if r.over {
		return fmt.Errorf("%w: %s cannot %s", ErrRoundOver, a.Player, a.Kind)
	}
	i := r.seatOf(a.Player)
	if i < 0 {
		return fmt.Errorf("%w: %q", ErrUnknownPlayer, a.Player)
	}
	switch a.Kind {
	case ActionRoll:
		return r.roll(i, a.Roll, r.sealedFrom(i, viewer))
	case ActionStand:
		if err := r.checkTurn(i); err != nil {
			return err
		}
		if err := r.seats[i].turn.Stand(); err != nil {
			return err
		}
		r.advance()
		return nil
	case ActionClaimAutomatic:
		return r.claim(i)
	case ActionLiftCups:
		return r.liftCups(i)
	}
	return fmt.Errorf("%w: unknown kind %q (roll, stand, claim-automatic, lift-cups)", ErrBadAction, a.Kind)
}

// roll records one throw of the player whose turn it is; sealed says their
// cargo is sealed from whoever records it.
func (r *Round) roll(i int, roll *Roll, sealed bool) error {
	if err := r.checkTurn(i); err != nil {
		return err
	}
	if roll == nil {
		return fmt.Errorf("%w: a roll action needs the dice", ErrBadAction)
	}
	s := &r.seats[i]
	if err := s.turn.roll(*roll, sealed); err != nil {
		return err
	}
	// The first roll of the next player closes the claim on a closed
	// automatic: unclaimed, it is a plain 12 from now on.
	if !s.started {
		s.started = true
		r.claimable = -1
	}
	switch {
	case s.turn.automatic && !s.turn.rolls[s.turn.n-1].closed:
		r.winByAutomatic(i) // an open automatic is claimed when recorded
		return nil
	case s.turn.automatic:
		r.claimable = i
	case r.claimable == i:
		r.claimable = -1 // re-rolled away from a closed automatic
	}
	if s.turn.over {
		r.advance()
	}
	return nil
}

// checkTurn rejects an action by anyone but the player whose turn it is.
func (r *Round) checkTurn(i int) error {
	if i != r.cur {
		return fmt.Errorf("%w: it is %s's turn, not %s's", ErrOutOfTurn, r.seats[r.cur].player, r.seats[i].player)
	}
	return nil
}

// claim lets a player claim a closed automatic before the next player's
// first roll is recorded.
func (r *Round) claim(i int) error {
	if r.claimable != i {
		return fmt.Errorf("%w: %s has no closed automatic that may still be claimed", ErrNoAutomatic, r.seats[i].player)
	}
	r.winByAutomatic(i)
	return nil
}

// winByAutomatic ends the round: the automatic wins the pot at once and
// the players who have not yet thrown forfeit their turns.
func (r *Round) winByAutomatic(i int) {
	r.autoWin = i
	r.claimable = -1
	for j := range r.seats {
		if !r.seats[j].started {
			r.seats[j].forfeited = true
		}
	}
	r.cur = len(r.seats)
	r.over = true
}

// advance passes the dice to the next player, ending the round after the
// last turn. A closed automatic of the hammer is still claimable when the
// last turn ends, since nobody rolled after it; the round ends there, so
// it is taken as claimed (house rule, see doc.go).
func (r *Round) advance() {
	r.cur++
	if r.cur < len(r.seats) {
		return
	}
	r.over = true
	if r.claimable >= 0 {
		r.autoWin = r.claimable
		r.claimable = -1
	}
}

// liftCups lets a player who completed the sequence within two rolls call
// the preceding closed rollers to lift their cups before deciding whether
// to stand or roll again.
func (r *Round) liftCups(i int) error {
	if err := r.checkTurn(i); err != nil {
		return err
	}
	if !r.mayLiftCups() {
		return fmt.Errorf("%w: only a player with %s within two rolls, still to decide, may call earlier closed rollers to lift their cups",
			ErrLiftNotAllowed, r.sequenceWords())
	}
	for j := 0; j < i; j++ {
		if r.seats[j].turn.closed {
			r.seats[j].revealed = true
		}
	}
	return nil
}

// mayLiftCups reports whether the player whose turn it is may call for the
// cups to be lifted now: closed rolls on, sequence done in one or two rolls,
// turn not over, and some earlier player with cups still down.
func (r *Round) mayLiftCups() bool {
	if r.over || !r.rs.ClosedRolls || r.cur >= len(r.seats) {
		return false
	}
	t := &r.seats[r.cur].turn
	if t.over || !t.qualified || t.qualAt == 0 || t.qualAt > 2 {
		return false
	}
	for j := 0; j < r.cur; j++ {
		if r.seats[j].turn.closed && !r.seats[j].revealed {
			return true
		}
	}
	return false
}

func (r *Round) sequenceWords() string {
	var t Turn
	t.init(r.rs)
	return t.seqWords()
}

func (r *Round) seatOf(player PlayerID) int {
	for i := range r.seats {
		if r.seats[i].player == player {
			return i
		}
	}
	return -1
}
