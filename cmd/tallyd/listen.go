package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/tally-dice/tally/db"
	"github.com/tally-dice/tally/https"
	"github.com/tally-dice/tally/seal"
)

// listener is one of tallyd's HTTP servers and what it listens on.
type listener struct {
	name string // "app", "https", "http"
	srv  *http.Server
	tls  bool
	l    net.Listener
}

// listeners are the servers tallyd answers on: the app on --addr, plain
// http or, with HTTPS, https with plain http beside it on --http-addr.
type listeners struct {
	list []*listener
	site *https.Site // nil without HTTPS
}

// newListeners sets up the servers cfg asks for, around the app's handler.
// With ACME, the certificates are kept in the database conn reaches,
// sealed with keys.
func newListeners(cfg config, app http.Handler, conn db.Conn, keys *seal.Keys, log *slog.Logger) (*listeners, error) {
	main := newServer(cfg.Addr, app)
	if !cfg.https() {
		return &listeners{list: []*listener{{name: "app", srv: main}}}, nil
	}
	site, err := https.New(https.Config{CertFile: cfg.TLSCert, KeyFile: cfg.TLSKey, Domains: cfg.ACMEDomains,
		Email: cfg.ACMEEmail, Directory: cfg.ACMEDirectory, Cache: https.NewCache(conn, keys, log), Addr: cfg.Addr, Log: log})
	if err != nil {
		return nil, err
	}
	main.Handler, main.TLSConfig = site.Secure(app), site.TLSConfig()
	// A public https port hears every scanner's broken handshake: those
	// are debug noise. ACME's own failures are logged by the site.
	main.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelDebug)
	ls := &listeners{site: site, list: []*listener{{name: "https", srv: main, tls: true}}}
	if cfg.HTTPAddr != "off" {
		plain := newServer(cfg.HTTPAddr, site.Plain(app))
		plain.ErrorLog = main.ErrorLog
		ls.list = append(ls.list, &listener{name: "http", srv: plain})
	}
	return ls, nil
}

// newServer is an HTTP server with the timeouts every listener keeps.
func newServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
}

// run listens on every address (a taken port stops tallyd before it
// serves anything), serves until ctx ends or a server fails, then shuts
// every server down gracefully within timeout, all at once. With ACME,
// the certificates are obtained as soon as the listeners are up.
func (ls *listeners) run(ctx context.Context, timeout time.Duration, log *slog.Logger, attrs ...any) error {
	for _, l := range ls.list {
		var err error
		if l.l, err = net.Listen("tcp", l.srv.Addr); err != nil {
			ls.close()
			return fmt.Errorf("%s listener: %w", l.name, err)
		}
	}
	errc := make(chan error, len(ls.list))
	for _, l := range ls.list {
		go func() {
			var err error
			if l.tls {
				err = l.srv.ServeTLS(l.l, "", "")
			} else {
				err = l.srv.Serve(l.l)
			}
			errc <- fmt.Errorf("%s listener: %w", l.name, err)
		}()
		attrs = append(attrs, l.name+"_addr", l.l.Addr().String())
	}
	log.Info("tallyd listening", attrs...)
	if ls.site != nil {
		go ls.site.Prepare(ctx)
	}

	var failed error
	select {
	case failed = <-errc:
	case <-ctx.Done():
	}
	log.Info("shutting down", "timeout", timeout)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	errs := make(chan error, len(ls.list))
	for _, l := range ls.list {
		go func() { errs <- l.srv.Shutdown(shutdownCtx) }()
	}
	for range ls.list {
		failed = errors.Join(failed, <-errs)
	}
	return failed
}

// close gives up the addresses listened on so far.
func (ls *listeners) close() {
	for _, l := range ls.list {
		if l.l != nil {
			l.l.Close()
		}
	}
}
