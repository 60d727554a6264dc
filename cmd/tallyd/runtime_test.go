package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/tally-dice/tally/db/dbtest"
)

// Beside its PostgreSQL, tallyd leaves half the processors to it; with its
// database on another machine, it keeps them all.
func TestGoRunsOnHalfTheProcessorsBesideItsDatabase(t *testing.T) {
	for _, c := range []struct {
		dsn  string
		here bool
	}{
		{"postgres://tally@127.0.0.1:5432/tally", true},
		{"postgres://tally@localhost/tally", true},
		{"postgres://tally@[::1]:5433/tally", true},
		{"host=/var/run/postgresql dbname=tally", true},
		{"postgres://tally@db.internal:5432/tally", false},
		{"postgres://tally@10.0.0.7/tally", false},
		{"postgres://tally@coordinator:9700/postgres?sslmode=disable", false},
		{"not a database url ::", false},
	} {
		if got := onThisMachine(c.dsn); got != c.here {
			t.Errorf("onThisMachine(%q) = %v, want %v", c.dsn, got, c.here)
		}
	}
	for _, c := range []struct {
		shared      bool
		procs, want int
	}{
		{true, 1, 1}, {true, 2, 1}, {true, 3, 1}, {true, 4, 2}, {true, 16, 8},
		{false, 1, 1}, {false, 2, 2}, {false, 16, 16},
	} {
		if got := sharedProcs(c.shared, c.procs); got != c.want {
			t.Errorf("sharedProcs(%v, %d) = %d, want %d", c.shared, c.procs, got, c.want)
		}
	}
}

// tallyd itself, beside the test's PostgreSQL on 127.0.0.1, runs Go code on
// half the processors it would have had, and on what GOMAXPROCS says when
// it is set.
func TestTallydLeavesProcessorsToItsDatabase(t *testing.T) {
	t.Parallel()
	bin := buildTallyd(t)
	dsn := dbtest.DSN(t)
	want := max(1, runtime.GOMAXPROCS(0)/2)
	if v, set := os.LookupEnv("GOMAXPROCS"); set {
		t.Fatalf("GOMAXPROCS=%s is set for the tests: unset it, or tallyd keeps it", v)
	}
	for _, c := range []struct {
		env  []string
		want string
	}{
		{nil, fmt.Sprintf("gomaxprocs=%d database_on_this_machine=true", want)},
		{[]string{"GOMAXPROCS=3"}, "gomaxprocs=3 set_by=GOMAXPROCS"},
	} {
		addr := freeAddr(t)
		p := runTallyd(t, bin, "http://"+addr+"/healthz", c.env, "--database-url", dsn,
			"--migrate-database-url", dbtest.OwnerDSN(t, dsn), "--data-dir", t.TempDir(), "--addr", addr)
		p.stop()
		if logs := p.logs.String(); !strings.Contains(logs, "msg=\"processors for Go code\" "+c.want) {
			t.Errorf("with %v, tallyd did not log %q:\n%s", c.env, c.want, logs)
		}
	}
}
