//go:build !cgo

package routing

import (
	pg "github.com/pganalyze/pg_query_go/v6"
	pgquery "github.com/wasilibs/go-pgquery"
)

// parse is PostgreSQL's parser, libpg_query, built as WebAssembly where
// there is no cgo.
func parse(sql string) (*pg.ParseResult, error) { return pgquery.Parse(sql) }
