package pgserver

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ErrAlreadyRunning is returned when a live server already owns the data
// directory; two servers must never share one.
var ErrAlreadyRunning = errors.New("a PostgreSQL server is already running on this data directory")

// clearStaleLocks removes postmaster.pid from dataDir, and socket lock files
// from socketDir, when the process they name is gone. A server killed with
// SIGKILL (or a machine that lost power) leaves them behind, and in a
// container the dead pid is often reused by an unrelated process, which makes
// PostgreSQL's own check refuse to start. Only a live postgres process named
// in the file keeps it.
func clearStaleLocks(dataDir, socketDir string) error {
	pidFile := filepath.Join(dataDir, "postmaster.pid")
	if pid, ok := lockPID(pidFile); ok {
		if isPostgres(pid) {
			return fmt.Errorf("%w (pid %d, data directory %s): stop it first (kill -INT %d)", ErrAlreadyRunning, pid, dataDir, pid)
		}
		if err := os.Remove(pidFile); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove stale %s: %w", pidFile, err)
		}
	}
	locks, _ := filepath.Glob(filepath.Join(socketDir, ".s.PGSQL.*.lock"))
	for _, lock := range locks {
		if pid, ok := lockPID(lock); ok && !isPostgres(pid) {
			_ = os.Remove(lock)
			_ = os.Remove(strings.TrimSuffix(lock, ".lock"))
		}
	}
	return nil
}

// lockPID reads the process id on the first line of a PostgreSQL lock file.
// A data directory lock holds the postmaster's pid; a negative value marks a
// single-user backend and is read as its absolute value.
func lockPID(path string) (int, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return 0, true // an empty lock file is stale by definition
	}
	pid, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
	if err != nil {
		return 0, true
	}
	if pid < 0 {
		pid = -pid
	}
	return pid, true
}

// isPostgres reports whether pid is a live process whose program is postgres.
func isPostgres(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		// Without /proc we cannot tell; trusting the pid is the safe side.
		return true
	}
	return strings.HasPrefix(strings.TrimSpace(string(comm)), "postgres")
}
