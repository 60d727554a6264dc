package routing

import (
	"regexp"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Check parses sql with PostgreSQL's own parser and returns every
// reference to a distributed table that it does not pin to one value
// (none for a routed statement). The text may also be a PL/pgSQL
// expression, as pg_stat_statements keeps those ("EXISTS (SELECT ...)"
// for an IF). A text that does not parse is an error.
func Check(sql string) ([]Problem, error) {
	tree, err := parse(sql)
	if err != nil {
		var again error
		if tree, again = parse(plpgsqlQuery(sql)); again != nil {
			return nil, err
		}
	}
	c := &checker{seen: map[*pg.RangeVar]bool{}, pins: map[string]pin{}}
	for _, raw := range tree.Stmts {
		c.expr(raw.Stmt, nil, "top level")
	}
	for _, raw := range tree.Stmts {
		c.sweep(raw.Stmt)
	}
	return c.problems, nil
}

// pin is the value a statement pins a colocation group's tables to, as
// first seen.
type pin struct {
	value string
	it    *item
	where string
}

// pinned notes that it is pinned to value, and reports a reference pinned
// to another value than the statement's other references to tables of
// the same colocation group: each alone reaches one shard, together two.
func (c *checker) pinned(it *item, value, where string) {
	group := Colocation[it.table]
	first, seen := c.pins[group]
	if !seen {
		c.pins[group] = pin{value: value, it: it, where: where}
		return
	}
	if first.value != value {
		c.problem(it, where, "pinned to "+value+" where "+first.it.alias+" ("+first.where+") is pinned to "+
			first.value+": two shards")
	}
}

// assignment is the target of a PL/pgSQL assignment ("n := ...").
var assignment = regexp.MustCompile(`^\s*[\w.]+(\[[^]]*\])?\s*:=`)

// plpgsqlQuery makes a PL/pgSQL expression or assignment the query
// PL/pgSQL runs for it.
func plpgsqlQuery(sql string) string {
	if loc := assignment.FindStringIndex(sql); loc != nil {
		return "SELECT " + sql[loc[1]:]
	}
	return "SELECT " + sql
}

// checker walks one statement's parse tree and collects its problems.
type checker struct {
	problems []Problem
	seen     map[*pg.RangeVar]bool // references checked in their query block
	pins     map[string]pin        // by colocation group: the value pinned
}

func (c *checker) problem(it *item, where, what string) {
	c.problems = append(c.problems, Problem{Table: it.table, Alias: it.alias, Where: where, What: what})
}

// expr walks any part of the tree, checking each statement it holds (a
// subquery, a CTE, the statement itself) as a query block within b.
func (c *checker) expr(m proto.Message, b *block, where string) {
	if m == nil || !m.ProtoReflect().IsValid() {
		return
	}
	switch m.(type) {
	case *pg.SelectStmt, *pg.InsertStmt, *pg.UpdateStmt, *pg.DeleteStmt:
		c.statement(m, b, where)
		return
	}
	m.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Message() == nil || fd.IsMap():
		case fd.IsList():
			for i := 0; i < v.List().Len(); i++ {
				c.expr(v.List().Get(i).Message().Interface(), b, where)
			}
		default:
			c.expr(v.Message().Interface(), b, where)
		}
		return true
	})
}

// exprs walks a list of nodes as expr does.
func (c *checker) exprs(list []*pg.Node, b *block, where string) {
	for _, n := range list {
		c.expr(n, b, where)
	}
}

// statement checks one query block and returns what it yields.
func (c *checker) statement(m proto.Message, parent *block, where string) result {
	switch s := m.(type) {
	case *pg.Node:
		return c.statement(unwrap(s), parent, where)
	case *pg.SelectStmt:
		return c.selectStmt(s, parent, where)
	case *pg.InsertStmt:
		return c.insert(s, parent, where)
	case *pg.UpdateStmt:
		return c.update(s, parent, where)
	case *pg.DeleteStmt:
		return c.delete(s, parent, where)
	}
	c.expr(m, parent, where)
	return result{}
}

