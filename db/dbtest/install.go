package dbtest

import (
	"bytes"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tally-dice/tally/db/pgserver"
)

// Installation is a copy of the PostgreSQL server the tests run, for tests
// that break a file of it without touching the installation.
type Installation struct {
	// BinDir holds the copy's initdb and postgres: pgserver.Config.BinDir.
	BinDir string
	// LibDir is the copy's $libdir, where its server loads PL/pgSQL from.
	LibDir string
}

// CopyServer copies the server programs (initdb and postgres), their
// library directory and their share directory into a directory of the
// test's, laid out as the installation is. PostgreSQL finds $libdir and
// its share directory relative to its own program (bin/../lib on Debian's
// /usr/lib/postgresql/<major>, share/postgresql/<major> beside lib one
// level up), so a server started from the copy loads its libraries from
// the copy, as a test that breaks one of them sees. pg_config, beside the
// programs, says where the directories are.
func CopyServer(t testing.TB) Installation {
	t.Helper()
	bins, err := pgserver.FindBinaries()
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	out, err := exec.Command(filepath.Join(filepath.Dir(bins.Postgres), "pg_config"), "--bindir", "--pkglibdir", "--sharedir").Output()
	if err != nil {
		t.Fatalf("dbtest: pg_config beside %s: %v (install the server's pg_config)", bins.Postgres, err)
	}
	dirs := strings.Fields(string(out))
	if len(dirs) != 3 {
		t.Fatalf("dbtest: pg_config said %q, not three directories", out)
	}
	root := reachableTempDir(t)
	prefix := commonDir(dirs...)
	at := func(dir string) string { return filepath.Join(root, strings.TrimPrefix(filepath.Clean(dir), prefix)) }
	in := Installation{BinDir: at(dirs[0]), LibDir: at(dirs[1])}
	for _, prog := range []string{bins.Initdb, bins.Postgres} {
		if err := copyFile(prog, filepath.Join(in.BinDir, filepath.Base(prog))); err != nil {
			t.Fatalf("dbtest: copy the server: %v", err)
		}
	}
	for _, dir := range dirs[1:] {
		if err := copyTree(dir, at(dir)); err != nil {
			t.Fatalf("dbtest: copy the server: %v", err)
		}
	}
	return in
}

// reachableTempDir is a directory of the test's that the postgres user,
// which runs the server when the tests run as root, may read.
func reachableTempDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatalf("dbtest: %v", err)
		}
	}
	return dir
}

// commonDir is the longest directory (ending in a slash) that holds every
// one of dirs.
func commonDir(dirs ...string) string {
	prefix := filepath.Clean(dirs[0]) + "/"
	for _, d := range dirs[1:] {
		d = filepath.Clean(d) + "/"
		for !strings.HasPrefix(d, prefix) {
			prefix = filepath.Dir(strings.TrimSuffix(prefix, "/"))
			if prefix != "/" {
				prefix += "/"
			}
		}
	}
	return prefix
}

// copyTree copies the directory src to dst: directories, regular files
// and symbolic links, with their modes.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&os.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			return copyFile(path, target)
		}
		return nil
	})
}

// copyFile copies the regular file src to dst with its mode.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// BreakLibrary replaces the copy's library name (say "plpgsql") with one
// that cannot load, as an upgrade of the server's package under a running
// server leaves it: the new library wants a symbol of the new server that
// the running one does not have, and a backend that loads it fails with
// "undefined symbol". The library is the old one with the name of one
// symbol it takes from the server changed. A backend that loaded the
// library before keeps it; a new one cannot. It returns a function that
// puts the library back.
func (in Installation) BreakLibrary(t testing.TB, name string) (restore func()) {
	t.Helper()
	path := filepath.Join(in.LibDir, name+".so")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	bad, symbol, err := renameImport(good)
	if err != nil {
		t.Fatalf("dbtest: break %s: %v", path, err)
	}
	replace(t, path, bad)
	t.Logf("dbtest: %s now wants %s, which the server does not have", path, symbol)
	return func() { replace(t, path, good) }
}

// renameImport changes the name of the first symbol lib takes from the
// program that loads it (not from another library, and not a weak one,
// which may be missing) to one that no program has, keeping its length.
func renameImport(lib []byte) ([]byte, string, error) {
	f, err := elf.NewFile(bytes.NewReader(lib))
	if err != nil {
		return nil, "", err
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		return nil, "", err
	}
	names := f.Section(".dynstr")
	if names == nil {
		return nil, "", fmt.Errorf("no .dynstr section")
	}
	out := bytes.Clone(lib)
	table := out[names.Offset : names.Offset+names.Size]
	for _, s := range syms {
		if s.Section != elf.SHN_UNDEF || elf.ST_BIND(s.Info) != elf.STB_GLOBAL || s.Library != "" || len(s.Name) < 4 {
			continue
		}
		// The name on its own in the string table, not the end of a
		// longer one that shares its bytes.
		i := bytes.Index(table, []byte("\x00"+s.Name+"\x00"))
		if i < 0 {
			continue
		}
		renamed := "Z" + s.Name[1:]
		if s.Name[0] == 'Z' {
			renamed = "Y" + s.Name[1:]
		}
		copy(table[i+1:], renamed)
		return out, renamed, nil
	}
	return nil, "", fmt.Errorf("no symbol taken from the server to rename")
}

// replace puts data at path in one step (a new file renamed over it), as
// a package manager does: the file at path is never written in place.
func replace(t testing.TB, path string, data []byte) {
	t.Helper()
	tmp := path + ".new"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatalf("dbtest: %v", err)
	}
}
