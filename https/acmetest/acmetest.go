// Package acmetest runs a real ACME CA for tests: Let's Encrypt's Pebble, in
// process (its CA, validation authority and web front end), with Pebble's
// challenge test DNS server answering 127.0.0.1 for every name. A server
// under test obtains real certificates from it over ACME, for any name
// (tally.test), and the CA validates its challenges against the server's
// own listeners on 127.0.0.1. Tally itself never imports it, as it never
// imports dbtest.
package acmetest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/letsencrypt/pebble/v2/ca"
	"github.com/letsencrypt/pebble/v2/db"
	"github.com/letsencrypt/pebble/v2/va"
	"github.com/letsencrypt/pebble/v2/wfe"
)

// Options say where the CA's validation authority connects, on 127.0.0.1,
// to check a challenge: HTTPPort for http-01 (the server's port-80
// listener), TLSPort for tls-alpn-01 (its https listener). A port nothing
// listens on makes that challenge fail, leaving the other.
type Options struct {
	HTTPPort int
	TLSPort  int
}

// CA is a running Pebble.
type CA struct {
	// Directory is the ACME directory's URL, on an https server of its
	// own (DirectoryPEM).
	Directory string
	// DirectoryPEM is the certificate the directory's server presents, in
	// PEM: an ACME client must trust it (for tallyd, SSL_CERT_FILE naming a
	// file that holds it).
	DirectoryPEM []byte
	// RootPEM is the root the CA issues certificates under, read from its
	// management interface, and Roots a pool that holds it: a client that
	// trusts it trusts the certificates the server obtained.
	RootPEM []byte
	Roots   *x509.CertPool

	orders atomic.Int64
	logs   *logs
}

// newOrderPath is Pebble's new-order endpoint (wfe's newOrderPath).
const newOrderPath = "/order-plz"

// Start runs a CA until the test ends. Its log is the test's when the
// test fails.
func Start(t testing.TB, o Options) *CA {
	t.Helper()
	dns := dnsServer(t)
	c := &CA{logs: &logs{}}
	logger := log.New(c.logs, "pebble ", log.Ltime|log.Lmicroseconds)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("Pebble's log:\n%s", c.logs.String())
		}
	})
	store := db.NewMemoryStore()
	authority := ca.New(logger, store, "", "ecdsa", 0, 1, map[string]ca.Profile{"default": {Description: "the default profile"}})
	front := wfe.New(logger, store, newVA(logger, o, dns, store), authority, []string{"pebble.letsencrypt.org"}, false, false, 0, 0)

	acmeSrv := httptest.NewUnstartedServer(c.countOrders(front.Handler()))
	acmeSrv.StartTLS()
	t.Cleanup(acmeSrv.Close)
	c.Directory = acmeSrv.URL + wfe.DirectoryPath
	c.DirectoryPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: acmeSrv.Certificate().Raw})

	mgmt := httptest.NewUnstartedServer(front.ManagementHandler())
	mgmt.StartTLS()
	t.Cleanup(mgmt.Close)
	res, err := mgmt.Client().Get(mgmt.URL + wfe.RootCertPath + "0")
	if err != nil {
		t.Fatalf("acmetest: Pebble's root: %v", err)
	}
	defer res.Body.Close()
	c.RootPEM, err = io.ReadAll(res.Body)
	c.Roots = x509.NewCertPool()
	if err != nil || res.StatusCode != http.StatusOK || !c.Roots.AppendCertsFromPEM(c.RootPEM) {
		t.Fatalf("acmetest: Pebble's root: %s %v\n%s", res.Status, err, c.RootPEM)
	}
	return c
}

// envMu serializes setting the environment Pebble's validation authority
// reads as it starts.
var envMu sync.Mutex

// newVA starts Pebble's validation authority: it resolves names with the
// test DNS server, checks challenges at once (Pebble otherwise waits up to
// seconds at random before each, as real CAs' queues do) and for real.
func newVA(logger *log.Logger, o Options, dns string, store *db.MemoryStore) *va.VAImpl {
	envMu.Lock()
	defer envMu.Unlock()
	before, had := os.LookupEnv("PEBBLE_VA_NOSLEEP")
	os.Setenv("PEBBLE_VA_NOSLEEP", "1")
	defer func() {
		if had {
			os.Setenv("PEBBLE_VA_NOSLEEP", before)
		} else {
			os.Unsetenv("PEBBLE_VA_NOSLEEP")
		}
	}()
	return va.New(logger, o.HTTPPort, o.TLSPort, false, dns, store)
}

// countOrders counts the requests for new orders.
func (c *CA) countOrders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == newOrderPath {
			c.orders.Add(1)
		}
		next.ServeHTTP(w, r)
	})
}

// DirectoryClient is an HTTP client that trusts the directory's server,
// for an ACME client in the test's process (https.Config's
// DirectoryClient).
func (c *CA) DirectoryClient() *http.Client {
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(c.DirectoryPEM)
	return &http.Client{Timeout: time.Minute, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
}

// Orders is how many certificate orders clients have placed so far.
func (c *CA) Orders() int { return int(c.orders.Load()) }

// Client is an HTTP client that trusts the CA's root and reaches every
// name at 127.0.0.1 (tally.test:8443 is 127.0.0.1:8443), as the CA's DNS
// says; it follows no redirect, so that a test sees each.
func (c *CA) Client() *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	return &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			TLSClientConfig:   &tls.Config{RootCAs: c.Roots},
			ForceAttemptHTTP2: true,
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				_, port, err := net.SplitHostPort(addr)
				if err != nil {
					return nil, err
				}
				return dialer.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
			},
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Leaf is the certificate the TLS server at addr (host:port, dialed at
// 127.0.0.1) presents for name, verified against the CA's root.
func (c *CA) Leaf(addr, name string) (*x509.Certificate, error) {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 30 * time.Second}, "tcp", net.JoinHostPort("127.0.0.1", port),
		&tls.Config{ServerName: name, RootCAs: c.Roots})
	if err != nil {
		return nil, fmt.Errorf("TLS to %s as %s: %w", addr, name, err)
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0], nil
}

// LeafWithin is Leaf tried again until it succeeds or within has passed.
// A handshake that arrives while a server is still ordering its first
// certificate waits for it, and on a slow machine the server may close
// the handshake before the order is done (Go's http.Server ends a
// handshake at its ReadHeaderTimeout): the client, as a browser would,
// tries again.
func (c *CA) LeafWithin(addr, name string, within time.Duration) (*x509.Certificate, error) {
	deadline := time.Now().Add(within)
	for {
		leaf, err := c.Leaf(addr, name)
		if err == nil || time.Now().After(deadline) {
			return leaf, err
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// logs is Pebble's log, kept for a failing test.
type logs struct {
	mu  sync.Mutex
	buf []byte
}

func (l *logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, p...)
	return len(p), nil
}

func (l *logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf)
}
