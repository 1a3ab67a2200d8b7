// Package load type-checks one controller source tree with its own driver
// over `go list -deps -json`: the tree's own packages (its module and every
// nested module wired in by a local replace directive) with full syntax and
// types, and its dependencies with their types only (no syntax, no
// types.Info kept).
//
// A dependency is typed from its declarations: parsed with its function
// bodies dropped and type-checked in parallel in dependency order, with no
// library code compiled. The standard library always is; a module
// dependency is typed instead from the compiler's export data when the
// build cache holds it for every module dependency, which a probe of `go
// list -export -n` tells: -n prints, and never runs, the commands of what
// the cache lacks, and the first such line ends it (exportFiles). It asks first for the export data built with
// cgo off, then for the data the user's own go command built (cgo on
// wherever a C compiler is installed, as after `go vet`; asked only when
// that compiler is in a system directory, since the go command runs it to
// identify it); a dependency's exported types do not change with cgo.
// Both ways give the same types and positions, so the same report.
//
// The tree is treated as untrusted: cgo is off, GOTOOLCHAIN is local (a
// go.mod cannot make the go command download a toolchain), a -mod flag in
// GOFLAGS is dropped (the go command may not rewrite go.mod or go.sum), and
// nothing in it is executed. The export data probe may make the go command
// compile dependencies the cache lacks (cgo off), which runs the compiler
// on their code, never the code itself; nothing of the tree's own is
// compiled, and the probe of the user's cgo build only reads the cache.
package load

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"

	"github.com/ctrlcmp/ctrlcmp/internal/desugar"
	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/phase"
	"github.com/ctrlcmp/ctrlcmp/internal/resultcache"
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
	// DepsFrom is where the dependencies' types came from: ExportData or
	// Declarations.
	DepsFrom DepSource
	// Workspace is the go.work file the tree was loaded with, as the go
	// command builds it for the user, or "" outside a workspace.
	Workspace string
	// Excluded are the own files that build constraints (a //go:build
	// line) leave out, each as "FILE (//go:build EXPR)" relative to Root:
	// where a controller behind a build tag would be.
	Excluded []string
	// Warnings are the problems that did not stop the load: the
	// dependencies that could not be listed (a go.sum missing their lines),
	// then the type errors of the tree's own packages, with paths relative
	// to Root.
	Warnings []string

	// generated are the own generated files, read without their data
	// (dropGeneratedData).
	generated map[string]bool
	// promoted are the directories of the dependencies' generated
	// reconciler packages loaded as the tree's own (promoteGenerated).
	promoted map[string]bool
	// replacedVendor are the vendor directories ("vendor/MODULE/", slash
	// separated) of the modules the tree replaces by one of its own
	// directories: a copy of the tree's own code, loaded as its own.
	replacedVendor []string
	// graph is the listed packages, for the dependencies completed on
	// demand (Types).
	graph *graph
	mu    sync.Mutex
}

// DepSource is where the dependencies' types come from.
type DepSource int

const (
	// AnySource takes export data when the build cache holds it for every
	// module dependency (a probe that stops at the first thing the go
	// command would compile), declarations otherwise.
	AnySource DepSource = iota
	// ExportData imports every dependency from the build cache's export
	// data, compiling (never running) what the cache lacks, and falls back
	// to declarations when a package has none.
	ExportData
	// Declarations types every dependency from its source's declarations.
	Declarations
)

func (s DepSource) String() string {
	switch s {
	case ExportData:
		return "export data from the build cache"
	case Declarations:
		return "declarations from source"
	}
	return "export data or declarations"
}

// Load loads the Go module in dir, its dependencies from export data when
// the build cache holds it and from their declarations otherwise. Progress
// lines go to progress when it is not nil. kept, when not nil, is where
// the standard library's types and the places of the module dependencies'
// export data are kept between runs (kept.go).
func Load(ctx context.Context, dir string, progress func(string), kept *resultcache.Store) (*Tree, error) {
	return load(ctx, dir, progress, AnySource, kept)
}

