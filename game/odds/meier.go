package odds

import "slices"

// Die Familie Meier (docs/rules.md §3): three throws of three, two and one dice;
// Mr Meier is a 1, Mrs Meier a 2, and every die thrown after both have
// appeared is a child. The turn has no decisions, so its graph is a chain of
// forced rolls; it shares the machinery of the Ship family so that the
// round model (the point, later players) is the same.

// Meier parents as bits of state.mask.
const (
	mrMeier   uint8 = 1 << 0 // a 1 has appeared
	mrsMeier  uint8 = 1 << 1 // a 2 has appeared
	bothMeier       = mrMeier | mrsMeier
)

// meierMax is the highest Meier score: both parents and a 6 in the first
// throw, then 6-6 and 6.
const meierMax = 24

// buildMeier builds the graph of every Meier state: parents found, the
// children's total so far, and rolls left (which is also the number of dice
// the next throw uses: 3, 2, then 1).
func buildMeier(sh shape) *graph {
	b := &meierBuilder{newBuilder(scale{min: 0, max: meierMax, low: sh.low})}
	b.g.start = b.node(state{rolls: 3})
	for rolls := int8(0); rolls <= 2; rolls++ {
		for mask := range bothMeier + 1 {
			sums := 1
			if mask == bothMeier {
				sums = 6*meierChildren(int(rolls))[0] + 1
			}
			for sum := range sums {
				b.node(state{rolls: rolls, mask: mask, sum: int8(sum)})
			}
		}
	}
	return b.g
}

// meierChildren lists, largest first, how many children a player with both
// parents can have with the given rolls left: the throw that completed the
// pair gives its dice other than the parents found in it, and every later
// throw gives all its dice.
func meierChildren(rolls int) []int {
	sizes := []int{3, 2, 1}
	done := 3 - rolls
	seen := map[int]bool{}
	for i := range done {
		later := 0
		for _, s := range sizes[i+1 : done] {
			later += s
		}
		for parents := 1; parents <= 2; parents++ {
			if (i == 0 && parents == 1) || parents > sizes[i] {
				continue // the first throw must show both; one die holds one parent
			}
			seen[sizes[i]-parents+later] = true
		}
	}
	var out []int
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out
}

// meierBuilder builds the Meier turn graph.
type meierBuilder struct{ *builder }

// node returns the node of a Meier state, building it on first use.
func (b *meierBuilder) node(st state) int32 {
	if id, ok := b.g.index[st]; ok {
		return id
	}
	var id int32
	switch {
	case st.rolls == 0 && st.mask == bothMeier:
		id = b.terminal(b.g.scale.index(int(st.sum)))
	case st.rolls == 0:
		id = b.terminal(noScore)
	default:
		pa := pending{kind: KindRoll}
		for _, t := range throws[st.rolls] {
			pa.add(b.node(meierThrow(st, t)), t.p)
		}
		id = b.push(-1, []pending{pa})
	}
	b.g.index[st] = id
	return id
}

// meierThrow applies one throw: the missing parents are taken from it first,
// and once both are found every other die of the throw is a child.
func meierThrow(st state, t throw) state {
	next := state{rolls: st.rolls - 1, mask: st.mask, sum: st.sum}
	counts := t.counts
	if next.mask&mrMeier == 0 && counts[1] > 0 {
		counts[1]--
		next.mask |= mrMeier
	}
	if next.mask&mrsMeier == 0 && counts[2] > 0 {
		counts[2]--
		next.mask |= mrsMeier
	}
	if next.mask != bothMeier {
		return next
	}
	for f := 1; f <= 6; f++ {
		next.sum += int8(f) * counts[f]
	}
	return next
}
