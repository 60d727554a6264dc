package main

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestReadinessWatchesTheManagedDisk: tallyd running its own PostgreSQL
// watches the disk of its data directory, and asked for more free space
// than the disk has, says it is not ready and names the directory, while
// it still answers.
func TestReadinessWatchesTheManagedDisk(t *testing.T) {
	t.Parallel()
	dataDir := reachableTempDir(t)
	base, stop := startTallyd(t, buildTallyd(t), dataDir, "--min-free-mb", strconv.Itoa(maxMinFreeMB))
	defer stop()
	res, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var p struct{ Type, Detail string }
	if err := json.NewDecoder(res.Body).Decode(&p); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusServiceUnavailable || p.Type != "/problems/unavailable" || res.Header.Get("Retry-After") == "" ||
		!strings.Contains(p.Detail, filepath.Join(dataDir, "postgres")) {
		t.Fatalf("readyz with the disk short of space: %d %+v (Retry-After %q)", res.StatusCode, p, res.Header.Get("Retry-After"))
	}
	if res, err := http.Get(base + "/v1/presets"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("presets while not ready: %v %v", err, res)
	} else {
		res.Body.Close()
	}
}

// TestMinFreeFlag: --min-free-mb takes a number of MiB, 0 for never.
func TestMinFreeFlag(t *testing.T) {
	var errOut strings.Builder
	for _, tc := range []struct {
		args []string
		want int
		ok   bool
	}{
		{nil, 64, true},
		{[]string{"--min-free-mb", "0"}, 0, true},
		{[]string{"--min-free-mb", "512"}, 512, true},
		{[]string{"--min-free-mb", "-1"}, 0, false},
		{[]string{"--min-free-mb", strconv.Itoa(maxMinFreeMB + 1)}, 0, false},
	} {
		cfg, _, err := parseConfig("tallyd", tc.args, &errOut)
		if (err == nil) != tc.ok || (tc.ok && cfg.MinFreeMB != tc.want) {
			t.Errorf("%v: %d, %v; want %d (ok %v)", tc.args, cfg.MinFreeMB, err, tc.want, tc.ok)
		}
	}
}