// LoadFrom is Load with the dependencies' types taken from a chosen source,
// and nothing kept.
func LoadFrom(ctx context.Context, dir string, progress func(string), from DepSource) (*Tree, error) {
	return load(ctx, dir, progress, from, nil)
}

func load(ctx context.Context, dir string, progress func(string), from DepSource, kept *resultcache.Store) (*Tree, error) {
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
		return nil, notAModule(dir, abs)
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
	t := &Tree{Dir: abs, Root: gitRoot(abs), Fset: token.NewFileSet(), generated: map[string]bool{}}
	var refusedWorkspace string
	if t.Workspace, refusedWorkspace = workspace(ctx, abs, t.Root); t.Workspace != "" {
		ctx = withWorkspace(ctx, t.Workspace)
	}

	nested := nestedModulePatterns(mf, abs)
	patterns := append([]string{"./..."}, nested...)
	t.replacedVendor = replacedVendorDirs(nested)
	if progress != nil {
		how := strings.Join(append(buildFlags(ctx), patterns...), " ")
		if t.Workspace != "" {
			how += ", in the workspace of " + t.Workspace
		}
		progress(fmt.Sprintf("loading packages of %s (%s)", dir, how))
	}
	list, err := goList(ctx, abs, dir, patterns)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		return nil, fail.Wrap(fail.CodeLoad, err)
	}
	g := newGraph(list, t.Fset, abs, func(files []string) bool { return len(files) > 0 && t.IsOwnFile(files[0]) })
	t.graph = g
	t.promoteGenerated(g)
	phase.Mark(ctx, "go list", fmt.Sprintf("%d packages", len(g.nodes)))
	syntax := t.parseOwn(g)
	phase.Mark(ctx, "parse", fmt.Sprintf("%d own packages", len(syntax)))
	if err := t.typeDependencies(ctx, g, from, kept, syntax); err != nil {
		return nil, err
	}
	if err := g.checkOwn(ctx, syntax); err != nil {
		return nil, err
	}
	phase.Mark(ctx, "type-check", fmt.Sprintf("%d own packages", len(syntax)))
	for n, files := range syntax {
		desugar.Files(files, n.pkg.TypesInfo)
	}
	for _, n := range g.nodes {
		t.All = append(t.All, n.pkg)
		if n.own {
			t.Own = append(t.Own, n.pkg)
		}
	}
	sort.Slice(t.All, func(i, j int) bool { return t.All[i].PkgPath < t.All[j].PkgPath })
	sort.Slice(t.Own, func(i, j int) bool { return t.Own[i].PkgPath < t.Own[j].PkgPath })
	t.Warnings = t.dependencyErrors(mf, abs)
	if refusedWorkspace != "" {
		t.Warnings = append([]string{refusedWorkspace}, t.Warnings...)
	}
	t.Excluded = t.excluded(g)
	var own []packages.Error
	for _, p := range t.Own {
		t.dropDeclarationsOnlyErrors(p)
		own = append(own, p.Errors...)
	}
	sort.SliceStable(own, func(i, j int) bool { return positionLess(own[i].Pos, own[j].Pos) })
	for _, e := range own {
		if e.Pos == "" { // the go command names no position, as for an import cycle
			t.Warnings = append(t.Warnings, e.Msg)
			continue
		}
		t.Warnings = append(t.Warnings, t.relative(e.Pos)+": "+e.Msg)
	}
	if len(t.Own) == 0 {
		msg := "no Go packages could be loaded"
		if len(t.Warnings) > 0 {
			msg = t.Warnings[0]
		}
		if len(t.Excluded) == 0 {
			t.Excluded = t.constrainedFiles(ctx) // go list lists no package all of whose files are left out
		}
		if len(t.Excluded) > 0 {
			return nil, fail.Load("%s: %s; build constraints left out %s: give the tags that build them with --tags", dir, msg, strings.Join(t.Excluded, ", "))
		}
		return nil, fail.Load("%s: %s; run `go build ./...` there to see why", dir, msg)
	}
	return t, nil
}

