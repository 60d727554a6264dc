package pgserver

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
)

// ErrNoBinaries is returned when the PostgreSQL server programs (initdb and
// postgres) cannot be found anywhere this package looks.
var ErrNoBinaries = errors.New("PostgreSQL server binaries not found: install postgresql (apt-get install postgresql) or set DATABASE_URL")

// debianGlob is where Debian and Ubuntu install each major version's server
// programs; they are not on PATH by default there.
var debianGlob = "/usr/lib/postgresql/*/bin"

// Binaries are the absolute paths of the server programs this package runs.
type Binaries struct {
	Initdb   string
	Postgres string
}

// FindBinaries locates initdb and postgres: first on PATH, then in the newest
// /usr/lib/postgresql/<major>/bin. Both must come from the same directory so
// that initdb and the server agree on the data directory format.
func FindBinaries() (Binaries, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if b, ok := binariesIn(filepath.Dir(resolve(p))); ok {
			return b, nil
		}
	}
	dirs, _ := filepath.Glob(debianGlob)
	sort.Slice(dirs, func(i, j int) bool { return majorOf(dirs[i]) > majorOf(dirs[j]) })
	for _, dir := range dirs {
		if b, ok := binariesIn(dir); ok {
			return b, nil
		}
	}
	return Binaries{}, ErrNoBinaries
}

// binaries are the programs cfg names, or else those FindBinaries finds.
func (cfg Config) binaries() (Binaries, error) {
	if cfg.BinDir == "" {
		return FindBinaries()
	}
	if b, ok := binariesIn(cfg.BinDir); ok {
		return b, nil
	}
	return Binaries{}, fmt.Errorf("%w: no initdb and postgres in %s", ErrNoBinaries, cfg.BinDir)
}

// resolve follows symlinks so that a PATH entry like /usr/local/bin/initdb
// leads to the directory that also holds postgres.
func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// binariesIn reports the server programs in dir when both are executable.
func binariesIn(dir string) (Binaries, bool) {
	b := Binaries{Initdb: filepath.Join(dir, "initdb"), Postgres: filepath.Join(dir, "postgres")}
	for _, p := range []string{b.Initdb, b.Postgres} {
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return Binaries{}, false
		}
	}
	return b, true
}

// majorOf extracts the major version from /usr/lib/postgresql/<major>/bin,
// returning 0 when the directory name is not a number.
func majorOf(binDir string) int {
	n, err := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	if err != nil {
		return 0
	}
	return n
}

// String names the directory the programs came from, for logs.
func (b Binaries) String() string {
	return fmt.Sprintf("PostgreSQL binaries in %s", filepath.Dir(b.Postgres))
}
