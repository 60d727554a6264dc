package odds

import (
	"strconv"
	"strings"
	"sync"

	"github.com/tally-dice/tally/game"
)

// MaxLater is the most players still to throw after the asking player that
// a query may name: a table of twenty. The precomputed tables cover every
// count up to it.
const MaxLater = 19

// shape is everything about a ruleset that changes the odds of a turn.
// Rulesets of one shape (bar and ship-of-fools, say) share one table.
type shape struct {
	family    game.Family
	seqs      string // the sequences, e.g. "654,123"
	cargoDice int
	cargo     game.CargoPolicy
	low       bool
	automatic bool
}

// shapeOf reduces a validated ruleset to its shape.
func shapeOf(rs game.Ruleset) shape {
	if rs.Family == game.FamilyMeier {
		return shape{family: game.FamilyMeier, low: rs.Low}
	}
	parts := make([]string, len(rs.Sequences))
	for i, seq := range rs.Sequences {
		var sb strings.Builder
		for _, f := range seq {
			sb.WriteString(strconv.Itoa(f))
		}
		parts[i] = sb.String()
	}
	return shape{
		family:    game.FamilyShip,
		seqs:      strings.Join(parts, ","),
		cargoDice: rs.CargoDice,
		cargo:     rs.Cargo,
		low:       rs.Low,
		// The engine's rule, not the bare option: with a progressive pot or
		// in Scarne's game of rounds all-6s cargo is a plain score.
		automatic: rs.AutomaticWins(),
	}
}

// sequences decodes the shape's sequences.
func (sh shape) sequences() [][]int {
	var out [][]int
	for part := range strings.SplitSeq(sh.seqs, ",") {
		seq := make([]int, len(part))
		for i, c := range part {
			seq[i] = int(c - '0')
		}
		out = append(out, seq)
	}
	return out
}

// table is the one-time precomputation for a shape: the turn graph and, for
// every number k of later players and every point, how likely a player who
// holds that point is to stay ahead of all k.
type table struct {
	g *graph
	// clear[k][v] is the probability that none of k later players, each
	// playing to win, reaches outcome v or better when v is the point;
	// level[k][v] that none of them beats it (so level - clear is the chance
	// the best of them exactly equals it).
	clear, level [MaxLater + 1][]float64
}

// entry caches one shape's table; once makes it built exactly once even when
// many queries arrive together.
type entry struct {
	once sync.Once
	t    *table
}

// tables maps each shape seen so far to its *entry.
var tables sync.Map

// tableFor returns the shape's table, building it on first use.
func tableFor(sh shape) *table {
	e, _ := tables.LoadOrStore(sh, &entry{})
	en := e.(*entry)
	en.once.Do(func() { en.t = buildTable(sh) })
	return en.t
}

// buildTable builds a shape's graph and works out later players from the
// last one backwards: the player facing a point v with j players after them
// plays to win against clear[j] and level[j], and how they end up decides
// clear[j+1][v] and level[j+1][v].
func buildTable(sh shape) *table {
	t := &table{}
	if sh.family == game.FamilyMeier {
		t.g = buildMeier(sh)
	} else {
		t.g = buildShip(sh)
	}
	n := t.g.scale.size()
	t.clear[0] = make([]float64, n)
	t.level[0] = make([]float64, n)
	for v := range n {
		t.clear[0][v], t.level[0][v] = 1, 1
	}
	start := []edge{{to: t.g.start, p: 1}}
	for k := 1; k <= MaxLater; k++ {
		t.clear[k] = make([]float64, n)
		t.level[k] = make([]float64, n)
		for v := range n - 1 {
			next := t.g.solve(t.standing(v, k-1).playToWin())
			dist := t.g.distribution(next, start)
			var below float64
			for _, p := range dist[:v] {
				below += p
			}
			t.clear[k][v] = below * t.clear[k-1][v]
			t.level[k][v] = (below + dist[v]) * t.level[k-1][v]
		}
	}
	return t
}

// standing says what each final outcome of a turn means when the point (the
// best outcome before this player, noScore if nobody has scored) is point
// and later players are still to throw. Equal outcomes tie, so a player
// without a score when nobody has scored ties unless someone later scores.
func (t *table) standing(point, later int) standing {
	n := t.g.scale.size()
	st := standing{win: make([]float64, n), tie: make([]float64, n), lose: make([]float64, n)}
	for o := range n {
		switch {
		case o == t.g.scale.automatic():
			st.win[o] = 1 // the round ends at once; later players forfeit
		case o < point:
			st.lose[o] = 1
		case o == point:
			st.tie[o] = t.level[later][o]
			st.lose[o] = 1 - t.level[later][o]
		default:
			st.win[o] = t.clear[later][o]
			st.tie[o] = t.level[later][o] - t.clear[later][o]
			st.lose[o] = 1 - t.level[later][o]
		}
	}
	return st
}
