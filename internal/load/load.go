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
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"

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

	patterns := append([]string{"./..."}, nestedModulePatterns(mf, abs)...)
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

// dependencyErrors are the errors the go command gave while listing the
// tree's dependencies (a package whose module is missing from go.sum, or
// provided by no required module), one per package, each with the fix: to
// download the module mf requires for it, which records its go.sum lines,
// or to tidy go.mod when mf requires none (in a workspace: to add the
// module that provides it to the workspace, since tidying would break
// it). A replace directive of mf (in dir) whose directory does not exist
// gives one warning, naming its line, for all the packages it leaves out.
// Their own type errors are not among them: their bodies were dropped on
// purpose, which leaves imports unused.
func (t *Tree) dependencyErrors(mf *modfile.File, dir string) []string {
	missing := missingReplacements(mf, dir)
	var out []string
	said := map[*modfile.Replace]bool{}
	for _, p := range t.All {
		if t.isOwnPackage(p) {
			continue
		}
		for _, e := range p.Errors {
			if e.Kind != packages.ListError {
				continue
			}
			if r := replacing(missing, p.PkgPath); r != nil {
				if !said[r] {
					said[r] = true
					out = append(out, fmt.Sprintf("%s:%d: replace %s => %s: that directory does not exist, so no package of %s is loaded; fix the replace line, or put the module there",
						t.relative(filepath.Join(dir, "go.mod")), r.Syntax.Start.Line, r.Old.Path, r.New.Path, r.Old.Path))
				}
				continue
			}
			fix := "run `go mod tidy` in the module to require it and record it in go.sum"
			if t.Workspace != "" {
				fix = "add the module that provides it to the workspace of " + t.Workspace + " (`go work use DIR`), or require it in go.mod"
			}
			if mod := requiredModule(mf, p.PkgPath); mod != "" {
				fix = fmt.Sprintf("run `go mod download %s` in the module to record its go.sum lines", mod)
			}
			out = append(out, fmt.Sprintf("%s: %s; %s", p.PkgPath, strings.Join(strings.Fields(e.Msg), " "), fix))
		}
	}
	return out
}

// missingReplacements are the replace directives of mf (in dir) that
// name a directory that does not exist.
func missingReplacements(mf *modfile.File, dir string) []*modfile.Replace {
	var out []*modfile.Replace
	for _, r := range mf.Replace {
		if r.New.Version != "" {
			continue
		}
		if st, err := os.Stat(replaceDir(r, dir)); err != nil || !st.IsDir() {
			out = append(out, r)
		}
	}
	return out
}

// replaceDir is the directory a local replace directive of the go.mod in
// dir names.
func replaceDir(r *modfile.Replace, dir string) string {
	if filepath.IsAbs(r.New.Path) {
		return filepath.Clean(r.New.Path)
	}
	return filepath.Join(dir, r.New.Path)
}

// replacing is the directive of rs that replaces the module providing the
// package at path (the longest module path it lies under), or nil.
func replacing(rs []*modfile.Replace, path string) *modfile.Replace {
	var best *modfile.Replace
	for _, r := range rs {
		if m := r.Old.Path; (path == m || strings.HasPrefix(path, m+"/")) && (best == nil || len(m) > len(best.Old.Path)) {
			best = r
		}
	}
	return best
}

// excluded are the own files that a //go:build line leaves out, each
// with its constraint, relative to Root and sorted. Files left out by
// their name alone (_windows.go) are not: no tag brings them in.
func (t *Tree) excluded(g *graph) []string {
	var out []string
	for _, n := range g.nodes {
		if n.listed.Dir == "" || !t.IsOwnFile(filepath.Join(n.listed.Dir, "x.go")) {
			continue
		}
		for _, name := range n.listed.IgnoredGoFiles {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			path := filepath.Join(n.listed.Dir, name)
			if expr := buildLine(path); expr != "" {
				out = append(out, fmt.Sprintf("%s (//go:build %s)", t.relative(path), expr))
			}
		}
	}
	sort.Strings(out)
	return out
}

