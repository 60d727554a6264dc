package routing

import (
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// A block is one query level: the items of its FROM (and an UPDATE's or
// DELETE's target), the conditions that may pin them, and the columns
// known to hold one value.
type block struct {
	parent   *block
	where    string
	ctes     map[string]map[string]string // CTE name → its columns, each with its one value or ""
	items    []*item
	conds    []cond
	pinned   map[column]string // a column of an item → the one value it holds
	deferred []deferred        // parts to walk once the block's pins are known
}

// An item is one thing a block reads rows from.
type item struct {
	alias  string
	table  string            // the distributed table; "" for anything else
	column string            // the table's distribution column
	cols   map[string]string // a CTE's or subquery's columns, each with its one value or ""
}

// A column is a column of an item.
type column struct {
	it   *item
	name string
}

// A cond is one condition ANDed into a WHERE or a JOIN's ON. A JOIN's
// condition filters only some items: both sides of an inner join, the
// nullable side of an outer one, none of a full join.
type cond struct {
	expr       *pg.Node
	pins       []*item
	restricted bool // pins lists what the condition may pin; else anything
}

// A deferred part of a block is walked once the block's pins are known.
type deferred struct {
	node  proto.Message
	where string
}

// filter adds the conditions of a WHERE clause.
func (b *block) filter(n *pg.Node) {
	for _, e := range and(n) {
		b.conds = append(b.conds, cond{expr: e})
	}
}

// and splits a condition into the conditions ANDed in it.
func and(n *pg.Node) []*pg.Node {
	if n == nil {
		return nil
	}
	if e := n.GetBoolExpr(); e != nil && e.Boolop == pg.BoolExprType_AND_EXPR {
		var out []*pg.Node
		for _, a := range e.Args {
			out = append(out, and(a)...)
		}
		return out
	}
	return []*pg.Node{n}
}

// settle pins columns until nothing more is pinned: a column is pinned by
// a condition column = X (or X = column) that may pin its item, when X is
// one value. The columns CTEs and subqueries yield as one value start out
// pinned.
func (b *block) settle() {
	for _, it := range b.items {
		for name, v := range it.cols {
			if v != "" {
				b.pinned[column{it, name}] = v
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, c := range b.conds {
			l, r, ok := equality(c.expr)
			if !ok {
				continue
			}
			for _, side := range [2][2]*pg.Node{{l, r}, {r, l}} {
				k, col, ok := b.lookup(side[0])
				if _, done := b.pinned[col]; !ok || k != b || done || !c.may(col.it) {
					continue
				}
				if v, ok := b.value(side[1]); ok {
					b.pinned[col], changed = v, true
				}
			}
		}
	}
}

func (c cond) may(it *item) bool {
	if !c.restricted {
		return true
	}
	for _, p := range c.pins {
		if p == it {
			return true
		}
	}
	return false
}

// equality splits l = r.
func equality(n *pg.Node) (l, r *pg.Node, ok bool) {
	e := n.GetAExpr()
	if e == nil || e.Kind != pg.A_Expr_Kind_AEXPR_OP || len(e.Name) == 0 ||
		e.Name[len(e.Name)-1].GetString_().GetSval() != "=" {
		return nil, nil, false
	}
	return e.Lexpr, e.Rexpr, true
}

// value is the one value an expression has in b, named so that equal
// names are equal values across the statement ("$1", "'pot'", "p_table"),
// or false when it is not one value.
func (b *block) value(n *pg.Node) (string, bool) {
	switch x := n.GetNode().(type) {
	case *pg.Node_ParamRef:
		return "$" + itoa(int(x.ParamRef.Number)), true
	case *pg.Node_AConst:
		return constant(x.AConst)
	case *pg.Node_TypeCast:
		return b.value(x.TypeCast.Arg)
	case *pg.Node_ColumnRef:
		names, ok := fields(x.ColumnRef)
		if !ok {
			return "", false
		}
		if len(names) == 1 && strings.HasPrefix(names[0], "p_") {
			return names[0], true // a PL/pgSQL function's parameter
		}
		k, col, ok := b.lookup(n)
		if ok {
			v, ok := k.pinned[col]
			return v, ok
		}
		if len(names) == 2 && (names[0] == "new" || names[0] == "old") {
			return names[0] + "." + names[1], true // a trigger's row
		}
	}
	return "", false
}

// constant names a constant's value.
func constant(c *pg.A_Const) (string, bool) {
	switch v := c.Val.(type) {
	case *pg.A_Const_Ival:
		return itoa(int(v.Ival.Ival)), true
	case *pg.A_Const_Fval:
		return v.Fval.Fval, true
	case *pg.A_Const_Boolval:
		return strconv.FormatBool(v.Boolval.Boolval), true
	case *pg.A_Const_Sval:
		return "'" + v.Sval.Sval + "'", true
	case *pg.A_Const_Bsval:
		return "b'" + v.Bsval.Bsval + "'", true
	}
	return "", false // NULL
}

// fields are the names of a column reference, or false for a star.
func fields(ref *pg.ColumnRef) ([]string, bool) {
	if ref == nil {
		return nil, false
	}
	var names []string
	for _, f := range ref.Fields {
		s := f.GetString_()
		if s == nil {
			return nil, false
		}
		names = append(names, s.Sval)
	}
	return names, len(names) > 0
}

// lookup finds the block and the item a column reference names, as
// PostgreSQL resolves it: a qualified name in the nearest block with that
// alias; an unqualified one in the nearest block with any item, where it
// must be the one item known to have that column or the block's only
// item (else the reference is not followed).
func (b *block) lookup(n *pg.Node) (*block, column, bool) {
	ref := n.GetColumnRef()
	if ref == nil {
		return nil, column{}, false
	}
	names, ok := fields(ref)
	if !ok {
		return nil, column{}, false
	}
	name := names[len(names)-1]
	for k := b; k != nil; k = k.parent {
		if len(names) > 1 {
			if it := k.item(names[len(names)-2]); it != nil {
				return k, column{it, name}, true
			}
			continue
		}
		if len(k.items) == 0 {
			continue
		}
		var owners []*item
		for _, it := range k.items {
			if _, ok := it.cols[name]; ok || (it.table != "" && it.column == name) {
				owners = append(owners, it)
			}
		}
		switch {
		case len(owners) == 1:
			return k, column{owners[0], name}, true
		case len(owners) == 0 && len(k.items) == 1:
			return k, column{k.items[0], name}, true
		}
		return nil, column{}, false
	}
	return nil, column{}, false
}

// item is the item of b with the given alias.
func (b *block) item(alias string) *item {
	for _, it := range b.items {
		if it.alias == alias {
			return it
		}
	}
	return nil
}

// cte is the CTE a table name means in b, if any.
func (b *block) cte(name string) (map[string]string, bool) {
	for k := b; k != nil; k = k.parent {
		if cols, ok := k.ctes[name]; ok {
			return cols, true
		}
	}
	return nil, false
}

func itoa(i int) string { return strconv.Itoa(i) }
