package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// Finalizers changed in dependency bodies: an organisation's own helper
// module (or a patched vendored library) that the reconcile path hands
// the primary object may add, remove or test its finalizers there. Those
// bodies are read on demand (bodies.go), and what they do is cited at the
// tree's call.

// depFinOps are the finalizer changes and tests made in dependency bodies
// on the primary object a call of the reconcile path hands them, cited at
// that call; unsettled names the calls whose bodies could not be read.
type depFinOps struct {
	adds, removes, tests []finOp
	unsettled            []string
}

// depFinOp is one finalizer change or test in a dependency body: its role
// and the parameter holding the finalizer (-1: not a parameter).
type depFinOp struct {
	role  Role
	param int
}

// depFinalizerDepth bounds how deep dependency bodies handing the object
// on are followed.
const depFinalizerDepth = 3

// depFinalizerOps reads the bodies of the dependency functions (of
// libraries the knowledge table does not cover) that calls in fns hand
// an object of the primary type, as a parameter that is not an empty
// interface, for changes and tests of its finalizers.
func (a *analysis) depFinalizerOps(fns []*ssa.Function, kind *types.Named) depFinOps {
	var out depFinOps
	if kind == nil {
		return out
	}
	for _, fn := range fns {
		info := a.infoAt(posOf(fn))
		if info == nil {
			continue
		}
		for _, c := range a.callsIn(fn) {
			if c.known || c.fn == nil || len(c.own) > 0 || a.decls[c.fn.Origin()] != nil || c.fn.Pkg() == nil {
				continue
			}
			idx := objectParam(info, c.fn, c.expr.Args, kind)
			if idx < 0 {
				continue
			}
			if isInterfaceMethod(c.fn) && a.fileOwn(c.fn.Pos()) {
				// A method of the tree's own interface that the call graph
				// resolves to no implementation: where the search ends,
				// unless every implementation in its package is promoted
				// from a library the knowledge table covers, or it is a
				// generated typed client's write of the object it is handed
				// (Create, Update, Delete: the object's finalizers are what
				// the search has read). A patch or an apply sends data the
				// search may not have read, which may change them.
				if v, write := clientsetVerb(c.fn.Type().(*types.Signature)); write && v != verbPatch && v != verbApply || a.coveredImplementations(c.fn) {
					continue
				}
				s := a.site(c.expr.Lparen)
				out.unsettled = append(out.unsettled, fmt.Sprintf("%s, handed the primary object at %s:%d, is a method of the tree's interface that the call graph resolves to no implementation", cite.ObjectName(c.fn), s.File, s.Line))
				continue
			}
			if !a.unknownLibrary(c.fn.Pkg().Path()) {
				continue
			}
			var ops []depFinOp
			impls := depImplementations(c.fn)
			if len(impls) == 0 {
				s := a.site(c.expr.Lparen)
				out.unsettled = append(out.unsettled, fmt.Sprintf("%s, handed the primary object at %s:%d, is an interface method with no implementation in its package", cite.ObjectName(c.fn), s.File, s.Line))
			}
			for _, impl := range impls {
				o, unsettled := a.depFinalizerIn(impl, c.expr, idx, 0, map[*types.Func]bool{})
				if unsettled != "" {
					out.unsettled = append(out.unsettled, unsettled)
				}
				ops = append(ops, o...)
			}
			for _, d := range ops {
				op := finOp{pos: c.expr.Lparen, info: info, in: fn}
				if d.param >= 0 {
					op.value = c.arg(d.param)
				}
				switch d.role {
				case RoleFinalizerAdd:
					out.adds = append(out.adds, op)
				case RoleFinalizerRemove:
					out.removes = append(out.removes, op)
				case RoleFinalizerHas:
					out.tests = append(out.tests, op)
				}
			}
		}
	}
	return out
}

// unknownLibrary reports whether a dependency package is one whose
// finalizer functions the knowledge table does not already name: not the
// standard library, and not a library of knowledgeChecked unless the tree
// vendors it (a patched copy may do more than the library does).
func (a *analysis) unknownLibrary(path string) bool {
	for _, p := range a.tree.All {
		if p.PkgPath != path || p.Module == nil {
			continue
		}
		if _, known := knowledgeChecked[p.Module.Path]; !known {
			return true
		}
		return len(p.GoFiles) > 0 && strings.HasPrefix(p.GoFiles[0], filepath.Join(a.tree.Dir, "vendor")+string(filepath.Separator))
	}
	return false
}

// objectParam is the index of the first argument that holds the primary
// object's finalizers, handed to a parameter that is not an empty
// interface (a logger's key-value pairs), or -1: an object of the primary
// type (or a pointer to one), a type of the tree's that embeds it (a
// wrapper), or the object's metadata (meta.AddFinalizer(&obj.ObjectMeta,
// f), the wrapper's too).
func objectParam(info *types.Info, fn *types.Func, args []ast.Expr, kind *types.Named) int {
	params := fn.Type().(*types.Signature).Params()
	for i, arg := range args {
		if params.Len() == 0 || !embedsKind(info.TypeOf(arg), kind, 0) && !metaOfPrimary(info, arg, kind) {
			continue
		}
		pt := params.At(min(i, params.Len()-1)).Type()
		if i >= params.Len()-1 && fn.Type().(*types.Signature).Variadic() {
			if sl, ok := pt.(*types.Slice); ok {
				pt = sl.Elem()
			}
		}
		if it, ok := pt.Underlying().(*types.Interface); ok && it.Empty() {
			continue
		}
		return i
	}
	return -1
}

