package odds

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tally-dice/tally/game"
)

// Query is the question a player asks between throws: with this ruleset,
// these dice banked and this cargo, this many rolls left, facing this point
// with this many players still to throw, what should I do?
type Query struct {
	Ruleset game.Ruleset `json:"ruleset"`
	// Banked lists the values banked so far in sequence order, e.g. [6, 5]
	// or, in low-or-high, [1, 2]. In Die Familie Meier it lists the parents
	// found so far (1 for Mr Meier, 2 for Mrs Meier), in any order.
	Banked []int `json:"banked"`
	// Cargo lists the cargo faces once the sequence is complete. In Die
	// Familie Meier it lists the children thrown so far.
	Cargo []int `json:"cargo,omitempty"`
	// RollsLeft is how many throws the player has left, 0 to 3; 3 means the
	// turn has not started.
	RollsLeft int `json:"rollsLeft"`
	// Point is the best score so far in the round, or nil when nobody has
	// scored yet.
	Point *int `json:"point,omitempty"`
	// Later is how many players are still to throw after this one.
	Later int `json:"later"`
	// PathHint, in low-or-high, names the sequence ("6-5-4" or "1-2-3") the
	// player goes for. It must agree with Banked. With nothing banked it is
	// the path the player takes on any later throw that could start either
	// sequence; a throw that starts only the other one still banks it, since
	// banking is mandatory.
	PathHint string `json:"pathHint,omitempty"`
}

// The ways a query can be impossible. Advise wraps them with the details.
var (
	// ErrRuleset: the ruleset is not one the advisor can model (an unknown
	// family or cargo policy, or sequences that do not fit five dice).
	ErrRuleset = errors.New("ruleset cannot be analysed")
	// ErrRollsLeft: rolls left must be 0 to 3.
	ErrRollsLeft = errors.New("rolls left must be 0 to 3")
	// ErrLater: the number of later players must be 0 to MaxLater.
	ErrLater = errors.New("later players out of range")
	// ErrPoint: the point is not a score this ruleset can produce.
	ErrPoint = errors.New("point is not a possible score")
	// ErrBanked: the banked dice are not the start of a required sequence
	// (or, in Die Familie Meier, not distinct parents).
	ErrBanked = errors.New("banked dice do not fit the required sequence")
	// ErrCargoNotQualified: cargo was given before the sequence is complete.
	ErrCargoNotQualified = errors.New("cargo given before qualifying")
	// ErrCargoCount: the number of cargo dice is wrong for the ruleset.
	ErrCargoCount = errors.New("wrong number of cargo dice")
	// ErrFace: a die must show 1 to 6.
	ErrFace = errors.New("a die must show 1 to 6")
	// ErrPathHint: the path hint names no sequence of the ruleset or
	// disagrees with the banked dice.
	ErrPathHint = errors.New("path hint does not fit")
	// ErrImpossibleState: no turn can reach this state, e.g. dice banked
	// with all three rolls still to come.
	ErrImpossibleState = errors.New("no turn reaches this state")
)

// position is a validated query: where in the graph the player is and what
// the round looks like around them.
type position struct {
	shape shape
	state state
	point int // outcome index of the point; noScore when nobody has scored
	later int
}

// locate validates the query and finds its position.
func (q Query) locate() (position, error) {
	rs := q.Ruleset
	if err := checkRuleset(rs); err != nil {
		return position{}, err
	}
	pos := position{shape: shapeOf(rs), later: q.Later}
	if q.RollsLeft < 0 || q.RollsLeft > 3 {
		return position{}, fmt.Errorf("%w: %d", ErrRollsLeft, q.RollsLeft)
	}
	if q.Later < 0 || q.Later > MaxLater {
		return position{}, fmt.Errorf("%w: %d (0 to %d)", ErrLater, q.Later, MaxLater)
	}
	for _, f := range slices.Concat(q.Banked, q.Cargo) {
		if f < 1 || f > 6 {
			return position{}, fmt.Errorf("%w, not %d", ErrFace, f)
		}
	}
	if q.RollsLeft == 3 && len(q.Banked)+len(q.Cargo) > 0 {
		return position{}, fmt.Errorf("%w: dice banked before the first roll", ErrImpossibleState)
	}
	var err error
	if rs.Family == game.FamilyMeier {
		pos.state, err = q.meierState()
	} else {
		pos.state, err = q.shipState()
	}
	if err != nil {
		return position{}, err
	}
	sc := scaleOf(pos.shape)
	pos.point = noScore
	if q.Point != nil {
		if *q.Point < sc.min || *q.Point > sc.max {
			return position{}, fmt.Errorf("%w: %d (%d to %d)", ErrPoint, *q.Point, sc.min, sc.max)
		}
		pos.point = sc.index(*q.Point)
	}
	return pos, nil
}

// scaleOf is the outcome scale of a shape, without building its graph.
func scaleOf(sh shape) scale {
	if sh.family == game.FamilyMeier {
		return scale{min: 0, max: meierMax, low: sh.low}
	}
	return scale{min: sh.cargoDice, max: 6 * sh.cargoDice, low: sh.low}
}

