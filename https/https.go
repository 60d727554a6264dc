// Package https serves Tally over HTTPS, as self-hosted servers do without a
// proxy in front: phones give a service worker, install to the home
// screen, the wake lock and the camera only to a secure context.
//
// The certificate comes from one of two places:
//   - two PEM files (--tls-cert, --tls-key), read again when they change,
//     so that a renewal made by another tool is served without a restart
//     (Files);
//   - an ACME CA, Let's Encrypt unless told otherwise, for public names
//     (--acme-domain), through golang.org/x/crypto/acme/autocert. What ACME
//     obtains is kept in the database, sealed under the master secret, so
//     that every instance serves the same certificate (Cache).
//
// Beside the https listener, a plain-http one (port 80) answers ACME's
// http-01 challenges and the health probes, and sends everything else to
// https. Answers over https carry HSTS.
package https

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// DefaultDirectory is the ACME directory used unless another is named: Let's
// Encrypt's production CA.
const DefaultDirectory = acme.LetsEncryptURL

// ErrConfig is wrapped by every problem with how HTTPS is configured.
var ErrConfig = errors.New("https")

// Config says where the certificate comes from: CertFile and KeyFile, or
// ACME for Domains. Exactly one of the two is set.
type Config struct {
	CertFile, KeyFile string
	// Domains are the public names ACME obtains certificates for; phones
	// must reach the server by one of them.
	Domains []string
	// Email is given to the CA with the ACME account, for its notices
	// (expiry, problems); none when empty.
	Email string
	// Directory is the ACME directory URL; DefaultDirectory when empty.
	Directory string
	// DirectoryClient reaches the directory; http.DefaultClient when nil,
	// which trusts the system's roots (and SSL_CERT_FILE's). Tests give
	// one that trusts their CA's server.
	DirectoryClient *http.Client
	// Cache keeps what ACME obtains (NewCache).
	Cache autocert.Cache
	// Addr is the address the https listener listens on: its port goes
	// into the redirects to https (none for 443).
	Addr string
	Log  *slog.Logger
}

// Site is how tallyd answers over HTTPS: the certificate its https
// listener presents (TLSConfig), what it adds to every answer there
// (Secure), and what its plain-http listener says (Plain).
type Site struct {
	acme    *autocert.Manager // nil with certificate files
	files   *Files
	domains []string
	port    string // the https port of redirects; "" for 443
	log     *slog.Logger
}

// New checks cfg and, with certificate files, reads them.
func New(cfg Config) (*Site, error) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	_, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("%w: the https address %q: %w", ErrConfig, cfg.Addr, err)
	}
	if port == "443" || port == "https" {
		port = ""
	}
	s := &Site{port: port, log: cfg.Log}
	files := cfg.CertFile != "" || cfg.KeyFile != ""
	switch {
	case files && len(cfg.Domains) > 0:
		return nil, fmt.Errorf("%w: certificate files and ACME domains are two sources of one certificate: choose one", ErrConfig)
	case files:
		if cfg.CertFile == "" || cfg.KeyFile == "" {
			return nil, fmt.Errorf("%w: a certificate file needs its key file, and the other way round", ErrConfig)
		}
		s.files, err = LoadFiles(cfg.CertFile, cfg.KeyFile, cfg.Log)
		return s, err
	case len(cfg.Domains) == 0:
		return nil, fmt.Errorf("%w: neither certificate files nor ACME domains", ErrConfig)
	}
	for _, d := range cfg.Domains {
		if err := checkDomain(d); err != nil {
			return nil, err
		}
	}
	if cfg.Cache == nil {
		return nil, fmt.Errorf("%w: ACME needs a cache", ErrConfig)
	}
	dir := cfg.Directory
	if dir == "" {
		dir = DefaultDirectory
	}
	s.domains = cfg.Domains
	allowed := autocert.HostWhitelist(cfg.Domains...)
	s.acme = &autocert.Manager{
		// Naming a domain is agreeing to the CA's terms, as with every
		// ACME client that obtains certificates unattended.
		Prompt: autocert.AcceptTOS,
		Cache:  cfg.Cache,
		// An http-01 request's Host names a port when the CA was told to
		// validate on another than 80 (Pebble in the tests).
		HostPolicy: func(ctx context.Context, host string) error {
			if h, _, err := net.SplitHostPort(host); err == nil {
				host = h
			}
			return allowed(ctx, host)
		},
		Email:  cfg.Email,
		Client: &acme.Client{DirectoryURL: dir, UserAgent: "tally", HTTPClient: cfg.DirectoryClient},
	}
	return s, nil
}

