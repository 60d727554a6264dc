package pgserver

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// tempPrefix names the temporary parents of scratch data directories, and
// sockPrefix the temporary socket directories of servers whose data
// directory was given.
const (
	tempPrefix = "tally-pg-"
	sockPrefix = "tally-pgsock-"
)

// ownerFile, in a scratch directory's temporary parent, holds the pid of the
// process that created it, so that later runs can tell an abandoned
// directory from one in use.
const ownerFile = "owner.pid"

// writeOwnerPID records this process as the owner of the temporary dir.
func writeOwnerPID(dir string) error {
	return os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644)
}

// sweepTempDirs removes scratch directories left by processes that died
// without calling Stop (a test binary killed by its timeout, say). Pdeathsig
// has already stopped their servers; only the files remain. A directory
// whose owner is alive, or whose server still runs, is left alone.
func sweepTempDirs() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tempPrefix+"*"))
	for _, dir := range dirs {
		raw, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue // not ours, or still being created
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
		if err != nil || processAlive(pid) {
			continue
		}
		if spid, ok := lockPID(filepath.Join(dir, "data", "postmaster.pid")); ok && isPostgres(spid) {
			continue
		}
		_ = os.RemoveAll(dir)
	}
	sweepSocketDirs()
}

// sweepSocketDirs removes temporary socket directories that no live server
// uses. A directory younger than a minute is spared: its server may still
// be starting and not have created its socket yet.
func sweepSocketDirs() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), sockPrefix+"*"))
	for _, dir := range dirs {
		fi, err := os.Stat(dir)
		if err != nil || time.Since(fi.ModTime()) < time.Minute {
			continue
		}
		locks, _ := filepath.Glob(filepath.Join(dir, ".s.PGSQL.*.lock"))
		inUse := false
		for _, lock := range locks {
			if pid, ok := lockPID(lock); ok && isPostgres(pid) {
				inUse = true
			}
		}
		if !inUse {
			_ = os.RemoveAll(dir)
		}
	}
}

// processAlive reports whether any process has the given pid.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
