//go:build cgo

package routing

import pg "github.com/pganalyze/pg_query_go/v6"

// parse is PostgreSQL's parser, libpg_query. With cgo (always so under
// the race detector) it is linked in as C: pg_query_go's types need that
// build anyway, and its WebAssembly twin takes seconds to start (16 under
// the race detector) in every test process.
func parse(sql string) (*pg.ParseResult, error) { return pg.Parse(sql) }