// checkDomain refuses what no CA issues a certificate for by http-01 or
// tls-alpn-01: an address, a wildcard, a name without a dot.
func checkDomain(d string) error {
	switch {
	case net.ParseIP(d) != nil:
		return fmt.Errorf("%w: ACME domain %q is an address: name the server by a public DNS name", ErrConfig, d)
	case strings.Contains(d, "*"):
		return fmt.Errorf("%w: ACME domain %q: a wildcard needs the dns-01 challenge, which tallyd does not answer", ErrConfig, d)
	case !strings.Contains(strings.Trim(d, "."), "."):
		return fmt.Errorf("%w: ACME domain %q is not a public DNS name", ErrConfig, d)
	}
	return nil
}

// TLSConfig is the https listener's TLS configuration: HTTP/2, TLS 1.2 at
// least, the certificate from the files or from ACME, and with ACME the
// tls-alpn-01 challenge answered on the same port.
func (s *Site) TLSConfig() *tls.Config {
	c := &tls.Config{MinVersion: tls.VersionTLS12, NextProtos: []string{"h2", "http/1.1"}}
	if s.files != nil {
		c.GetCertificate = s.files.GetCertificate
		return c
	}
	c.GetCertificate = s.acmeCertificate
	c.NextProtos = append(c.NextProtos, acme.ALPNProto)
	return c
}

// acmeCertificate is ACME's certificate for the name the client asked
// for; a failure for one of the site's own names is logged, since phones
// cannot connect until it works (other names are anyone's guesses).
func (s *Site) acmeCertificate(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
	cert, err := s.acme.GetCertificate(hello)
	if err != nil && s.own(hello.ServerName) && !(len(hello.SupportedProtos) == 1 && hello.SupportedProtos[0] == acme.ALPNProto) {
		s.log.Error("no HTTPS certificate from ACME", "domain", hello.ServerName, "err", err)
	}
	return cert, err
}

// own says whether name is one of the site's ACME domains.
func (s *Site) own(name string) bool {
	for _, d := range s.domains {
		if strings.EqualFold(strings.TrimSuffix(name, "."), d) {
			return true
		}
	}
	return false
}

// Prepare obtains (or reads from the cache) the certificate of every ACME
// domain now rather than at the first phone's handshake, and logs the
// outcome: a CA that cannot reach the server shows at startup. It waits
// for the CA as a handshake would, and is a no-op with certificate files.
// Call it once the listeners are up, and after Plain (which enables the
// http-01 challenge).
func (s *Site) Prepare(ctx context.Context) {
	for _, d := range s.domains {
		if ctx.Err() != nil {
			return
		}
		start := time.Now()
		cert, err := s.acmeCertificate(&tls.ClientHelloInfo{ServerName: d,
			SignatureSchemes: []tls.SignatureScheme{tls.ECDSAWithP256AndSHA256},
			SupportedCurves:  []tls.CurveID{tls.CurveP256},
			CipherSuites:     []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256}})
		if err == nil && cert.Leaf != nil {
			s.log.Info("HTTPS certificate ready", "domain", d, "issuer", cert.Leaf.Issuer.String(),
				"not_after", cert.Leaf.NotAfter, "took", time.Since(start).Round(time.Millisecond))
		}
	}
}
