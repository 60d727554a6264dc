package routing

import pg "github.com/pganalyze/pg_query_go/v6"

// A result is what a query block yields: its columns in order, each with
// its one value or "". Only the first exact are in their true place: a *
// adds the columns it is known to yield, by name.
type result struct {
	cols  []output
	exact int
}

type output struct{ name, value string }

// results is what b yields for a SELECT list or a RETURNING list.
func (b *block) results(targets []*pg.Node) result {
	r := result{exact: -1}
	for _, n := range targets {
		t := n.GetResTarget()
		if ref := t.GetVal().GetColumnRef(); ref != nil {
			if _, ok := fields(ref); !ok {
				if r.exact < 0 {
					r.exact = len(r.cols)
				}
				r.cols = append(r.cols, b.star(ref)...)
				continue
			}
		}
		v, _ := b.value(t.GetVal())
		r.cols = append(r.cols, output{name: outputName(t), value: v})
	}
	if r.exact < 0 {
		r.exact = len(r.cols)
	}
	return r
}

// star is what * or alias.* yields that is known: a distributed table's
// distribution column, a CTE's or subquery's columns.
func (b *block) star(ref *pg.ColumnRef) []output {
	items := b.items
	if len(ref.Fields) > 1 {
		items = nil
		if it := b.item(ref.Fields[len(ref.Fields)-2].GetString_().GetSval()); it != nil {
			items = []*item{it}
		}
	}
	var out []output
	for _, it := range items {
		if it.table != "" {
			out = append(out, output{name: it.column, value: b.pinned[column{it, it.column}]})
		}
		for name := range it.cols {
			out = append(out, output{name: name, value: b.pinned[column{it, name}]})
		}
	}
	return out
}

// outputName is the name PostgreSQL gives a SELECT list entry.
func outputName(t *pg.ResTarget) string {
	if t.Name != "" {
		return t.Name
	}
	n := t.Val
	for n.GetTypeCast() != nil {
		n = n.GetTypeCast().Arg
	}
	if ref := n.GetColumnRef(); ref != nil {
		if names, ok := fields(ref); ok {
			return names[len(names)-1]
		}
	}
	return "?column?"
}

// union is what a set operation yields: a column is one value when both
// sides have the same one.
func (r result) union(o result) result {
	u := result{exact: min(r.exact, o.exact)}
	for i := range u.exact {
		c := r.cols[i]
		if o.cols[i].value != c.value {
			c.value = ""
		}
		u.cols = append(u.cols, c)
	}
	return u
}

// named is a result by column name, renamed by a CTE's or an alias's
// column list.
func (r result) named(rename []*pg.Node) map[string]string {
	m := map[string]string{}
	for i, c := range r.cols {
		if i < len(rename) && i < r.exact {
			c.name = rename[i].GetString_().GetSval()
		}
		m[c.name] = c.value
	}
	return m
}
