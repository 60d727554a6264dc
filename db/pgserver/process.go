package pgserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// logName is the server log file inside the data directory.
const logName = "server.log"

// process is a running postmaster and the news of its exit.
type process struct {
	cmd     *exec.Cmd
	exited  chan struct{}
	waitErr error // set before exited is closed
}

// spawn starts cmd from a goroutine locked to its OS thread. The goroutine
// waits for the child and only then returns, so the thread, and with it the
// parent-death signal's trigger, lives exactly as long as the child. The
// goroutine never unlocks the thread: Go then destroys the thread when the
// goroutine ends, which is harmless once the child has exited.
func spawn(cmd *exec.Cmd) (*process, error) {
	p := &process{cmd: cmd, exited: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return p, nil
}

// stop asks for a fast shutdown and escalates when it takes too long.
func (p *process) stop(ctx context.Context) error {
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	grace := time.NewTimer(30 * time.Second)
	defer grace.Stop()
	select {
	case <-p.exited:
		return nil
	case <-ctx.Done():
	case <-grace.C:
	}
	_ = p.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-p.exited:
		return nil
	case <-time.After(10 * time.Second):
	}
	_ = p.cmd.Process.Kill()
	<-p.exited
	return errors.New("PostgreSQL did not shut down after SIGINT and SIGQUIT; killed it")
}

// command builds an exec.Cmd for one of the server programs, run as the
// owner, with the parent-death signal set and in its own process group so
// that a Ctrl-C at the terminal reaches our process (which stops the server
// in order) rather than the server directly.
func (s *Server) command(ctx context.Context, path string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = s.dataDir // the server user may not be able to read our cwd
	cmd.Env = serverEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Credential: s.owner.cred,
		Pdeathsig:  syscall.SIGQUIT,
		Setpgid:    true,
	}
	return cmd
}

// serverEnv is our environment without the PG* and locale variables, which
// would otherwise change what initdb and postgres do behind our back.
func serverEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PG") || strings.HasPrefix(kv, "LC_") || strings.HasPrefix(kv, "LANG") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C")
}

// initdb creates the cluster when the data directory does not hold one yet.
func (s *Server) initdb(ctx context.Context) error {
	if _, err := os.Stat(filepath.Join(s.dataDir, "PG_VERSION")); err == nil {
		return nil
	}
	entries, err := os.ReadDir(s.dataDir)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("data directory %s is not empty and holds no PostgreSQL cluster: empty it or choose another", s.dataDir)
	}
	args := []string{"-D", s.dataDir, "--username=" + superuser, "--auth=trust",
		"--encoding=UTF8", "--no-locale", "--no-instructions"}
	if !s.cfg.Fsync {
		args = append(args, "--no-sync")
	}
	cmd := s.command(ctx, s.bins.Initdb, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// initdb is short-lived; it runs from this goroutine, and Pdeathsig on
	// it is only a backstop for a crash during those few seconds.
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("initdb %s: %w\n%s", s.dataDir, err, tail(out.String()))
	}
	return nil
}

// serverArgs are the postgres command-line arguments for port.
func (s *Server) serverArgs(port int) []string {
	settings := map[string]string{
		"listen_addresses":        "127.0.0.1",
		"unix_socket_directories": s.socketDir,
		"port":                    fmt.Sprint(port),
	}
	if !s.cfg.Fsync {
		settings["fsync"] = "off"
		settings["synchronous_commit"] = "off"
		settings["full_page_writes"] = "off"
	}
	for k, v := range s.cfg.Settings {
		settings[k] = v
	}
	args := []string{"-D", s.dataDir}
	for k, v := range settings {
		args = append(args, "-c", k+"="+v)
	}
	return args
}
