package main

import (
	"log/slog"
	"net"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// gcPercent is the collector's target when GOGC does not set one: the
// heap may grow to five times what is live before a collection, not the
// default twice. A write allocates some 50 KB that dies with it, and
// tallyd's live heap is small (the tables' kept states, a few kilobytes
// each: docs/capacity.md), so this trades tens of megabytes for about
// half of the CPU the collector took (BENCHMARKS.md, issue 25).
const gcPercent = 400

// tuneGC sets the collector's target, unless GOGC is set.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}

// tuneProcs runs Go code on half the processors (at least one) when
// PostgreSQL shares this machine, unless GOMAXPROCS is set. PostgreSQL
// takes about three times tallyd's CPU for each write, so tallyd needs
// about a quarter of a machine they share and half leaves it room. Given
// every processor, its scheduler's idle threads look for work and wake one
// another, CPU that PostgreSQL could use: about a tenth of tallyd's on two
// processors (BENCHMARKS.md, issue 25). With its database elsewhere,
// tallyd keeps Go's default.
func tuneProcs(d *database, log *slog.Logger) {
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		log.Info("processors for Go code", "gomaxprocs", runtime.GOMAXPROCS(0), "set_by", "GOMAXPROCS")
		return
	}
	here := d.managed || onThisMachine(d.dsn)
	n := sharedProcs(here, runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(n)
	log.Info("processors for Go code", "gomaxprocs", n, "database_on_this_machine", here)
}

// sharedProcs is how many of procs processors run Go code, shared saying
// whether PostgreSQL runs on the same machine.
func sharedProcs(shared bool, procs int) int {
	if !shared {
		return procs
	}
	return max(1, procs/2)
}

// onThisMachine says whether the database in dsn is reached on this
// machine: through a Unix socket or a loopback address.
func onThisMachine(dsn string) bool {
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		return false
	}
	if strings.HasPrefix(cfg.Host, "/") || cfg.Host == "localhost" {
		return true
	}
	ip := net.ParseIP(cfg.Host)
	return ip != nil && ip.IsLoopback()
}
