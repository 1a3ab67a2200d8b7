// Package callgraph builds the SSA form of a loaded tree and the call graph of
// its own code, and answers reachability questions from an entry function:
// which functions it reaches, and the shortest chain of calls that explains
// why one is reached.
//
// Dependencies are created as SSA packages from their types alone (their
// bodies were never type-checked), so calls into them stay visible as call
// sites with known callees while the graph itself only spans the tree's own
// functions. That slice is small, so the precise algorithm (VTA, seeded with
// its own class-hierarchy graph) runs on it directly.
package callgraph

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// Program is the SSA program of a tree with the call graph of its own code.
type Program struct {
	SSA   *ssa.Program
	graph *callgraph.Graph
	// Own holds the functions with bodies: the tree's own code.
	Own map[*ssa.Function]bool
	// Warnings name own packages whose SSA could not be built, and the
	// functions left out because of type errors.
	Warnings []string
	// Unanalysed are the own functions whose bodies were left out because
	// they hold type errors.
	Unanalysed map[*types.Func]bool
	// confined are the closures that never outlive the call of the
	// function making them (confined.go): no call edge enters them.
	confined map[*ssa.Function]bool
	// promoted are the synthetic methods of the own types that wrap
	// another method (promoted through an embedded field): the graph
	// spans them, so that an interface call reaches the wrapped method.
	promoted []*ssa.Function
	// makers are where the own types' interface values are made
	// (makers.go).
	makers makers
}

// Build creates SSA for every package in all (types only) and own (with
// bodies), then the call graph of the own functions.
func Build(all, own []*packages.Package) *Program {
	pr := SSA(all, own)
	pr.Graph()
	return pr
}

// SSA creates the SSA program, every package in all from its types alone
// and the own ones with their bodies built; Graph then adds the call graph.
func SSA(all, own []*packages.Package) *Program {
	prog := ssa.NewProgram(all[0].Fset, ssa.InstantiateGenerics)
	isOwn := map[*packages.Package]bool{}
	for _, p := range own {
		isOwn[p] = true
	}
	var ownPkgs, illTyped []*ssa.Package
	var warnings []string
	unanalysed := map[*types.Func]bool{}
	for _, p := range all {
		if p.Types == nil {
			continue
		}
		if isOwn[p] && p.TypesInfo != nil {
			files, skipped := withoutIllTyped(p, unanalysed)
			info, vars := withoutIllTypedInits(p)
			skipped = append(skipped, vars...)
			sp := prog.CreatePackage(p.Types, files, info, true)
			if len(skipped) > 0 {
				warnings = append(warnings, fmt.Sprintf("%s: not analysed, because of type errors: %s", p.PkgPath, strings.Join(skipped, ", ")))
			}
			if len(skipped) > 0 || len(p.Errors) > 0 {
				illTyped = append(illTyped, sp)
			} else {
				ownPkgs = append(ownPkgs, sp)
			}
		} else {
			prog.CreatePackage(p.Types, nil, nil, true)
		}
	}
	// Packages reached only through types (never listed), and the stand-ins
	// for imports that failed to load (a module the proxy does not serve),
	// still need an SSA package, or building a reference to them panics.
	for _, p := range all {
		if p.Types == nil {
			continue
		}
		for _, imp := range p.Types.Imports() {
			// By identity: an import that failed to load is a stand-in
			// package of its own, beside any other of the same path.
			if prog.Package(imp) == nil {
				prog.CreatePackage(imp, nil, nil, prog.ImportedPackage(imp.Path()) == nil)
			}
		}
	}
	pr := &Program{SSA: prog, Own: map[*ssa.Function]bool{}, Warnings: warnings, Unanalysed: unanalysed}
	// The packages holding type errors are built last: a build the SSA
	// builder panics in leaves unfinished the functions it was making for
	// other packages, and the packages built before it have theirs.
	var b packageBuilder
	for _, sp := range append(ownPkgs, illTyped...) {
		if err := b.build(sp); err != nil {
			pr.Warnings = append(pr.Warnings, err.Error())
			continue
		}
		pr.collect(sp)
	}
	pr.addInstances()
	return pr
}

// Graph builds the call graph of the own functions (VTA).
func (pr *Program) Graph() {
	pr.graph = vta.CallGraph(pr.withWrappers(), nil)
	pr.graph.DeleteSyntheticNodes()
	pr.dropTestDoubles()
	pr.confined = pr.confinedClosures()
}

