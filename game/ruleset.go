package game

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Family says which kind of game a ruleset plays: the Ship, Captain and Crew
// family (a required sequence, then cargo) or Die Familie Meier (three fixed
// throws, parents then children).
type Family string

// The game families.
const (
	FamilyShip  Family = "ship"
	FamilyMeier Family = "meier"
)

// CargoPolicy says how a qualified player may re-roll cargo (docs/rules.md §1).
type CargoPolicy string

// The cargo policies.
const (
	CargoTogether CargoPolicy = "together" // all cargo dice are thrown together
	CargoAny      CargoPolicy = "any"      // any non-empty subset may be re-thrown
	CargoNone     CargoPolicy = "none"     // no cargo re-rolls
)

// TieRule says what happens when the best score of a round is shared.
type TieRule string

// The tie rules (docs/rules.md §2).
const (
	TieOneTieAllTie TieRule = "one-tie-all-tie" // nobody wins; the pot carries
	TieSplit        TieRule = "split"           // the tied winners share the pot
	TiePlayoff      TieRule = "playoff"         // the tied players play one more round
)

// NoQualifyRule says what happens when nobody in a round scores.
type NoQualifyRule string

// The no-one-qualifies rules (docs/rules.md §2).
const (
	NoQualifyAllTie    NoQualifyRule = "all-tie"    // an all-tie: the pot carries
	NoQualifyScoreZero NoQualifyRule = "score-zero" // everyone scores 0 for the round (Scarne)
	NoQualifyRefund    NoQualifyRule = "refund"     // the pot is split among all players
)

// Payoff says how a winner is paid (docs/rules.md §6).
type Payoff string

// The payoffs.
const (
	PayoffPot      Payoff = "pot"       // the winner takes the pot
	PayoffPerPoint Payoff = "per-point" // losers pay the winner stake × margin
)

// StartRule says who throws first in each round (docs/rules.md §7).
type StartRule string

// The start rules.
const (
	StartRotateLeft  StartRule = "rotate-left"
	StartRotateRight StartRule = "rotate-right"
	StartRollOff     StartRule = "roll-off"
	StartLoserFirst  StartRule = "loser-first"
)

// GoalKind says when a game ends.
type GoalKind string

// The goal kinds.
const (
	GoalRound  GoalKind = "round"  // every round is settled on its own
	GoalPoints GoalKind = "points" // first to Target points; the round is completed
	GoalRounds GoalKind = "rounds" // highest total after Target rounds
)

// Goal is when a game of rounds ends. Only `scarne` plays a game of rounds.
type Goal struct {
	Kind   GoalKind `json:"kind"`
	Target int      `json:"target,omitempty"`
}

// Ruleset is everything the engine needs to judge a turn, a round and a game.
// It is plain data: a preset fills it in and a table's Options adjust it.
// Build one with NewRuleset so that it is always consistent.
type Ruleset struct {
	Preset string `json:"preset"`
	Family Family `json:"family"`
	// Sequences lists the required sequences, each in the order the dice must
	// be banked. Most presets have one; low-or-high has 6-5-4 and 1-2-3.
	Sequences [][]int `json:"sequences,omitempty"`
	// CargoDice is how many dice are left as cargo: 5 minus the sequence length.
	CargoDice   int           `json:"cargoDice"`
	Cargo       CargoPolicy   `json:"cargo"`
	Low         bool          `json:"low"`
	Automatic   bool          `json:"automatic"`
	ClosedRolls bool          `json:"closedRolls"`
	Progressive bool          `json:"progressive"`
	Payoff      Payoff        `json:"payoff"`
	Stake       int64         `json:"stake,omitempty"` // units per point with per-point payoff
	Ante        int64         `json:"ante"`
	Start       StartRule     `json:"start"`
	ReanteOnTie bool          `json:"reanteOnTie"`
	Ties        TieRule       `json:"ties"`
	NoQualify   NoQualifyRule `json:"noQualify"`
	Goal        Goal          `json:"goal"`
}

// Options are the settings a table may override on its preset. A nil field
// keeps the preset's default.
type Options struct {
	Low         *bool      `json:"low,omitempty"`
	Automatic   *bool      `json:"automatic,omitempty"`
	ClosedRolls *bool      `json:"closedRolls,omitempty"`
	Progressive *bool      `json:"progressive,omitempty"`
	Payoff      *Payoff    `json:"payoff,omitempty"`
	Stake       *int64     `json:"stake,omitempty"`
	Ante        *int64     `json:"ante,omitempty"`
	Start       *StartRule `json:"start,omitempty"`
	ReanteOnTie *bool      `json:"reanteOnTie,omitempty"`
	// Goal picks Scarne's game of rounds: first to Target points (default
	// 100) or highest total after Target rounds (default 10).
	Goal *Goal `json:"goal,omitempty"`
}

