package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestREADMEWalkthrough starts tallyd as a newcomer would (no DATABASE_URL,
// so it runs its own PostgreSQL under a fresh data directory), pastes the
// README's curl walk-through into bash, and checks that it prints what the
// README says. Then it restarts tallyd on the same data directory and finds
// the table again: data is kept between runs.
func TestREADMEWalkthrough(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "jq", "md5sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the README walk-through needs %s: install it (apt-get install curl jq) or run `make test`, which does", tool)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	script, expected := walkthrough(t, string(readme))
	bin := buildTallyd(t)
	dataDir := reachableTempDir(t)

	base, stop := startTallyd(t, bin, dataDir)
	if res, err := http.Get(base + "/readyz"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("a fresh tallyd is not ready: %v %v", err, res)
	} else {
		res.Body.Close()
	}
	work := reachableTempDir(t)
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "TALLY="+base, "TALLYD="+bin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("walk-through failed: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != expected {
		t.Fatalf("walk-through printed\n%s\n\nbut the README says it prints\n%s", got, expected)
	}
	stop()

	base, stop = startTallyd(t, bin, dataDir)
	defer stop()
	res, err := http.Get(base + "/v1/presets")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("restarted tallyd: %v %v", err, res)
	}
	res.Body.Close()
	host := strings.TrimSpace(runIn(t, work, "jq", "-r", ".hostToken", "table.json"))
	id := strings.TrimSpace(runIn(t, work, "jq", "-r", ".table.id", "table.json"))
	req, _ := http.NewRequest(http.MethodGet, base+"/v1/tables/"+id+"/balances", nil)
	req.Header.Set("Authorization", "Bearer "+host)
	res, err = http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the table did not survive a restart: %v %v", err, res)
	}
	res.Body.Close()
	// The secret stays in the data directory: the history's seals still
	// check after the restart.
	req, _ = http.NewRequest(http.MethodGet, base+"/v1/tables/"+id+"/audit?full=true", nil)
	req.Header.Set("Authorization", "Bearer "+host)
	res, err = http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("audit after a restart: %v %v", err, res)
	}
	var rep struct {
		OK      bool `json:"ok"`
		SealsOK bool `json:"sealsOk"`
	}
	err = json.NewDecoder(res.Body).Decode(&rep)
	res.Body.Close()
	if err != nil || !rep.OK || !rep.SealsOK {
		t.Fatalf("audit after a restart: %+v %v", rep, err)
	}
	// The receipt the walk-through checked is refused with a byte changed.
	raw, err := os.ReadFile(filepath.Join(work, "receipt.txt"))
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)/2] ^= 0x01
	bad := filepath.Join(work, "changed.txt")
	if err := os.WriteFile(bad, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(bin, "verify", bad).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), "NOT VERIFIED") {
		t.Fatalf("tallyd verify on a changed receipt: %v\n%s", err, out)
	}
	// Unpinned, the key is said to be unchecked; pinned to another key, the
	// receipt is refused; pinned to the server's, it verifies.
	good := filepath.Join(work, "receipt.txt")
	if out, err := exec.Command(bin, "verify", good).CombinedOutput(); err != nil || !strings.Contains(string(out), "THE KEY IS NOT CHECKED") {
		t.Fatalf("tallyd verify without --key: %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "verify", "--key", strings.Repeat("ab", 32), good).CombinedOutput()
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), "not the expected") {
		t.Fatalf("tallyd verify --key <another>: %v\n%s", err, out)
	}
	res, err = http.Get(base + "/v1/receipt-key")
	if err != nil {
		t.Fatal(err)
	}
	var published struct {
		PublicKey string `json:"publicKey"`
	}
	err = json.NewDecoder(res.Body).Decode(&published)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "verify", "--key", published.PublicKey, good).CombinedOutput(); err != nil ||
		strings.Contains(string(out), "NOT CHECKED") {
		t.Fatalf("tallyd verify --key <the server's>: %v\n%s", err, out)
	}
}