// checkRuleset rejects rulesets the graph builders cannot model.
func checkRuleset(rs game.Ruleset) error {
	switch rs.Family {
	case game.FamilyMeier:
		return nil
	case game.FamilyShip:
	default:
		return fmt.Errorf("%w: unknown family %q", ErrRuleset, rs.Family)
	}
	switch rs.Cargo {
	case game.CargoTogether, game.CargoAny, game.CargoNone:
	default:
		return fmt.Errorf("%w: unknown cargo policy %q", ErrRuleset, rs.Cargo)
	}
	if len(rs.Sequences) == 0 || len(rs.Sequences) > 4 {
		return fmt.Errorf("%w: needs 1 to 4 sequences, has %d", ErrRuleset, len(rs.Sequences))
	}
	for _, seq := range rs.Sequences {
		if len(seq) != len(rs.Sequences[0]) || len(seq)+rs.CargoDice != maxDice || rs.CargoDice < 1 || rs.CargoDice > 3 {
			return fmt.Errorf("%w: sequence %v with %d cargo dice does not make five dice", ErrRuleset, seq, rs.CargoDice)
		}
		for i, f := range seq {
			if f < 1 || f > 6 || slices.Contains(seq[:i], f) {
				return fmt.Errorf("%w: sequence %v needs distinct faces 1 to 6", ErrRuleset, seq)
			}
		}
	}
	return nil
}

// pathName writes a sequence the way players and the API name it: "6-5-4".
func pathName(seq []int) string {
	parts := make([]string, len(seq))
	for i, f := range seq {
		parts[i] = strconv.Itoa(f)
	}
	return strings.Join(parts, "-")
}

// shipState locates a Ship-family query.
func (q Query) shipState() (state, error) {
	seqs := q.Ruleset.Sequences
	hint := -1
	if q.PathHint != "" {
		hint = slices.IndexFunc(seqs, func(seq []int) bool { return pathName(seq) == q.PathHint })
		if hint < 0 {
			return state{}, fmt.Errorf("%w: %q is not a sequence of %s", ErrPathHint, q.PathHint, q.Ruleset.Preset)
		}
	}
	rolls := int8(q.RollsLeft)
	if len(q.Banked) == 0 {
		if len(q.Cargo) > 0 {
			return state{}, fmt.Errorf("%w: nothing is banked", ErrCargoNotQualified)
		}
		mask := uint8(1)<<len(seqs) - 1
		if hint >= 0 {
			mask = 1 << hint
		}
		return openState(rolls, mask), nil
	}
	path := slices.IndexFunc(seqs, func(seq []int) bool {
		return len(q.Banked) <= len(seq) && slices.Equal(seq[:len(q.Banked)], q.Banked)
	})
	if path < 0 {
		return state{}, fmt.Errorf("%w: %v", ErrBanked, q.Banked)
	}
	if hint >= 0 {
		if len(q.Banked) > len(seqs[hint]) || !slices.Equal(seqs[hint][:len(q.Banked)], q.Banked) {
			return state{}, fmt.Errorf("%w: %v is not on %s", ErrPathHint, q.Banked, q.PathHint)
		}
		path = hint
	}
	if len(q.Banked) < len(seqs[path]) {
		if len(q.Cargo) > 0 {
			return state{}, fmt.Errorf("%w: banked %v", ErrCargoNotQualified, q.Banked)
		}
		return pathState(rolls, path, len(q.Banked)), nil
	}
	if len(q.Cargo) != q.Ruleset.CargoDice {
		return state{}, fmt.Errorf("%w: %d, want %d", ErrCargoCount, len(q.Cargo), q.Ruleset.CargoDice)
	}
	cargo := slices.Sorted(slices.Values(q.Cargo))
	return cargoState(rolls, len(seqs[path]), cargo), nil
}

// meierState locates a Die Familie Meier query.
func (q Query) meierState() (state, error) {
	if q.PathHint != "" {
		return state{}, fmt.Errorf("%w: Die Familie Meier has no paths", ErrPathHint)
	}
	st := state{rolls: int8(q.RollsLeft)}
	for _, f := range q.Banked {
		var bit uint8
		switch f {
		case 1:
			bit = mrMeier
		case 2:
			bit = mrsMeier
		}
		if bit == 0 || st.mask&bit != 0 {
			return state{}, fmt.Errorf("%w: parents are one 1 and one 2, not %v", ErrBanked, q.Banked)
		}
		st.mask |= bit
	}
	if st.mask != bothMeier {
		if len(q.Cargo) > 0 {
			return state{}, fmt.Errorf("%w: children come only after both parents", ErrCargoNotQualified)
		}
		return st, nil
	}
	if counts := meierChildren(q.RollsLeft); !slices.Contains(counts, len(q.Cargo)) {
		return state{}, fmt.Errorf("%w: %d children with %d rolls left (possible: %v)", ErrCargoCount, len(q.Cargo), q.RollsLeft, counts)
	}
	for _, f := range q.Cargo {
		st.sum += int8(f)
	}
	return st, nil
}
