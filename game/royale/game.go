package royale

import (
	"fmt"
	"math"
	"slices"

	"github.com/tally-dice/tally/game"
)

// Setup is everything a game starts from; a game is its Setup plus the
// ordered Actions applied to it, so the server stores only those and
// replays them through the engine (Replay), under the rules the game was
// set up with (Rules; absent, Rules0).
type Setup struct {
	Rules      Rules                   `json:"rules,omitempty"`
	Options    Options                 `json:"options"`
	Players    []game.PlayerID         `json:"players"` // seat order (play goes this way)
	First      game.PlayerID           `json:"first"`   // who starts (the host picks)
	CarriedPot int64                   `json:"carriedPot"`
	Hands      map[game.PlayerID]Fleet `json:"hands,omitempty"` // dealt hands (fleet dealt); nil for entered
}

// PlayOrder is the game's players in the order they play: seat order,
// starting from the first player (docs/royale.md §3). Money handed back
// (ReturnOrder) follows it, as a dice round's players do.
func (s Setup) PlayOrder() []game.PlayerID { return game.PlayOrder(s.Players, s.First) }

// ActionKind names what a player (or the host) does.
type ActionKind string

// The actions of a game, with the fields of Action each one takes.
const (
	ActKeep    ActionKind = "keep"    // Discard: 0-based indexes into the dealt hand; Salt
	ActEnter   ActionKind = "enter"   // Fleet; Salt
	ActSonar   ActionKind = "sonar"   // Line
	ActRoll    ActionKind = "roll"    // Die
	ActShoot   ActionKind = "shoot"   // Cells: standard one cell; advanced the die's whole volley
	ActBonus   ActionKind = "bonus"   // Cells: standard one bonus shot; advanced one trophy card's bonus volley; Card
	ActEnd     ActionKind = "end"     // the turn's player says done
	ActAbandon ActionKind = "abandon" // the host abandons the game (Player 0)
)

// Action is one thing a player did, in order; a game is its Setup plus its actions.
type Action struct {
	Player  game.PlayerID `json:"player"`
	Kind    ActionKind    `json:"kind"`
	Discard []int         `json:"discard,omitempty"`
	Fleet   Fleet         `json:"fleet,omitempty"`
	Salt    []byte        `json:"salt,omitempty"`
	Line    string        `json:"line,omitempty"` // sonar: as ParseLine reads it, "A".."J" or "1".."10"
	Die     int           `json:"die,omitempty"`
	Cells   []Cell        `json:"cells,omitempty"`
	Card    int           `json:"card,omitempty"` // advanced bonus: 1-based number of the trophy (View Trophies order) to use; 0 = the first unused
}

// Phase of a game.
type Phase string

// A game's phases: fleets being kept or entered, play, the end.
const (
	PhaseFleets  Phase = "fleets"
	PhasePlaying Phase = "playing"
	PhaseOver    Phase = "over"
)

// Game is one game of Battleship Royale being refereed. Apply takes its
// actions one at a time; View shows it as one viewer may see it.
type Game struct {
	setup  Setup
	opts   Options // setup.Options with defaults
	phase  Phase
	seats  []seat
	cur    int       // the turn's seat, while playing
	t      turnState // the turn's progress
	board  [Size * Size]int8
	covers [Size * Size][]ref // the kept cards over each cell, once playing
	unshot int
	sunk   []Sinking
	sonar  []SonarCall
	result *Result
}

// seat is one player's place at the table.
type seat struct {
	player     game.PlayerID
	hand       Fleet // dealt, fleet dealt only
	fleet      Fleet // kept or entered; nil until ready
	salt       []byte
	commit     [32]byte // the fleet's commitment, once play started
	left       []int    // per card, its cells not yet shot
	sunk       []bool   // per card
	afloat     int
	eliminated bool
	baseSonar  bool // the base sonar is still unused (advanced)
	trophies   []Trophy
}

// ref names one kept card: a seat and the card's index in its fleet.
type ref struct{ seat, card int }

// unshotPeg marks a cell of the board nobody has shot.
const unshotPeg = -1

// NewGame checks the setup and starts the game in its fleets phase: rules
// this engine knows (Rules0 to CurrentRules), 2-6 distinct nonzero players,
// First among them, valid options, a carried pot of 0 or more, and with
// fleets dealt one hand per player of HandSize cards that is a fleet (with
// exactly one submarine in the advanced game); with fleets entered no
// hands.
func NewGame(s Setup) (*Game, error) {
	if err := checkSetup(s); err != nil {
		return nil, err
	}
	g := &Game{setup: cloneSetup(s), opts: s.Options.WithDefaults(), phase: PhaseFleets, unshot: Size * Size}
	for i := range g.board {
		g.board[i] = unshotPeg
	}
	g.seats = make([]seat, len(s.Players))
	for i, p := range s.Players {
		g.seats[i] = seat{player: p, hand: g.setup.Hands[p], baseSonar: g.opts.Mode == Advanced}
	}
	return g, nil
}

