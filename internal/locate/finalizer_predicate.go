package locate

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// A call of a boolean function read as a test of the object's deletion,
// from its body.

// deletionPredicate reads a call of a boolean function as a deletion test
// from its body: the tree's, or that of a library the knowledge table does
// not cover (the API module's methods). A method of an interface is read
// as the primary type's method of that name. A body that is one return is
// that return's test; otherwise the predicate holds when the object is
// being deleted (among other times, as an || does) when one of its returns
// yields a test that holds then, or yields anything once the deletion is
// established (after an early return when it is not, or in the branch
// taken when it is). One that only yields false then is no deletion test.
func (a *analysis) deletionPredicate(info *types.Info, e *ast.CallExpr, kind *types.Named, depth int) int {
	fn, ok := typeutil.Callee(info, e).(*types.Func)
	if !ok {
		return 0
	}
	if r := fn.Type().(*types.Signature).Results(); r.Len() != 1 || !isBool(r.At(0).Type()) {
		return 0
	}
	if isInterfaceMethod(fn) {
		if kind == nil {
			return 0
		}
		m, _, _ := types.LookupFieldOrMethod(types.NewPointer(kind), true, fn.Pkg(), fn.Name())
		if fn, ok = m.(*types.Func); !ok {
			return 0
		}
	}
	b := a.ownBody(fn.Origin())
	if b == nil && fn.Pkg() != nil && a.unknownLibrary(fn.Pkg().Path()) {
		b = a.depBody(fn.Origin())
	}
	if b == nil || b.decl == nil || b.decl.Body == nil {
		return 0
	}
	list := b.decl.Body.List
	if len(list) == 1 {
		if ret, ok := list[0].(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
			return a.deletionTestIn(b.info, ret.Results[0], kind, depth+1)
		}
	}
	w := predicateWalk{a: a, info: b.info, kind: kind, depth: depth + 1}
	w.stmts(list, 0)
	if w.positive == 0 {
		return 0
	}
	return 1
}

// walkedPredicate reports whether e calls a predicate deletionPredicate
// reads by walking its returns (a body of more than one return), not as
// one test.
func (a *analysis) walkedPredicate(info *types.Info, e ast.Expr) bool {
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(info, ce).(*types.Func)
	if !ok {
		return false
	}
	b := a.ownBody(fn.Origin())
	if b == nil && fn.Pkg() != nil && a.unknownLibrary(fn.Pkg().Path()) {
		b = a.depBody(fn.Origin())
	}
	if b == nil || b.decl == nil || b.decl.Body == nil {
		return false
	}
	list := b.decl.Body.List
	if ret, single := list[0].(*ast.ReturnStmt); len(list) == 1 && single && len(ret.Results) == 1 {
		return false
	}
	return true
}

// predicateWalk reads the returns of a predicate's body, each under what
// is known of the deletion where it stands (1: being deleted, -1: not,
// 0: unknown).
type predicateWalk struct {
	a     *analysis
	info  *types.Info
	kind  *types.Named
	depth int
	// positive counts the returns that yield true when the object is
	// being deleted.
	positive int
}

// stmts walks a statement list; an if whose body always returns
// establishes, for the statements after it, that its condition is false.
func (w *predicateWalk) stmts(list []ast.Stmt, guard int) {
	for _, s := range list {
		w.stmt(s, guard)
		if is, ok := s.(*ast.IfStmt); ok && is.Else == nil && guard == 0 && returns(is.Body) {
			guard = -w.a.deletionTestIn(w.info, is.Cond, w.kind, w.depth)
		}
	}
}

func (w *predicateWalk) stmt(s ast.Stmt, guard int) {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		if len(s.Results) != 1 {
			return
		}
		r := s.Results[0]
		if !isConstBool(w.info, r, false) && (guard == 1 || w.a.deletionTestIn(w.info, r, w.kind, w.depth) == 1) {
			w.positive++
		}
	case *ast.IfStmt:
		t := w.a.deletionTestIn(w.info, s.Cond, w.kind, w.depth)
		inner := guard
		if guard == 0 {
			inner = t
		}
		w.stmts(s.Body.List, inner)
		if s.Else != nil {
			inner = guard
			if guard == 0 {
				inner = -t
			}
			w.stmt(s.Else, inner)
		}
	case *ast.BlockStmt:
		w.stmts(s.List, guard)
	}
	// The returns inside other statements (a loop, a switch) are not read:
	// they add no evidence either way.
}