// constrainedFiles are the Go files of the tree (outside vendor, testdata
// and the directories the go command skips) whose //go:build line a build
// with the tags of ctx leaves out, each as excluded has it. A tag is taken
// to hold when it is one of those tags, the target's GOOS or GOARCH, unix
// on a Unix, gc, or a go1.N release tag.
func (t *Tree) constrainedFiles(ctx context.Context) []string {
	holds := map[string]bool{"gc": true, runtime.GOOS: true, goarch(): true}
	for _, tag := range Tags(ctx) {
		holds[tag] = true
	}
	switch runtime.GOOS {
	case "aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "linux", "netbsd", "openbsd", "solaris":
		holds["unix"] = true
	}
	var out []string
	_ = filepath.WalkDir(t.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if path != t.Dir && (name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		expr := buildLine(path)
		if expr == "" {
			return nil
		}
		x, err := constraint.Parse("//go:build " + expr)
		if err == nil && !x.Eval(func(tag string) bool { return holds[tag] || strings.HasPrefix(tag, "go1.") }) {
			out = append(out, fmt.Sprintf("%s (//go:build %s)", t.relative(path), expr))
		}
		return nil
	})
	return out
}

// buildLine is the expression of a Go file's //go:build line, or "".
func buildLine(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if constraint.IsGoBuild(line) {
			if expr, err := constraint.Parse(line); err == nil {
				return expr.String()
			}
		}
		if strings.HasPrefix(line, "package ") {
			break
		}
	}
	return ""
}

// requiredModule is the module go.mod requires that provides the package
// at path (the longest module path it lies under), or "".
func requiredModule(mf *modfile.File, path string) string {
	best := ""
	for _, r := range mf.Require {
		if m := r.Mod.Path; (path == m || strings.HasPrefix(path, m+"/")) && len(m) > len(best) {
			best = m
		}
	}
	return best
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

// parseFile parses an own file for the type checker: with its comments and
// bodies, but a generated file loses its data (dropGeneratedData).
func (t *Tree) parseFile(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	f, err := parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
	if f != nil && ast.IsGenerated(f) {
		dropGeneratedData(f)
		t.generated[filename] = true
	}
	return f, err
}

// maxGeneratedBody is the size of source above which a generated
// function's body counts as data and is dropped.
const maxGeneratedBody = 1 << 20

// dropGeneratedData strips a generated file of its data, keeping its
// functions (but those whose bodies exceed maxGeneratedBody): a generated reconciler's bodies hold half of a controller's
// answers, while what makes a generated file cost gigabytes is data. The
// data of package-level variables goes (the initialiser of a variable
// declared with a type, and the elements of the composite literals that
// give the others their types: one syntax node and one typed expression per
// element is what makes an embedded blob cost gigabytes), and so does the
// body of an init function (it becomes empty), which registers data rather
// than reconciling anything. An array literal of inferred length ([...]T)
// keeps its elements, each emptied in turn, so that its type is unchanged.
// What is left type-checks as the file did, except for imports only the
// dropped code used (a soft error, which Load drops).
func dropGeneratedData(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			switch {
			case d.Body == nil:
			case d.Recv == nil && d.Name.Name == "init":
				d.Body = &ast.BlockStmt{Lbrace: d.Body.Lbrace, Rbrace: d.Body.Rbrace}
			case d.Body.End()-d.Body.Pos() > maxGeneratedBody && !isGeneric(d):
				// A body this large is data returned by a function (an
				// OpenAPI definitions table), not reconcile logic.
				d.Body = nil
			}
		case *ast.GenDecl:
			dropVarData(d)
		}
	}
}

// dropBody drops a dependency's function body, as far as the type checker
// allows: an init function's becomes empty, and a generic function keeps
// its own (the checker wants both, though with IgnoreFuncBodies it checks
// neither).
func dropBody(d *ast.FuncDecl) {
	switch {
	case d.Body == nil || isGeneric(d):
	case d.Recv == nil && d.Name.Name == "init":
		d.Body = &ast.BlockStmt{Lbrace: d.Body.Lbrace, Rbrace: d.Body.Rbrace}
	default:
		d.Body = nil
	}
}