// checkSetup refuses a setup a game cannot start from.
func checkSetup(s Setup) error {
	if s.Rules < Rules0 || s.Rules > CurrentRules {
		return fmt.Errorf("%w: rules %d (this engine knows %d to %d)", ErrSetup, s.Rules, Rules0, CurrentRules)
	}
	o := s.Options.WithDefaults()
	if err := o.Check(); err != nil {
		return err
	}
	n := len(s.Players)
	if n < MinPlayers || n > MaxPlayers {
		return fmt.Errorf("%w: %d players (%d to %d play)", ErrSetup, n, MinPlayers, MaxPlayers)
	}
	for i, p := range s.Players {
		if p == 0 {
			return fmt.Errorf("%w: player %d has no id", ErrSetup, i+1)
		}
		if slices.Index(s.Players, p) != i {
			return fmt.Errorf("%w: player %s is seated twice", ErrSetup, p)
		}
	}
	if !slices.Contains(s.Players, s.First) {
		return fmt.Errorf("%w: the first player %s is not at the table", ErrSetup, s.First)
	}
	if s.CarriedPot < 0 || s.CarriedPot > math.MaxInt64-MaxPlayers*maxStake {
		return fmt.Errorf("%w: a carried pot of %d", ErrSetup, s.CarriedPot)
	}
	if o.Fleet == Entered {
		if s.Hands != nil {
			return fmt.Errorf("%w: fleets are entered, so nobody is dealt a hand", ErrSetup)
		}
		return nil
	}
	if len(s.Hands) != n {
		return fmt.Errorf("%w: %d dealt hands for %d players", ErrSetup, len(s.Hands), n)
	}
	size := HandSize(o.Mode, n)
	for _, p := range s.Players {
		h, ok := s.Hands[p]
		if !ok {
			return fmt.Errorf("%w: no hand dealt to player %s", ErrSetup, p)
		}
		if len(h) != size {
			return fmt.Errorf("%w: player %s holds %d cards, not %d", ErrSetup, p, len(h), size)
		}
		if err := h.Check(); err != nil {
			return fmt.Errorf("%w: player %s's hand: %w", ErrSetup, p, err)
		}
		if subs := countKind(h, Submarine); o.Mode == Advanced && subs != 1 {
			return fmt.Errorf("%w: player %s's advanced hand holds %d submarines, not 1", ErrSetup, p, subs)
		}
	}
	return nil
}

// countKind counts the cards of kind k in f.
func countKind(f Fleet, k Kind) int {
	n := 0
	for _, c := range f {
		if c.Kind == k {
			n++
		}
	}
	return n
}

// cloneFleet is a deep copy of f (nil stays nil).
func cloneFleet(f Fleet) Fleet {
	if f == nil {
		return nil
	}
	out := make(Fleet, len(f))
	for i, c := range f {
		out[i] = Card{Kind: c.Kind, Cells: slices.Clone(c.Cells), Bonus: c.Bonus}
	}
	return out
}

func cloneSetup(s Setup) Setup {
	s.Players = slices.Clone(s.Players)
	if s.Hands != nil {
		hands := make(map[game.PlayerID]Fleet, len(s.Hands))
		for p, h := range s.Hands {
			hands[p] = cloneFleet(h)
		}
		s.Hands = hands
	}
	return s
}

// Setup is a copy of the setup the game started from.
func (g *Game) Setup() Setup { return cloneSetup(g.setup) }

// Phase is the game's phase.
func (g *Game) Phase() Phase { return g.phase }

// Turn is the player whose turn it is; 0 outside play.
func (g *Game) Turn() game.PlayerID {
	if g.phase != PhasePlaying {
		return 0
	}
	return g.seats[g.cur].player
}

// Antes are what each player puts into the pot, in seat order: the
// table's ante each; none when the ante is 0.
func (g *Game) Antes() []game.Amount {
	if g.opts.Ante <= 0 {
		return nil
	}
	out := make([]game.Amount, len(g.seats))
	for i, s := range g.seats {
		out[i] = game.Amount{Player: s.player, Amount: g.opts.Ante}
	}
	return out
}

// potBefore is the carried pot plus the antes.
func (g *Game) potBefore() int64 {
	return g.setup.CarriedPot + g.opts.Ante*int64(len(g.seats))
}

// Pot is what the pot holds: the carried pot plus the antes until the
// end, and then what stays in it (a split's indivisible remainder).
func (g *Game) Pot() int64 {
	if g.result != nil {
		return g.result.Settlement.CarryOver
	}
	return g.potBefore()
}

// Commitments are every fleet's commitment, published when play starts;
// nil before.
func (g *Game) Commitments() map[game.PlayerID][32]byte {
	if !g.started() {
		return nil
	}
	out := make(map[game.PlayerID][32]byte, len(g.seats))
	for _, s := range g.seats {
		out[s.player] = s.commit
	}
	return out
}

// started reports whether every fleet came in and play began.
func (g *Game) started() bool {
	for _, s := range g.seats {
		if s.fleet == nil {
			return false
		}
	}
	return true
}

// Result is how the game ended; nil until it is over.
func (g *Game) Result() *Result {
	if g.result == nil {
		return nil
	}
	return cloneResult(g.result)
}

// seatOf is the seat index of player p, or -1.
func (g *Game) seatOf(p game.PlayerID) int {
	for i, s := range g.seats {
		if s.player == p {
			return i
		}
	}
	return -1
}
