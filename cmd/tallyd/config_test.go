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