// dropVarData drops the data of the package-level variables a declaration
// declares: the initialiser of a variable declared with a type, and the
// elements of the composite literals that give the others their types.
func dropVarData(d *ast.GenDecl) {
	if d.Tok != token.VAR {
		return
	}
	for _, spec := range d.Specs {
		vs := spec.(*ast.ValueSpec)
		if vs.Type != nil {
			vs.Values = nil
			continue
		}
		for _, v := range vs.Values {
			dropElements(v)
		}
	}
}

// isGeneric reports whether a function declares type parameters, or is a
// method of a generic type.
func isGeneric(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams != nil {
		return true
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	recv := fd.Recv.List[0].Type
	if s, ok := recv.(*ast.StarExpr); ok {
		recv = s.X
	}
	switch recv.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// dropElements empties the composite literals of an initialiser, keeping
// their types: a literal of inferred array length keeps its elements (and
// their keys, which may set the length), each emptied in turn. Function
// literals are left whole.
func dropElements(e ast.Expr) {
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CompositeLit:
			if at, ok := x.Type.(*ast.ArrayType); ok {
				if _, inferred := at.Len.(*ast.Ellipsis); inferred {
					for _, el := range x.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							el = kv.Value
						}
						dropElements(el)
					}
					return false
				}
			}
			x.Elts = nil
			return false
		}
		return true
	})
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

// notAModule is the error for dir (abs, absolute), which holds no go.mod.
// It names where the modules are: the module dir lies in, the modules a
// go.work in dir uses, or the modules in dir's subdirectories (a few
// levels down), each as a path to give instead.
func notAModule(dir, abs string) error {
	const msg = "%s is not a Go module (no go.mod); %s"
	shown := func(p string) string { return filepath.Join(dir, p) }
	if data, err := os.ReadFile(filepath.Join(abs, "go.work")); err == nil {
		if wf, err := modfile.ParseWork("go.work", data, nil); err == nil && len(wf.Use) > 0 {
			var used []string
			for _, u := range wf.Use {
				used = append(used, shown(u.Path))
			}
			return fail.Load(msg, dir, "it is a go.work workspace: give one of the modules it uses: "+strings.Join(used, ", "))
		}
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			rel, err := filepath.Rel(abs, d)
			if err != nil {
				break
			}
			return fail.Load(msg, dir, "it is inside the module at "+shown(rel)+": give that directory")
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	if found := modulesBelow(abs, 3, 5); len(found) > 0 {
		for i, f := range found {
			found[i] = shown(f)
		}
		return fail.Load(msg, dir, "give one of the modules below it: "+strings.Join(found, ", "))
	}
	return fail.Load(msg, dir, "give the module's root directory")
}

// modulesBelow lists up to most directories under root, depth levels down
// at most, that hold a go.mod, relative to root (hidden directories,
// vendor and testdata are not searched).
func modulesBelow(root string, depth, most int) []string {
	var found []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // an unreadable directory is not searched
		case !d.IsDir():
			return nil
		case len(found) == most:
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil
		}
		name := d.Name()
		if strings.HasPrefix(name, ".") || name == "vendor" || name == "testdata" || strings.Count(rel, string(filepath.Separator)) >= depth {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
			found = append(found, rel)
			return filepath.SkipDir
		}
		return nil
	})
	return found
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

// ListError is the go command's refusal to list a tree's packages (an
// inconsistent vendor directory, a go.mod it cannot use): what it wrote on
// stderr, whose first line says what is wrong and whose following lines
// name the modules and the fix.
type ListError struct {
	// Dir is the tree as it was given.
	Dir string
	// Stderr is the go command's message, without the exit status.
	Stderr string
	// Err is the go command's failure.
	Err error
}

// Error is the first line of the go command's message, then the others
// indented under it.
func (e *ListError) Error() string {
	first, rest, more := strings.Cut(e.Stderr, "\n")
	msg := fmt.Sprintf("%s: go list failed: %s", e.Dir, first)
	if !more {
		return msg
	}
	lines := []string{msg}
	for _, line := range strings.Split(rest, "\n") {
		line = strings.TrimRight(line, " \t")
		if line != "" && !strings.HasPrefix(line, "\t") {
			line = "\t" + line
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the go command's failure.
func (e *ListError) Unwrap() error { return e.Err }
