package load

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
)

// node is one listed package on its way through the loader.
type node struct {
	listed  *listed
	pkg     *packages.Package
	own     bool
	imports []*node // the listed packages it imports, resolved
	// source maps a resolved import path to the path the source imports
	// (a vendored standard package); importErrors are the imports that
	// close a cycle, by the path the source imports.
	source       map[string]string
	importErrors map[string]error
	// illTyped: the package, or one it imports, holds errors.
	illTyped bool
}

// graph is the listed packages of a tree, dependencies first.
type graph struct {
	nodes  []*node
	byPath map[string]*node
	fset   *token.FileSet
	sizes  types.Sizes
	// exports are the module dependencies' export data, when they were
	// typed from it.
	exports *exports
}

// newGraph resolves the imports of the listed packages. own tells the
// tree's own packages.
func newGraph(list []*listed, fset *token.FileSet, dir string, own func(files []string) bool) *graph {
	g := &graph{byPath: map[string]*node{}, fset: fset, sizes: types.SizesFor("gc", goarch())}
	for _, l := range list {
		files := l.files(dir)
		n := &node{listed: l, own: own(files), importErrors: map[string]error{}, pkg: &packages.Package{
			ID: l.ImportPath, PkgPath: l.ImportPath, Name: l.Name, GoFiles: files, CompiledGoFiles: files,
			Module: l.Module, Fset: fset, Errors: l.listErrors(), Imports: map[string]*packages.Package{},
		}}
		g.nodes = append(g.nodes, n)
		g.byPath[l.ImportPath] = n
	}
	for _, n := range g.nodes {
		n.source = map[string]string{}
		for path, id := range n.listed.ImportMap {
			n.source[id] = path
		}
	}
	// Depth first from the listed packages, as go/packages walks them: an
	// import back into the walk's stack (a cycle, which go list reports)
	// is an import error, so that the imports form a graph without cycles.
	const (
		white = iota
		grey
		black
	)
	color := map[*node]int{}
	var stack []string
	var visit func(n *node)
	visit = func(n *node) {
		color[n] = grey
		stack = append(stack, n.pkg.PkgPath)
		for _, id := range n.listed.Imports {
			imp := g.byPath[id]
			if imp == nil {
				continue // "C", or a package go list could not describe
			}
			path := id
			if p, ok := n.source[id]; ok {
				path = p
			}
			switch color[imp] {
			case grey:
				n.importErrors[path] = fmt.Errorf("import cycle: %v", stack)
				continue
			case white:
				visit(imp)
			}
			n.imports = append(n.imports, imp)
			n.pkg.Imports[path] = imp.pkg
		}
		stack = stack[:len(stack)-1]
		color[n] = black
	}
	for _, roots := range []bool{true, false} {
		for _, n := range g.nodes {
			if color[n] == white && !n.listed.DepOnly == roots {
				visit(n)
			}
		}
	}
	return g
}

// goarch is the architecture the go command builds for.
func goarch() string {
	if a := os.Getenv("GOARCH"); a != "" {
		return a
	}
	return runtime.GOARCH
}

// exports are the export data of a tree's module dependencies: the file of
// each (by import path), and the packages read so far, which share one map
// so that a type has one identity and an object already typed is taken as
// it is. The compiler's export data of a package holds every declaration
// its own reaches, so the packages the tree imports are read at once and
// the others are complete only when asked for (Tree.Types).
type exports struct {
	files   map[string]string
	imports map[string]*types.Package
	read    map[string]bool
}

// importExportData types the module dependencies from the export data
// files the build cache holds, once the standard library is typed: the
// packages the tree's own import are read, in dependency order; every
// other one has the declarations they reach (or no package at all).
func (g *graph) importExportData(files map[string]string) error {
	g.exports = &exports{files: files, imports: map[string]*types.Package{}, read: map[string]bool{}}
	direct := map[*node]bool{}
	for _, n := range g.nodes {
		if n.listed.Standard {
			g.exports.imports[n.pkg.PkgPath] = n.pkg.Types
		}
		if n.own {
			for _, imp := range n.imports {
				direct[imp] = true
			}
		}
	}
	for _, n := range g.nodes {
		if direct[n] && !n.own && !n.listed.Standard {
			if err := g.readExports(n); err != nil {
				return err
			}
		}
	}
	for _, n := range g.nodes {
		if !n.own && !n.listed.Standard {
			n.pkg.Types = g.exports.imports[n.pkg.PkgPath]
			if n.pkg.Types == nil && len(n.pkg.GoFiles) == 0 {
				n.pkg.Types = types.NewPackage(n.pkg.PkgPath, n.pkg.Name) // no files: empty, as from its declarations
				n.pkg.Types.MarkComplete()
			}
			n.illTyped = len(n.pkg.Errors) > 0
		}
	}
	return nil
}

// forgetModules drops the module dependencies' types, read from export
// data that turned out not to serve, before they are typed another way.
func (g *graph) forgetModules() {
	g.exports = nil
	for _, n := range g.nodes {
		if isModule(n) {
			n.pkg.Types, n.illTyped = nil, false
		}
	}
}

