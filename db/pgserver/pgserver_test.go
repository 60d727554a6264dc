package pgserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// startScratch starts a throwaway server that the test stops on cleanup.
func startScratch(t *testing.T, cfg Config) *Server {
	t.Helper()
	srv, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = srv.Stop(context.Background()) })
	return srv
}

// queryInt runs a one-value query against dsn.
func queryInt(t *testing.T, dsn, sql string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect %s: %v", dsn, err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, sql).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

func TestStartServesAndStopRemovesScratch(t *testing.T) {
	t.Parallel()
	srv := startScratch(t, Config{})
	if got := queryInt(t, srv.DSN(), "SELECT 40 + 2"); got != 42 {
		t.Fatalf("SELECT 40 + 2 = %d", got)
	}
	var fsync string
	conn, err := pgx.Connect(context.Background(), srv.DSN())
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(context.Background(), "SHOW fsync").Scan(&fsync); err != nil {
		t.Fatal(err)
	}
	conn.Close(context.Background())
	if fsync != "off" {
		t.Errorf("fsync = %q, want off for a scratch server", fsync)
	}
	if _, err := os.Stat(filepath.Join(srv.SocketDir(), fmt.Sprintf(".s.PGSQL.%d", srv.Port()))); err != nil {
		t.Errorf("unix socket missing: %v", err)
	}
	data := srv.DataDir()
	if err := srv.Stop(context.Background()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if _, err := os.Stat(data); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("scratch data directory %s still there after Stop (err %v)", data, err)
	}
	if _, err := pgx.Connect(context.Background(), srv.DSN()); err == nil {
		t.Error("server still accepts connections after Stop")
	}
}

func TestTwoServersGetDifferentPorts(t *testing.T) {
	t.Parallel()
	a := startScratch(t, Config{})
	b := startScratch(t, Config{})
	if a.Port() == b.Port() || a.SocketDir() == b.SocketDir() {
		t.Fatalf("servers share port %d/%d or socket dir %s/%s", a.Port(), b.Port(), a.SocketDir(), b.SocketDir())
	}
}

func TestPersistentRestartsOverStalePidFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	// t.TempDir's parents are private to root; the server user must pass.
	for p := filepath.Dir(dir); p != os.TempDir(); p = filepath.Dir(p) {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := Config{DataDir: dir, Persistent: true}
	first := startScratch(t, cfg)
	conn, err := pgx.Connect(ctx, first.DSN())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)"); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	if err := first.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	// A killed run leaves postmaster.pid naming a process that is gone. Use
	// the pid of a process that has exited and been reaped.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := fmt.Sprintf("%d\n%s\n", dead.Process.Pid, dir)
	if err := os.WriteFile(filepath.Join(dir, "postmaster.pid"), []byte(stale), 0o600); err != nil {
		t.Fatal(err)
	}
	second := startScratch(t, cfg)
	if got := queryInt(t, second.DSN(), "SELECT n FROM kept"); got != 7 {
		t.Fatalf("kept row = %d, want 7", got)
	}
	if _, err := Start(ctx, cfg); !errors.Is(err, ErrAlreadyRunning) {
		t.Fatalf("second Start on a live data dir: err = %v, want ErrAlreadyRunning", err)
	}
}

func TestPersistentNeedsDataDir(t *testing.T) {
	t.Parallel()
	if _, err := Start(context.Background(), Config{Persistent: true}); err == nil {
		t.Fatal("Start with Persistent and no DataDir succeeded")
	}
}

// TestBinDirWithoutProgramsIsRefused: a BinDir that does not hold initdb
// and postgres is refused, naming it, rather than another installation
// being run in its place.
func TestBinDirWithoutProgramsIsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, err := Start(context.Background(), Config{BinDir: dir})
	if !errors.Is(err, ErrNoBinaries) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("Start with BinDir %s: %v, want ErrNoBinaries naming it", dir, err)
	}
}

func TestStartFailureQuotesServerLog(t *testing.T) {
	t.Parallel()
	_, err := Start(context.Background(), Config{Settings: map[string]string{"no_such_setting": "1"}})
	if err == nil {
		t.Fatal("Start with a bogus setting succeeded")
	}
	if !errors.Is(err, ErrStart) || !strings.Contains(err.Error(), "no_such_setting") {
		t.Fatalf("error does not quote the server log: %v", err)
	}
}

// TestServerDiesWithItsParent runs a helper process that starts a server and
// is then killed with SIGKILL; Pdeathsig must take the server down with it.
func TestServerDiesWithItsParent(t *testing.T) {
	t.Parallel()
	helper := exec.Command(os.Args[0])
	helper.Env = append(os.Environ(), "PGSERVER_HELPER=1")
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	pid := 0
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "postmaster "); ok {
			pid, _ = strconv.Atoi(v)
			break
		}
	}
	if pid == 0 {
		_ = helper.Process.Kill()
		_ = helper.Wait()
		t.Fatal("helper did not report a postmaster pid")
	}
	_ = helper.Process.Kill()
	_ = helper.Wait()
	deadline := time.Now().Add(30 * time.Second)
	for isPostgres(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("postmaster %d outlived its parent", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestMain turns the test binary into the helper process of
// TestServerDiesWithItsParent when PGSERVER_HELPER is set: it starts a server,
// prints the postmaster's pid and waits to be killed.
func TestMain(m *testing.M) {
	if os.Getenv("PGSERVER_HELPER") != "1" {
		os.Exit(m.Run())
	}
	srv, err := Start(context.Background(), Config{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("postmaster %d\n", srv.proc.cmd.Process.Pid)
	select {}
}

func TestStartSweepsAbandonedScratchDirs(t *testing.T) {
	t.Parallel()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	abandoned, err := os.MkdirTemp("", tempPrefix)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(abandoned, ownerFile), []byte(strconv.Itoa(dead.Process.Pid)), 0o644); err != nil {
		t.Fatal(err)
	}
	alive, err := os.MkdirTemp("", tempPrefix)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(alive)
	if err := writeOwnerPID(alive); err != nil {
		t.Fatal(err)
	}
	startScratch(t, Config{})
	if _, err := os.Stat(abandoned); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("abandoned %s still there (err %v)", abandoned, err)
	}
	if _, err := os.Stat(alive); err != nil {
		t.Errorf("directory of a live process was swept: %v", err)
	}
}

// TestMissingBinariesSayWhatToDo runs sequentially: it changes PATH and the
// package's search glob, which the parallel tests read.
func TestMissingBinariesSayWhatToDo(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	saved := debianGlob
	debianGlob = filepath.Join(t.TempDir(), "*", "bin")
	defer func() { debianGlob = saved }()
	_, err := Start(context.Background(), Config{})
	if !errors.Is(err, ErrNoBinaries) || !strings.Contains(err.Error(), "apt-get install postgresql") || !strings.Contains(err.Error(), "DATABASE_URL") {
		t.Fatalf("err = %v, want ErrNoBinaries saying how to install or set DATABASE_URL", err)
	}
}
