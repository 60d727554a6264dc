package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/https/acmetest"
)

// port is the port of a host:port address.
func port(t *testing.T, addr string) int {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// writeFile writes data to a new file of the test and returns its path.
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// newSecretFile is a file holding a fresh master secret, for instances
// that must share one.
func newSecretFile(t *testing.T) string {
	t.Helper()
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	return writeFile(t, "secret.key", []byte(hex.EncodeToString(secret)+"\n"))
}

// TestHTTPSWithACME runs tallyd with --acme-domain against Pebble, a real
// ACME CA run by the test, for tally.test (which its DNS resolves to
// 127.0.0.1). The CA can validate only over plain http (its tls-alpn-01
// port is closed), so the certificate proves the port-80 listener answers
// ACME's challenge. Then the app and the API answer over https, with
// HSTS; plain http redirects to https and answers the probes; the live
// stream runs over https. A second tallyd on the same database, set up by
// the environment, serves the same certificate and orders nothing. The
// database holds no private key in the clear. Both shut down cleanly.
func TestHTTPSWithACME(t *testing.T) {
	t.Parallel()
	bin := buildTallyd(t, raceBuild...)
	dsn := dbtest.DSN(t)
	owner := dbtest.OwnerDSN(t, dsn)
	secret := newSecretFile(t)
	aTLS, aPlain := freeAddr(t), freeAddr(t)
	ca := acmetest.Start(t, acmetest.Options{HTTPPort: port(t, aPlain), TLSPort: port(t, freeAddr(t))})
	// tallyd trusts the directory's server as Go trusts any: SSL_CERT_FILE.
	trust := []string{"SSL_CERT_FILE=" + writeFile(t, "pebble-directory.pem", ca.DirectoryPEM)}

	start := time.Now()
	a := runTallyd(t, bin, "http://"+aPlain+"/healthz", trust, "--database-url", dsn, "--migrate-database-url", owner,
		"--secret-file", secret, "--data-dir", t.TempDir(), "--addr", aTLS, "--http-addr", aPlain,
		"--acme-domain", "tally.test", "--acme-email", "host@tally.test", "--acme-directory", ca.Directory)
	t.Cleanup(a.stop)
	base := "https://tally.test:" + strconv.Itoa(port(t, aTLS))
	client := ca.Client()
	leaf, err := ca.LeafWithin(aTLS, "tally.test", 2*time.Minute)
	if err != nil {
		t.Fatalf("A's certificate: %v\n%s", err, a.logs.String())
	}
	t.Logf("tallyd started and obtained a certificate from Pebble over http-01 in %v (%d orders)",
		time.Since(start).Round(time.Millisecond), ca.Orders())

	// The app and the API, over https, with HSTS.
	for _, path := range []string{"/", "/v1/presets"} {
		res, body := get(t, client, base+path, "")
		if res.StatusCode != http.StatusOK || res.Header.Get("Strict-Transport-Security") != "max-age=31536000" {
			t.Fatalf("GET %s: %s, HSTS %q", path, res.Status, res.Header.Get("Strict-Transport-Security"))
		}
		if path == "/" && !strings.Contains(strings.ToLower(body), "<!doctype html>") {
			t.Fatalf("GET / over https is not the app: %.200s", body)
		}
		if res.ProtoMajor != 2 {
			t.Errorf("GET %s over %s, want HTTP/2", path, res.Proto)
		}
	}
	p := phone{base: base, http: client}
	m := p.makeTable(t, "over https", "Ann", "Bob")
	live := p.watch(t, m, m.HostToken)
	deposit := p.must(t, http.StatusCreated, call{method: http.MethodPost, path: m.path("/deposits"), token: m.HostToken,
		key: newKey(), body: map[string]any{"player": m.player(t, "Ann"), "amount": 5}}, nil)
	live.reaches(t, deposit.head())

	// Plain http: the probes, a redirect for the rest, no HSTS; the
	// challenge path is ACME's (an unknown token is not found, not sent
	// to https).
	for _, c := range []struct{ path, location string }{
		{"/healthz", ""}, {"/readyz", ""},
		{"/v1/presets?x=1", base + "/v1/presets?x=1"}, {"/", base + "/"},
	} {
		res, _ := get(t, client, "http://"+aPlain+c.path, "tally.test")
		want := http.StatusPermanentRedirect
		if c.location == "" {
			want = http.StatusOK
		}
		if res.StatusCode != want || res.Header.Get("Location") != c.location || res.Header.Get("Strict-Transport-Security") != "" {
			t.Errorf("plain GET %s: %s to %q, HSTS %q", c.path, res.Status, res.Header.Get("Location"),
				res.Header.Get("Strict-Transport-Security"))
		}
	}
	if res, _ := get(t, client, "http://"+aPlain+"/.well-known/acme-challenge/unknown", "tally.test"); res.StatusCode != http.StatusNotFound {
		t.Errorf("plain GET of an unknown challenge: %s", res.Status)
	}

	// B, configured by the environment, on the same database and secret.
	orders := ca.Orders()
	bTLS, bPlain := freeAddr(t), freeAddr(t)
	b := runTallyd(t, bin, "http://"+bPlain+"/healthz", append(trust, "TALLY_ACME_DOMAIN=tally.test",
		"TALLY_ACME_DIRECTORY="+ca.Directory, "TALLY_ADDR="+bTLS, "TALLY_HTTP_ADDR="+bPlain),
		"--database-url", dsn, "--migrate-database-url", owner, "--secret-file", secret, "--data-dir", t.TempDir())
	t.Cleanup(b.stop)
	onB, err := ca.Leaf(bTLS, "tally.test")
	if err != nil {
		t.Fatalf("B's certificate: %v\n%s", err, b.logs.String())
	}
	if onB.SerialNumber.Cmp(leaf.SerialNumber) != 0 || ca.Orders() != orders {
		t.Fatalf("B serves serial %x after %d orders; A obtained %x after %d", onB.SerialNumber, ca.Orders(), leaf.SerialNumber, orders)
	}
	if res, _ := get(t, client, "https://tally.test:"+strconv.Itoa(port(t, bTLS))+m.path(""), ""); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("B over https, without a token: %s", res.Status)
	}

	// What the database holds: sealed values, none of them a PEM.
	conn, err := pgx.Connect(context.Background(), owner)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var rows, plain int
	if err := conn.QueryRow(context.Background(), `SELECT count(*), count(*) FILTER (WHERE position('PRIVATE KEY'::bytea IN value) > 0
		OR position('CERTIFICATE'::bytea IN value) > 0) FROM acme_cache`).Scan(&rows, &plain); err != nil {
		t.Fatal(err)
	}
	if rows < 2 || plain != 0 {
		t.Fatalf("acme_cache holds %d rows, %d of them with a PEM in the clear", rows, plain)
	}

	a.stop()
	b.stop()
	for name, logs := range map[string]string{"A": a.logs.String(), "B": b.logs.String()} {
		if !strings.Contains(logs, "HTTPS certificate ready") || !strings.Contains(logs, "shutting down") {
			t.Errorf("%s did not log its certificate and its shutdown:\n%s", name, logs)
		}
	}
}

// get sends GET url with client, as Host host when not empty, and reads
// the answer.
func get(t *testing.T, client *http.Client, url, host string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return res, string(body)
}