// readExports reads the export data of a module dependency.
func (g *graph) readExports(n *node) error {
	path := n.pkg.PkgPath
	pkg, err := readExportData(g.fset, g.exports.imports, path, g.exports.files[path])
	if err != nil {
		return err
	}
	g.exports.read[path] = true
	n.pkg.Types = pkg
	return nil
}

// readExportData reads the export data of the package at path from file.
func readExportData(fset *token.FileSet, imports map[string]*types.Package, path, file string) (*types.Package, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := exportSection(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	pkg, err := gcexportdata.Read(bytes.NewReader(data), fset, imports, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return pkg, nil
}

// exportSection is the export data in a file `go list -export` names: the
// whole file when it is the export tool's output (Go 1.28 on), else the
// export section of the compiler's archive, which gcexportdata.Read does
// not read itself. The archive is the ar format the go command writes: a
// "!<arch>\n" magic, then members, each behind a 60-byte header whose
// name is its first 16 bytes and whose decimal size is at bytes 48-58,
// padded to an even length. The member __.PKGDEF holds header lines, then
// "$$B\n", the export data, and "\n$$\n".
func exportSection(r *bufio.Reader) ([]byte, error) {
	const magic = "!<arch>\n"
	head, err := r.Peek(len(magic))
	if err != nil || string(head) != magic {
		if len(head) > 0 && (head[0] == 'i' || head[0] == 'u') {
			return io.ReadAll(r) // the export tool's output: all export data
		}
		return nil, errors.New("neither export data nor a compiler archive")
	}
	r.Discard(len(magic))
	var hdr [60]byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return nil, errors.New("a compiler archive without the export data member __.PKGDEF")
		}
		size, err := strconv.ParseInt(strings.TrimSpace(string(hdr[48:58])), 10, 64)
		if err != nil || size < 0 || string(hdr[58:60]) != "`\n" {
			return nil, fmt.Errorf("a damaged archive member header %q", hdr[:])
		}
		if strings.TrimSpace(string(hdr[:16])) != "__.PKGDEF" {
			if _, err := r.Discard(int(size + size%2)); err != nil {
				return nil, errors.New("a truncated compiler archive")
			}
			continue
		}
		member := make([]byte, size)
		if _, err := io.ReadFull(r, member); err != nil {
			return nil, errors.New("a truncated export data member")
		}
		const start, end = "\n$$B\n", "\n$$\n"
		i := bytes.Index(member, []byte(start))
		if i < 0 || !bytes.HasSuffix(member, []byte(end)) || i+len(start) > len(member)-len(end) {
			return nil, errors.New("an export data member without its $$B … $$ markers")
		}
		return member[i+len(start) : len(member)-len(end)], nil
	}
}

// effort is the time the workers spent parsing and type-checking, summed
// over them (nanoseconds).
type effort struct{ parse, check atomic.Int64 }

func (e *effort) String() string {
	return fmt.Sprintf("parse %.2f s, type-check %.2f s, summed over %d workers",
		time.Duration(e.parse.Load()).Seconds(), time.Duration(e.check.Load()).Seconds(), runtime.GOMAXPROCS(0))
}

// checkDeclarations types the dependencies selected from their
// declarations: each file parsed without object resolution, its function
// bodies (dropBody) and its variables' data dropped at once, the package
// checked with no type information kept, and its syntax let go. Only the
// *types.Package stays.
func (g *graph) checkDeclarations(ctx context.Context, selected func(*node) bool, e *effort) error {
	return g.inOrder(ctx, selected, func(n *node) { g.typeDeclarations(n, e) })
}

// typeDeclarations types one package from its declarations
// (checkDeclarations).
func (g *graph) typeDeclarations(n *node, e *effort) {
	if n.pkg.PkgPath == "unsafe" {
		n.pkg.Types = types.Unsafe
		return
	}
	start := time.Now()
	var files []*ast.File
	for _, name := range n.pkg.GoFiles {
		f, err := parser.ParseFile(g.fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			n.illTyped = true
		}
		if f == nil {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				dropBody(d)
			case *ast.GenDecl:
				dropVarData(d)
			}
		}
		files = append(files, f)
	}
	e.parse.Add(int64(time.Since(start)))
	start = time.Now()
	cfg := g.config(n, func(error) { n.illTyped = true })
	cfg.IgnoreFuncBodies = true
	n.pkg.Types = types.NewPackage(n.pkg.PkgPath, n.pkg.Name)
	_ = types.NewChecker(cfg, g.fset, n.pkg.Types, nil).Files(files)
	n.illTyped = n.illTyped || len(n.pkg.Errors) > 0 || importsIllTyped(n)
	e.check.Add(int64(time.Since(start)))
}

// checkOwn types the tree's own packages in full from the syntax parsed in
// their GoFiles' order (syntax), keeping the syntax and the type
// information, and records their errors as go/packages does.
// A package a module dependency imports was typed with the dependencies
// (checkMixed) and is not typed again.
func (g *graph) checkOwn(ctx context.Context, syntax map[*node][]*ast.File) error {
	return g.inOrder(ctx, func(n *node) bool { return n.own && n.pkg.Types == nil }, func(n *node) { g.typeOwn(n, syntax[n]) })
}

