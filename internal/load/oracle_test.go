package load

import (
	"context"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// TestAgainstGoPackages compares the loader with go/packages, the
// reference it re-implements, on every fixture under testdata/src: the
// same own packages, each with the same Go files, the same package-level
// objects (types.ObjectString) at the same positions, and the same errors.
// go/packages runs with the loader's environment for an untrusted tree
// (goEnv), so that both see the same build.
func TestAgainstGoPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy: make test-heavy runs it")
	}
	fixtures, err := os.ReadDir(filepath.Join("..", "..", "testdata", "src"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fixtures {
		t.Run(f.Name(), func(t *testing.T) {
			tree, err := LoadFrom(context.Background(), fixture(f.Name()), nil, Declarations)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(tree.Dir, "go.mod"))
			if err != nil {
				t.Fatal(err)
			}
			mf, err := modfile.Parse("go.mod", data, nil)
			if err != nil {
				t.Fatal(err)
			}
			cfg := &packages.Config{
				Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedTypes |
					packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule,
				Dir:   tree.Dir,
				Env:   untrustedEnv(withWorkspace(context.Background(), tree.Workspace)),
				Tests: false,
			}
			roots, err := packages.Load(cfg, append([]string{"./..."}, nestedModulePatterns(mf, tree.Dir)...)...)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{}
			for _, p := range roots {
				if tree.isOwnPackage(p) {
					dropCompileReport(t, p)
					want[p.PkgPath] = describe(p)
				}
			}
			if len(want) == 0 {
				t.Fatalf("go/packages found no own package in %s", tree.Dir)
			}
			got := map[string]string{}
			for _, p := range tree.Own {
				if len(p.GoFiles) > 0 && tree.promoted[filepath.Dir(p.GoFiles[0])] {
					continue // a dependency's generated reconciler, loaded as own (promote.go)
				}
				got[p.PkgPath] = describe(p)
			}
			for _, path := range slices.Sorted(func(yield func(string) bool) {
				for k := range want {
					if !yield(k) {
						return
					}
				}
				for k := range got {
					if _, ok := want[k]; !ok && !yield(k) {
						return
					}
				}
			}) {
				if got[path] != want[path] {
					t.Errorf("package %s:\nthe loader:  %s\ngo/packages: %s", path, orNone(got[path]), orNone(want[path]))
				}
			}
		})
	}
}

// dropCompileReport removes from a go/packages package the go command's
// report of compiling it ("# PATH" and the compiler's lines): go/packages
// asks for the export data of the packages it loads, so the go command
// compiles an ill-typed one and reports its errors a second time, where
// the loader compiles nothing of the tree's own. Each line of the report
// must be one of the package's type errors, which stay.
func dropCompileReport(t *testing.T, p *packages.Package) {
	var typeErrors []string
	for _, e := range p.Errors {
		if e.Kind == packages.TypeError {
			typeErrors = append(typeErrors, e.Pos+": "+e.Msg)
		}
	}
	kept := p.Errors[:0]
	for _, e := range p.Errors {
		header, lines, ok := strings.Cut(e.Msg, "\n")
		if e.Kind != packages.ListError || e.Pos != "" || !ok || header != "# "+p.PkgPath {
			kept = append(kept, e)
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(lines), "\n") {
			line = strings.TrimPrefix(line, "./") // a package at the module root: ./main.go:71:54
			if !slices.ContainsFunc(typeErrors, func(te string) bool { return strings.HasSuffix(te, line) }) {
				t.Errorf("package %s: the go command's compile report says %q, which is no type error of go/packages' (%q)", p.PkgPath, line, typeErrors)
			}
		}
	}
	p.Errors = kept
}

func orNone(s string) string {
	if s == "" {
		return "(not an own package)"
	}
	return s
}

// describe is what the comparison holds of an own package: its Go files,
// its package-level objects with their positions, and its errors, each
// sorted.
func describe(p *packages.Package) string {
	var b strings.Builder
	files := slices.Clone(p.GoFiles)
	sort.Strings(files)
	fmt.Fprintf(&b, "name %s\nfiles %s\n", p.Name, strings.Join(files, " "))
	if p.Types != nil {
		qual := types.RelativeTo(p.Types)
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			fmt.Fprintf(&b, "%s at %s\n", types.ObjectString(obj, qual), p.Fset.Position(obj.Pos()))
		}
	}
	var errs []string
	for _, e := range p.Errors {
		errs = append(errs, fmt.Sprintf("error %s: %s", e.Pos, e.Msg))
	}
	sort.Strings(errs)
	for _, e := range errs {
		fmt.Fprintln(&b, e)
	}
	return b.String()
}
