// Package routing decides whether a SQL statement reaches one shard when
// Tally's tables are distributed (Citus): every reference to a distributed
// table must pin that table's distribution column to one value.
//
// A reference is pinned when its query block (the statement, a CTE, a
// subquery, the SELECT of an INSERT) has, among the conditions ANDed
// together in its WHERE or in a JOIN's ON, one of the form
// alias.column = X, where X is one value: a parameter ($1, which is also
// what pg_stat_statements makes of a constant), a constant, a cast of one
// value, a PL/pgSQL function parameter (named p_..., as in p_table), or a
// column the same way pinned already, in this block or one enclosing it
// (so a join on the distribution column to a pinned reference pins, and a
// fixpoint follows such chains), or a column a CTE or a subquery yields as
// one value. A condition under OR or NOT pins nothing, nor do IN lists,
// = ANY(array), ranges or unnest(array); the ON of an outer join pins only
// its nullable side. An INSERT must name the distribution column and give
// it one value: the same value in every row of its VALUES, or one value
// from its SELECT. No UPDATE (nor upsert) may change it.
//
// A statement that touches no distributed table passes. Statements that
// are global on purpose are on the Allowlist, each with the reason.
package routing

import (
	"fmt"
	"regexp"

	"github.com/tally-dice/tally/db"
)

// Distributed maps every distributed table to its distribution column, as
// db.Distribution declares them (the list Citus distributes by). Names are
// those of schema public; anything else (pg_catalog, a CTE of the same
// name) is not distributed.
var Distributed = func() map[string]string {
	m := make(map[string]string, len(db.Distribution))
	for _, d := range db.Distribution {
		m[d.Table] = d.Column
	}
	return m
}()

// Colocation maps every distributed table to its colocation group (the
// table whose shards it shares): one statement must pin all the tables of
// a group to one value.
var Colocation = func() map[string]string {
	m := make(map[string]string, len(db.Distribution))
	for _, d := range db.Distribution {
		m[d.Table] = d.Table
		if d.ColocateWith != "" {
			m[d.Table] = d.ColocateWith
		}
	}
	return m
}()

// Allowlist holds the statements that are global on purpose, by their sqlc
// name (see Name), each with the reason it may touch every shard.
// Statements inside Tally's PL/pgSQL functions have no name: they must be
// routed on their own (they pin with p_table).
var Allowlist = map[string]string{
	"IdempotencyKeyExpire":  "Background upkeep: it deletes expired Idempotency-Key answers of every table, in small batches.",
	"EventUnsealed":         "The one-time sealing of history written before migration 4: it finds the unsealed events of every table, once, when a database is upgraded.",
	"TableHeadUnsealed":     "The one-time sealing of history written before migration 4: it finds the tables whose head has no seal, once, when a database is upgraded.",
	"EventSealedAny":        "The one-time sealing of history written before migration 4: it asks whether any event of any table has a seal, to seal only a database just upgraded.",
	"IdempotencyKeyListAll": "The one-time sealing of history written before migration 4: it lists the keys of every table to rewrite the plain ones as HMACs, once, when a database is upgraded.",
	"IdempotencyKeyRename":  "The one-time sealing of history written before migration 4: it rewrites the listed keys of many tables at once, once, when a database is upgraded.",
}

// Problem is one reference to a distributed table that a statement does
// not route to one shard.
type Problem struct {
	Table string // the distributed table
	Alias string // the name the statement gives it
	Where string // its query block: "top level", "CTE events", "subquery in WHERE", ...
	What  string // what is wrong: "no pin on table_id", ...
}

func (p Problem) String() string {
	name := p.Table
	if p.Alias != p.Table {
		name += " AS " + p.Alias
	}
	return fmt.Sprintf("%s in %s: %s", name, p.Where, p.What)
}

// sqlcName matches the comment sqlc puts first in every query it
// generates.
var sqlcName = regexp.MustCompile(`^\s*--\s*name:\s*(\w+)`)

// Name is the sqlc name of a statement whose text starts as sqlc's
// generated queries do ("-- name: TableLock :one" makes "TableLock"), or
// "" for any other statement.
func Name(sql string) string {
	if m := sqlcName.FindStringSubmatch(sql); m != nil {
		return m[1]
	}
	return ""
}