// typeOwn types one own package in full from its syntax (checkOwn).
func (g *graph) typeOwn(n *node, syntax []*ast.File) {
	p := n.pkg
	p.Syntax = syntax
	p.TypesInfo = &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	p.TypesSizes = g.sizes
	p.Types = types.NewPackage(p.PkgPath, p.Name)
	cfg := g.config(n, func(err error) {
		if te, ok := err.(types.Error); ok {
			p.TypeErrors = append(p.TypeErrors, te)
			p.Errors = append(p.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
			return
		}
		p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
	})
	err := types.NewChecker(cfg, g.fset, p.Types, p.TypesInfo).Files(p.Syntax)
	if err != nil && len(p.Errors) == 0 {
		p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
	}
	p.IllTyped = len(p.Errors) > 0 || importsIllTyped(n)
	n.illTyped = p.IllTyped
}

// ownUnderModules returns the own packages that a module dependency
// imports, directly or through other packages (the tree's API module
// replaced by a local path, imported by the tree's runtime library).
func (g *graph) ownUnderModules() map[*node]bool {
	under := map[*node]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		for _, imp := range n.imports {
			if imp.own && !under[imp] {
				under[imp] = true
				walk(imp)
			}
		}
	}
	for _, n := range g.nodes {
		if isModule(n) {
			walk(n)
		}
	}
	return under
}

// checkMixed types the module dependencies from their declarations and
// the own packages they import (under) in full, in one dependency order,
// so that a dependency sees the tree's own types and not a copy.
func (g *graph) checkMixed(ctx context.Context, under map[*node]bool, syntax map[*node][]*ast.File, e *effort) error {
	return g.inOrder(ctx, func(n *node) bool { return isModule(n) || under[n] }, func(n *node) {
		if n.own {
			g.typeOwn(n, syntax[n])
			return
		}
		g.typeDeclarations(n, e)
	})
}

// importsIllTyped reports whether a package n imports holds errors.
func importsIllTyped(n *node) bool {
	for _, imp := range n.imports {
		if imp.illTyped {
			return true
		}
	}
	return false
}

// config is the type checker's configuration for n: its imports resolved
// to the packages already typed, its module's language version, and the
// error handler onError.
func (g *graph) config(n *node, onError func(error)) *types.Config {
	cfg := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			p := n.pkg.Imports[path]
			if err := n.importErrors[path]; p == nil && err != nil {
				return nil, err
			}
			if p == nil || p.Types == nil {
				return nil, fmt.Errorf("no metadata for %s", path)
			}
			return p.Types, nil
		}),
		Error: onError,
		Sizes: g.sizes,
	}
	if m := n.pkg.Module; m != nil && m.GoVersion != "" {
		cfg.GoVersion = "go" + m.GoVersion
	}
	return cfg
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// inOrder runs do on every node selected, in parallel on as many workers as
// there are processors, each once the nodes it imports are done. A
// cancelled ctx stops it at the next package.
func (g *graph) inOrder(ctx context.Context, selected func(*node) bool, do func(*node)) error {
	pending := map[*node]int{}
	importedBy := map[*node][]*node{}
	var ready []*node
	for _, n := range g.nodes {
		if !selected(n) {
			continue
		}
		for _, imp := range n.imports {
			if selected(imp) {
				pending[n]++
				importedBy[imp] = append(importedBy[imp], n)
			}
		}
		if pending[n] == 0 {
			ready = append(ready, n)
		}
	}
	total := 0
	for _, n := range g.nodes {
		if selected(n) {
			total++
		}
	}
	work := make(chan *node, total)
	for _, n := range ready {
		work <- n
	}
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	finished := make(chan struct{})
	if total == 0 {
		close(finished)
	}
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-finished:
					return
				case n := <-work:
					if ctx.Err() == nil {
						do(n)
					}
					mu.Lock()
					done++
					for _, up := range importedBy[n] {
						if pending[up]--; pending[up] == 0 {
							work <- up
						}
					}
					if done == total {
						close(finished)
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// parseOwn parses the own packages' files, one after the other in the
// order go list gives (so that positions do not depend on scheduling), and
// returns their syntax by package with the parse errors recorded.
func (t *Tree) parseOwn(g *graph) map[*node][]*ast.File {
	syntax := map[*node][]*ast.File{}
	for _, n := range g.nodes {
		if !n.own {
			continue
		}
		var files []*ast.File
		for _, name := range n.pkg.GoFiles {
			src, err := os.ReadFile(name)
			if err != nil {
				n.pkg.Errors = append(n.pkg.Errors, packages.Error{Pos: name + ":1", Msg: err.Error(), Kind: packages.ParseError})
				continue
			}
			f, err := t.parseFile(g.fset, name, src)
			if el, ok := err.(scanner.ErrorList); ok {
				for _, e := range el {
					n.pkg.Errors = append(n.pkg.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
				}
			} else if err != nil {
				n.pkg.Errors = append(n.pkg.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.ParseError})
			}
			if f != nil {
				files = append(files, f)
			}
		}
		syntax[n] = files
	}
	return syntax
}
