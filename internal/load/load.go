// Package load type-checks one controller source tree with a single
// packages.Load: the tree's own packages (its module and every nested module
// wired in by a local replace directive) with full syntax and types, and its
// dependencies from source with every function body dropped, so that their
// declarations are typed without compiling or type-checking library code.
//
// The tree is treated as untrusted: cgo is off, GOTOOLCHAIN is local (a
// go.mod cannot make the go command download a toolchain), and nothing in it
// is executed.
package load

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
)

// Tree is a loaded source tree.
type Tree struct {
	// Dir is the module directory that was loaded (absolute).
	Dir string
	// Root is the directory citations are relative to: the root of the git
	// repository holding Dir, or Dir itself outside git (absolute).
	Root string
	// Fset positions every file of every package.
	Fset *token.FileSet
	// Own are the tree's own packages (syntax and full types), sorted by path.
	Own []*packages.Package
	// All is every package of the import graph, own ones included.
	All []*packages.Package
	// Warnings are the problems that did not stop the load (type errors in
	// the tree's own packages, packages that could not be listed).
	Warnings []string
}

// Load loads the Go module in dir. Progress lines go to progress when it is
// not nil.
func Load(ctx context.Context, dir string, progress func(string)) (*Tree, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fail.Usage("%s: %w", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fail.Usage("%s: no such directory; give the path of a Go module holding a controller", dir)
	}
	if !st.IsDir() {
		return nil, fail.Usage("%s is a file; give the directory of the Go module (the one holding go.mod)", dir)
	}
	gomod := filepath.Join(abs, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		return nil, fail.Load("%s is not a Go module (no go.mod); give the module's root directory", dir)
	}
	mf, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		return nil, fail.Load("%s: %w; fix go.mod so that `go list` accepts it", gomod, err)
	}
	if mf.Module == nil {
		return nil, fail.Load("%s has no module line; fix go.mod", gomod)
	}
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		return nil, fail.Usage("%s: %w", dir, err)
	}
	t := &Tree{Dir: abs, Root: gitRoot(abs), Fset: token.NewFileSet()}

	patterns := append([]string{"./..."}, nestedModulePatterns(mf, abs)...)
	if progress != nil {
		progress(fmt.Sprintf("loading packages of %s (%s)", dir, strings.Join(patterns, " ")))
	}
	cfg := &packages.Config{
		Context: ctx,
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps |
			packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule,
		Dir:       abs,
		Fset:      t.Fset,
		Env:       untrustedEnv(),
		ParseFile: t.parseFile,
	}
	roots, err := packages.Load(cfg, patterns...)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		return nil, fail.Load("%s: go list failed: %v", dir, firstLine(err.Error()))
	}
	seen := map[*packages.Package]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		t.All = append(t.All, p)
		if t.isOwnPackage(p) {
			t.Own = append(t.Own, p)
		}
	})
	sort.Slice(t.All, func(i, j int) bool { return t.All[i].PkgPath < t.All[j].PkgPath })
	sort.Slice(t.Own, func(i, j int) bool { return t.Own[i].PkgPath < t.Own[j].PkgPath })
	for _, p := range t.Own {
		for _, e := range p.Errors {
			t.Warnings = append(t.Warnings, e.Error())
		}
	}
	if len(t.Own) == 0 {
		msg := "no Go packages could be loaded"
		if len(t.Warnings) > 0 {
			msg = t.Warnings[0]
		}
		return nil, fail.Load("%s: %s; run `go build ./...` there to see why", dir, msg)
	}
	sort.Strings(t.Warnings)
	return t, nil
}

// untrustedEnv is the go command's environment for a tree we do not trust.
func untrustedEnv() []string {
	env := []string{"CGO_ENABLED=0", "GOTOOLCHAIN=local", "GOWORK=off"}
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "CGO_ENABLED", "GOTOOLCHAIN", "GOWORK":
			continue
		}
		env = append(env, kv)
	}
	return env
}

// nestedModulePatterns returns a "module/..." pattern for every module the
// main module requires and replaces with a directory inside the tree, such as
// an api/ module holding the CRD types.
func nestedModulePatterns(mf *modfile.File, dir string) []string {
	required := map[string]bool{}
	for _, r := range mf.Require {
		required[r.Mod.Path] = true
	}
	var pats []string
	for _, r := range mf.Replace {
		if r.New.Version != "" || !required[r.Old.Path] {
			continue
		}
		target := filepath.Clean(filepath.Join(dir, r.New.Path))
		if within(dir, target) {
			pats = append(pats, r.Old.Path+"/...")
		}
	}
	sort.Strings(pats)
	return pats
}

// parseFile parses a tree's own file fully; any other file loses its function
// bodies, which is all the type checker needs for its declarations.
func (t *Tree) parseFile(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	if t.IsOwnFile(filename) {
		return parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
	}
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if f != nil {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				fd.Body = nil
			}
		}
	}
	return f, err
}

// IsOwnFile reports whether filename belongs to the tree (and not to a
// vendored copy of a dependency).
func (t *Tree) IsOwnFile(filename string) bool {
	if !within(t.Dir, filename) {
		return false
	}
	rel, _ := filepath.Rel(t.Dir, filename)
	return !strings.HasPrefix(filepath.ToSlash(rel), "vendor/")
}

func (t *Tree) isOwnPackage(p *packages.Package) bool {
	files := p.CompiledGoFiles
	if len(files) == 0 {
		files = p.GoFiles
	}
	return len(files) > 0 && t.IsOwnFile(files[0])
}

func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// gitRoot returns the closest ancestor of dir (dir included) holding .git,
// or dir when there is none.
func gitRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
