package acmetest

import (
	"io"
	"log"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/letsencrypt/challtestsrv"
)

// The test DNS server is one per process: its package answers through the
// DNS library's one global handler, so a second server would answer with
// the first one's records anyway.
var (
	dnsOnce sync.Once
	dnsAddr string
	dnsErr  error
)

// dnsServer is the address of Pebble's challenge test DNS server, started
// on first use: it answers 127.0.0.1 for every name (A) and nothing for
// IPv6 (AAAA), so the CA reaches the server under test wherever it
// listens on 127.0.0.1.
func dnsServer(t testing.TB) string {
	t.Helper()
	dnsOnce.Do(func() { dnsAddr, dnsErr = startDNS() })
	if dnsErr != nil {
		t.Fatalf("acmetest: the DNS server: %v", dnsErr)
	}
	return dnsAddr
}

func startDNS() (string, error) {
	// challtestsrv listens itself (UDP and TCP) on the port it is given:
	// take a free one, and give it up for it.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	l.Close()
	srv, err := challtestsrv.New(challtestsrv.Config{DNSAddrs: []string{addr}, Log: log.New(io.Discard, "", 0)})
	if err != nil {
		return "", err
	}
	srv.SetDefaultDNSIPv4("127.0.0.1")
	srv.SetDefaultDNSIPv6("")
	srv.Run()
	// Pebble asks over TCP: wait until that answers.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return addr, nil
		}
		if time.Now().After(deadline) {
			return "", err
		}
		time.Sleep(20 * time.Millisecond)
	}
}