// withoutIllTyped returns the files of a package with the body of every
// function holding a type error dropped (the SSA builder cannot build
// ill-typed code), and the names of those functions. The package's own
// syntax is not modified: the files and declarations are copies.
func withoutIllTyped(p *packages.Package, unanalysed map[*types.Func]bool) ([]*ast.File, []string) {
	errs := errorPositions(p)
	if len(errs) == 0 && !p.IllTyped {
		return p.Syntax, nil
	}
	var skipped []string
	files := make([]*ast.File, len(p.Syntax))
	for i, f := range p.Syntax {
		cp := *f
		cp.Decls = append([]ast.Decl(nil), f.Decls...)
		for j, d := range cp.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !holdsError(fd, errs) && !holdsUntyped(fd.Body, p.TypesInfo) {
				continue
			}
			stub := *fd
			stub.Body = nil
			cp.Decls[j] = &stub
			skipped = append(skipped, cite.FuncName(fd))
			if obj, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				unanalysed[obj] = true
			}
		}
		files[i] = &cp
	}
	return files, skipped
}

// withoutIllTypedInits returns the package's type information with the
// package-level variable initialisers that hold a type error left out of
// its initialisation order (the SSA builder builds the package's init from
// that order, and panics on ill-typed code), and the names of those
// variables. The package's own information is not modified: it is a copy.
func withoutIllTypedInits(p *packages.Package) (*types.Info, []string) {
	errs := errorPositions(p)
	var kept []*types.Initializer
	var names []string
	for _, in := range p.TypesInfo.InitOrder {
		if !holdsError(in.Rhs, errs) && !holdsUntyped(in.Rhs, p.TypesInfo) {
			kept = append(kept, in)
			continue
		}
		for _, v := range in.Lhs {
			names = append(names, "var "+v.Name())
		}
	}
	if len(names) == 0 {
		return p.TypesInfo, nil
	}
	info := *p.TypesInfo
	info.InitOrder = kept
	return &info, names
}

// holdsError reports whether a type error lies inside n.
func holdsError(n ast.Node, errs []token.Pos) bool {
	for _, pos := range errs {
		if n.Pos() <= pos && pos < n.End() {
			return true
		}
	}
	return false
}

// holdsUntyped reports whether n holds an expression the type checker gave
// no type, or the invalid one, or a struct literal key naming no field
// (code using a package that failed to import reports no error of its
// own). The SSA builder panics on such code, and a panic part way
// through a build leaves the functions it was building unfinished: a
// later package that waits for one of them waits for ever.
func holdsUntyped(n ast.Node, info *types.Info) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if found {
			return false // (a later sibling must not clear it)
		}
		switch e := n.(type) {
		case *ast.KeyValueExpr:
			// A field name no field of the literal's type has (the type
			// is invalid): no object, no type.
			if id, ok := e.Key.(*ast.Ident); ok && info.ObjectOf(id) == nil && info.TypeOf(id) == nil {
				found = true
			}
		case *ast.TypeAssertExpr:
			// x.(type), a type switch's guard, has no type of its own.
			found = e.Type != nil && untyped(info, e)
		case *ast.CallExpr, *ast.SelectorExpr, *ast.CompositeLit, *ast.IndexExpr, *ast.IndexListExpr, *ast.SliceExpr,
			*ast.UnaryExpr, *ast.BinaryExpr, *ast.StarExpr, *ast.ParenExpr, *ast.FuncLit:
			found = untyped(info, e.(ast.Expr))
		}
		return !found
	})
	return found
}

// untyped reports whether the type checker recorded no type for e, or the
// invalid one, or a named type whose underlying type is invalid (a type
// of the tree's declared as one from a package that failed to import).
func untyped(info *types.Info, e ast.Expr) bool {
	t := info.TypeOf(e)
	return t == nil || t == types.Typ[types.Invalid] || t.Underlying() == types.Typ[types.Invalid]
}

// errorPositions are the positions of a package's type errors (go/packages
// reports a failed import as an error, "file:line:col: could not import").
func errorPositions(p *packages.Package) []token.Pos {
	var out []token.Pos
	for _, e := range p.TypeErrors {
		out = append(out, e.Pos)
	}
	for _, e := range p.Errors {
		if e.Kind != packages.TypeError {
			continue
		}
		parts := strings.Split(e.Pos, ":")
		if len(parts) < 3 {
			continue
		}
		line, err1 := strconv.Atoi(parts[len(parts)-2])
		col, err2 := strconv.Atoi(parts[len(parts)-1])
		file := strings.Join(parts[:len(parts)-2], ":")
		if err1 != nil || err2 != nil {
			continue
		}
		for _, f := range p.Syntax {
			if tf := p.Fset.File(f.Pos()); tf != nil && tf.Name() == file && line >= 1 && line <= tf.LineCount() {
				out = append(out, tf.LineStart(line)+token.Pos(col-1))
			}
		}
	}
	return out
}

