// Command tallybench measures Tally under load against PostgreSQL's own
// benchmark on the same server, in the same run: it runs pgbench's
// tpcb-like transaction with as many clients as it then uses to play whole
// bar rounds of four players over HTTP, each client at a table of its own,
// and prints the throughput and latency of both and their ratios.
//
// With --tallyd it starts everything itself: a durable PostgreSQL (fsync and
// synchronous commit on) in a temporary directory, and that tallyd binary
// on it; --pin then gives PostgreSQL a CPU of its own (pin.go). With
// --url and --database-url it measures a tallyd that is already running
// and the PostgreSQL it uses (pgbench then works in a database of its own,
// tally_pgbench, on that server).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is what the benchmark is told.
type config struct {
	URL         string
	DatabaseURL string
	Tallyd      string
	Clients     int
	Duration    time.Duration
	Warmup      time.Duration
	Runs        int
	MaxConns    int
	DebugAddr   string
	Game        string // dice or royale
	Statements  int    // with --tallyd: print this many statements of pg_stat_statements
	Pin         bool   // with --tallyd: PostgreSQL on a CPU of its own (pin.go)
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tallybench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	fs.StringVar(&c.Tallyd, "tallyd", "", "start this tallyd binary on a durable PostgreSQL of its own, and measure it")
	fs.StringVar(&c.URL, "url", "", "measure the tallyd running here (with --database-url)")
	fs.StringVar(&c.DatabaseURL, "database-url", "", "the PostgreSQL that tallyd uses (pgbench runs in its tally_pgbench database)")
	fs.IntVar(&c.Clients, "clients", 32, "concurrent clients, for pgbench and for Tally")
	fs.DurationVar(&c.Duration, "duration", 30*time.Second, "how long each measurement runs")
	fs.DurationVar(&c.Warmup, "warmup", 5*time.Second, "load before each Tally measurement that is not counted")
	fs.IntVar(&c.Runs, "runs", 1, "how many times to measure pgbench and then Tally")
	fs.IntVar(&c.MaxConns, "db-max-conns", 0, "with --tallyd: its --db-max-conns (0: its default)")
	fs.StringVar(&c.Game, "game", "dice", "what the clients play: dice (bar rounds) or royale (Battleship Royale games)")
	fs.StringVar(&c.DebugAddr, "debug-addr", "", "with --tallyd: its --debug-addr, to profile it while it is measured")
	fs.IntVar(&c.Statements, "statements", 0, "with --tallyd: load pg_stat_statements and print this many of Tally's statements, and its index reads, after each run")
	fs.BoolVar(&c.Pin, "pin", false, "with --tallyd: run PostgreSQL on a CPU of its own, and tallyd, the load generator and pgbench on the others")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if c.Game != "dice" && c.Game != "royale" {
		fmt.Fprintln(stderr, "tallybench: --game is dice or royale")
		return 2
	}
	if c.Statements > 0 && c.Tallyd == "" {
		fmt.Fprintln(stderr, "tallybench: --statements needs --tallyd")
		return 2
	}
	if c.Pin && c.Tallyd == "" {
		fmt.Fprintln(stderr, "tallybench: --pin needs --tallyd")
		return 2
	}
	if (c.Tallyd == "") == (c.URL == "" || c.DatabaseURL == "") {
		fmt.Fprintln(stderr, "tallybench: give --tallyd, or --url and --database-url")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := bench(ctx, c, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "tallybench:", err)
		return 1
	}
	return 0
}

// bench sets up (or finds) the servers and measures.
func bench(ctx context.Context, c config, stdout, stderr io.Writer) error {
	env, err := setUp(ctx, c, stderr)
	if err != nil {
		return err
	}
	defer env.close()
	fmt.Fprintf(stdout, "tallybench: %d clients, %s each, %d run(s); tallyd at %s\n", c.Clients, c.Duration, c.Runs, env.url)
	if err := initPgbench(ctx, env.pgbenchDSN, c.Clients); err != nil {
		return err
	}
	for run := 1; run <= c.Runs; run++ {
		before := env.sampleCPU()
		pg, err := runPgbench(ctx, env.pgbenchDSN, c.Clients, c.Duration)
		if err != nil {
			return err
		}
		pg.CPU = env.sampleCPU().sub(before)
		play := playRounds
		if c.Game == "royale" {
			play = playGames
		}
		if c.Statements > 0 {
			if err := resetStatements(ctx, env.statementsDSN); err != nil {
				return err
			}
		}
		load, err := play(ctx, env, c.Clients, c.Warmup, c.Duration)
		if err != nil {
			return err
		}
		report(stdout, run, pg, load)
		if c.Statements > 0 {
			if err := reportStatements(ctx, stdout, env.statementsDSN, c.Statements, load.requests()); err != nil {
				return err
			}
		}
	}
	return nil
}
