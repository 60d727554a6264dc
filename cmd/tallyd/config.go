package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// config is everything tallyd can be told, from flags or the environment.
// A flag given on the command line wins over its environment variable.
type config struct {
	Addr        string
	DataDir     string
	DatabaseURL string
	MigrateURL  string // the owner's connection, for migrations
	// Citus says the database is a Citus coordinator: after migrating,
	// Tally's tables are distributed by table id (docs/citus.md).
	Citus      bool
	SecretFile string
	Secret     string // hex, from TALLY_SECRET only
	MaxConns   int
	MinFreeMB  int
	DebugAddr  string
	LogLevel   slog.Level
	LogFormat  string
	Shutdown   time.Duration
	BaseURL    string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is
	// believed; none by default.
	TrustedProxies []netip.Prefix
	// PublicURL is the address phones are sent to in join, share and
	// recovery links (parsePublicURL); empty, the page's own address.
	PublicURL string
}

// maxMinFreeMB bounds --min-free-mb (an exbibyte), so that it counts in
// bytes without overflow.
const maxMinFreeMB = 1 << 40

// usage is printed by --help above the flag list.
const usage = `tallyd keeps the books for real-dice bar games.

Usage:
  tallyd [serve] [flags]         run the server (the default)
  tallyd migrate up|down|version [flags]
                                 manage the database schema
  tallyd verify [--key HEX] FILE check a night receipt offline: its
                                 signature, hash chain and books
  tallyd seal-legacy [flags]     once, after upgrading a database of your own:
                                 seal the history written before seals
  tallyd healthcheck [--url URL] exit 0 when the server answers /readyz

Without DATABASE_URL, tallyd starts and manages its own PostgreSQL from the
installed binaries (as the postgres user when run as root), keeps its data
under --data-dir between runs, and stops it on shutdown.

Flags (environment variable in brackets):
`

// parseConfig reads flags after the subcommand, falling back to environment
// variables and then to defaults.
func parseConfig(name string, args []string, stderr io.Writer) (config, *flag.FlagSet, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var level, proxies string
	fs.StringVar(&c.Addr, "addr", env("TALLY_ADDR", ":8080"), "address to listen on [TALLY_ADDR]")
	fs.StringVar(&c.DataDir, "data-dir", env("TALLY_DATA_DIR", defaultDataDir()), "where the managed PostgreSQL keeps its data [TALLY_DATA_DIR]")
	fs.StringVar(&c.DatabaseURL, "database-url", env("DATABASE_URL", ""), "PostgreSQL connection string; empty starts a managed local server [DATABASE_URL]")
	fs.StringVar(&c.MigrateURL, "migrate-database-url", env("TALLY_MIGRATE_DATABASE_URL", ""), "connection string of the schema's owner, for migrations; empty migrates as DATABASE_URL's role [TALLY_MIGRATE_DATABASE_URL]")
	fs.BoolVar(&c.Citus, "citus", envBool("TALLY_CITUS", false), "the database is a Citus coordinator: after migrating, distribute Tally's tables by table id (docs/citus.md) [TALLY_CITUS]")
	fs.StringVar(&c.SecretFile, "secret-file", env("TALLY_SECRET_FILE", ""), "file holding the master secret that seals history and signs receipts (hex), made on the first run; default secret.key in --data-dir; TALLY_SECRET (hex) wins over it [TALLY_SECRET_FILE]")
	c.Secret = os.Getenv("TALLY_SECRET")
	fs.IntVar(&c.MaxConns, "db-max-conns", envInt("TALLY_DB_MAX_CONNS", 0), "database connections at most; 0 takes pool_max_conns from the database URL, or 4 per CPU (at least 8) [TALLY_DB_MAX_CONNS]")
	fs.IntVar(&c.MinFreeMB, "min-free-mb", envInt("TALLY_MIN_FREE_MB", 64), "managed database only: /readyz is not ready while its data directory's disk has fewer MiB free [TALLY_MIN_FREE_MB]")
	fs.StringVar(&c.DebugAddr, "debug-addr", env("TALLY_DEBUG_ADDR", ""), "serve Go's profiler (/debug/pprof/) on this address; off when empty [TALLY_DEBUG_ADDR]")
	fs.StringVar(&level, "log-level", env("TALLY_LOG_LEVEL", "info"), "debug, info, warn or error [TALLY_LOG_LEVEL]")
	fs.StringVar(&c.LogFormat, "log-format", env("TALLY_LOG_FORMAT", "text"), "text or json [TALLY_LOG_FORMAT]")
	fs.DurationVar(&c.Shutdown, "shutdown-timeout", envDuration("TALLY_SHUTDOWN_TIMEOUT", 15*time.Second), "how long to drain requests on SIGTERM [TALLY_SHUTDOWN_TIMEOUT]")
	fs.StringVar(&proxies, "trusted-proxies", env("TALLY_TRUSTED_PROXIES", ""), "reverse proxies whose X-Forwarded-For names the client, as CIDRs or addresses separated by commas; none when empty [TALLY_TRUSTED_PROXIES]")
	fs.StringVar(&c.PublicURL, "public-url", env("TALLY_PUBLIC_URL", ""), "the address players open Tally at, such as https://tally.example.com, carried by the join QR code and the share and recovery links; empty uses the address the host's page was opened with [TALLY_PUBLIC_URL]")
	fs.StringVar(&c.BaseURL, "url", "http://127.0.0.1:8080/readyz", "healthcheck only: the URL to probe")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, fs, err
	}
	if err := c.LogLevel.UnmarshalText([]byte(level)); err != nil {
		return c, fs, fmt.Errorf("--log-level: %w", err)
	}
	if c.SecretFile == "" {
		c.SecretFile = filepath.Join(c.DataDir, "secret.key")
	}
	if c.MinFreeMB < 0 || c.MinFreeMB > maxMinFreeMB {
		return c, fs, fmt.Errorf("--min-free-mb must be from 0 to %d, not %d", maxMinFreeMB, c.MinFreeMB)
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return c, fs, fmt.Errorf("--log-format must be text or json, not %q", c.LogFormat)
	}
	var err error
	if c.TrustedProxies, err = parsePrefixes(proxies); err != nil {
		return c, fs, fmt.Errorf("--trusted-proxies: %w", err)
	}
	if c.PublicURL, err = parsePublicURL(c.PublicURL); err != nil {
		return c, fs, fmt.Errorf("--public-url: %w", err)
	}
	return c, fs, nil
}

// parsePrefixes reads a list of CIDRs ("10.0.0.0/8, fd00::/8") separated by
// commas or spaces; a bare address stands for itself alone.
func parsePrefixes(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither a CIDR such as 10.0.0.0/8 nor an address such as 10.0.0.1", f)
		}
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// logger builds the process logger.
func (c config) logger(w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.LogLevel}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && strings.TrimSpace(v) != "" {
		return v
	}
	return def
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(env(name, "")); err == nil {
		return v
	}
	return def
}

func envBool(name string, def bool) bool {
	if b, err := strconv.ParseBool(env(name, "")); err == nil {
		return b
	}
	return def
}

func envDuration(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(env(name, "")); err == nil {
		return d
	}
	return def
}

// defaultDataDir is ./.tally-data, or /var/lib/tally when running as root:
// root's server runs as the postgres user, which must be able to reach the
// directory, and a checkout under /root (mode 0700) is out of its reach.
func defaultDataDir() string {
	if os.Geteuid() == 0 {
		return "/var/lib/tally"
	}
	return ".tally-data"
}
