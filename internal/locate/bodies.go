package locate

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/desugar"
)

// The bodies the flows read: the tree's own functions (with the type
// information the load recorded, partial when they hold type errors), and
// dependency functions read on demand. A dependency is loaded with its
// declarations only; when the reconcile path hands one of its functions
// something that holds the primary object's conditions, that function's
// package is parsed in full from the module cache and type-checked against
// the packages already loaded (so its calls and constants resolve to the
// same objects as the tree's), once per package.

// ownBody is the body of a function of the tree, or nil.
func (a *analysis) ownBody(fn *types.Func) *flowBody {
	if b, ok := a.bodies[fn]; ok {
		return b
	}
	var b *flowBody
	if fd := a.decls[fn]; fd != nil && fd.Body != nil {
		if info := a.infoAt(fd.Pos()); info != nil {
			b = &flowBody{decl: fd, info: info, params: paramsOf(fn), partial: a.prog.Unanalysed[fn]}
		}
	}
	a.bodies[fn] = b
	return b
}

// varLitBody is the body of a function literal that a package-level
// variable holds (var handle = func(…) {…}), or of a closure within one:
// the literal's own, read as a declaration's, since no declaration holds
// it (its SSA parent is the package initializer). nil for any other
// function.
func (a *analysis) varLitBody(fn *ssa.Function) *flowBody {
	for fn.Parent() != nil && fn.Parent().Parent() != nil {
		fn = fn.Parent()
	}
	lit, ok := fn.Syntax().(*ast.FuncLit)
	if !ok || fn.Parent() == nil || fn.Parent().Object() != nil || !a.prog.Own[fn] {
		return nil
	}
	if b, ok := a.varLits[fn]; ok {
		return b
	}
	var b *flowBody
	if info := a.infoAt(lit.Pos()); info != nil {
		var params []*types.Var
		for i := range fn.Signature.Params().Len() {
			params = append(params, fn.Signature.Params().At(i))
		}
		decl := &ast.FuncDecl{Name: &ast.Ident{NamePos: lit.Pos(), Name: fn.Name()}, Type: lit.Type, Body: lit.Body}
		b = &flowBody{decl: decl, info: info, params: params}
	}
	a.varLits[fn] = b
	return b
}

// fileOwn reports whether pos lies in a file of the tree's own packages.
func (a *analysis) fileOwn(pos token.Pos) bool {
	_, own := a.fileAt(pos)
	return own
}

// paramsOf lists a function's receiver and parameters.
func paramsOf(fn *types.Func) []*types.Var {
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return nil
	}
	var out []*types.Var
	if sig.Recv() != nil {
		out = append(out, sig.Recv())
	}
	for i := 0; i < sig.Params().Len(); i++ {
		out = append(out, sig.Params().At(i))
	}
	return out
}

// depPackage is a dependency package read in full: its declarations by
// qualified name, and its type information.
type depPackage struct {
	funcs map[string]*flowBody
	// inits are the package-level variables' initialisers, by name.
	inits map[string]ast.Expr
	// aliases are the package's variables initialised to a function of
	// another package (var CreateOrUpdate = controllerutil.CreateOrUpdate),
	// by name.
	aliases map[string]*types.Func
}

// bodyCalls visits every call in a body read on demand, closures
// included, resolved against the body's own type information.
func (a *analysis) bodyCalls(b *flowBody, visit func(call)) {
	ast.Inspect(b.decl.Body, func(n ast.Node) bool {
		if e, ok := n.(*ast.CallExpr); ok {
			visit(a.makeCall(b.info, e, nil))
		}
		return true
	})
}

// depBody is the body of a dependency's function, read on demand, or nil
// when its package cannot be read (the problem is warned once).
func (a *analysis) depBody(fn *types.Func) *flowBody {
	if fn.Pkg() == nil {
		return nil
	}
	dp := a.depPackage(fn.Pkg().Path())
	if dp == nil {
		return nil
	}
	return dp.funcs[funcKey(fn)]
}

func (a *analysis) depPackage(path string) *depPackage {
	if dp, ok := a.deps[path]; ok {
		return dp
	}
	a.deps[path] = nil
	var lp *packages.Package
	for _, p := range a.tree.All {
		if p.PkgPath == path {
			lp = p
			break
		}
	}
	if lp == nil || lp.Types == nil {
		return nil
	}
	names := lp.CompiledGoFiles
	if len(names) == 0 {
		names = lp.GoFiles // cgo is off: the files the build compiles
	}
	var files []*ast.File
	for _, name := range names {
		f, err := parser.ParseFile(a.tree.Fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			a.warn(fmt.Sprintf("%s: not read for its condition helpers: %v", path, err))
			return nil
		}
		files = append(files, f)
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Instances:  map[*ast.Ident]types.Instance{},
	}
	conf := types.Config{
		Importer: importerFunc(func(imp string) (*types.Package, error) {
			if p := lp.Imports[imp]; p != nil {
				if t := a.tree.Types(p.PkgPath); t != nil { // complete, even where export data gave only what the tree reaches
					return t, nil
				}
			}
			return nil, fmt.Errorf("%s is not loaded", imp)
		}),
		// A dependency that does not check in full still has most of its
		// types recorded; its bodies are read as partial then.
		Error: func(error) {},
	}
	_, err := conf.Check(path, a.tree.Fset, files, info)
	desugar.Files(files, info)
	dp := &depPackage{funcs: map[string]*flowBody{}, inits: map[string]ast.Expr{}, aliases: map[string]*types.Func{}}
	for _, f := range files {
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				aliasesIn(info, gd, dp.aliases)
				initsIn(gd, dp.inits)
			}
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			dp.funcs[funcKey(obj)] = &flowBody{decl: fd, info: info, params: paramsOf(obj), partial: err != nil, dep: true}
		}
	}
	a.deps[path] = dp
	return dp
}

// aliasesIn records the variables of a declaration initialised to a
// function of another package.
func aliasesIn(info *types.Info, gd *ast.GenDecl, out map[string]*types.Func) {
	for _, spec := range gd.Specs {
		vs, ok := spec.(*ast.ValueSpec)
		if !ok || len(vs.Names) != len(vs.Values) {
			continue
		}
		for i, name := range vs.Names {
			sel, ok := ast.Unparen(vs.Values[i]).(*ast.SelectorExpr)
			if !ok {
				continue
			}
			if fn, ok := info.Uses[sel.Sel].(*types.Func); ok {
				out[name.Name] = fn
			}
		}
	}
}

// initsIn records the initialisers of a declaration's variables.
func initsIn(gd *ast.GenDecl, out map[string]ast.Expr) {
	for _, spec := range gd.Specs {
		if vs, ok := spec.(*ast.ValueSpec); ok && len(vs.Names) == len(vs.Values) {
			for i, name := range vs.Names {
				out[name.Name] = vs.Values[i]
			}
		}
	}
}

// aliasedFunc is the library function a dependency's package-level
// variable is initialised to, when it is one; nil otherwise.
func (a *analysis) aliasedFunc(v *types.Var) *types.Func {
	if v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	for _, p := range a.tree.Own {
		if p.PkgPath == v.Pkg().Path() {
			return nil
		}
	}
	dp := a.depPackage(v.Pkg().Path())
	if dp == nil {
		return nil
	}
	return dp.aliases[v.Name()]
}

// importerFunc serves imports from the packages already loaded.
type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
