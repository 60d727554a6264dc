package https

import (
	"net"
	"net/http"
	"strconv"
	"strings"
)

// HSTSMaxAge is how long a browser that has reached Tally over https keeps
// to https for its name (a year), told by Strict-Transport-Security. It
// names no subdomains: the name may be one of someone else's domain.
const HSTSMaxAge = 365 * 24 * 60 * 60

var hsts = "max-age=" + strconv.Itoa(HSTSMaxAge)

// Secure wraps the https listener's handler: every answer carries HSTS, so
// that a phone that reached Tally over https never falls back to plain
// http for its name. It is never sent over plain http, where it means
// nothing and could be forged.
func (s *Site) Secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS != nil {
			w.Header().Set("Strict-Transport-Security", hsts)
		}
		next.ServeHTTP(w, r)
	})
}

// probes are the paths the plain-http listener answers itself (through
// next), for load balancers and container health checks that probe
// plain http.
var probes = map[string]bool{"/healthz": true, "/readyz": true}

// Plain is the plain-http listener's handler: it answers ACME's http-01
// challenges (from the cache, so that any instance answers one another
// started), the health probes (by next), and sends everything else to the
// same path on https with 308 Permanent Redirect, which keeps a request's
// method and body. Calling it enables the http-01 challenge, which ACME
// then tries after tls-alpn-01.
func (s *Site) Plain(next http.Handler) http.Handler {
	h := http.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if probes[r.URL.Path] {
			next.ServeHTTP(w, r)
			return
		}
		s.redirect(w, r)
	}))
	if s.acme != nil {
		h = s.acme.HTTPHandler(h)
	}
	return h
}

// redirect sends r to https, on the https listener's port.
func (s *Site) redirect(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if host == "" {
		http.Error(w, "use https, with the server's name", http.StatusBadRequest)
		return
	}
	switch {
	case s.port != "":
		host = net.JoinHostPort(host, s.port)
	case strings.Contains(host, ":"):
		host = "[" + host + "]" // an IPv6 address
	}
	http.Redirect(w, r, "https://"+host+r.URL.RequestURI(), http.StatusPermanentRedirect)
}
