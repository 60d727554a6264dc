package main

import (
	"io"
	"net/netip"
	"slices"
	"strings"
	"testing"
)

// TestTrustedProxies: --trusted-proxies (or TALLY_TRUSTED_PROXIES) takes
// CIDRs and bare addresses, the flag wins over the environment, nothing is
// trusted by default, and a wrong entry is named.
func TestTrustedProxies(t *testing.T) {
	parse := func(args ...string) ([]netip.Prefix, error) {
		c, _, err := parseConfig("tallyd", args, io.Discard)
		return c.TrustedProxies, err
	}
	if got, err := parse(); err != nil || len(got) != 0 {
		t.Fatalf("default: %v, %v", got, err)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8::1/128"),
		netip.MustParsePrefix("192.0.2.7/32")}
	if got, err := parse("--trusted-proxies", "10.1.2.3/8, 2001:db8::1 192.0.2.7"); err != nil || !slices.Equal(got, want) {
		t.Fatalf("flag: %v, %v", got, err)
	}
	t.Setenv("TALLY_TRUSTED_PROXIES", "172.16.0.0/12")
	if got, err := parse(); err != nil || !slices.Equal(got, []netip.Prefix{netip.MustParsePrefix("172.16.0.0/12")}) {
		t.Fatalf("environment: %v, %v", got, err)
	}
	if got, err := parse("--trusted-proxies", "10.0.0.0/8"); err != nil || !slices.Equal(got, want[:1]) {
		t.Fatalf("the flag does not win: %v, %v", got, err)
	}
	if _, err := parse("--trusted-proxies", "10.0.0.0/8,proxy.local"); err == nil ||
		!strings.Contains(err.Error(), "--trusted-proxies") || !strings.Contains(err.Error(), `"proxy.local"`) {
		t.Fatalf("a host name: %v", err)
	}
}

// TestPublicURL: --public-url (or TALLY_PUBLIC_URL) is empty by default, is
// kept as an origin with no trailing slash, and is refused at start, with
// the flag named and the reason, unless it is an absolute http or https
// address of a site's root with no query or fragment.
func TestPublicURL(t *testing.T) {
	parse := func(args ...string) (string, error) {
		c, _, err := parseConfig("tallyd", args, io.Discard)
		return c.PublicURL, err
	}
	if got, err := parse(); err != nil || got != "" {
		t.Fatalf("default: %q, %v", got, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"https://tally.example.com", "https://tally.example.com"},
		{"https://tally.example.com/", "https://tally.example.com"},
		{"HTTPS://tally.example.com:8443/", "https://tally.example.com:8443"},
		{"http://192.168.1.20:8080", "http://192.168.1.20:8080"},
		{"https://[2001:db8::1]:8443", "https://[2001:db8::1]:8443"},
		{" https://tally.example.com ", "https://tally.example.com"},
	} {
		if got, err := parse("--public-url", tc.in); err != nil || got != tc.want {
			t.Errorf("--public-url %q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, says string }{
		{"tally.example.com", "absolute http or https"},
		{"/tally", "absolute http or https"},
		{"ftp://tally.example.com", "absolute http or https"},
		{"https://", "names no host"},
		{"https://:8443", "names no host"},
		{"https:tally.example.com", "names no host"},
		{"https://bob:secret@tally.example.com", "user name or password"},
		{"https://tally.example.com/?table=1", "query or a fragment"},
		{"https://tally.example.com/#join=ABC", "query or a fragment"},
		{"https://tally.example.com?", "query or a fragment"},
		{"https://tally.example.com/tally", "has a path"},
		{"https://tally.example.com/%zz", "not an address"},
	} {
		_, err := parse("--public-url", tc.in)
		if err == nil || !strings.HasPrefix(err.Error(), "--public-url: ") || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("--public-url %q: %v; want an error saying %q", tc.in, err, tc.says)
		}
	}
	t.Setenv("TALLY_PUBLIC_URL", "https://env.example.com/")
	if got, err := parse(); err != nil || got != "https://env.example.com" {
		t.Fatalf("environment: %q, %v", got, err)
	}
	if got, err := parse("--public-url", "https://flag.example.com"); err != nil || got != "https://flag.example.com" {
		t.Fatalf("the flag does not win: %q, %v", got, err)
	}
	t.Setenv("TALLY_PUBLIC_URL", "tally.example.com")
	if _, err := parse(); err == nil || !strings.Contains(err.Error(), "--public-url") {
		t.Fatalf("a wrong TALLY_PUBLIC_URL: %v", err)
	}
}

// TestHTTPSFlags: without HTTPS, tallyd listens on :8080 alone, as it
// always did; with certificate files or ACME domains (flags or
// environment), https takes :443 and plain http :80 unless told
// otherwise; settings that cannot work together are refused with why.
func TestHTTPSFlags(t *testing.T) {
	parse := func(args ...string) (config, error) {
		c, _, err := parseConfig("tallyd", args, io.Discard)
		return c, err
	}
	c, err := parse()
	if err != nil || c.https() || c.Addr != ":8080" || c.HTTPAddr != "" {
		t.Fatalf("default: https %v, addr %q, http-addr %q, %v", c.https(), c.Addr, c.HTTPAddr, err)
	}
	c, err = parse("--tls-cert", "c.pem", "--tls-key", "k.pem")
	if err != nil || !c.https() || c.Addr != ":443" || c.HTTPAddr != ":80" {
		t.Fatalf("files: https %v, addr %q, http-addr %q, %v", c.https(), c.Addr, c.HTTPAddr, err)
	}
	c, err = parse("--acme-domain", "tally.example.com, bar.example.com", "--addr", ":8443", "--http-addr", "off")
	if err != nil || !slices.Equal(c.ACMEDomains, []string{"tally.example.com", "bar.example.com"}) || c.Addr != ":8443" ||
		c.HTTPAddr != "off" || c.ACMEDirectory != "https://acme-v02.api.letsencrypt.org/directory" {
		t.Fatalf("ACME: %+v, %v", c, err)
	}
	t.Setenv("TALLY_ACME_DOMAIN", "tally.example.com")
	t.Setenv("TALLY_ACME_EMAIL", "host@example.com")
	t.Setenv("TALLY_ACME_DIRECTORY", "https://ca.example.com/dir")
	t.Setenv("TALLY_HTTP_ADDR", ":8080")
	c, err = parse()
	if err != nil || !slices.Equal(c.ACMEDomains, []string{"tally.example.com"}) || c.ACMEEmail != "host@example.com" ||
		c.ACMEDirectory != "https://ca.example.com/dir" || c.Addr != ":443" || c.HTTPAddr != ":8080" {
		t.Fatalf("ACME from the environment: %+v, %v", c, err)
	}
	t.Setenv("TALLY_ACME_DOMAIN", "")
	t.Setenv("TALLY_ACME_EMAIL", "")
	t.Setenv("TALLY_HTTP_ADDR", "")
	for _, args := range [][]string{
		{"--tls-cert", "c.pem"},
		{"--tls-key", "k.pem"},
		{"--tls-cert", "c.pem", "--tls-key", "k.pem", "--acme-domain", "tally.example.com"},
		{"--acme-email", "host@example.com"},
		{"--http-addr", ":80"},
	} {
		if _, err := parse(args...); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}
