package https

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// checkEvery is how often, at most, Files looks whether its files changed:
// a handshake after that long stats them (two system calls).
const checkEvery = 2 * time.Second

// Files is a certificate and its key read from PEM files, read again when
// either file changes (its modification time, size or inode), so that a
// renewal made by another tool (certbot, acme.sh, a mounted secret) is
// served without a restart. A changed pair that does not load (the key of
// another certificate, a file half written) is logged, and the certificate
// read last goes on being served until the files change again.
type Files struct {
	certFile, keyFile string
	log               *slog.Logger
	every             time.Duration
	cert              atomic.Pointer[tls.Certificate]

	mu      sync.Mutex // held while checking
	checked time.Time
	seen    [2]os.FileInfo // the files as last read or tried
}

// LoadFiles reads the certificate (with its chain) and its key, which must
// load now.
func LoadFiles(certFile, keyFile string, log *slog.Logger) (*Files, error) {
	f := &Files{certFile: certFile, keyFile: keyFile, log: log, every: checkEvery}
	seen, err := f.stat()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	cert, err := f.load()
	if err != nil {
		return nil, err
	}
	f.seen, f.checked = seen, time.Now()
	f.cert.Store(cert)
	log.Info("HTTPS certificate loaded", "cert_file", certFile, "subject", cert.Leaf.Subject.String(),
		"names", cert.Leaf.DNSNames, "not_after", cert.Leaf.NotAfter)
	return f, nil
}

// GetCertificate is the tls.Config hook: the certificate read last, after
// reading the files again if they changed since.
func (f *Files) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	f.check()
	return f.cert.Load(), nil
}

// check reads the files again when it is time to look and they changed.
// Handshakes that arrive while one checks go on with what is loaded.
func (f *Files) check() {
	if !f.mu.TryLock() {
		return
	}
	defer f.mu.Unlock()
	now := time.Now()
	if now.Sub(f.checked) < f.every {
		return
	}
	f.checked = now
	seen, err := f.stat()
	if err != nil {
		if f.seen[0] != nil {
			f.log.Error("HTTPS certificate files are gone; still serving the certificate read before", "err", err)
		}
		f.seen = [2]os.FileInfo{}
		return
	}
	if same(seen[0], f.seen[0]) && same(seen[1], f.seen[1]) {
		return
	}
	f.seen = seen
	cert, err := f.load()
	if err != nil {
		f.log.Error("HTTPS certificate files changed but do not load; still serving the certificate read before",
			"cert_file", f.certFile, "key_file", f.keyFile, "err", err)
		return
	}
	f.cert.Store(cert)
	f.log.Info("HTTPS certificate reloaded", "cert_file", f.certFile, "subject", cert.Leaf.Subject.String(),
		"names", cert.Leaf.DNSNames, "not_after", cert.Leaf.NotAfter)
}

// stat is what the files look like now (following symbolic links, as
// certbot's live directory is made of).
func (f *Files) stat() ([2]os.FileInfo, error) {
	var out [2]os.FileInfo
	for i, name := range []string{f.certFile, f.keyFile} {
		info, err := os.Stat(name)
		if err != nil {
			return out, err
		}
		out[i] = info
	}
	return out, nil
}

// load reads the pair.
func (f *Files) load() (*tls.Certificate, error) {
	cert, err := tls.LoadX509KeyPair(f.certFile, f.keyFile)
	if err != nil {
		return nil, fmt.Errorf("%w: certificate %s with key %s: %w", ErrConfig, f.certFile, f.keyFile, err)
	}
	return &cert, nil
}

// same says whether a file is unchanged: the same file (inode), with the
// same size and modification time.
func same(now, before os.FileInfo) bool {
	return before != nil && os.SameFile(now, before) && now.Size() == before.Size() && now.ModTime().Equal(before.ModTime())
}
