package https

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tally-dice/tally/db/dbtest"
	"github.com/tally-dice/tally/https/acmetest"
	"github.com/tally-dice/tally/seal"
)

// instance is one tallyd's HTTPS, in process: its site, and its https
// and plain-http listeners (not yet serving).
type instance struct {
	site         *Site
	tlsL, plainL net.Listener
	logs         *lockedBuffer
}

// newInstance makes an instance for tally.test that uses the ACME CA
// and the database pool, sealing with keys.
func newInstance(t *testing.T, ca *acmetest.CA, pool *pgxpool.Pool, keys *seal.Keys, tlsL, plainL net.Listener) *instance {
	t.Helper()
	logs := &lockedBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("instance on %s:\n%s", tlsL.Addr(), logs.String())
		}
	})
	site, err := New(Config{Domains: []string{"tally.test"}, Directory: ca.Directory, DirectoryClient: ca.DirectoryClient(),
		Cache: NewCache(pool, keys, log), Addr: tlsL.Addr().String(), Log: log})
	if err != nil {
		t.Fatal(err)
	}
	return &instance{site: site, tlsL: tlsL, plainL: plainL, logs: logs}
}

// serve starts the instance's https listener, and its plain-http one
// when it has one.
func (in *instance) serve(t *testing.T) {
	t.Helper()
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("app")) })
	serveTLS(t, in.tlsL, in.site.Secure(app), in.site.TLSConfig())
	if in.plainL != nil {
		srv := &http.Server{Handler: in.site.Plain(app), ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(in.plainL) }()
		t.Cleanup(func() { _ = srv.Close() })
	}
}

// port is a listener's port.
func port(l net.Listener) int { return l.Addr().(*net.TCPAddr).Port }

// closedPort is a port of 127.0.0.1 that nothing listens on.
func closedPort(t *testing.T) int {
	l := listen(t)
	p := port(l)
	l.Close()
	return p
}

// TestACMEChallengesAnsweredByAnotherInstance obtains a real certificate
// from Pebble with each challenge alone (the other's port closed), as two
// instances behind a balancer: A orders, and the CA's validation lands on
// B, which answers from the database what A put there. B then serves the
// certificate A obtained, ordering nothing.
func TestACMEChallengesAnsweredByAnotherInstance(t *testing.T) {
	t.Parallel()
	for _, challenge := range []string{"tls-alpn-01", "http-01"} {
		t.Run(challenge, func(t *testing.T) {
			t.Parallel()
			pool, keys := dbtest.Pool(t), seal.Random()
			bTLS, bPlain := listen(t), listen(t)
			opts := acmetest.Options{HTTPPort: closedPort(t), TLSPort: port(bTLS)}
			if challenge == "http-01" {
				opts = acmetest.Options{HTTPPort: port(bPlain), TLSPort: closedPort(t)}
			}
			ca := acmetest.Start(t, opts)
			a := newInstance(t, ca, pool, keys, listen(t), nil)
			if challenge == "http-01" {
				a.site.Plain(http.NotFoundHandler()) // A tries http-01 too; B's listener answers it
			}
			a.serve(t)
			b := newInstance(t, ca, pool, keys, bTLS, bPlain)
			b.serve(t)

			start := time.Now()
			leaf, err := ca.LeafWithin(a.tlsL.Addr().String(), "tally.test", 2*time.Minute)
			if err != nil {
				t.Fatalf("A's certificate: %v", err)
			}
			t.Logf("%s: a certificate from Pebble in %v, %d orders", challenge, time.Since(start).Round(time.Millisecond), ca.Orders())
			if len(leaf.DNSNames) != 1 || leaf.DNSNames[0] != "tally.test" {
				t.Fatalf("A's certificate names %v", leaf.DNSNames)
			}
			orders := ca.Orders()
			onB, err := ca.Leaf(b.tlsL.Addr().String(), "tally.test")
			if err != nil {
				t.Fatalf("B's certificate: %v", err)
			}
			if onB.SerialNumber.Cmp(leaf.SerialNumber) != 0 || ca.Orders() != orders {
				t.Fatalf("B serves serial %v after %d orders; A obtained %v after %d", onB.SerialNumber, ca.Orders(),
					leaf.SerialNumber, orders)
			}
		})
	}
}

// TestPrepareObtainsTheCertificateBeforeAnyPhone: Prepare, run at start,
// leaves the certificate ready and says so, and a handshake then orders
// nothing.
func TestPrepareObtainsTheCertificateBeforeAnyPhone(t *testing.T) {
	t.Parallel()
	tlsL := listen(t)
	ca := acmetest.Start(t, acmetest.Options{HTTPPort: closedPort(t), TLSPort: port(tlsL)})
	in := newInstance(t, ca, dbtest.Pool(t), seal.Random(), tlsL, nil)
	in.serve(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	in.site.Prepare(ctx)
	orders := ca.Orders()
	if orders == 0 || !strings.Contains(in.logs.String(), "HTTPS certificate ready") {
		t.Fatalf("after Prepare: %d orders; log:\n%s", orders, in.logs.String())
	}
	if _, err := ca.Leaf(tlsL.Addr().String(), "tally.test"); err != nil || ca.Orders() != orders {
		t.Fatalf("a handshake after Prepare: %v, %d orders (before: %d)", err, ca.Orders(), orders)
	}
	if _, err := ca.Leaf(tlsL.Addr().String(), "other.test"); err == nil {
		t.Fatal("a certificate for a name not configured")
	}
}
