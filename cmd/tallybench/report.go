package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"time"
)

// The targets of issue 25 (a write that costs what it must), at 32
// clients on a 2-core machine.
const (
	targetTurns    = 0.4 // turns/s ÷ pgbench TPS, at least
	targetP99      = 3.0 // turn p99 ÷ pgbench p99, at most
	targetPostgres = 2.0 // PostgreSQL's CPU a dice request ÷ pgbench's a transaction, at most
	targetTallyd   = 350 * time.Microsecond
)

// report prints one run's figures and their ratios.
func report(w io.Writer, run int, pg pgbenchResult, load loadResult) {
	secs := load.Elapsed.Seconds()
	turns, rounds := float64(load.Turns)/secs, float64(load.Rounds)/secs
	pgp := percentiles(pg.Latencies)
	fmt.Fprintf(w, "\nrun %d\n", run)
	fmt.Fprintf(w, "  pgbench tpcb-like: %.0f TPS; latency p50 %s p90 %s p99 %s (%d transactions)\n",
		pg.TPS, ms(pgp[0]), ms(pgp[1]), ms(pgp[2]), len(pg.Latencies))
	requests := load.requests()
	unit := "rounds"
	if load.Games {
		unit = "Battleship Royale games"
	}
	fmt.Fprintf(w, "  tally: %.0f turns/s, %.1f %s/s, %.0f requests/s, %d errors over %.1fs\n",
		turns, rounds, unit, float64(requests)/secs, load.Errors, secs)
	if load.FirstErr != "" {
		fmt.Fprintf(w, "    first error: %s\n", load.FirstErr)
	}
	endpoints := make([]string, 0, len(load.Latencies))
	for e := range load.Latencies {
		endpoints = append(endpoints, e)
	}
	sort.Strings(endpoints)
	var turnP99 time.Duration
	for _, e := range endpoints {
		p := percentiles(load.Latencies[e])
		fmt.Fprintf(w, "    %-24s p50 %s p90 %s p99 %s (%d)\n", e, ms(p[0]), ms(p[1]), ms(p[2]), len(load.Latencies[e]))
		if e == "POST /rounds/{n}/turns" {
			turnP99 = p[2]
		}
	}
	if n := len(pg.Latencies); n > 0 && pg.CPU.postgres > 0 {
		fmt.Fprintf(w, "  CPU per pgbench transaction: PostgreSQL %s, pgbench %s\n",
			us(pg.CPU.postgres/time.Duration(n)), us(pg.ClientCPU/time.Duration(n)))
	}
	if requests > 0 && load.CPU.postgres > 0 {
		pgRq, tallydRq := load.CPU.postgres/time.Duration(requests), load.CPU.tallyd/time.Duration(requests)
		fmt.Fprintf(w, "  CPU per Tally request: PostgreSQL %s, tallyd %s, load generator %s\n",
			us(pgRq), us(tallydRq), us(load.CPU.bench/time.Duration(requests)))
		if n := len(pg.Latencies); n > 0 && pg.CPU.postgres > 0 && !load.Games {
			fmt.Fprintf(w, "  CPU ratios: PostgreSQL ÷ pgbench's %.2f (target ≤ %.1f); tallyd %s (target ≤ %s)\n",
				float64(pgRq)/float64(pg.CPU.postgres/time.Duration(n)), targetPostgres, us(tallydRq), us(targetTallyd))
		}
	}
	if pg.TPS == 0 || pgp[2] == 0 {
		return
	}
	if load.Games {
		fmt.Fprintf(w, "  ratios: requests/s ÷ pgbench TPS %.3f; turns/s ÷ pgbench TPS %.3f; games/s ÷ pgbench TPS %.4f\n",
			float64(requests)/secs/pg.TPS, turns/pg.TPS, rounds/pg.TPS)
		return
	}
	fmt.Fprintf(w, "  ratios: turns/s ÷ pgbench TPS %.3f (target ≥ %.1f); turn p99 ÷ pgbench p99 %.2f (target ≤ %.1f); rounds/s ÷ pgbench TPS %.3f\n",
		turns/pg.TPS, targetTurns, float64(turnP99)/float64(pgp[2]), targetP99, rounds/pg.TPS)
}

// percentiles are the 50th, 90th and 99th.
func percentiles(d []time.Duration) [3]time.Duration {
	if len(d) == 0 {
		return [3]time.Duration{}
	}
	s := slices.Clone(d)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return [3]time.Duration{at(0.50), at(0.90), at(0.99)}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond)) }

func us(d time.Duration) string { return fmt.Sprintf("%dµs", d.Microseconds()) }

// requests is how many requests were counted.
func (l loadResult) requests() int {
	n := 0
	for _, d := range l.Latencies {
		n += len(d)
	}
	return n
}
