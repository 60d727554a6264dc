// Package pgserver runs a private PostgreSQL server for tests and for tallyd
// when no DATABASE_URL is given.
//
// Start initialises a data directory when it is new (trust authentication on
// the unix socket and loopback, UTF8, C locale), then starts postgres on
// 127.0.0.1 and on a unix socket in its own directory, and waits until it
// accepts connections. As root it runs initdb and postgres as the `postgres`
// system user, because PostgreSQL refuses to run as root.
//
// The server never outlives the process that started it: postgres is spawned
// with a parent-death signal (SIGQUIT, immediate shutdown) from a goroutine
// that is locked to its OS thread and stays alive for as long as the child
// does. Pdeathsig fires when the spawning thread exits, not the process, so a
// goroutine that moved between threads could kill the server by accident.
// Stop asks for a fast shutdown (SIGINT) and falls back to SIGQUIT.
//
// Server output goes to server.log in the data directory and the end of that
// log is quoted in every start-up error, so a failure explains itself.
package pgserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// ErrStart is wrapped by every failure to bring a server up.
var ErrStart = errors.New("start PostgreSQL")

// Config says where and how to run the server.
type Config struct {
	// DataDir holds the cluster. Empty means a new temporary directory,
	// which is only allowed when Persistent is false.
	DataDir string
	// Port is the TCP port on 127.0.0.1; 0 picks a free one (retried if
	// another process takes it first).
	Port int
	// SocketDir holds the unix socket and its lock file. Empty means a new
	// temporary directory, so concurrent servers never share one. Keep the
	// path short: unix socket paths are limited to about 100 bytes.
	SocketDir string
	// Fsync makes the server durable. Tests leave it off: fsync, synchronous
	// commit and full-page writes are switched off, which makes them fast.
	Fsync bool
	// Persistent keeps DataDir when the server stops. When false the data
	// directory is scratch and Stop removes it.
	Persistent bool
	// Settings are extra server parameters passed as -c name=value.
	Settings map[string]string
	// StartTimeout bounds the wait for the server to accept connections
	// (default 60s).
	StartTimeout time.Duration
	// BinDir holds the initdb and postgres to run; empty means the ones
	// FindBinaries finds. PostgreSQL finds its libraries and shared files
	// relative to its own program, so a copy of an installation runs as
	// the copy (a test breaks one of its libraries that way).
	BinDir string
}

// Server is a running PostgreSQL started by Start.
type Server struct {
	cfg       Config
	bins      Binaries
	owner     owner
	dataDir   string
	socketDir string
	ownSocket bool
	port      int
	proc      *process
	stopOnce  sync.Once
	stopErr   error
}

// superuser is the role initdb creates; tests and tallyd connect as it.
const superuser = "postgres"

// Start brings up a server as described by cfg and returns once it accepts
// connections. The caller must call Stop.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	bins, err := cfg.binaries()
	if err != nil {
		return nil, err
	}
	own, err := currentOwner()
	if err != nil {
		return nil, err
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 60 * time.Second
	}
	s := &Server{cfg: cfg, bins: bins, owner: own}
	if err := s.prepareDirs(); err != nil {
		s.cleanup()
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	if err := s.initdb(ctx); err != nil {
		s.cleanup()
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	if err := clearStaleLocks(s.dataDir, s.socketDir); err != nil {
		s.cleanup()
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	if err := s.launch(ctx); err != nil {
		s.cleanup()
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	return s, nil
}

// prepareDirs creates the data and socket directories and hands them to the
// account that runs the server.
func (s *Server) prepareDirs() error {
	sweepTempDirs()
	s.dataDir = s.cfg.DataDir
	if s.dataDir == "" {
		if s.cfg.Persistent {
			return errors.New("a persistent server needs Config.DataDir")
		}
		dir, err := os.MkdirTemp("", tempPrefix)
		if err != nil {
			return err
		}
		s.dataDir = filepath.Join(dir, "data")
		if err := writeOwnerPID(dir); err != nil {
			return err
		}
		if err := s.owner.prepareDir(dir, 0o700); err != nil {
			return err
		}
	}
	abs, err := filepath.Abs(s.dataDir)
	if err != nil {
		return err
	}
	s.dataDir = abs
	if err := s.owner.checkReachable(s.dataDir); err != nil {
		return err
	}
	if err := s.owner.prepareDir(s.dataDir, 0o700); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	s.socketDir = s.cfg.SocketDir
	switch {
	case s.socketDir == "" && s.cfg.DataDir == "":
		// Beside the scratch data directory, so one sweep removes both.
		s.socketDir, s.ownSocket = filepath.Join(filepath.Dir(s.dataDir), "sock"), true
	case s.socketDir == "":
		dir, err := os.MkdirTemp("", sockPrefix)
		if err != nil {
			return err
		}
		s.socketDir, s.ownSocket = dir, true
	}
	if err := s.owner.prepareDir(s.socketDir, 0o700); err != nil {
		return fmt.Errorf("socket directory: %w", err)
	}
	return nil
}

// DSN is the connection string for the postgres database as the superuser.
func (s *Server) DSN() string { return s.DSNFor("postgres") }

// DSNFor is the connection string for the named database as the superuser.
func (s *Server) DSNFor(database string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", superuser, s.port, database)
}

// Port is the TCP port the server listens on.
func (s *Server) Port() int { return s.port }

// DataDir is the absolute path of the cluster's data directory.
func (s *Server) DataDir() string { return s.dataDir }

// SocketDir is the directory that holds the server's unix socket.
func (s *Server) SocketDir() string { return s.socketDir }

// LogPath is the file that receives the server's output.
func (s *Server) LogPath() string { return filepath.Join(s.dataDir, logName) }

// Stop shuts the server down: SIGINT (fast shutdown: open sessions are
// rolled back) and, if it has not exited when ctx ends or after 30 seconds,
// SIGQUIT. A scratch data directory and a temporary socket directory are
// removed afterwards. Stop is safe to call more than once.
func (s *Server) Stop(ctx context.Context) error {
	s.stopOnce.Do(func() {
		if s.proc != nil {
			s.stopErr = s.proc.stop(ctx)
		}
		s.cleanup()
	})
	return s.stopErr
}

// cleanup removes what Start created and must not outlive the server.
func (s *Server) cleanup() {
	if s.ownSocket {
		_ = os.RemoveAll(s.socketDir)
	}
	if !s.cfg.Persistent && s.dataDir != "" {
		if s.cfg.DataDir == "" {
			// The temporary parent holds the owner pid file too.
			_ = os.RemoveAll(filepath.Dir(s.dataDir))
		} else {
			_ = os.RemoveAll(s.dataDir)
		}
	}
}

// PID is the postmaster's process id, for measuring what the server costs.
func (s *Server) PID() int { return s.proc.cmd.Process.Pid }
