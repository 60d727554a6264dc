package main

import (
	"fmt"
	"net/url"
	"strings"
)

// parsePublicURL checks --public-url, the address the app puts in its join,
// share and recovery links, and returns it as an origin with no trailing
// slash (https://tally.example.com). Empty stays empty: the app then uses
// the address its page was opened with. The address must be absolute, http
// or https, and name the root of a site: Tally's pages and API are served at
// /, so a path, a query or a fragment would make links that lead nowhere.
func parsePublicURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", nil
	}
	const want = "an absolute http or https address such as https://tally.example.com"
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%q is not an address: it must be %s", raw, want)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("%q must be %s", raw, want)
	case u.Opaque != "" || u.Host == "" || u.Hostname() == "":
		return "", fmt.Errorf("%q names no host: it must be %s", raw, want)
	case u.User != nil:
		return "", fmt.Errorf("%q carries a user name or password, which phones must not be handed", raw)
	case strings.ContainsAny(raw, "?#"):
		return "", fmt.Errorf("%q has a query or a fragment: give the address alone, such as %s://%s", raw, u.Scheme, u.Host)
	case u.Path != "" && u.Path != "/":
		return "", fmt.Errorf("%q has a path: Tally is served at the root of its address, so give %s://%s", raw, u.Scheme, u.Host)
	}
	return u.Scheme + "://" + u.Host, nil
}