// open starts a query block and checks its WITH clause, whose CTEs the
// block and everything within it may read.
func (c *checker) open(parent *block, where string, with *pg.WithClause) *block {
	b := &block{parent: parent, where: where, ctes: map[string]map[string]string{}, pinned: map[column]string{}}
	for _, n := range with.GetCtes() {
		cte := n.GetCommonTableExpr()
		if with.Recursive {
			b.ctes[cte.Ctename] = map[string]string{} // what it reads of itself is not one value
		}
		res := c.statement(cte.Ctequery, b, within(where, "CTE "+cte.Ctename))
		b.ctes[cte.Ctename] = res.named(cte.Aliascolnames)
	}
	return b
}

// selectStmt checks a SELECT, a set operation or a VALUES list.
func (c *checker) selectStmt(s *pg.SelectStmt, parent *block, where string) result {
	b := c.open(parent, where, s.WithClause)
	if s.Op != pg.SetOperation_SETOP_NONE {
		op := map[pg.SetOperation]string{pg.SetOperation_SETOP_UNION: "UNION",
			pg.SetOperation_SETOP_INTERSECT: "INTERSECT", pg.SetOperation_SETOP_EXCEPT: "EXCEPT"}[s.Op]
		l := c.selectStmt(s.Larg, b, within(where, op+" arm"))
		r := c.selectStmt(s.Rarg, b, within(where, op+" arm"))
		c.exprs(s.SortClause, b, within(where, "subquery in ORDER BY"))
		c.expr(s.LimitCount, b, within(where, "subquery in LIMIT"))
		c.expr(s.LimitOffset, b, within(where, "subquery in OFFSET"))
		return l.union(r)
	}
	if len(s.ValuesLists) > 0 {
		return c.values(s.ValuesLists, b, where)
	}
	c.from(b, s.FromClause)
	b.filter(s.WhereClause)
	c.settle(b)
	for _, n := range s.LockingClause {
		for _, rel := range n.GetLockingClause().GetLockedRels() {
			c.seen[rel.GetRangeVar()] = true // FOR UPDATE OF names an alias of this block
		}
	}
	if s.IntoClause != nil {
		c.seen[s.IntoClause.Rel] = true // SELECT INTO creates a table
	}
	c.exprs(s.TargetList, b, within(where, "subquery in SELECT list"))
	c.expr(s.WhereClause, b, within(where, "subquery in WHERE"))
	c.exprs(s.GroupClause, b, within(where, "subquery in GROUP BY"))
	c.expr(s.HavingClause, b, within(where, "subquery in HAVING"))
	c.exprs(s.WindowClause, b, within(where, "subquery in WINDOW"))
	c.exprs(s.DistinctClause, b, within(where, "subquery in DISTINCT ON"))
	c.exprs(s.SortClause, b, within(where, "subquery in ORDER BY"))
	c.expr(s.LimitCount, b, within(where, "subquery in LIMIT"))
	c.expr(s.LimitOffset, b, within(where, "subquery in OFFSET"))
	c.later(b)
	return b.results(s.TargetList)
}

// values checks a VALUES list: a column is one value when every row has
// the same one in it.
func (c *checker) values(rows []*pg.Node, b *block, where string) result {
	var r result
	for i, row := range rows {
		items := row.GetList().GetItems()
		c.exprs(items, b, within(where, "subquery in VALUES"))
		for j, e := range items {
			v, _ := b.value(e)
			switch {
			case i == 0:
				r.cols = append(r.cols, output{name: "column" + itoa(j+1), value: v})
			case j >= len(r.cols):
			case r.cols[j].value != v:
				r.cols[j].value = ""
			}
		}
	}
	r.exact = len(r.cols)
	return r
}