// Types is the complete *types.Package of the loaded package at path, or
// nil. A module dependency typed from export data that the tree does not
// import holds, until asked for here, only the declarations the tree
// reaches: its export data is read now. When that fails, the package stays
// as it was, and a warning (once) says so and how to have it typed from
// its source.
func (t *Tree) Types(path string) *types.Package {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.graph.byPath[path]
	if n == nil {
		return nil
	}
	if x := t.graph.exports; x != nil && !n.own && !n.listed.Standard && !x.read[path] {
		if err := t.graph.readExports(n); err != nil {
			x.read[path] = true // tried: warn once
			t.Warnings = append(t.Warnings, fmt.Sprintf("%s: its export data could not be read (%v), so only the declarations the tree itself uses are known, and rows that need the others may be not settled; run `go clean -cache` to have it typed from its source", path, err))
		}
	}
	return n.pkg.Types
}

// positionLess orders "file:line:col" positions by file, then line and
// column as numbers.
func positionLess(a, b string) bool {
	fa, la, ca := splitPosition(a)
	fb, lb, cb := splitPosition(b)
	if fa != fb {
		return fa < fb
	}
	if la != lb {
		return la < lb
	}
	return ca < cb
}

// splitPosition splits a "file:line:col" (or "file:line") position; a
// position without numbers is all file.
func splitPosition(pos string) (file string, line, col int) {
	file = pos
	for _, n := range []*int{&col, &line} {
		i := strings.LastIndexByte(file, ':')
		if i < 0 {
			break
		}
		v, err := strconv.Atoi(file[i+1:])
		if err != nil {
			break
		}
		*n, file = v, file[:i]
	}
	if line == 0 {
		line, col = col, 0
	}
	return file, line, col
}

// relative rewrites a "file:line:col" position of a tree's file relative
// to Root; any other position is returned as it is.
func (t *Tree) relative(pos string) string {
	if rel, ok := strings.CutPrefix(pos, t.Root+string(filepath.Separator)); ok {
		return filepath.ToSlash(rel)
	}
	return pos
}

// dropDeclarationsOnlyErrors removes from an own package the soft type
// errors (an import left unused) that lie in its generated files: reading
// them without their data made them, the files themselves hold none.
func (t *Tree) dropDeclarationsOnlyErrors(p *packages.Package) {
	dropped := map[string]bool{}
	kept := p.TypeErrors[:0]
	for _, e := range p.TypeErrors {
		if posn := e.Fset.Position(e.Pos); e.Soft && t.generated[posn.Filename] {
			dropped[posn.String()+": "+e.Msg] = true
			continue
		}
		kept = append(kept, e)
	}
	p.TypeErrors = kept
	if len(dropped) == 0 {
		return
	}
	errs := p.Errors[:0]
	for _, e := range p.Errors {
		if e.Kind != packages.TypeError || !dropped[e.Pos+": "+e.Msg] {
			errs = append(errs, e)
		}
	}
	p.Errors = errs
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

// replacedVendorDirs are the vendor directories ("vendor/MODULE/") of the
// modules nestedModulePatterns names (nested, its "module/..." patterns).
func replacedVendorDirs(nested []string) []string {
	var out []string
	for _, p := range nested {
		out = append(out, "vendor/"+strings.TrimSuffix(p, "...")) // (p ends in "/...")
	}
	return out
}

// IsOwnFile reports whether filename belongs to the tree (and not to a
// vendored copy of a dependency; a vendored copy of a module the tree
// replaces by one of its own directories is the tree's).
func (t *Tree) IsOwnFile(filename string) bool {
	if t.promoted[filepath.Dir(filename)] {
		return true
	}
	if !within(t.Dir, filename) {
		return false
	}
	rel, _ := filepath.Rel(t.Dir, filename)
	rel = filepath.ToSlash(rel)
	return !strings.HasPrefix(rel, "vendor/") || slices.ContainsFunc(t.replacedVendor, func(p string) bool { return strings.HasPrefix(rel, p) })
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
