package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tally-dice/tally/db/dbtest"
)

// selfSigned is a certificate for tally.test made by the test, and its
// key, in PEM.
type selfSigned struct {
	cert, key []byte
	x509      *x509.Certificate
}

func newSelfSigned(t *testing.T, serial int64) selfSigned {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(serial),
		Subject:               pkix.Name{CommonName: "tally.test"},
		DNSNames:              []string{"tally.test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true, // its own root, for the test's client to trust
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return selfSigned{
		cert: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		key:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
		x509: parsed,
	}
}

// install puts the pair in place as renewal tools do: written aside,
// renamed over the old files.
func (s selfSigned) install(t *testing.T, certFile, keyFile string) {
	t.Helper()
	for file, data := range map[string][]byte{certFile: s.cert, keyFile: s.key} {
		if err := os.WriteFile(file+".new", data, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(file+".new", file); err != nil {
			t.Fatal(err)
		}
	}
}

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
	first, second := newSelfSigned(t, 1), newSelfSigned(t, 2)
	first.install(t, certFile, keyFile)
	roots := x509.NewCertPool()
	roots.AddCert(first.x509)
	roots.AddCert(second.x509)

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

	second.install(t, certFile, keyFile)
	start := time.Now()
	for servedSerial(t, httpsAddr, roots) != 2 {
		if time.Since(start) > 15*time.Second {
			t.Fatalf("the new pair is not served after %v\n%s", time.Since(start), p.logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("the renewed certificate was served %v after the files changed", time.Since(start).Round(time.Millisecond))

	broken := newSelfSigned(t, 3)
	broken.key = newSelfSigned(t, 4).key // the key of another certificate
	broken.install(t, certFile, keyFile)
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
