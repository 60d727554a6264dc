package https

import (
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"log"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tally-dice/tally/https/acmetest"
	"golang.org/x/crypto/acme/autocert"
)

// lockedBuffer is a log that handlers on other goroutines write to.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// serveTLS serves h with config on a free port of 127.0.0.1 until the test
// ends, and returns the address.
func serveTLS(t *testing.T, l net.Listener, h http.Handler, config *tls.Config) string {
	t.Helper()
	srv := &http.Server{Handler: h, TLSConfig: config, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: log.New(io.Discard, "", 0)} // handshakes the tests break off on purpose
	go func() { _ = srv.ServeTLS(l, "", "") }()
	t.Cleanup(func() { _ = srv.Close() })
	return l.Addr().String()
}

// listen takes a free port of 127.0.0.1.
func listen(t *testing.T) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// servedSerial is the serial of the certificate the server at addr
// presents for tally.test (not verified: the test checks which it is).
func servedSerial(t *testing.T, addr string) *big.Int {
	t.Helper()
	conn, err := tls.Dial("tcp", addr, &tls.Config{ServerName: "tally.test", InsecureSkipVerify: true})
	if err != nil {
		t.Fatalf("handshake with %s: %v", addr, err)
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0].SerialNumber
}

// TestCertificateFilesAreReadAgainWhenTheyChange: a server on certificate
// files serves a new pair put in their place without a restart; a pair
// that does not load (a key of another certificate, a file that is no
// PEM) is logged and the last good certificate goes on being served,
// until a good pair arrives.
func TestCertificateFilesAreReadAgainWhenTheyChange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	first := acmetest.SelfSigned(t, 1)
	first.Install(t, certFile, keyFile)
	var logs lockedBuffer
	site, err := New(Config{CertFile: certFile, KeyFile: keyFile, Addr: ":443", Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	site.files.every = 0 // look at every handshake
	addr := serveTLS(t, listen(t), site.Secure(http.NotFoundHandler()), site.TLSConfig())
	if got := servedSerial(t, addr); got.Cmp(first.X509.SerialNumber) != 0 {
		t.Fatalf("serial %v served, want %v", got, first.X509.SerialNumber)
	}

	second := acmetest.SelfSigned(t, 2)
	second.Install(t, certFile, keyFile)
	if got := servedSerial(t, addr); got.Cmp(second.X509.SerialNumber) != 0 {
		t.Fatalf("after the files were replaced, serial %v served, want %v", got, second.X509.SerialNumber)
	}

	// A certificate with the key of another one: the old pair stays.
	mismatched := acmetest.SelfSigned(t, 3)
	mismatched.Key = acmetest.SelfSigned(t, 4).Key
	mismatched.Install(t, certFile, keyFile)
	if got := servedSerial(t, addr); got.Cmp(second.X509.SerialNumber) != 0 {
		t.Fatalf("after a broken pair, serial %v served, want %v", got, second.X509.SerialNumber)
	}
	if !strings.Contains(logs.String(), "do not load; still serving the certificate read before") {
		t.Fatalf("a broken pair is not logged:\n%s", logs.String())
	}
	// A certificate file that is no PEM, written in place.
	if err := os.WriteFile(certFile, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := servedSerial(t, addr); got.Cmp(second.X509.SerialNumber) != 0 {
		t.Fatalf("after a file that is no PEM, serial %v served, want %v", got, second.X509.SerialNumber)
	}
	// The files written in place (same inode), right.
	third := acmetest.SelfSigned(t, 5)
	for file, data := range map[string][]byte{certFile: third.Cert, keyFile: third.Key} {
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if got := servedSerial(t, addr); got.Cmp(third.X509.SerialNumber) != 0 {
		t.Fatalf("after the files were rewritten in place, serial %v served, want %v", got, third.X509.SerialNumber)
	}
	if n := strings.Count(logs.String(), "HTTPS certificate reloaded"); n != 2 {
		t.Errorf("%d reloads logged, want 2:\n%s", n, logs.String())
	}
}

// TestCertificateFilesAreCheckedAtMostEverySoOften: between two looks,
// a changed pair is not read: handshakes cost no system call then.
func TestCertificateFilesAreCheckedAtMostEverySoOften(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	first := acmetest.SelfSigned(t, 1)
	first.Install(t, certFile, keyFile)
	files, err := LoadFiles(certFile, keyFile, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	files.every = time.Hour
	acmetest.SelfSigned(t, 2).Install(t, certFile, keyFile)
	cert, err := files.GetCertificate(nil)
	if err != nil || cert.Leaf.SerialNumber.Cmp(first.X509.SerialNumber) != 0 {
		t.Fatalf("within the hour: serial %v, %v; want the first", cert.Leaf.SerialNumber, err)
	}
	files.checked = time.Now().Add(-time.Hour)
	if cert, _ := files.GetCertificate(nil); cert.Leaf.SerialNumber.Int64() != 2 {
		t.Fatalf("an hour on: serial %v; want 2", cert.Leaf.SerialNumber)
	}
}

// TestCertificateFilesMustLoadAtStart: a server does not start on files
// that do not load, nor on half a pair, nor on files and ACME at once.
func TestCertificateFilesMustLoadAtStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	p := acmetest.SelfSigned(t, 1)
	p.Key = acmetest.SelfSigned(t, 2).Key
	p.Install(t, certFile, keyFile)
	for name, cfg := range map[string]Config{
		"a mismatched pair":  {CertFile: certFile, KeyFile: keyFile},
		"a missing file":     {CertFile: certFile, KeyFile: filepath.Join(dir, "none.pem")},
		"half a pair":        {CertFile: certFile},
		"files and ACME":     {CertFile: certFile, KeyFile: keyFile, Domains: []string{"tally.test"}},
		"nothing":            {},
		"an address as name": {Domains: []string{"192.0.2.1"}},
		"a wildcard":         {Domains: []string{"*.tally.test"}},
		"a name with no dot": {Domains: []string{"tally"}},
	} {
		cfg.Addr, cfg.Log, cfg.Cache = ":443", slog.New(slog.DiscardHandler), autocert.DirCache(dir)
		if _, err := New(cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", name, err)
		}
	}
	if _, err := New(Config{Domains: []string{"tally.test"}, Addr: ":443", Cache: autocert.DirCache(dir)}); err != nil {
		t.Errorf("a public name: %v", err)
	}
}
