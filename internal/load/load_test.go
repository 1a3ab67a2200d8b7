package load

import (
	"context"
	"errors"
	"go/ast"
	"go/types"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/resultcache"
)

// fixture is the directory of a fixture tree under testdata/src.
func fixture(name string) string { return filepath.Join("..", "..", "testdata", "src", name) }

// copyFixture copies a fixture tree into a fresh directory outside any git
// repository, so that it can be broken.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	src := fixture(name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGeneratedDataDropped: an own generated file is read without its
// data: its variables' data is gone and an init function keeps an empty
// body, while its other functions keep theirs (a generated reconciler's
// bodies are on the reconcile path); its types are those the whole file
// gives, and the imports only the dropped code used raise no warning.
func TestGeneratedDataDropped(t *testing.T) {
	tree, err := Load(context.Background(), fixture("kubebuilder"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Warnings) > 0 {
		t.Errorf("warnings %q, want none", tree.Warnings)
	}
	var file *ast.File
	var pkg *types.Package
	for _, p := range tree.Own {
		for _, f := range p.Syntax {
			if filepath.Base(tree.Fset.File(f.Pos()).Name()) == "zz_generated.defaults.go" {
				file, pkg = f, p.Types
			}
		}
	}
	if file == nil {
		t.Fatal("zz_generated.defaults.go was not loaded")
	}
	bodies := map[string]*ast.BlockStmt{}
	var elements int
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			bodies[d.Name.Name] = d.Body
		case *ast.GenDecl:
			ast.Inspect(d, func(n ast.Node) bool {
				if lit, ok := n.(*ast.CompositeLit); ok {
					if _, kv := lit.Type.(*ast.MapType); kv {
						elements += len(lit.Elts)
					}
				}
				return true
			})
		}
	}
	if b := bodies["setGadgetDefaults"]; b == nil || len(b.List) == 0 {
		t.Errorf("setGadgetDefaults: body %v, want its own (a generated function's body is read)", b)
	}
	if b := bodies["init"]; b == nil || len(b.List) > 0 {
		t.Errorf("init: body %v, want an empty one", b)
	}
	if bodies["firstOf"] == nil {
		t.Error("the generic firstOf lost its body")
	}
	if elements > 0 {
		t.Errorf("gadgetDefaults keeps %d elements", elements)
	}
	for name, want := range map[string]string{"gadgetDefaults": "map[string]string", "defaultModes": "[2]string"} {
		obj := pkg.Scope().Lookup(name)
		if obj == nil || obj.Type().String() != want {
			t.Errorf("%s: %v, want of type %s", name, obj, want)
		}
	}
}

// TestWarnings: a dependency missing from go.sum and a type error in the
// tree are both warnings, the dependency's first, with the go command's
// message and its fix, and the type error with its path relative to the
// tree.
func TestWarnings(t *testing.T) {
	dir := copyFixture(t, "ctrlnew")
	sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.SplitAfter(string(sum), "\n") {
		if !strings.HasPrefix(line, "k8s.io/klog/v2 ") {
			kept = append(kept, line)
		}
	}
	writeFile(t, filepath.Join(dir, "go.sum"), strings.Join(kept, ""))
	writeFile(t, filepath.Join(dir, "controller", "broken.go"), "package controller\n\nvar broken int = \"not an int\"\n")

	tree, err := Load(context.Background(), dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Warnings) < 2 {
		t.Fatalf("warnings %q, want the missing go.sum entry and the type error", tree.Warnings)
	}
	first := tree.Warnings[0]
	if !strings.HasPrefix(first, "k8s.io/klog/v2") || !strings.Contains(first, "missing go.sum entry") || !strings.Contains(first, "run `go mod download k8s.io/klog/v2` in the module") {
		t.Errorf("first warning %q, want klog's missing go.sum entry with the fix", first)
	}
	found := false
	for _, w := range tree.Warnings {
		if strings.HasPrefix(w, "controller/broken.go:3:") && strings.Contains(w, "cannot use") {
			found = true
		}
		if strings.Contains(w, dir) {
			t.Errorf("warning %q holds the tree's absolute path", w)
		}
	}
	if !found {
		t.Errorf("warnings %q: none is the type error at controller/broken.go:3", tree.Warnings)
	}
}