// PresetInfo describes a preset for people choosing one: Name is what the
// API takes ("ship-of-fools"), Title what people call it ("Ship of Fools").
type PresetInfo struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Source      string `json:"source"`
	Description string `json:"description"`
}

// ErrUnknownPreset and ErrBadOption are returned by NewRuleset.
var (
	ErrUnknownPreset = errors.New("unknown ruleset preset")
	ErrBadOption     = errors.New("invalid ruleset option")
)

var (
	seq654 = []int{6, 5, 4}
	seq123 = []int{1, 2, 3}
	seq65  = []int{6, 5}
)

// preset pairs a preset's description with its defaults.
type preset struct {
	info PresetInfo
	rs   Ruleset
}

// presets holds each preset's defaults, in the order people are shown them.
var presets = []preset{
	{PresetInfo{"bar", "Bar rules", "bar-rules-automatics.txt", "6-5-4, both cargo dice re-rolled together, closed rolls, 6-6 automatic, one tie all tie."},
		Ruleset{Family: FamilyShip, Sequences: [][]int{seq654}, Cargo: CargoTogether, Automatic: true, ClosedRolls: true, Ties: TieOneTieAllTie, NoQualify: NoQualifyAllTie}},
	{PresetInfo{"classic", "Classic", "ship-captain-crew-variants.txt", "6-5-4, re-roll one or both cargo dice, highest cargo wins, ties split."},
		Ruleset{Family: FamilyShip, Sequences: [][]int{seq654}, Cargo: CargoAny, Ties: TieSplit, NoQualify: NoQualifyAllTie}},
	{PresetInfo{"scarne", "Scarne's Battleship", "scarne-battleship.txt", "A game of rounds to 100 points (or ten rounds), roll-off for first, playoff on a tie."},
		Ruleset{Family: FamilyShip, Sequences: [][]int{seq654}, Cargo: CargoAny, Ties: TiePlayoff, NoQualify: NoQualifyScoreZero, Start: StartRollOff, Goal: Goal{GoalPoints, 100}}},
	{PresetInfo{"ship-of-fools", "Ship of Fools", "ship-of-fools.txt", "6-5-4, cargo re-rolled together, ties split, next round starts to the right."},
		Ruleset{Family: FamilyShip, Sequences: [][]int{seq654}, Cargo: CargoTogether, Ties: TieSplit, NoQualify: NoQualifyRefund, Start: StartRotateRight}},
	{PresetInfo{"ship-captain", "Ship, Captain", "ship-captain-crew-variants.txt", "Only 6-5 is needed; three cargo dice score 3 to 18."},
		Ruleset{Family: FamilyShip, Sequences: [][]int{seq65}, Cargo: CargoAny, Ties: TieSplit, NoQualify: NoQualifyAllTie}},
	{PresetInfo{"low-or-high", "Low or High", "ship-captain-crew-variants.txt", "Either 6-5-4 or 1-2-3, in order, qualifies."},
		Ruleset{Family: FamilyShip, Sequences: [][]int{seq654, seq123}, Cargo: CargoAny, Ties: TieSplit, NoQualify: NoQualifyAllTie}},
	{PresetInfo{"family-meier", "Die Familie Meier", "ship-captain-crew-variants.txt", "Throw 3, 2, then 1 die; find Mr (1) and Mrs (2) Meier; later dice are the children."},
		Ruleset{Family: FamilyMeier, Cargo: CargoNone, Ties: TieSplit, NoQualify: NoQualifyAllTie}},
}

// DefaultPreset is the preset a table gets when it names none.
const DefaultPreset = "bar"

// presetNames are the presets' names, in display order, comma-separated.
func presetNames() string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.info.Name
	}
	return strings.Join(names, ", ")
}

// Presets lists the presets in display order.
func Presets() []PresetInfo {
	out := make([]PresetInfo, len(presets))
	for i, p := range presets {
		out[i] = p.info
	}
	return out
}

// NewRuleset builds the ruleset for a preset with a table's options applied,
// and rejects unknown presets and options that contradict each other or the
// preset.
func NewRuleset(name string, o Options) (Ruleset, error) {
	if name == "" {
		name = DefaultPreset
	}
	i := slices.IndexFunc(presets, func(p preset) bool { return p.info.Name == name })
	if i < 0 {
		return Ruleset{}, fmt.Errorf("%w %q (known: %s)", ErrUnknownPreset, name, presetNames())
	}
	rs := presets[i].rs
	rs.Preset = name
	rs.Sequences = slices.Clone(rs.Sequences)
	rs.CargoDice = 5 - len(rs.sequence())
	if rs.Family == FamilyMeier {
		rs.CargoDice = 0
	}
	rs.Payoff = PayoffPot
	rs.Ante = 1
	rs.ReanteOnTie = true
	if rs.Start == "" {
		rs.Start = StartRotateLeft
	}
	if rs.Goal.Kind == "" {
		rs.Goal = Goal{Kind: GoalRound}
	}
	if err := rs.apply(o); err != nil {
		return Ruleset{}, err
	}
	return rs, nil
}

