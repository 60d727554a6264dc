package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tally-dice/tally/db/pgserver"
)

// pgbenchResult is one pgbench run: transactions per second and the
// latencies of every transaction.
type pgbenchResult struct {
	TPS       float64
	Latencies []time.Duration
	CPU       cpuSample     // PostgreSQL's, during the run (with --tallyd)
	ClientCPU time.Duration // pgbench's own
}

// pgbenchPath finds pgbench: on PATH, or beside the server programs.
func pgbenchPath() (string, error) {
	if p, err := exec.LookPath("pgbench"); err == nil {
		return p, nil
	}
	bins, err := pgserver.FindBinaries()
	if err != nil {
		return "", err
	}
	p := filepath.Join(filepath.Dir(bins.Postgres), "pgbench")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("pgbench not found: %w", err)
	}
	return p, nil
}

// initPgbench makes pgbench's tables at a scale of one branch per client,
// so that its clients do not all queue on one branch row.
func initPgbench(ctx context.Context, dsn string, clients int) error {
	bin, err := pgbenchPath()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, bin, "-i", "-q", "-s", strconv.Itoa(clients), dsn)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pgbench -i: %w\n%s", err, out)
	}
	return nil
}

var tpsLine = regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`)

// runPgbench runs the built-in tpcb-like transaction with clients
// connections for d, logging every transaction's latency.
func runPgbench(ctx context.Context, dsn string, clients int, d time.Duration) (pgbenchResult, error) {
	bin, err := pgbenchPath()
	if err != nil {
		return pgbenchResult{}, err
	}
	dir, err := os.MkdirTemp("", "tallybench-pgbench-")
	if err != nil {
		return pgbenchResult{}, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, bin, "-n", "-c", strconv.Itoa(clients), "-j", "2", "-T", strconv.Itoa(int(d.Seconds())),
		"-l", "--log-prefix", filepath.Join(dir, "log"), dsn)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return pgbenchResult{}, fmt.Errorf("pgbench: %w\n%s", err, out)
	}
	m := tpsLine.FindSubmatch(out)
	if m == nil {
		return pgbenchResult{}, fmt.Errorf("pgbench printed no tps:\n%s", out)
	}
	var r pgbenchResult
	r.TPS, _ = strconv.ParseFloat(string(m[1]), 64)
	r.ClientCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	logs, _ := filepath.Glob(filepath.Join(dir, "log.*"))
	for _, name := range logs {
		if err := readLatencies(name, &r.Latencies); err != nil {
			return pgbenchResult{}, err
		}
	}
	return r, nil
}

// readLatencies reads a pgbench transaction log: the third field of each
// line is the transaction's time in microseconds.
func readLatencies(name string, out *[]time.Duration) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 3 {
			continue
		}
		us, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil {
			continue
		}
		*out = append(*out, time.Duration(us)*time.Microsecond)
	}
	return sc.Err()
}
