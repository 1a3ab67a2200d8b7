package locate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// callVerdict reports whether a condition tests a verdict that a call of
// the tree's own code returned: a call handed two values or more, one of
// them an object other than the primary (handsLiveObject), whose callee
// may decide by a comparison (mayDecideByComparison). `changed, err :=
// needsPatch(live, patch); if !changed`, `updated, modified :=
// compare(required, existing); if !modified`, `res := strategy(funcs,
// live, config); if res.Result != Updated`. The callee may have compared
// desired with live state, and the test then decides on that
// comparison's outcome: a "none" cannot be claimed past it. A call handed
// the primary and a client only (`written, err := ensure(ctx, c, obj,
// finalizer)`) has no live object to compare. Tested are a bool (the
// local, a bool field of it, or the call itself: `if !needsScale(&dep,
// want)`) and a value compared with a constant; errors and tests of nil
// are not verdicts.
func (a *analysis) callVerdict(info *types.Info, body *ast.BlockStmt, kind *types.Named, cond ast.Expr) bool {
	found := false
	fromCall := func(e ast.Expr) {
		v := rootVar(info, e)
		if v == nil || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || implementsError(v.Type()) {
			return
		}
		for _, r := range assignmentsTo(info, body, v) {
			if ce, ok := ast.Unparen(r).(*ast.CallExpr); ok && a.ownOrValueCall(info, ce) && len(ce.Args) >= 2 && handsLiveObject(info, body, kind, ce) && a.mayDecideByComparison(info, ce, kind) {
				found = true
				return
			}
		}
	}
	ast.Inspect(cond, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			// The verdict tested where it is returned (if
			// !needsScale(&dep, want)).
			found = isBoolCall(info, n) && a.ownOrValueCall(info, n) && len(n.Args) >= 2 && handsLiveObject(info, body, kind, n) && a.mayDecideByComparison(info, n, kind)
			return false
		case *ast.BinaryExpr:
			switch n.Op {
			case token.EQL, token.NEQ:
				for _, pair := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
					if isConst(info, pair[1]) && comparedValue(info, pair[0]) && comparedValue(info, pair[1]) {
						fromCall(pair[0])
					}
				}
				return false
			}
		case *ast.Ident, *ast.SelectorExpr:
			if t, ok := info.TypeOf(n.(ast.Expr)).(*types.Basic); ok && t.Kind() == types.Bool && !isConst(info, n.(ast.Expr)) {
				fromCall(n.(ast.Expr))
			}
			return false
		}
		return true
	})
	return found
}

// ownOrValueCall reports whether a call runs the tree's own code: a
// function or method it declares, or a function value (a parameter, a
// field), whose body the call site does not name.
func (a *analysis) ownOrValueCall(info *types.Info, ce *ast.CallExpr) bool {
	if tv, ok := info.Types[ce.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return false
	}
	switch fn := typeutil.Callee(info, ce).(type) {
	case *types.Func:
		return a.decls[fn.Origin()] != nil
	case *types.Builtin:
		return false
	}
	_, sig := info.TypeOf(ce.Fun).Underlying().(*types.Signature)
	return sig
}

// handsLiveObject reports whether a call is handed an object other than the
// primary's own state: a Kubernetes object (a typed one, a runtime.Object,
// a type parameter's value) that is not the primary object nor made of it
// alone, which the callee may compare with desired state. A call handed
// only the primary, a client, a key or a list of names (addFinalizer(list,
// name), isReady(ctx, c, key)) has no live object to compare.
func handsLiveObject(info *types.Info, body *ast.BlockStmt, kind *types.Named, ce *ast.CallExpr) bool {
	for _, arg := range ce.Args {
		t := info.TypeOf(arg)
		if t == nil || isContext(t) || isConst(info, arg) {
			continue
		}
		_, param := types.Unalias(deref(t)).(*types.TypeParam)
		if !param && !isObjectValue(t) && !hasMethods(t, "DeepCopyObject") {
			continue
		}
		if !primaryOnly(info, body, kind, arg, 0, false) {
			return true
		}
	}
	return false
}

// mayDecideByComparison reports whether a call's verdict may come from a
// comparison: its callee is a function value (its body unknown here), or
// its own body holds a test or a returned value that may compare two
// values (mayCompare), or returns the bool a call it makes returns (a
// verdict handed on). A validation that only tests errors, nil and constants
// (if pv.Spec.CSI == nil { return false }) compares nothing.
func (a *analysis) mayDecideByComparison(info *types.Info, ce *ast.CallExpr, kind *types.Named) bool {
	fn, ok := typeutil.Callee(info, ce).(*types.Func)
	if !ok {
		return true
	}
	decl := a.decls[fn.Origin()]
	if decl == nil || decl.Body == nil {
		return true
	}
	b := decl.Body
	cinfo := a.infoAt(b.Pos())
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			found = found || mayCompare(cinfo, b, kind, n.Cond)
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if isBoolCall(cinfo, r) || mayCompare(cinfo, b, kind, r) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// isBoolCall reports whether an expression is a call that returns a bool.
func isBoolCall(info *types.Info, e ast.Expr) bool {
	if _, ok := ast.Unparen(e).(*ast.CallExpr); !ok {
		return false
	}
	t, ok := info.TypeOf(e).(*types.Basic)
	return ok && t.Kind() == types.Bool
}
