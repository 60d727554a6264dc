package routing

import pg "github.com/pganalyze/pg_query_go/v6"

// table makes the item a table reference names: a CTE of b or an enclosing
// block when unqualified, else a table, distributed or not.
func (c *checker) table(b *block, rv *pg.RangeVar) *item {
	c.seen[rv] = true
	it := &item{alias: rv.Relname}
	if rv.Alias != nil {
		it.alias = rv.Alias.Aliasname
	}
	if cte, ok := b.cte(rv.Relname); ok && rv.Schemaname == "" {
		it.cols = cte
		return it
	}
	if col, ok := Distributed[rv.Relname]; ok && (rv.Schemaname == "" || rv.Schemaname == "public") {
		it.table, it.column = rv.Relname, col
	}
	return it
}

// from adds the items of a FROM (or USING) list to b, with their JOIN
// conditions.
func (c *checker) from(b *block, list []*pg.Node) {
	for _, n := range list {
		c.fromItem(b, n)
	}
}

func (c *checker) fromItem(b *block, n *pg.Node) []*item {
	switch x := n.Node.(type) {
	case *pg.Node_RangeVar:
		it := c.table(b, x.RangeVar)
		b.items = append(b.items, it)
		return []*item{it}
	case *pg.Node_RangeSubselect:
		alias := x.RangeSubselect.Alias
		res := c.statement(x.RangeSubselect.Subquery, b, within(b.where, "subquery in FROM ("+alias.GetAliasname()+")"))
		it := &item{alias: alias.GetAliasname(), cols: res.named(alias.GetColnames())}
		b.items = append(b.items, it)
		return []*item{it}
	case *pg.Node_RangeFunction:
		it := &item{alias: x.RangeFunction.Alias.GetAliasname(), cols: map[string]string{}}
		for _, col := range x.RangeFunction.Alias.GetColnames() {
			it.cols[col.GetString_().GetSval()] = ""
		}
		b.items = append(b.items, it)
		b.deferred = append(b.deferred, deferred{x.RangeFunction, "subquery in FROM function"})
		return []*item{it}
	case *pg.Node_JoinExpr:
		j := x.JoinExpr
		l, r := c.fromItem(b, j.Larg), c.fromItem(b, j.Rarg)
		var pins []*item // the items an ON condition filters
		switch j.Jointype {
		case pg.JoinType_JOIN_INNER:
			pins = append(append(pins, l...), r...)
		case pg.JoinType_JOIN_LEFT:
			pins = r
		case pg.JoinType_JOIN_RIGHT:
			pins = l
		}
		for _, q := range and(j.Quals) {
			b.conds = append(b.conds, cond{expr: q, pins: pins, restricted: true})
		}
		b.deferred = append(b.deferred, deferred{j.Quals, "subquery in JOIN ON"})
		return append(l, r...)
	}
	c.expr(n, b, within(b.where, "subquery in FROM")) // a reference in here is reported by sweep
	return nil
}

// later checks the subqueries of b's JOIN conditions and FROM functions,
// once b's own pins are known (they may read b's columns).
func (c *checker) later(b *block) {
	for _, d := range b.deferred {
		c.expr(d.node, b, within(b.where, d.where))
	}
}
