package main

import (
	"context"
	"testing"
)

// TestPoolSize: --db-max-conns wins, then pool_max_conns in the database
// URL (in either form), then the default for the machine. The pool opens
// no connection until one is needed, so no server is needed here; that the
// migrations accept pool_max_conns is tested in package db.
func TestPoolSize(t *testing.T) {
	cases := []struct {
		dsn      string
		flag     int
		want     int32
		describe string
	}{
		{"postgres://tally@127.0.0.1:1/tally", 0, defaultMaxConns(), "the default"},
		{"postgres://tally@127.0.0.1:1/tally?pool_max_conns=3", 0, 3, "the URL's pool_max_conns"},
		{"host=127.0.0.1 port=1 user=tally pool_max_conns=3", 0, 3, "pool_max_conns in key=value form"},
		{"postgres://tally@127.0.0.1:1/tally?pool_max_conns=3", 5, 5, "the flag over the URL"},
	}
	for _, tc := range cases {
		pool, err := openPool(context.Background(), tc.dsn, tc.flag)
		if err != nil {
			t.Fatalf("%s: %v", tc.describe, err)
		}
		if got := pool.Config().MaxConns; got != tc.want {
			t.Errorf("%s: %d connections, want %d", tc.describe, got, tc.want)
		}
		pool.Close()
	}
	if defaultMaxConns() < 8 {
		t.Errorf("default pool of %d connections", defaultMaxConns())
	}
}
