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

	"github.com/tally-dice/tally/https"
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
	// HTTPS: a certificate from TLSCert and TLSKey, or from ACME for
	// ACMEDomains. With either, Addr serves https and HTTPAddr plain http
	// (redirects, ACME's http-01, probes); off when "off".
	TLSCert, TLSKey string
	ACMEDomains     []string
	ACMEEmail       string
	ACMEDirectory   string
	HTTPAddr        string
}

// https says whether tallyd serves over HTTPS.
func (c config) https() bool { return c.TLSCert != "" || c.TLSKey != "" || len(c.ACMEDomains) > 0 }

// The listeners' default addresses: plain http alone, or https with plain
// http beside it for redirects and ACME's http-01 challenge, which a CA
// sends to port 80 (and tls-alpn-01 to port 443).
const (
	defaultAddr      = ":8080"
	defaultHTTPSAddr = ":443"
	defaultHTTPAddr  = ":80"
)

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
	var level, proxies, domains string
	fs.StringVar(&c.Addr, "addr", env("TALLY_ADDR", ""), "address to listen on; default "+defaultAddr+", or "+defaultHTTPSAddr+" with HTTPS (--tls-cert or --acme-domain) [TALLY_ADDR]")
	fs.StringVar(&c.HTTPAddr, "http-addr", env("TALLY_HTTP_ADDR", ""), "with HTTPS only: where plain http answers ACME's http-01 challenge and the health probes and redirects the rest to https; default "+defaultHTTPAddr+", off for none [TALLY_HTTP_ADDR]")
	fs.StringVar(&c.TLSCert, "tls-cert", env("TALLY_TLS_CERT", ""), "serve HTTPS with the certificate (and its chain) in this PEM file, read again when it changes [TALLY_TLS_CERT]")
	fs.StringVar(&c.TLSKey, "tls-key", env("TALLY_TLS_KEY", ""), "the private key of --tls-cert, in PEM [TALLY_TLS_KEY]")
	fs.StringVar(&domains, "acme-domain", env("TALLY_ACME_DOMAIN", ""), "serve HTTPS for these public names, separated by commas, with certificates obtained by ACME (accepting the CA's terms) and kept in the database [TALLY_ACME_DOMAIN]")
	fs.StringVar(&c.ACMEEmail, "acme-email", env("TALLY_ACME_EMAIL", ""), "the address the ACME CA may write to about the certificates [TALLY_ACME_EMAIL]")
	fs.StringVar(&c.ACMEDirectory, "acme-directory", env("TALLY_ACME_DIRECTORY", https.DefaultDirectory), "the ACME CA's directory URL; Let's Encrypt's staging CA is https://acme-staging-v02.api.letsencrypt.org/directory [TALLY_ACME_DIRECTORY]")
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
	c.ACMEDomains = strings.FieldsFunc(domains, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	return c, fs, c.listeners()
}

// listeners checks the HTTPS settings and fills in the listeners'
// default addresses.
func (c *config) listeners() error {
	switch {
	case (c.TLSCert == "") != (c.TLSKey == ""):
		return fmt.Errorf("--tls-cert and --tls-key go together")
	case c.TLSCert != "" && len(c.ACMEDomains) > 0:
		return fmt.Errorf("--tls-cert and --acme-domain are two sources of one certificate: choose one")
	case c.ACMEEmail != "" && len(c.ACMEDomains) == 0:
		return fmt.Errorf("--acme-email needs --acme-domain")
	case !c.https() && c.HTTPAddr != "":
		return fmt.Errorf("--http-addr serves plain http beside https: it needs --tls-cert or --acme-domain (plain http alone listens on --addr)")
	}
	if c.Addr == "" {
		c.Addr = defaultAddr
		if c.https() {
			c.Addr = defaultHTTPSAddr
		}
	}
	if c.https() && c.HTTPAddr == "" {
		c.HTTPAddr = defaultHTTPAddr
	}
	return nil
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