// collect records every function with a body declared in p: package
// functions, methods of its named types, and their closures.
func (pr *Program) collect(p *ssa.Package) {
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		if f == nil || pr.Own[f] || len(f.Blocks) == 0 {
			return
		}
		pr.Own[f] = true
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, m := range p.Members {
		switch m := m.(type) {
		case *ssa.Function:
			add(m)
		case *ssa.Type:
			named, ok := m.Type().(*types.Named)
			if !ok {
				continue
			}
			if named.TypeParams().Len() > 0 {
				// A generic type's methods, in their generic form; their
				// instances are added by addInstances.
				for i := 0; i < named.NumMethods(); i++ {
					add(pr.SSA.FuncValue(named.Method(i)))
				}
				continue
			}
			for _, t := range []types.Type{named, types.NewPointer(named)} {
				ms := pr.SSA.MethodSets.MethodSet(t)
				for i := 0; i < ms.Len(); i++ {
					fn := pr.SSA.MethodValue(ms.At(i))
					switch {
					case fn == nil:
					case fn.Pkg == p:
						add(fn)
					case fn.Synthetic != "":
						// A method promoted from an embedded field (or
						// a value method through a pointer): calls
						// through an interface the type is made into
						// run it, and it runs the method it wraps.
						pr.promoted = append(pr.promoted, fn)
					}
				}
			}
		}
	}
}

// addInstances adds to Own the instances of the tree's generic functions and
// of the methods of its generic types (ssa.InstantiateGenerics builds one
// body per instantiation, from the generic declaration's syntax): those
// the own code calls or names, and the methods of the instantiated types it
// turns into interfaces (a generic reconciler handed to the manager), until
// nothing new is found.
func (pr *Program) addInstances() {
	queue := make([]*ssa.Function, 0, len(pr.Own))
	for f := range pr.Own {
		queue = append(queue, f)
	}
	add := func(f *ssa.Function) {
		if f == nil || pr.Own[f] || len(f.Blocks) == 0 || !pr.ownOrigin(f) {
			return
		}
		pr.Own[f] = true
		queue = append(queue, f)
		for _, anon := range f.AnonFuncs {
			pr.Own[anon] = true
			queue = append(queue, anon)
		}
	}
	for len(queue) > 0 {
		f := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				var ops [8]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if op == nil {
						continue
					}
					if g, ok := (*op).(*ssa.Function); ok {
						add(g)
					}
				}
				if mi, ok := instr.(*ssa.MakeInterface); ok {
					for _, g := range pr.instanceMethods(mi.X.Type()) {
						add(g)
					}
				}
			}
		}
	}
}

// ownOrigin reports whether f is an instance of an own generic function
// (or a closure within one).
func (pr *Program) ownOrigin(f *ssa.Function) bool {
	o := f.Origin()
	return o != nil && o != f && pr.Own[o]
}

// instanceMethods returns the methods of an instantiated named type (or a
// pointer to one) of the tree.
func (pr *Program) instanceMethods(t types.Type) []*ssa.Function {
	named, ok := types.Unalias(t).(*types.Named)
	if p, isPtr := types.Unalias(t).(*types.Pointer); isPtr {
		named, ok = types.Unalias(p.Elem()).(*types.Named)
	}
	if !ok || named.TypeArgs().Len() == 0 {
		return nil
	}
	var out []*ssa.Function
	for _, mt := range []types.Type{named, types.NewPointer(named)} {
		ms := pr.SSA.MethodSets.MethodSet(mt)
		for i := 0; i < ms.Len(); i++ {
			if fn := pr.SSA.MethodValue(ms.At(i)); fn != nil {
				out = append(out, fn)
			}
		}
	}
	return out
}

// withWrappers returns the own functions plus the synthetic wrappers they
// make (bound method values such as c.syncFoo stored in a field, method
// expression thunks) and those of the methods their types promote, so that calls through them reach the wrapped method
// once the wrappers are removed from the graph.
func (pr *Program) withWrappers() map[*ssa.Function]bool {
	funcs := map[*ssa.Function]bool{}
	for _, w := range pr.promoted {
		funcs[w] = true
	}
	for f := range pr.Own {
		funcs[f] = true
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				var ops [8]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if op == nil {
						continue
					}
					if w, ok := (*op).(*ssa.Function); ok && w.Synthetic != "" {
						funcs[w] = true
					}
				}
			}
		}
	}
	return funcs
}

// Func returns the SSA function of a declared function or method, or nil.
func (pr *Program) Func(obj *types.Func) *ssa.Function {
	return pr.SSA.FuncValue(obj)
}