// embedsKind reports whether t is the primary type, a pointer to it, or a
// struct that embeds one of those (a wrapper: type User struct{
// *v1.MysqlUser }), through at most two embeddings.
func embedsKind(t types.Type, kind *types.Named, depth int) bool {
	n, ok := deref(t).(*types.Named)
	if !ok {
		return false
	}
	if types.Identical(n, kind) {
		return true
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok || depth >= 2 {
		return false
	}
	for i := range st.NumFields() {
		if f := st.Field(i); f.Embedded() && embedsKind(f.Type(), kind, depth+1) {
			return true
		}
	}
	return false
}

// metaOfPrimary reports whether e is the metadata of an object embedsKind
// holds: obj.ObjectMeta or &obj.ObjectMeta, the field promoted or named.
func metaOfPrimary(info *types.Info, e ast.Expr, kind *types.Named) bool {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || typeKey(info.TypeOf(sel)) != typeObjectMeta {
		return false
	}
	return embedsKind(info.TypeOf(sel.X), kind, 0)
}

// depFinalizerIn reads a dependency function handed the object as its
// parameter obj, through the functions of its module it hands it on to.
func (a *analysis) depFinalizerIn(fn *types.Func, at *ast.CallExpr, obj, depth int, seen map[*types.Func]bool) ([]depFinOp, string) {
	s := a.site(at.Lparen)
	if seen[fn.Origin()] {
		return nil, ""
	}
	seen[fn.Origin()] = true
	if depth >= depFinalizerDepth {
		return nil, fmt.Sprintf("the primary object is handed on further than %d dependency functions deep, to %s at %s:%d", depFinalizerDepth, cite.ObjectName(fn), s.File, s.Line)
	}
	b := a.depBody(fn.Origin())
	if b == nil || b.decl.Body == nil {
		return nil, fmt.Sprintf("%s, handed the primary object at %s:%d, has a body ctrlcmp could not read", cite.ObjectName(fn), s.File, s.Line)
	}
	params := b.params
	if b.decl.Recv != nil && len(params) > 0 {
		params = params[1:]
	}
	if obj >= len(params) {
		return nil, ""
	}
	vars := map[*types.Var]bool{params[obj]: true}
	var ops []depFinOp
	var unsettled string
	ast.Inspect(b.decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 && fieldOf(b.info, n.Lhs[0]) == fieldFinalizers && mentions(b.info, n.Lhs[0], vars) {
				if v, ok := appended(b.info, n.Rhs[0]); ok {
					ops = append(ops, depFinOp{RoleFinalizerAdd, b.argParam(v)})
				} else {
					ops = append(ops, depFinOp{RoleFinalizerRemove, -1})
				}
			}
		case *ast.CallExpr:
			callee, _ := typeutil.Callee(b.info, n).(*types.Func)
			if callee == nil {
				return true
			}
			if f, known := knowledge[funcKey(callee)]; known {
				holder := (call{expr: n}).arg(f.Obj)
				if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && f.Obj < 0 {
					holder = sel.X
				}
				if holder == nil || !mentions(b.info, holder, vars) {
					return true
				}
				arg := (call{expr: n}).arg(f.Arg)
				switch f.Role {
				case RoleFinalizerAdd, RoleFinalizerRemove, RoleFinalizerHas:
					ops = append(ops, depFinOp{f.Role, b.argParam(arg)})
				case RoleSetFinalizers:
					if v, ok := appended(b.info, arg); ok {
						ops = append(ops, depFinOp{RoleFinalizerAdd, b.argParam(v)})
					} else {
						ops = append(ops, depFinOp{RoleFinalizerRemove, -1})
					}
				}
				return true
			}
			if callee.Pkg() == nil || isInterfaceMethod(callee) || moduleOfPkg(a, callee.Pkg().Path()) != moduleOfPkg(a, fn.Pkg().Path()) {
				return true
			}
			for i, arg := range n.Args {
				if !mentions(b.info, arg, vars) {
					continue
				}
				sub, u := a.depFinalizerIn(callee, n, i, depth+1, seen)
				if u != "" && unsettled == "" {
					unsettled = u
				}
				for _, d := range sub {
					// The finalizer, an argument of n, may be a parameter here.
					if d.param >= 0 && d.param < len(n.Args) {
						d.param = b.argParam(n.Args[d.param])
					}
					ops = append(ops, d)
				}
			}
		}
		return true
	})
	return ops, unsettled
}

// depImplementations are the functions a call of a dependency function may
// run: the function itself, or for a method of one of the library's
// interfaces (a finalizer object its constructor returns) the methods of
// that name of the library package's types that implement the interface.
func depImplementations(fn *types.Func) []*types.Func {
	if !isInterfaceMethod(fn) {
		return []*types.Func{fn}
	}
	iface, ok := fn.Type().(*types.Signature).Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var out []*types.Func
	scope := fn.Pkg().Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		if n, ok := tn.Type().(*types.Named); !ok || n.TypeParams().Len() > 0 {
			continue
		}
		ptr := types.NewPointer(tn.Type())
		if !types.Implements(ptr, iface) {
			continue
		}
		if sel := types.NewMethodSet(ptr).Lookup(fn.Pkg(), fn.Name()); sel != nil {
			if m, ok := sel.Obj().(*types.Func); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

// coveredImplementations reports whether an interface method has
// implementations in its package and all of them are promoted from
// libraries the knowledge table covers.
func (a *analysis) coveredImplementations(fn *types.Func) bool {
	impls := depImplementations(fn)
	for _, impl := range impls {
		if impl.Pkg() == nil || a.fileOwn(impl.Pos()) || a.unknownLibrary(impl.Pkg().Path()) {
			return false
		}
	}
	return len(impls) > 0
}
