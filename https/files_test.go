package https

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
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

	"golang.org/x/crypto/acme/autocert"
)

// pair is a self-made certificate for tally.test and its key, in PEM.
type pair struct {
	cert, key []byte
	serial    *big.Int
}

// newPair makes a self-signed certificate for tally.test with serial.
func newPair(t testing.TB, serial int64) pair {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial),
		Subject:      pkix.Name{CommonName: "tally.test"},
		DNSNames:     []string{"tally.test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pair{
		cert:   pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		key:    pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
		serial: big.NewInt(serial),
	}
}

// install writes the pair over the files as a renewal tool does: each
// file written aside, then renamed into place.
func (p pair) install(t *testing.T, certFile, keyFile string) {
	t.Helper()
	for file, data := range map[string][]byte{certFile: p.cert, keyFile: p.key} {
		if err := os.WriteFile(file+".new", data, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(file+".new", file); err != nil {
			t.Fatal(err)
		}
	}
}

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
	first := newPair(t, 1)
	first.install(t, certFile, keyFile)
	var logs lockedBuffer
	site, err := New(Config{CertFile: certFile, KeyFile: keyFile, Addr: ":443", Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	site.files.every = 0 // look at every handshake
	addr := serveTLS(t, listen(t), site.Secure(http.NotFoundHandler()), site.TLSConfig())
	if got := servedSerial(t, addr); got.Cmp(first.serial) != 0 {
		t.Fatalf("serial %v served, want %v", got, first.serial)
	}

	second := newPair(t, 2)
	second.install(t, certFile, keyFile)
	if got := servedSerial(t, addr); got.Cmp(second.serial) != 0 {
		t.Fatalf("after the files were replaced, serial %v served, want %v", got, second.serial)
	}

	// A certificate with the key of another one: the old pair stays.
	mismatched := newPair(t, 3)
	mismatched.key = newPair(t, 4).key
	mismatched.install(t, certFile, keyFile)
	if got := servedSerial(t, addr); got.Cmp(second.serial) != 0 {
		t.Fatalf("after a broken pair, serial %v served, want %v", got, second.serial)
	}
	if !strings.Contains(logs.String(), "do not load; still serving the certificate read before") {
		t.Fatalf("a broken pair is not logged:\n%s", logs.String())
	}
	// A certificate file that is no PEM, written in place.
	if err := os.WriteFile(certFile, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := servedSerial(t, addr); got.Cmp(second.serial) != 0 {
		t.Fatalf("after a file that is no PEM, serial %v served, want %v", got, second.serial)
	}
	// The files written in place (same inode), right.
	third := newPair(t, 5)
	for file, data := range map[string][]byte{certFile: third.cert, keyFile: third.key} {
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if got := servedSerial(t, addr); got.Cmp(third.serial) != 0 {
		t.Fatalf("after the files were rewritten in place, serial %v served, want %v", got, third.serial)
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
	first := newPair(t, 1)
	first.install(t, certFile, keyFile)
	files, err := LoadFiles(certFile, keyFile, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	files.every = time.Hour
	newPair(t, 2).install(t, certFile, keyFile)
	cert, err := files.GetCertificate(nil)
	if err != nil || cert.Leaf.SerialNumber.Cmp(first.serial) != 0 {
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
	p := newPair(t, 1)
	p.key = newPair(t, 2).key
	p.install(t, certFile, keyFile)
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

// writeFile writes a file readable by its owner alone, as a key is kept.
func writeFile(name string, data []byte) error { return os.WriteFile(name, data, 0o600) }
