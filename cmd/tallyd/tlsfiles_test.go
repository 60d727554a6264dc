package main

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/https/acmetest"
)

// servedSerial is the serial of the certificate tallyd at addr presents
// for tally.test, verified against roots.
func servedSerial(t *testing.T, addr string, roots *x509.CertPool) int64 {
	t.Helper()
	conn, err := tls.Dial("tcp", addr, &tls.Config{ServerName: "tally.test", RootCAs: roots})
	if err != nil {
		t.Fatalf("handshake with %s: %v", addr, err)
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0].SerialNumber.Int64()
}

// TestHTTPSWithCertificateFiles runs tallyd with --tls-cert and --tls-key
// on a certificate the test made, replaces the files with a new pair (as
// certbot or acme.sh renewing it would), and sees the new certificate
// served within seconds, without a restart; then replaces them with a
// broken pair, and the last good certificate goes on being served.
func TestHTTPSWithCertificateFiles(t *testing.T) {
	t.Parallel()
	bin := buildTallyd(t, raceBuild...)
	dsn := dbtest.DSN(t)
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "fullchain.pem"), filepath.Join(dir, "privkey.pem")
	first, second := acmetest.SelfSigned(t, 1), acmetest.SelfSigned(t, 2)
	first.Install(t, certFile, keyFile)
	roots := x509.NewCertPool()
	roots.AddCert(first.X509)
	roots.AddCert(second.X509)

	httpsAddr, plainAddr := freeAddr(t), freeAddr(t)
	p := runTallyd(t, bin, "http://"+plainAddr+"/healthz", []string{"TALLY_TLS_CERT=" + certFile, "TALLY_TLS_KEY=" + keyFile},
		"--database-url", dsn, "--migrate-database-url", dbtest.OwnerDSN(t, dsn), "--data-dir", t.TempDir(),
		"--addr", httpsAddr, "--http-addr", plainAddr)
	t.Cleanup(p.stop)
	if got := servedSerial(t, httpsAddr, roots); got != 1 {
		t.Fatalf("serial %d served, want 1", got)
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "tally.test"}}}
	res, _ := get(t, client, "https://"+httpsAddr+"/readyz", "")
	if res.StatusCode != http.StatusOK || res.Header.Get("Strict-Transport-Security") == "" {
		t.Fatalf("GET /readyz over https: %s, HSTS %q", res.Status, res.Header.Get("Strict-Transport-Security"))
	}
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, _ = get(t, client, "http://"+plainAddr+"/", "tally.test")
	if want := "https://tally.test:" + strconv.Itoa(port(t, httpsAddr)) + "/"; res.StatusCode != http.StatusPermanentRedirect ||
		res.Header.Get("Location") != want {
		t.Fatalf("plain GET /: %s to %q, want 308 to %q", res.Status, res.Header.Get("Location"), want)
	}

	second.Install(t, certFile, keyFile)
	start := time.Now()
	for servedSerial(t, httpsAddr, roots) != 2 {
		if time.Since(start) > 15*time.Second {
			t.Fatalf("the new pair is not served after %v\n%s", time.Since(start), p.logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("the renewed certificate was served %v after the files changed", time.Since(start).Round(time.Millisecond))

	broken := acmetest.SelfSigned(t, 3)
	broken.Key = acmetest.SelfSigned(t, 4).Key // the key of another certificate
	broken.Install(t, certFile, keyFile)
	for !strings.Contains(p.logs.String(), "do not load; still serving the certificate read before") {
		if time.Since(start) > 30*time.Second {
			t.Fatalf("a broken pair is not logged\n%s", p.logs.String())
		}
		servedSerial(t, httpsAddr, roots)
		time.Sleep(100 * time.Millisecond)
	}
	if got := servedSerial(t, httpsAddr, roots); got != 2 {
		t.Fatalf("after a broken pair, serial %d served, want 2", got)
	}
}
