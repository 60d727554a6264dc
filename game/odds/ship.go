package odds

import (
	"slices"

	"github.com/tally-dice/tally/game"
)

// shipBuilder builds the turn graph of the Ship, Captain and Crew family.
type shipBuilder struct {
	*builder
	seqs      [][]int
	cargoDice int
	cargo     game.CargoPolicy
	automatic bool
}

// buildShip builds the graph of every state a Ship-family turn can be in,
// including those a query may start from that a fresh turn never reaches
// (a path named in advance in low-or-high).
func buildShip(sh shape) *graph {
	seqs := sh.sequences()
	b := &shipBuilder{
		builder:   newBuilder(scale{min: sh.cargoDice, max: 6 * sh.cargoDice, low: sh.low}),
		seqs:      seqs,
		cargoDice: sh.cargoDice,
		cargo:     sh.cargo,
		automatic: sh.automatic,
	}
	all := uint8(1)<<len(seqs) - 1
	b.g.start = b.node(openState(3, all))
	for rolls := int8(0); rolls <= 2; rolls++ {
		for mask := uint8(1); mask <= all; mask++ {
			b.node(openState(rolls, mask))
		}
		for path := range seqs {
			for progress := 1; progress < len(seqs[path]); progress++ {
				b.node(pathState(rolls, path, progress))
			}
		}
		for _, t := range throws[sh.cargoDice] {
			b.node(cargoState(rolls, len(seqs[0]), t.faces))
		}
	}
	for mask := uint8(1); mask <= all; mask++ {
		b.node(openState(3, mask))
	}
	return b.g
}

// openState is a state with nothing banked and the given sequences open.
func openState(rolls int8, mask uint8) state {
	return state{rolls: rolls, path: -1, mask: mask}
}

// pathState is a state partway along one sequence.
func pathState(rolls int8, path, progress int) state {
	return state{rolls: rolls, path: int8(path), progress: int8(progress)}
}

// cargoState is a qualified state. Which sequence was completed no longer
// matters, so every path shares these states.
func cargoState(rolls int8, seqLen int, faces []int) state {
	st := state{rolls: rolls, progress: int8(seqLen)}
	for i, f := range faces {
		st.cargo[i] = int8(f)
	}
	return st
}

// node returns the node of a state, building it and everything it leads to
// on first use.
func (b *shipBuilder) node(st state) int32 {
	if id, ok := b.g.index[st]; ok {
		return id
	}
	var id int32
	if int(st.progress) == len(b.seqs[0]) {
		id = b.qualified(st)
	} else {
		id = b.unqualified(st)
	}
	b.g.index[st] = id
	return id
}

// qualified builds a state with the sequence complete: stand, or re-roll
// cargo as the policy allows. The last roll or a policy of no re-rolls ends
// the turn; standing on an automatic claims it.
func (b *shipBuilder) qualified(st state) int32 {
	// The automatic is the best cargo there is, as the engine counts it:
	// all 6s, or all 1s in a low game.
	autoFace := 6
	if b.g.scale.low {
		autoFace = 1
	}
	faces := make([]int, b.cargoDice)
	sum, matching := 0, 0
	for i := range faces {
		faces[i] = int(st.cargo[i])
		sum += faces[i]
		if faces[i] == autoFace {
			matching++
		}
	}
	sc := b.g.scale
	stand := b.terminal(sc.index(sum))
	if b.automatic && matching == b.cargoDice {
		// Standing on an automatic claims it. A closed one leaves the turn
		// open in the engine, so re-rolling it away stays a (poor) choice.
		stand = b.terminal(sc.automatic())
	}
	if st.rolls == 0 || b.cargo == game.CargoNone {
		return stand
	}
	acts := []pending{{kind: KindStand, to: []int32{stand}, p: []float64{1}}}
	for _, rethrow := range b.rethrows(faces) {
		kept := removeFaces(faces, rethrow)
		pa := pending{kind: KindReroll, rethrow: rethrow}
		for _, t := range throws[len(rethrow)] {
			cargo := append(slices.Clone(kept), t.faces...)
			slices.Sort(cargo)
			pa.add(b.node(cargoState(st.rolls-1, len(b.seqs[0]), cargo)), t.p)
		}
		acts = append(acts, pa)
	}
	return b.push(-1, acts)
}

// rethrows lists the re-rolls the cargo policy allows, fewest dice first:
// the whole cargo together, or every distinct non-empty sub-multiset.
func (b *shipBuilder) rethrows(faces []int) [][]int {
	if b.cargo == game.CargoTogether {
		return [][]int{slices.Clone(faces)}
	}
	var out [][]int
	var walk func(i int, picked []int)
	walk = func(i int, picked []int) {
		if i == len(faces) {
			if len(picked) > 0 {
				out = append(out, slices.Clone(picked))
			}
			return
		}
		// Equal faces are interchangeable: pick a run of them from its
		// start, so each sub-multiset is listed once.
		j := i
		for j < len(faces) && faces[j] == faces[i] {
			j++
		}
		for k := 0; k <= j-i; k++ {
			walk(j, append(picked, faces[i:i+k]...))
		}
	}
	walk(0, nil)
	slices.SortFunc(out, func(x, y []int) int {
		if len(x) != len(y) {
			return len(x) - len(y)
		}
		return slices.Compare(x, y)
	})
	return out
}

// removeFaces returns faces without one die for each entry of drop.
func removeFaces(faces, drop []int) []int {
	out := slices.Clone(faces)
	for _, d := range drop {
		i := slices.Index(out, d)
		out = slices.Delete(out, i, i+1)
	}
	return out
}

// unqualified builds a state still short of the sequence: the only action is
// to roll the remaining dice; after the last roll there is no score.
func (b *shipBuilder) unqualified(st state) int32 {
	if st.rolls == 0 {
		return b.terminal(noScore)
	}
	pa := pending{kind: KindRoll}
	for _, t := range throws[maxDice-int(st.progress)] {
		pa.add(b.afterThrow(st, t), t.p)
	}
	return b.push(-1, []pending{pa})
}

// afterThrow is the node a throw leads to. With no path fixed yet, each
// sequence whose first die shows is an option; when more than one is, the
// player chooses (docs/rules.md §2, low-or-high), among the preferred sequences
// in st.mask if the throw starts any of them. Banking is mandatory, so a
// throw that starts only a sequence outside the mask still banks it.
func (b *shipBuilder) afterThrow(st state, t throw) int32 {
	if st.path >= 0 {
		return b.node(b.bank(st, int(st.path), t))
	}
	var options []int32
	for _, preferred := range []bool{true, false} {
		for path, seq := range b.seqs {
			if (st.mask&(1<<path) != 0) == preferred && t.counts[seq[0]] > 0 {
				options = append(options, b.node(b.bank(st, path, t)))
			}
		}
		if len(options) > 0 {
			break
		}
	}
	if len(options) == 0 {
		return b.node(openState(st.rolls-1, st.mask))
	}
	return b.choice(options)
}

// bank applies mandatory banking along a path (docs/rules.md §1): the next
// required value if the throw shows it, then the next, one die of each.
func (b *shipBuilder) bank(st state, path int, t throw) state {
	seq := b.seqs[path]
	counts := t.counts
	progress := int(st.progress)
	for progress < len(seq) && counts[seq[progress]] > 0 {
		counts[seq[progress]]--
		progress++
	}
	if progress < len(seq) {
		return pathState(st.rolls-1, path, progress)
	}
	var cargo []int
	for f := 1; f <= 6; f++ {
		for range counts[f] {
			cargo = append(cargo, f)
		}
	}
	return cargoState(st.rolls-1, len(seq), cargo)
}
