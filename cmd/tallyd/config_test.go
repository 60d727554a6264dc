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
