package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tally-dice/tally/db"

	"github.com/tally-dice/tally/db/pgserver"
)

// pgbenchDatabase is where pgbench keeps its tables, beside tallyd's.
const pgbenchDatabase = "tally_pgbench"

// env is the tallyd and PostgreSQL being measured.
type env struct {
	url        string
	pgbenchDSN string
	server     *pgserver.Server
	// statementsDSN is Tally's database as PostgreSQL's superuser
	// (--statements).
	statementsDSN string
	tallyd        *exec.Cmd
	secrets       string // tallyd's secret's directory, removed on close
}

// setUp starts the servers (--tallyd) or finds them (--url).
func setUp(ctx context.Context, c config, log io.Writer) (*env, error) {
	if c.Tallyd == "" {
		dsn, err := pgserver.WithDatabase(c.DatabaseURL, pgbenchDatabase)
		if err != nil {
			return nil, err
		}
		e := &env{url: strings.TrimSuffix(c.URL, "/"), pgbenchDSN: dsn}
		return e, pgserver.CreateDatabases(ctx, c.DatabaseURL, pgbenchDatabase)
	}
	fmt.Fprintln(log, "tallybench: starting a durable PostgreSQL")
	settings := map[string]string{"max_connections": "200"}
	if c.Statements > 0 {
		maps.Copy(settings, statementsLibrary)
	}
	srv, err := pgserver.Start(ctx, pgserver.Config{Fsync: true, Settings: settings})
	if err != nil {
		return nil, err
	}
	e := &env{server: srv, pgbenchDSN: srv.DSNFor(pgbenchDatabase), statementsDSN: srv.DSNFor("tally")}
	if c.Pin {
		said, err := pinApart(srv.PID())
		if err != nil {
			e.close()
			return nil, err
		}
		fmt.Fprintln(log, "tallybench:", said)
	}
	if err := pgserver.CreateDatabases(ctx, srv.DSN(), "tally", pgbenchDatabase); err != nil {
		e.close()
		return nil, err
	}
	port, err := pgserver.FreePort()
	if err != nil {
		e.close()
		return nil, err
	}
	e.url = "http://127.0.0.1:" + strconv.Itoa(port)
	// tallyd serves as the runtime role and migrates as the owner, as it
	// should in production: the role exists once the migrations made its
	// group.
	owner := srv.DSNFor("tally")
	if _, err := db.Migrate(ctx, owner, "up"); err != nil {
		e.close()
		return nil, err
	}
	if err := db.EnsureRuntimeLogin(ctx, owner, "tally_bench", ""); err != nil {
		e.close()
		return nil, err
	}
	runtime, err := pgserver.WithUser(owner, "tally_bench", "")
	if err != nil {
		e.close()
		return nil, err
	}
	secrets, err := os.MkdirTemp("", "tallybench-secret-")
	if err != nil {
		e.close()
		return nil, err
	}
	e.secrets = secrets
	args := []string{"--addr", "127.0.0.1:" + strconv.Itoa(port), "--database-url", runtime, "--migrate-database-url", owner,
		"--secret-file", filepath.Join(secrets, "secret.key"), "--log-level", "warn"}
	if c.MaxConns > 0 {
		args = append(args, "--db-max-conns", strconv.Itoa(c.MaxConns))
	}
	if c.DebugAddr != "" {
		args = append(args, "--debug-addr", c.DebugAddr)
	}
	e.tallyd = exec.Command(c.Tallyd, args...)
	e.tallyd.Stdout, e.tallyd.Stderr = log, log
	if err := e.tallyd.Start(); err != nil {
		e.close()
		return nil, fmt.Errorf("start %s: %w", c.Tallyd, err)
	}
	if err := waitReady(ctx, e.url); err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

// close stops what setUp started.
func (e *env) close() {
	if e.tallyd != nil && e.tallyd.Process != nil {
		_ = e.tallyd.Process.Signal(syscall.SIGTERM)
		_ = e.tallyd.Wait()
	}
	if e.secrets != "" {
		_ = os.RemoveAll(e.secrets)
	}
	if e.server != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := e.server.Stop(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "tallybench: stop PostgreSQL:", err)
		}
	}
}

// waitReady waits for tallyd's /readyz.
func waitReady(ctx context.Context, base string) error {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if res, err := http.Get(base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return fmt.Errorf("tallyd at %s did not become ready", base)
}
