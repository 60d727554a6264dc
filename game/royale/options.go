package royale

import (
	"errors"
	"fmt"
	"io"
)

// Mode is the game played: standard or advanced (docs/royale.md §3).
type Mode string

// The two modes of Battleship Royale.
const (
	Standard Mode = "standard"
	Advanced Mode = "advanced"
)

// FleetSource says where the fleets come from (docs/royale.md §2).
type FleetSource string

// Tally deals the fleets, or each player enters the cards they hold.
const (
	Dealt   FleetSource = "dealt"
	Entered FleetSource = "entered"
)

// DieSource says who rolls the die: the table's real die, or Tally.
type DieSource string

// The real die at the table, or Tally's roll (a house rule, docs/royale.md §3).
const (
	RealDie  DieSource = "real"
	TallyDie DieSource = "tally"
)

// Options are a Battleship Royale table's choices.
type Options struct {
	Mode   Mode        `json:"mode"`
	Fleet  FleetSource `json:"fleet"`
	Die    DieSource   `json:"die"`
	Ante   int64       `json:"ante"`
	Bounty int64       `json:"bounty"` // 0: no bounty
}

// MinPlayers and MaxPlayers bound how many play one game.
const MinPlayers, MaxPlayers = 2, 6

// maxStake bounds the ante and the bounty, in the table's smallest unit.
const maxStake = 1_000_000

// ErrOptions is wrapped by every refusal of a table's options.
var ErrOptions = errors.New("invalid Battleship Royale options")

// WithDefaults fills the options left empty: the standard game, fleets
// dealt, the real die.
func (o Options) WithDefaults() Options {
	if o.Mode == "" {
		o.Mode = Standard
	}
	if o.Fleet == "" {
		o.Fleet = Dealt
	}
	if o.Die == "" {
		o.Die = RealDie
	}
	return o
}

// Check refuses options Tally does not know or cannot pay: an unknown mode,
// fleet source or die, or an ante or bounty below 0 or above 1,000,000.
// Empty choices are refused too; fill them with WithDefaults first.
func (o Options) Check() error {
	switch {
	case o.Mode != Standard && o.Mode != Advanced:
		return fmt.Errorf("%w: mode %q (standard or advanced)", ErrOptions, o.Mode)
	case o.Fleet != Dealt && o.Fleet != Entered:
		return fmt.Errorf("%w: fleet %q (dealt or entered)", ErrOptions, o.Fleet)
	case o.Die != RealDie && o.Die != TallyDie:
		return fmt.Errorf("%w: die %q (real or tally)", ErrOptions, o.Die)
	case o.Ante < 0 || o.Ante > maxStake:
		return fmt.Errorf("%w: ante %d (0 to %d)", ErrOptions, o.Ante, maxStake)
	case o.Bounty < 0 || o.Bounty > maxStake:
		return fmt.Errorf("%w: bounty %d (0 to %d)", ErrOptions, o.Bounty, maxStake)
	}
	return nil
}

// HandSize is how many cards each player is dealt: 5 with 2-4 players and
// 4 with 5-6, in either mode (the advanced hand counts its submarine).
func HandSize(mode Mode, players int) int {
	if players >= 5 {
		return 4
	}
	return 5
}

// KeepSize is how many cards each player keeps: the hand less two.
func KeepSize(mode Mode, players int) int { return HandSize(mode, players) - 2 }

// DealHand deals one player's hand from r, a cryptographic random source.
// Standard: HandSize cards of kinds drawn uniformly from the five kinds.
// Advanced: a submarine first, then HandSize-1 kinds drawn uniformly from
// the four surface kinds, each card carrying its dealt bonus number.
func DealHand(r io.Reader, mode Mode, players int) (Fleet, error) {
	n := HandSize(mode, players)
	kinds := make([]Kind, 0, n)
	deck := Kinds
	if mode == Advanced {
		kinds = append(kinds, Submarine)
		deck = surfaceKinds
	}
	for len(kinds) < n {
		i, err := uniform(r, len(deck))
		if err != nil {
			return nil, err
		}
		kinds = append(kinds, deck[i])
	}
	return Deal(r, kinds, mode == Advanced)
}

// surfaceKinds are the kinds of the advanced deck's ship cards.
var surfaceKinds = []Kind{PatrolBoat, Destroyer, Battleship, Carrier}
