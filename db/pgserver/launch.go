package pgserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// portAttempts bounds the retries when a port picked as free is taken by
// another process (a parallel test binary) before the server binds it.
const portAttempts = 5

// errPortTaken marks a start-up that failed only because the port was busy.
var errPortTaken = errors.New("port already in use")

// launch starts the postmaster and waits until it accepts connections,
// picking a new free port when the chosen one turns out to be taken.
func (s *Server) launch(ctx context.Context) error {
	var err error
	for range portAttempts {
		port := s.cfg.Port
		if port == 0 {
			if port, err = FreePort(); err != nil {
				return err
			}
		}
		err = s.launchOn(ctx, port)
		if !errors.Is(err, errPortTaken) || s.cfg.Port != 0 {
			return err
		}
	}
	return err
}

// launchOn runs one start attempt on port.
func (s *Server) launchOn(ctx context.Context, port int) error {
	logf, err := os.OpenFile(s.LogPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open server log: %w", err)
	}
	defer logf.Close() // the child holds its own copy of the descriptor
	if err := s.owner.prepareFile(s.LogPath()); err != nil {
		return err
	}
	logStart, _ := logf.Seek(0, 2)
	// The server must not die with ctx: it lives until Stop.
	cmd := s.command(context.Background(), s.bins.Postgres, s.serverArgs(port)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	proc, err := spawn(cmd)
	if err != nil {
		return fmt.Errorf("run %s: %w", s.bins.Postgres, err)
	}
	s.port = port
	if err := s.waitReady(ctx, proc); err != nil {
		msg := s.logSince(logStart)
		if proc.exitedNow() && strings.Contains(msg, "could not bind") {
			return fmt.Errorf("%w: %d", errPortTaken, port)
		}
		_ = proc.stop(context.Background())
		return fmt.Errorf("%w\nserver log %s:\n%s", err, s.LogPath(), tail(msg))
	}
	s.proc = proc
	return nil
}

// waitReady connects until the server answers, the server exits, ctx ends
// or the start timeout passes, whichever comes first.
func (s *Server) waitReady(ctx context.Context, proc *process) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.StartTimeout)
	defer cancel()
	for {
		attempt, stop := context.WithTimeout(ctx, 2*time.Second)
		conn, err := pgx.Connect(attempt, s.DSN())
		stop()
		if err == nil {
			_ = conn.Close(ctx)
			return nil
		}
		select {
		case <-proc.exited:
			return fmt.Errorf("postgres exited during start-up: %v", proc.waitErr)
		case <-ctx.Done():
			return fmt.Errorf("postgres did not accept connections within %s: %w", s.cfg.StartTimeout, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// exitedNow reports, after giving a dying server a moment, whether it exited.
func (p *process) exitedNow() bool {
	select {
	case <-p.exited:
		return true
	case <-time.After(time.Second):
		return false
	}
}

// FreePort asks the kernel for a TCP port on the loopback that is free
// right now.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// logSince reads the server log written since offset.
func (s *Server) logSince(offset int64) string {
	raw, err := os.ReadFile(s.LogPath())
	if err != nil || offset > int64(len(raw)) {
		return ""
	}
	return string(raw[offset:])
}

// tail keeps the last lines of a log, enough to explain a failure.
func tail(log string) string {
	lines := strings.Split(strings.TrimRight(log, "\n"), "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return strings.Join(lines, "\n")
}