// insert checks an INSERT: its target must get one value for its
// distribution column.
func (c *checker) insert(s *pg.InsertStmt, parent *block, where string) result {
	b := c.open(parent, where, s.WithClause)
	target := c.table(nil, s.Relation) // an INSERT's target is never a CTE
	var res result
	if s.SelectStmt != nil {
		inner := where
		if len(s.SelectStmt.GetSelectStmt().GetValuesLists()) == 0 {
			inner = within(where, "INSERT ... SELECT")
		}
		res = c.statement(s.SelectStmt, b, inner)
	}
	if target.table != "" {
		i := -1
		for j, n := range s.Cols {
			if n.GetResTarget().GetName() == target.column {
				i = j
			}
		}
		switch {
		case i < 0:
			c.problem(target, where, "INSERT does not name "+target.column)
		case i >= res.exact || res.cols[i].value == "":
			c.problem(target, where, "INSERT value for "+target.column+" is not one value")
		default:
			b.pinned[column{target, target.column}] = res.cols[i].value
			c.pinned(target, res.cols[i].value, where)
		}
	}
	b.items = append(b.items, target)
	c.moves(target, s.OnConflictClause.GetTargetList(), where)
	c.expr(s.OnConflictClause, b, within(where, "subquery in ON CONFLICT"))
	c.exprs(s.ReturningList, b, within(where, "subquery in RETURNING"))
	return b.results(s.ReturningList)
}

// update checks an UPDATE, its target and its FROM items alike.
func (c *checker) update(s *pg.UpdateStmt, parent *block, where string) result {
	b := c.open(parent, where, s.WithClause)
	target := c.table(b, s.Relation)
	b.items = append(b.items, target)
	c.from(b, s.FromClause)
	b.filter(s.WhereClause)
	c.settle(b)
	c.moves(target, s.TargetList, where)
	c.exprs(s.TargetList, b, within(where, "subquery in SET"))
	c.expr(s.WhereClause, b, within(where, "subquery in WHERE"))
	c.later(b)
	c.exprs(s.ReturningList, b, within(where, "subquery in RETURNING"))
	return b.results(s.ReturningList)
}

// delete checks a DELETE, its target and its USING items alike.
func (c *checker) delete(s *pg.DeleteStmt, parent *block, where string) result {
	b := c.open(parent, where, s.WithClause)
	b.items = append(b.items, c.table(b, s.Relation))
	c.from(b, s.UsingClause)
	b.filter(s.WhereClause)
	c.settle(b)
	c.expr(s.WhereClause, b, within(where, "subquery in WHERE"))
	c.later(b)
	c.exprs(s.ReturningList, b, within(where, "subquery in RETURNING"))
	return b.results(s.ReturningList)
}

// moves reports an UPDATE's SET list that changes a distributed table's
// distribution column: the row would move to another shard.
func (c *checker) moves(target *item, set []*pg.Node, where string) {
	for _, n := range set {
		t := n.GetResTarget()
		if target.table != "" && t.GetName() == target.column {
			c.problem(target, where, "UPDATE changes "+target.column)
		}
	}
}

// settle pins what b's conditions pin and reports every reference to a
// distributed table they leave unpinned.
func (c *checker) settle(b *block) {
	b.settle()
	for _, it := range b.items {
		v, ok := b.pinned[column{it, it.column}]
		switch {
		case it.table == "":
		case !ok:
			c.problem(it, b.where, "no pin on "+it.column)
		default:
			c.pinned(it, v, b.where)
		}
	}
}

// sweep reports every reference to a distributed table that the walk did
// not check in a query block: the check never passes what it cannot see
// (a utility statement such as TRUNCATE events, a construct it does not
// follow).
func (c *checker) sweep(m proto.Message) {
	if m == nil || !m.ProtoReflect().IsValid() {
		return
	}
	if rv, ok := m.(*pg.RangeVar); ok && !c.seen[rv] {
		if _, dist := Distributed[rv.Relname]; dist && (rv.Schemaname == "" || rv.Schemaname == "public") {
			c.problem(&item{table: rv.Relname, alias: rv.Relname}, "a part of the statement the check does not follow", "not checked")
		}
		return
	}
	m.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Message() == nil || fd.IsMap():
		case fd.IsList():
			for i := 0; i < v.List().Len(); i++ {
				c.sweep(v.List().Get(i).Message().Interface())
			}
		default:
			c.sweep(v.Message().Interface())
		}
		return true
	})
}

// unwrap is the node a Node holds.
func unwrap(n *pg.Node) proto.Message {
	r := n.ProtoReflect()
	fd := r.WhichOneof(r.Descriptor().Oneofs().ByName("node"))
	if fd == nil {
		return nil
	}
	return r.Get(fd).Message().Interface()
}

// within names a query block inside another for a Problem.
func within(outer, label string) string {
	if outer == "top level" {
		return label
	}
	return outer + " > " + label
}
