package pgserver

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// ErrNoPostgresUser is returned when running as root without a `postgres`
// system user: initdb and postgres refuse to run as root.
var ErrNoPostgresUser = errors.New("running as root but there is no `postgres` system user to run the server as: install postgresql (apt-get install postgresql creates it) or run as an ordinary user")

// owner is the account the server programs run as: the `postgres` system user
// when we are root (PostgreSQL refuses to run as root), otherwise ourselves.
type owner struct {
	cred *syscall.Credential // nil means "the current user"
	uid  int
	gid  int
}

// currentOwner decides which account runs initdb and postgres.
func currentOwner() (owner, error) {
	if os.Geteuid() != 0 {
		return owner{uid: os.Geteuid(), gid: os.Getegid()}, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return owner{}, fmt.Errorf("%w: %v", ErrNoPostgresUser, err)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return owner{}, fmt.Errorf("%w: bad uid/gid %q/%q", ErrNoPostgresUser, u.Uid, u.Gid)
	}
	// NoSetGroups is false so that setgroups clears root's supplementary
	// groups; the server then holds only the postgres user's own rights.
	cred := &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	return owner{cred: cred, uid: uid, gid: gid}, nil
}

// prepareDir creates dir with the given mode and hands it to the owner, so
// the server (not root) can write there.
func (o owner) prepareDir(dir string, mode os.FileMode) error {
	if err := os.MkdirAll(dir, mode); err != nil {
		return err
	}
	if err := os.Chmod(dir, mode); err != nil {
		return err
	}
	if o.cred == nil {
		return nil
	}
	return os.Chown(dir, o.uid, o.gid)
}

// prepareFile hands an existing file (the server log) to the owner.
func (o owner) prepareFile(path string) error {
	if o.cred == nil {
		return nil
	}
	return os.Chown(path, o.uid, o.gid)
}

// checkReachable fails early, with a useful message, when the owner cannot
// traverse the parents of dir; otherwise initdb fails later with a
// permission error that does not say which directory is at fault.
func (o owner) checkReachable(dir string) error {
	if o.cred == nil {
		return nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for p := filepath.Dir(abs); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if ok && fi.Mode().Perm()&0o001 == 0 && int(st.Uid) != o.uid {
			return fmt.Errorf("directory %s is not searchable by the postgres user: chmod o+x %s or choose a data directory elsewhere", p, p)
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}
