// Package docs_test checks that the repository's own documents and its code
// say the same thing: every rule the code cites is a section of docs/, the
// "adding a game" page names files that exist and every game the database
// knows, and the code keeps to the sizes a newcomer can read (a file about a
// screenful of screens, a function about a screen).
package docs_test

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tally-dice/tally/db"
)

// root is the repository's root, one up from docs/.
const root = ".."

// walk calls visit for every file of the repository's own, leaving out what
// is fetched or made (node_modules, .git, artifacts, built files).
func walk(t *testing.T, visit func(path string, body []byte)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", "artifacts", "bin", "build", "vendor":
				return filepath.SkipDir
			}
			return nil
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		visit(filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator))), body)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// sections are the numbered sections (## §N.) of a document in docs/.
func sections(t *testing.T, doc string) map[string]bool {
	t.Helper()
	f, err := os.Open(doc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	heading := regexp.MustCompile(`^#+ §(\d+)[. ]`)
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := heading.FindStringSubmatch(sc.Text()); m != nil {
			out[m[1]] = true
		}
	}
	return out
}

// TestCitedSectionsExist: every "docs/NAME.md §N" in the code, the
// migrations, openapi.yaml and the documents names a section that the
// document has, and the rules are cited from docs/, never from outside the
// repository.
func TestCitedSectionsExist(t *testing.T) {
	cite := regexp.MustCompile(`docs/([a-z-]+)\.md ?§ ?(\d+)`)
	outside := regexp.MustCompile(`\.\./shared|\b(RULES|ROYALE)\.md`)
	docs := map[string]map[string]bool{}
	n := 0
	walk(t, func(path string, body []byte) {
		switch filepath.Ext(path) {
		case ".go", ".js", ".sql", ".yaml", ".md", ".html", ".css":
		default:
			return
		}
		for i, line := range strings.Split(string(body), "\n") {
			// A document may say where its source texts are; the code cites
			// only docs/.
			if outside.MatchString(line) && filepath.Ext(path) != ".md" && path != "docs/docs_test.go" {
				t.Errorf("%s:%d cites the rules outside the repository: %s", path, i+1, strings.TrimSpace(line))
			}
			for _, m := range cite.FindAllStringSubmatch(line, -1) {
				doc := m[1]
				if docs[doc] == nil {
					docs[doc] = sections(t, filepath.Join(root, "docs", doc+".md"))
				}
				if !docs[doc][m[2]] {
					t.Errorf("%s:%d cites docs/%s.md §%s, which has no such section", path, i+1, doc, m[2])
				}
				n++
			}
		}
	})
	if n < 50 {
		t.Errorf("found %d citations of docs/; the code cites the rules some 70 times, so the walk missed files", n)
	}
	t.Logf("%d citations of docs/ checked", n)
}

// TestAddingAGamePageMatchesTheCode: every file docs/adding-a-game.md
// names exists (but those it says a new game makes, named after NAME), and
// every game the database knows has its case in table/play.go's gameOf and
// its implementation in the file the page says.
func TestAddingAGamePageMatchesTheCode(t *testing.T) {
	page, err := os.ReadFile("adding-a-game.md")
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile("`([a-zA-Z0-9_./-]+\\.(?:go|md|yaml|sql)|[a-z]+/[a-zA-Z0-9_./-]*)`")
	checked := 0
	for _, m := range named.FindAllStringSubmatch(string(page), -1) {
		p := m[1]
		if strings.Contains(p, "NAME") || strings.Contains(p, "NN") || strings.HasPrefix(p, ".") {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("adding-a-game.md names %s, which does not exist", p)
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("only %d files named in adding-a-game.md were checked", checked)
	}
	play, err := os.ReadFile(filepath.Join(root, "table", "play.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range db.Games {
		constant := "Game" + strings.ToUpper(g[:1]) + g[1:]
		if !strings.Contains(string(play), "case db."+constant+":") {
			t.Errorf("db.Games has %q, but gameOf in table/play.go has no case db.%s", g, constant)
		}
	}
	for _, impl := range []struct{ file, typ string }{
		{"table/dice.go", "diceGame"}, {"table/royale_state.go", "royaleTable"}, {"table/crew_game.go", "crewGame"},
	} {
		if !strings.Contains(string(page), "`"+impl.typ+"` (`"+impl.file+"`)") {
			t.Errorf("adding-a-game.md does not say %s is in %s", impl.typ, impl.file)
		}
		body, err := os.ReadFile(filepath.Join(root, impl.file))
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`(?m)^type ` + impl.typ + ` struct`).Match(body) {
			t.Errorf("%s does not declare %s, as adding-a-game.md says", impl.file, impl.typ)
		}
	}
}

// The sizes a newcomer can read. "About 400" lines a file and "about 80" a
// function: the limits allow a few lines over. Generated code is left out;
// so are test functions, some of which play a whole scenario top to bottom
// (a round on two phones), and the JavaScript's functions, which ESLint
// checks (eslint.config.js, max-lines-per-function).
const (
	fileLines = 420
	funcLines = 85
)

// generated is code a tool writes.
func generated(path string, body []byte) bool {
	return strings.HasPrefix(path, "db/internal/dbsqlc/") || strings.HasSuffix(path, ".d.ts") ||
		strings.Contains(string(body[:min(len(body), 400)]), "Code generated")
}

// TestFilesAndFunctionsAScreenLong: no Go or JavaScript file of the
// repository's own is over about 400 lines, and no Go function outside the
// tests is over about 80.
func TestFilesAndFunctionsAScreenLong(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	walk(t, func(path string, body []byte) {
		ext := filepath.Ext(path)
		if (ext != ".go" && ext != ".js") || generated(path, body) || strings.Contains(path, "/vendor/") {
			return
		}
		files++
		if n := strings.Count(string(body), "\n"); n > fileLines {
			t.Errorf("%s is %d lines (about 400 at most: split it by concern)", path, n)
		}
		if ext != ".go" || strings.HasSuffix(path, "_test.go") {
			return
		}
		f, err := parser.ParseFile(fset, path, body, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if n > funcLines {
				t.Errorf("%s: %s is %d lines (about 80 at most)", path, name(fn), n)
			}
		}
	})
	if files < 100 {
		t.Errorf("only %d files checked; the walk missed the code", files)
	}
	t.Logf("%d Go and JavaScript files checked", files)
}

// name is a function's name with its receiver's type.
func name(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return fmt.Sprintf("(%s).%s", id.Name, fn.Name.Name)
	}
	return fn.Name.Name
}
