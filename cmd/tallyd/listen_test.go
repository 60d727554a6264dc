package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tally-dice/tally/https/acmetest"
)

// httpsConfig is a configuration serving HTTPS with a certificate the
// test made, https on httpsAddr and plain http on plainAddr.
func httpsConfig(t *testing.T, httpsAddr, plainAddr string) config {
	t.Helper()
	dir := t.TempDir()
	c := config{TLSCert: filepath.Join(dir, "cert.pem"), TLSKey: filepath.Join(dir, "key.pem"), Addr: httpsAddr, HTTPAddr: plainAddr}
	acmetest.SelfSigned(t, 1).Install(t, c.TLSCert, c.TLSKey)
	return c
}

// TestATakenPortStopsTallydBeforeItServes: when one of its addresses is
// taken, tallyd says which listener could not listen and gives up the
// addresses it had taken, serving nothing.
func TestATakenPortStopsTallydBeforeItServes(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	// Port 0: the https listener is given a port of its own, which no
	// parallel test can take between a free port's choice and its use.
	cfg := httpsConfig(t, "127.0.0.1:0", taken.Addr().String())
	ls, err := newListeners(cfg, http.NotFoundHandler(), nil, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	err = ls.run(context.Background(), time.Second, slog.New(slog.DiscardHandler))
	if err == nil || !strings.Contains(err.Error(), "http listener") {
		t.Fatalf("with the plain-http address taken: %v", err)
	}
	// The https listener had listened, and is closed again. (Dialling or
	// listening on its address instead would race with the parallel
	// tests, which may be given the freed port.)
	if ls.list[0].name != "https" || ls.list[0].l == nil {
		t.Fatalf("the https listener, which comes first, never listened: %+v", ls.list[0])
	}
	assertClosed(t, ls.list[:1])
}

// assertClosed checks that each listener refuses to accept: closed, not
// merely idle.
func assertClosed(t *testing.T, list []*listener) {
	t.Helper()
	for _, l := range list {
		if d, ok := l.l.(interface{ SetDeadline(time.Time) error }); ok {
			_ = d.SetDeadline(time.Now().Add(time.Second)) // an open listener answers with a timeout, not a hang
		}
		if _, err := l.l.Accept(); !errors.Is(err, net.ErrClosed) {
			t.Errorf("%s on %s still takes connections: %v", l.name, l.l.Addr(), err)
		}
	}
}

// TestEveryListenerShutsDownTogether: when tallyd is told to stop, both
// listeners stop taking connections and run returns without error.
func TestEveryListenerShutsDownTogether(t *testing.T) {
	t.Parallel()
	httpsAddr, plainAddr := freeAddr(t), freeAddr(t)
	ls, err := newListeners(httpsConfig(t, httpsAddr, plainAddr), http.NotFoundHandler(), nil, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ls.run(ctx, 5*time.Second, slog.New(slog.DiscardHandler)) }()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err := noRedirect.Get("http://" + plainAddr + "/somewhere")
		if err == nil {
			res.Body.Close()
			if res.StatusCode != http.StatusPermanentRedirect {
				t.Fatalf("plain http answered %s", res.Status)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("plain http never answered: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("shutting down: %v", err)
	}
	// Each listener is closed. (Dialling its address instead would race
	// with the parallel tests, which may be given the freed port.)
	if len(ls.list) != 2 {
		t.Fatalf("%d listeners, want https and plain http", len(ls.list))
	}
	assertClosed(t, ls.list)
}