// sequence is the first required sequence; every preset's sequences share a
// length.
func (rs Ruleset) sequence() []int {
	if len(rs.Sequences) == 0 {
		return nil
	}
	return rs.Sequences[0]
}

// apply overlays a table's options and checks the result for contradictions.
// The steps go in this order because each checks what the one before set.
func (rs *Ruleset) apply(o Options) error {
	for _, step := range []func(Options) error{rs.applyScoring, rs.applyGoal, rs.applyMoney, rs.applyStart} {
		if err := step(o); err != nil {
			return err
		}
	}
	if rs.Low && rs.Goal.Kind != GoalRound {
		return badOption("low: %s's game of rounds is won by the highest total", rs.Preset)
	}
	return nil
}

// badOption is an ErrBadOption saying what was wrong.
func badOption(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrBadOption}, a...)...)
}

// applyScoring overlays how a roll scores: low, automatics, closed rolls.
func (rs *Ruleset) applyScoring(o Options) error {
	meier := rs.Family == FamilyMeier
	if o.Low != nil {
		rs.Low = *o.Low
	}
	if o.Automatic != nil {
		if *o.Automatic && meier {
			return badOption("automatic: family-meier has no cargo, so no automatic")
		}
		rs.Automatic = *o.Automatic
	} else if rs.Low {
		// docs/rules.md §4: in a low game no score is automatic unless the table says so.
		rs.Automatic = false
	}
	if o.ClosedRolls != nil {
		if *o.ClosedRolls && meier {
			return badOption("closed-rolls: family-meier has no cargo re-rolls to close")
		}
		rs.ClosedRolls = *o.ClosedRolls
	}
	return nil
}

// applyGoal overlays Scarne's game of rounds.
func (rs *Ruleset) applyGoal(o Options) error {
	if o.Goal == nil {
		return nil
	}
	if rs.Preset != "scarne" {
		return badOption("goal: only scarne plays a game of rounds")
	}
	g := *o.Goal
	switch g.Kind {
	case GoalPoints:
		if g.Target == 0 {
			g.Target = 100
		}
	case GoalRounds:
		if g.Target == 0 {
			g.Target = 10
		}
	default:
		return badOption("goal: kind must be %q or %q, not %q", GoalPoints, GoalRounds, g.Kind)
	}
	if g.Target < 1 || g.Target > 10000 {
		return badOption("goal: target must be between 1 and 10000, not %d", g.Target)
	}
	rs.Goal = g
	return nil
}

// applyMoney overlays what a round pays: the progressive pot, the payoff,
// the stake and the ante.
func (rs *Ruleset) applyMoney(o Options) error {
	if o.Progressive != nil {
		if *o.Progressive && rs.Goal.Kind != GoalRound {
			return badOption("progressive: a progressive pot needs single-round settling, but %s plays a game of rounds", rs.Preset)
		}
		rs.Progressive = *o.Progressive
	}
	if o.Payoff != nil {
		switch *o.Payoff {
		case PayoffPot, PayoffPerPoint:
			rs.Payoff = *o.Payoff
		default:
			return badOption("payoff must be %q or %q, not %q", PayoffPot, PayoffPerPoint, *o.Payoff)
		}
	}
	if o.Stake != nil {
		if rs.Payoff != PayoffPerPoint {
			return badOption("stake is only used with payoff %q", PayoffPerPoint)
		}
		rs.Stake = *o.Stake
	}
	if rs.Payoff == PayoffPerPoint {
		if rs.Stake < 1 {
			return badOption("payoff %q needs a stake of at least 1 unit per point", PayoffPerPoint)
		}
		if rs.Progressive {
			return badOption("progressive pots pay the pot, not %q", PayoffPerPoint)
		}
	}
	if o.Ante != nil {
		if *o.Ante < 0 {
			return badOption("ante must not be negative, not %d", *o.Ante)
		}
		rs.Ante = *o.Ante
	}
	if rs.Ante > 1_000_000_000 || rs.Stake > 1_000_000_000 {
		return badOption("ante and stake must be at most 1000000000 units")
	}
	return nil
}

// applyStart overlays who starts a round and whether a tie antes again.
func (rs *Ruleset) applyStart(o Options) error {
	if o.Start != nil {
		switch *o.Start {
		case StartRotateLeft, StartRotateRight, StartRollOff, StartLoserFirst:
			rs.Start = *o.Start
		default:
			return badOption("start must be one of rotate-left, rotate-right, roll-off, loser-first, not %q", *o.Start)
		}
	}
	if o.ReanteOnTie != nil {
		rs.ReanteOnTie = *o.ReanteOnTie
	}
	return nil
}
