package https

import (
	"crypto/tls"
	"crypto/x509"
	"log/slog"
	"net"
	"path/filepath"
	"testing"

	"github.com/tally-dice/tally/https/acmetest"
)

// BenchmarkHandshake is a phone's new connection: a full TLS 1.3 handshake
// over loopback with a server whose ECDSA P-256 certificate (the kind ACME
// obtains) comes from Files, both ends in this process.
func BenchmarkHandshake(b *testing.B) {
	dir := b.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	p := acmetest.SelfSigned(b, 1)
	p.Install(b, certFile, keyFile)
	site, err := New(Config{CertFile: certFile, KeyFile: keyFile, Addr: ":443", Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	l, err := tls.Listen("tcp", "127.0.0.1:0", site.TLSConfig())
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				_ = c.(*tls.Conn).Handshake()
				c.Close()
			}()
		}
	}()
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(p.Cert)
	// A new session every time: no resumption, as a phone's first visit.
	config := &tls.Config{ServerName: "tally.test", RootCAs: roots}
	addr := l.Addr().String()
	for b.Loop() {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			b.Fatal(err)
		}
		tc := tls.Client(c, config)
		if err := tc.Handshake(); err != nil {
			b.Fatal(err)
		}
		tc.Close()
	}
}

// BenchmarkFilesGetCertificate is what Files adds to a handshake between
// two looks at the files.
func BenchmarkFilesGetCertificate(b *testing.B) {
	dir := b.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	acmetest.SelfSigned(b, 1).Install(b, certFile, keyFile)
	f, err := LoadFiles(certFile, keyFile, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.GetCertificate(nil); err != nil {
			b.Fatal(err)
		}
	}
}