// TestListError: when go list refuses the tree (here an inconsistent
// vendor directory), the error keeps the go command's whole message: the
// summary on the first line, the modules and the fix indented under it.
func TestListError(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vend")
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/vend\n\ngo 1.26.0\n\nrequire example.com/dep v1.0.0\n")
	writeFile(t, filepath.Join(dir, "vend.go"), "package vend\n")
	writeFile(t, filepath.Join(dir, "vendor", "modules.txt"), "# example.com/other v1.0.0\n## explicit\n")

	_, err := Load(context.Background(), dir, nil, nil)
	var le *ListError
	if !errors.As(err, &le) || fail.Code(err) != fail.CodeLoad {
		t.Fatalf("error %v (exit %d), want a ListError with exit code %d", err, fail.Code(err), fail.CodeLoad)
	}
	lines := strings.Split(err.Error(), "\n")
	if want := dir + ": go list failed: go: inconsistent vendoring in "; !strings.HasPrefix(lines[0], want) {
		t.Errorf("first line %q, want it to start with %q", lines[0], want)
	}
	if strings.Contains(lines[0], "exit status") || strings.Contains(lines[0], "stderr") {
		t.Errorf("first line %q holds go/packages' plumbing", lines[0])
	}
	rest := strings.Join(lines[1:], "\n")
	for _, want := range []string{"\texample.com/dep@v1.0.0: is explicitly required in go.mod", "\t\tgo mod vendor"} {
		if !strings.Contains(rest, want) {
			t.Errorf("the lines under the summary do not hold %q:\n%s", want, err)
		}
	}
}

// TestVendoredTree (case 12a of the hostile-input trial, docs/cases.md): a
// module with a consistent vendor directory (made by go mod vendor) is
// loaded from it, as the go command builds it: with an empty module cache
// and the module proxy off, its dependency is read under vendor/, with no
// warning, and no file of the tree changes.
func TestVendoredTree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vendored")
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/vendored\n\ngo 1.26.0\n\nrequire k8s.io/klog/v2 v2.140.0\n\nrequire github.com/go-logr/logr v1.4.3 // indirect\n")
	sum, err := os.ReadFile(filepath.Join(fixture("clientgo-plain"), "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, line := range strings.SplitAfter(string(sum), "\n") {
		if strings.HasPrefix(line, "k8s.io/klog/v2 ") || strings.HasPrefix(line, "github.com/go-logr/logr ") {
			lines = append(lines, line)
		}
	}
	writeFile(t, filepath.Join(dir, "go.sum"), strings.Join(lines, ""))
	writeFile(t, filepath.Join(dir, "main.go"), "package main\n\nimport \"k8s.io/klog/v2\"\n\nfunc main() { klog.Info(\"vendored\") }\n")
	vendor := exec.Command("go", "mod", "vendor")
	vendor.Dir = dir
	vendor.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if out, err := vendor.CombinedOutput(); err != nil {
		t.Fatalf("go mod vendor: %v\n%s", err, out)
	}
	before := treeFiles(t, dir)

	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOPROXY", "off")
	tree, err := Load(context.Background(), dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Warnings) > 0 {
		t.Errorf("warnings %q, want none", tree.Warnings)
	}
	var klog *packages.Package
	for _, p := range tree.All {
		if p.PkgPath == "k8s.io/klog/v2" {
			klog = p
		}
	}
	if klog == nil || len(klog.GoFiles) == 0 || !strings.HasPrefix(klog.GoFiles[0], filepath.Join(tree.Dir, "vendor", "k8s.io", "klog", "v2")+string(filepath.Separator)) {
		t.Errorf("klog was not read from vendor/: %v", klog)
	}
	if after := treeFiles(t, dir); !maps.Equal(after, before) {
		t.Error("loading changed the tree")
	}
}

// treeFiles is every file under dir with its bytes, by path.
func treeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		files[path] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestKeptExportsGone: a kept place of export data that the build cache
// no longer holds (it was trimmed) is not used, and the probe runs again.
func TestKeptExportsGone(t *testing.T) {
	store, err := resultcache.OpenTypes(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	key, err := resultcache.DerivedKey("module export data test", "test")
	if err != nil {
		t.Fatal(err)
	}
	k := &kept{store: store, modules: key}
	held := filepath.Join(t.TempDir(), "held-d")
	if err := os.WriteFile(held, []byte("export data"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := store.Put(key, keptExports{Files: map[string]string{"example.com/a": held}}); err != nil {
		t.Fatal(err)
	}
	if x, why := k.moduleExports(); why != "" || x.Files["example.com/a"] != held {
		t.Fatalf("a kept place still held: got %v, %q", x, why)
	}
	if err := os.Remove(held); err != nil {
		t.Fatal(err)
	}
	if x, why := k.moduleExports(); why == "" || x.Files != nil {
		t.Errorf("a kept place no longer held was used: %v", x)
	}
}