// walkthrough cuts the shell block and its printed output out of the README.
func walkthrough(t *testing.T, readme string) (script, expected string) {
	t.Helper()
	_, rest, ok := strings.Cut(readme, "<!-- walkthrough:begin -->")
	block, after, ok2 := strings.Cut(rest, "<!-- walkthrough:end -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no walkthrough markers")
	}
	block = strings.TrimSpace(block)
	block = strings.TrimPrefix(block, "```sh")
	block = strings.TrimSuffix(block, "```")
	_, printed, ok := strings.Cut(after, "It prints")
	if !ok {
		t.Fatal("README.md does not say what the walk-through prints")
	}
	var lines []string
	for _, l := range strings.Split(printed, "\n")[1:] {
		if strings.HasPrefix(l, "    ") {
			lines = append(lines, strings.TrimPrefix(l, "    "))
		} else if len(lines) > 0 && strings.TrimSpace(l) != "" {
			break
		}
	}
	return block, strings.Join(lines, "\n")
}

// buildTallyd compiles the binary the way `make run` runs it, with flags
// for go build after the usual ones.
func buildTallyd(t *testing.T, flags ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tallyd")
	args := append(append([]string{"build", "-o", bin}, flags...), ".")
	out, err := exec.Command("go", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startTallyd runs tallyd on a free port, with args after the usual ones,
// and waits until it answers /healthz, which it serves only once its
// database is up and migrated; stop sends SIGTERM and waits for a clean
// exit (and for a managed PostgreSQL, unless args name a --database-url,
// to be stopped). The logs are the test's when it failed.
func startTallyd(t *testing.T, bin, dataDir string, args ...string) (string, func()) {
	t.Helper()
	addr := freeAddr(t)
	base := "http://" + addr
	p := runTallyd(t, bin, base+"/healthz", nil, append([]string{"--addr", addr, "--data-dir", dataDir}, args...)...)
	return base, p.stop
}

// freeAddr is an address of 127.0.0.1 with a port free a moment ago,
// never one it gave this test binary before (a port handed to one
// parallel test and freed by it is not handed to another).
func freeAddr(t *testing.T) string {
	t.Helper()
	given.Lock()
	defer given.Unlock()
	for {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		if !given.ports[addr] {
			given.ports[addr] = true
			return addr
		}
	}
}

// given are the addresses freeAddr handed out.
var given = struct {
	sync.Mutex
	ports map[string]bool
}{ports: map[string]bool{}}

// process is a tallyd started by runTallyd.
type process struct {
	logs *lockedBuffer // what it logged so far
	stop func()        // SIGTERM, and wait for a clean exit
}

// lockedBuffer is a log that a process writes to while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// runTallyd runs bin with args, and env added to the test's environment
// (without its database URLs), and waits until probe answers 200 (a
// plain-http /healthz).
func runTallyd(t *testing.T, bin, probe string, env []string, args ...string) *process {
	t.Helper()
	logs := &lockedBuffer{}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(filterEnv(os.Environ(), "DATABASE_URL", "TEST_DATABASE_URL"), env...)
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		res, err := http.Get(probe)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case err := <-done:
			t.Fatalf("tallyd exited before it was ready: %v\n%s", err, logs.String())
		case <-ctx.Done():
			_ = cmd.Process.Kill()
			t.Fatalf("tallyd was not ready in time\n%s", logs.String())
		case <-time.After(200 * time.Millisecond):
		}
	}
	stopped := false
	return &process{logs: logs, stop: func() {
		if stopped {
			return
		}
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("tallyd did not exit cleanly on SIGTERM: %v\n%s", err, logs.String())
			}
		case <-time.After(time.Minute):
			_ = cmd.Process.Kill()
			t.Errorf("tallyd ignored SIGTERM for a minute\n%s", logs.String())
		}
		if !slices.Contains(args, "--database-url") && !strings.Contains(logs.String(), "managed PostgreSQL stopped") {
			t.Errorf("tallyd did not stop its PostgreSQL\n%s", logs.String())
		}
		if t.Failed() {
			t.Logf("tallyd %v logged:\n%s", args, logs.String())
		}
	}}
}

func filterEnv(env []string, drop ...string) []string {
	var out []string
	for _, kv := range env {
		keep := true
		for _, d := range drop {
			if strings.HasPrefix(kv, d+"=") {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}

func runIn(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return string(out)
}

// reachableTempDir is a temporary directory that the postgres user can
// enter too (t.TempDir's are private to the test's user).
func reachableTempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
