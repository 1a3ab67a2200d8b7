package load_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/phase"
	"github.com/ctrlcmp/ctrlcmp/internal/resultcache"
)

// TestSourcesAgree: each fixture analysed with its dependencies typed from
// the build cache's export data and from their declarations gives the same
// controllers, rows, citations and warnings, byte for byte.
func TestSourcesAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy: make test-heavy runs it")
	}
	fixtures, err := os.ReadDir(filepath.Join("..", "..", "testdata", "src"))
	if err != nil {
		t.Fatal(err)
	}
	for _, fixture := range fixtures {
		name := fixture.Name()
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "..", "testdata", "src", name)
			export := analysed(t, dir, load.ExportData)
			decls := analysed(t, dir, load.Declarations)
			if !bytes.Equal(export, decls) {
				t.Errorf("the two ways differ:\nexport data:  %s\ndeclarations: %s", export, decls)
			}
		})
	}
}

// analysed is the JSON of a tree's controllers and warnings with its
// dependencies typed from one source.
func analysed(t *testing.T, dir string, from load.DepSource) []byte {
	t.Helper()
	tree, err := load.LoadFrom(context.Background(), dir, nil, from)
	if err != nil {
		t.Fatal(err)
	}
	if tree.DepsFrom != from {
		t.Fatalf("dependencies typed from %s, want %s", tree.DepsFrom, from)
	}
	return analysedTree(t, tree)
}

// analysedTree is the JSON of a loaded tree's controllers and warnings.
func analysedTree(t *testing.T, tree *load.Tree) []byte {
	t.Helper()
	prog := callgraph.Build(tree.All, tree.Own)
	ctrls, warnings, err := locate.Locate(context.Background(), tree, prog, cite.New(tree.Fset, tree.Root, tree.All, tree.Own))
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(struct {
		Controllers []locate.Controller
		Warnings    []string
	}{ctrls, append(append(tree.Warnings, prog.Warnings...), warnings...)}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestExportDataBuiltWithCgo: where the build cache holds the module
// dependencies' export data only as the user's go command built it, with
// cgo on (as `go vet` builds wherever a C compiler is installed), the
// loader imports it, and the types agree with those from the
// declarations.
func TestExportDataBuiltWithCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy: make test-heavy runs it")
	}
	t.Setenv("CGO_ENABLED", "1")
	cc, err := exec.Command("go", "env", "CC").Output()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath(strings.TrimSpace(string(cc))); err != nil {
		t.Skipf("no C compiler (%s), so no build with cgo to read", strings.TrimSpace(string(cc)))
	}
	t.Setenv("GOCACHE", t.TempDir()) // holds nothing built with cgo off
	dir := filepath.Join("..", "..", "testdata", "load", "cgouser", "tree")
	fill := exec.Command("go", "list", "-export", "-deps", "./...")
	fill.Dir = dir
	if out, err := fill.CombinedOutput(); err != nil {
		t.Fatalf("filling the build cache with cgo on: %v\n%s", err, out)
	}
	signature := func(from load.DepSource) string {
		tree, err := load.LoadFrom(context.Background(), dir, nil, from)
		if err != nil {
			t.Fatal(err)
		}
		if from == load.AnySource && tree.DepsFrom != load.ExportData {
			t.Fatalf("dependencies typed from %s, want %s", tree.DepsFrom, load.ExportData)
		}
		lib := tree.Types("example.com/cgouser/lib")
		if lib == nil || lib.Scope().Lookup("Owner") == nil {
			t.Fatalf("lib.Owner is not typed: %v", lib)
		}
		return lib.Scope().Lookup("Owner").Type().String()
	}
	if export, decls := signature(load.AnySource), signature(load.Declarations); export != decls {
		t.Errorf("lib.Owner from export data built with cgo: %s; from its declarations: %s", export, decls)
	}
}

// TestKeptTypes: a second run reads the standard library's types and the
// places of the module dependencies' export data that the first kept, and
// analyses the tree as the declarations do.
func TestKeptTypes(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy: make test-heavy runs it")
	}
	dir := filepath.Join("..", "..", "testdata", "src", "flux")
	store, err := resultcache.OpenTypes(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	decls := analysed(t, dir, load.Declarations)
	run := func() []string {
		var marks []string
		ctx := phase.WithReport(context.Background(), func(line string) { marks = append(marks, line) })
		tree, err := load.Load(phase.Begin(ctx, "flux"), dir, nil, store)
		if err != nil {
			t.Fatal(err)
		}
		if got := analysedTree(t, tree); !bytes.Equal(got, decls) {
			t.Errorf("with kept types, the analysis differs:\nkept:         %s\ndeclarations: %s", got, decls)
		}
		return marks
	}
	run()
	marks := strings.Join(run(), "\n")
	for _, want := range []string{"standard library: .*from the types an earlier run kept", "dependencies: .*where an earlier run found it"} {
		if !regexp.MustCompile(want).MatchString(marks) {
			t.Errorf("the second run's phases do not match %q:\n%s", want, marks)
		}
	}
}
