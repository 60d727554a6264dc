package odds

import "slices"

// graph is the decision graph of one turn for one ruleset shape: every state
// a player can be in between throws, the choices open there, and where each
// choice leads with what probability. Dice results that lead to the same
// state are merged into one edge, so the graph stays a few hundred nodes.
//
// Nodes are stored children first: every edge goes from a node to one with a
// lower index. A backward pass in index order therefore sees every successor
// before the node itself, and a forward pass in reverse order sees every
// predecessor first.
type graph struct {
	nodes []node
	acts  []action
	edges []edge
	// index finds the node of every state a query may name.
	index map[state]int32
	// start is the state before the first throw of a fresh turn.
	start int32
	// scale numbers the final outcomes.
	scale scale
}

// state is a position between throws. The Ship family uses path, mask,
// progress and cargo; Die Familie Meier uses mask (the parents found: bit 0
// Mr Meier, bit 1 Mrs Meier) and sum (the children so far).
type state struct {
	rolls    int8    // rolls left
	path     int8    // index into the ruleset's sequences; -1 while nothing is banked, 0 once qualified
	mask     uint8   // with path -1, the sequences preferred when a throw starts several (bit i = sequence i)
	progress int8    // dice banked along the path
	cargo    [3]int8 // the sorted cargo faces once qualified, zero-padded
	sum      int8    // Meier: the children's total
}

// node is a state in the graph. A terminal node is a final outcome; any other
// node offers its actions.
type node struct {
	outcome int16    // the final outcome index, or -1 for a decision node
	acts    [2]int32 // half-open range into graph.acts
}

// action is one choice at a node: stand, re-roll some cargo, roll for the
// sequence, or (inside a throw) pick the path in low-or-high.
type action struct {
	kind    ChoiceKind
	rethrow []int    // the cargo faces picked up, for a re-roll
	edges   [2]int32 // half-open range into graph.edges
}

// edge leads to the node to with probability p.
type edge struct {
	to int32
	p  float64
}

// plan is the best play under one objective: for every node, its value pair
// and, at decision nodes, the action taken.
type plan struct {
	v1, v2 []float64
	pick   []int32
}

// solve finds the best play under goal by one backward pass over the graph.
func (g *graph) solve(goal objective) plan {
	n := len(g.nodes)
	p := plan{v1: make([]float64, n), v2: make([]float64, n), pick: make([]int32, n)}
	for i, nd := range g.nodes {
		if nd.outcome >= 0 {
			p.v1[i], p.v2[i] = goal.primary[nd.outcome], goal.secondary[nd.outcome]
			p.pick[i] = -1
			continue
		}
		best := int32(-1)
		var b1, b2 float64
		for a := nd.acts[0]; a < nd.acts[1]; a++ {
			q1, q2 := p.value(g, a)
			if best < 0 || better(q1, q2, b1, b2) {
				best, b1, b2 = a, q1, q2
			}
		}
		p.v1[i], p.v2[i], p.pick[i] = b1, b2, best
	}
	return p
}

// value is the expected value pair of taking action a and then following the
// plan.
func (p plan) value(g *graph, a int32) (float64, float64) {
	var q1, q2 float64
	act := g.acts[a]
	for _, e := range g.edges[act.edges[0]:act.edges[1]] {
		q1 += e.p * p.v1[e.to]
		q2 += e.p * p.v2[e.to]
	}
	return q1, q2
}

// distribution is the probability of each final outcome when the player
// starts with the given edges (one action's results, or a single edge of
// probability 1 to a node) and then follows the plan.
func (g *graph) distribution(p plan, from []edge) []float64 {
	mass := make([]float64, len(g.nodes))
	top := int32(-1)
	for _, e := range from {
		mass[e.to] += e.p
		top = max(top, e.to)
	}
	dist := make([]float64, g.scale.size())
	for i := top; i >= 0; i-- {
		m := mass[i]
		if m == 0 {
			continue
		}
		nd := g.nodes[i]
		if nd.outcome >= 0 {
			dist[nd.outcome] += m
			continue
		}
		act := g.acts[p.pick[i]]
		for _, e := range g.edges[act.edges[0]:act.edges[1]] {
			mass[e.to] += m * e.p
		}
	}
	return dist
}

// actionEdges returns the edges of action a.
func (g *graph) actionEdges(a int32) []edge {
	act := g.acts[a]
	return g.edges[act.edges[0]:act.edges[1]]
}

// builder appends nodes to a graph children first. A node's actions and
// edges must be contiguous, so they are gathered in pending form while the
// children are built and appended only when the node itself is.
type builder struct {
	g         *graph
	terminals []int32            // node of each final outcome, -1 until built
	choices   map[[4]int32]int32 // path-choice nodes by their options
}

// newBuilder starts an empty graph for a scale.
func newBuilder(s scale) *builder {
	b := &builder{
		g:         &graph{index: map[state]int32{}, scale: s},
		terminals: make([]int32, s.size()),
		choices:   map[[4]int32]int32{},
	}
	for i := range b.terminals {
		b.terminals[i] = -1
	}
	return b
}

// pending is an action being built: its edges merged by destination.
type pending struct {
	kind    ChoiceKind
	rethrow []int
	to      []int32
	p       []float64
}

// add merges probability p into the edge to node to.
func (pa *pending) add(to int32, p float64) {
	for i, t := range pa.to {
		if t == to {
			pa.p[i] += p
			return
		}
	}
	pa.to = append(pa.to, to)
	pa.p = append(pa.p, p)
}

// terminal returns the node of a final outcome, building it on first use.
func (b *builder) terminal(outcome int) int32 {
	if b.terminals[outcome] < 0 {
		b.terminals[outcome] = b.push(int16(outcome), nil)
	}
	return b.terminals[outcome]
}

// choice returns a node where the player picks one of the given nodes; with
// a single distinct option it is that node.
func (b *builder) choice(options []int32) int32 {
	var key [4]int32
	for i := range key {
		key[i] = -1
	}
	n := 0
	for _, o := range options {
		if !slices.Contains(key[:n], o) {
			key[n] = o
			n++
		}
	}
	if n == 1 {
		return key[0]
	}
	if id, ok := b.choices[key]; ok {
		return id
	}
	acts := make([]pending, n)
	for i := range n {
		acts[i] = pending{kind: kindPath}
		acts[i].add(key[i], 1)
	}
	id := b.push(-1, acts)
	b.choices[key] = id
	return id
}

// push appends a node with its actions, whose destinations must all exist.
func (b *builder) push(outcome int16, acts []pending) int32 {
	g := b.g
	nd := node{outcome: outcome}
	nd.acts[0] = int32(len(g.acts))
	for _, pa := range acts {
		act := action{kind: pa.kind, rethrow: pa.rethrow}
		act.edges[0] = int32(len(g.edges))
		for i, to := range pa.to {
			g.edges = append(g.edges, edge{to: to, p: pa.p[i]})
		}
		act.edges[1] = int32(len(g.edges))
		g.acts = append(g.acts, act)
	}
	nd.acts[1] = int32(len(g.acts))
	g.nodes = append(g.nodes, nd)
	return int32(len(g.nodes) - 1)
}
