// Command tallyd is the Tally server: it wires the configuration, the
// database, the migrations and the HTTP API together and shuts down cleanly.
package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/tally-dice/tally/api"
	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/seal"
	"github.com/tally-dice/tally/table"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the exit, so that it can be tested.
func run(args []string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	if cmd == "verify" {
		return verify(args, stdout, stderr)
	}
	if cmd == "seal-legacy" {
		cfg, _, err := parseConfig("tallyd seal-legacy", args, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "tallyd:", err)
			return 2
		}
		if err := sealLegacyCommand(context.Background(), cfg, cfg.logger(stderr), stdout); err != nil {
			fmt.Fprintln(stderr, "tallyd seal-legacy:", err)
			return 1
		}
		return 0
	}
	var sub []string
	if cmd == "migrate" {
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			fmt.Fprintln(stderr, "usage: tallyd migrate up|down|version [flags]")
			return 2
		}
		sub, args = args[:1], args[1:]
	}
	cfg, _, err := parseConfig("tallyd "+cmd, args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "tallyd:", err)
		return 2
	}
	log := cfg.logger(stderr)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	switch cmd {
	case "serve":
		err = serve(ctx, cfg, log)
	case "migrate":
		err = migrate(ctx, cfg, log, sub[0], stdout)
	case "healthcheck":
		err = healthcheck(ctx, cfg.BaseURL)
	default:
		fmt.Fprintf(stderr, "tallyd: unknown command %q (serve, migrate, verify, seal-legacy, healthcheck)\n", cmd)
		return 2
	}
	if err != nil {
		log.Error("tallyd stopped", "err", err)
		return 1
	}
	return 0
}

// serve runs the HTTP server until SIGINT or SIGTERM, then drains requests,
// closes the pool and stops the managed database.
func serve(ctx context.Context, cfg config, log *slog.Logger) error {
	tuneGC()
	database, err := openDatabase(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer database.close(log)
	version, err := database.migrate(ctx)
	if err != nil {
		return err
	}
	log.Info("database schema ready", "version", version)
	secret, err := seal.Load(cfg.Secret, cfg.SecretFile)
	if err != nil {
		return err
	}
	keys, err := seal.New(secret)
	if err != nil {
		return err
	}
	pool, err := openPool(ctx, database.dsn, cfg.MaxConns)
	if err != nil {
		return err
	}
	defer pool.Close()
	log.Info("database pool", "max_conns", pool.Config().MaxConns)
	warnOverreach(ctx, pool, log)
	tables := table.New(pool, keys, log)
	if database.sealsBegan {
		if err := sealLegacy(ctx, tables, log); err != nil {
			return err
		}
	}
	log.Info("night receipts are signed with this key; readers can pin it with tallyd verify --key",
		"receipt_key", hex.EncodeToString(keys.PublicKey()))
	go tables.ExpireKeys(ctx)

	if database.managed {
		tables.WatchDisk(database.server.DataDir(), uint64(cfg.MinFreeMB)<<20)
	}
	handler := api.New(api.Config{Tables: tables, Log: log, Done: ctx.Done(),
		TrustedProxies: cfg.TrustedProxies, PublicURL: cfg.PublicURL})
	listeners, err := newListeners(cfg, handler, pool, keys, log)
	if err != nil {
		return err
	}
	if cfg.DebugAddr != "" {
		go serveDebug(cfg.DebugAddr, log)
	}
	if strings.HasPrefix(cfg.PublicURL, "http:") {
		log.Warn("--public-url is plain http: phones that open it cannot install Tally, reopen it offline or keep the screen on (see README, At the bar: HTTPS)")
	}
	return listeners.run(ctx, cfg.Shutdown, log, "managed_database", database.managed, "trusted_proxies", cfg.TrustedProxies,
		"public_url", cfg.PublicURL)
}

// serveDebug serves Go's profiler on its own address, for measuring a
// running server (see BENCHMARKS.md); it is never on the public port.
func serveDebug(addr string, log *slog.Logger) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Info("profiler listening", "addr", addr)
	if err := srv.ListenAndServe(); err != nil {
		log.Error("profiler stopped", "err", err)
	}
}

// migrate runs `tallyd migrate up|down|version`.
func migrate(ctx context.Context, cfg config, log *slog.Logger, what string, stdout io.Writer) error {
	database, err := openDatabase(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer database.close(log)
	switch what {
	case "up", "down":
		migrate := func() (uint, error) { return db.Migrate(ctx, database.owner, what) }
		if what == "up" {
			migrate = func() (uint, error) { return database.migrate(ctx) }
		}
		v, err := migrate()
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "version %d\n", v)
		if database.sealsBegan {
			fmt.Fprintln(stdout, "history written before migration 4 is not sealed yet: run `tallyd seal-legacy` (with the server's secret) now, once")
		}
		return nil
	case "version":
		v, dirty, err := db.MigrationVersion(ctx, database.owner)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "version %d dirty %t\n", v, dirty)
		return nil
	}
	return fmt.Errorf("unknown migrate command %q (up, down, version)", what)
}

// healthcheck exits 0 when the server's readiness endpoint says 200. The
// container image has no curl, so compose's health check calls this.
func healthcheck(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %s", url, resp.Status)
	}
	return nil
}

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
