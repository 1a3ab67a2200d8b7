package locate

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// unfollowedCalls lists the calls that the functions on the reconcile path
// that could not be analysed (type errors) make, by their syntax, into
// code of the tree the reconcile path does not otherwise reach: a function
// of the tree reached through no other call, a method of an interface the
// tree declares (its implementations run there), or a callee the partial
// types do not resolve (a method of a value whose type is lost, a function
// value). The call graph stops at such a body, so what those calls do is
// not read. Each is "file:line (caller calls callee)".
func (a *analysis) unfollowedCalls(reach *callgraph.Reach) []string {
	var out []string
	a.unanalysedCalls(reach, func(fn *ssa.Function, obj *types.Func, info *types.Info, ce *ast.CallExpr) {
		if what := a.unfollowedCallee(info, ce, reach); what != "" {
			s := a.site(ce.Pos())
			out = append(out, fmt.Sprintf("%s:%d (%s calls %s)", s.File, s.Line, cite.ObjectName(obj), what))
		}
	})
	return out
}

// unanalysedCalls visits, by their syntax, the calls in the bodies of the
// tree's own functions on the reconcile path that could not be analysed
// (type errors), with the types recorded for them.
func (a *analysis) unanalysedCalls(reach *callgraph.Reach, visit func(fn *ssa.Function, obj *types.Func, info *types.Info, ce *ast.CallExpr)) {
	for _, fn := range reach.Unanalysed {
		obj, ok := fn.Object().(*types.Func)
		if !ok {
			continue
		}
		b := a.ownBody(obj.Origin())
		if b == nil {
			continue
		}
		ast.Inspect(b.decl.Body, func(n ast.Node) bool {
			if ce, ok := n.(*ast.CallExpr); ok {
				visit(fn, obj, b.info, ce)
			}
			return true
		})
	}
}

// unfollowedCallee names what a call in a body that could not be analysed
// runs, when that may be code of the tree the reconcile path does not
// reach; "" when it is not (a dependency, a builtin, a conversion, a
// function reached anyway).
func (a *analysis) unfollowedCallee(info *types.Info, ce *ast.CallExpr, reach *callgraph.Reach) string {
	if tv, ok := info.Types[ce.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return ""
	}
	switch callee := typeutil.Callee(info, ce).(type) {
	case *types.Func:
		if r := recvType(callee); r != nil && types.IsInterface(r) {
			if a.fileOwn(callee.Pos()) {
				return cite.ObjectName(callee) + ", whose implementations are not followed"
			}
			return ""
		}
		if a.decls[callee.Origin()] == nil {
			return ""
		}
		if sf := a.prog.Func(callee.Origin()); sf != nil && reach.Has(sf) {
			return ""
		}
		return cite.ObjectName(callee)
	case nil:
		if _, lit := ast.Unparen(ce.Fun).(*ast.FuncLit); lit || depCall(info, ce) {
			return ""
		}
		return a.exprText(ce.Fun) + ", which the partial types do not resolve"
	}
	return ""
}

// recvType is the receiver type of a method, nil for a function.
func recvType(fn *types.Func) types.Type {
	if r := fn.Type().(*types.Signature).Recv(); r != nil {
		return r.Type()
	}
	return nil
}

// depCall reports whether a call names a function of an imported package
// (pkg.F): left unresolved, it is one of a dependency that could not be
// loaded (the tree's own packages keep their declarations' types).
func depCall(info *types.Info, ce *ast.CallExpr) bool {
	sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	_, ok = info.Uses[id].(*types.PkgName)
	return ok
}

// unreadDrift is the drift answer's last steps when functions on the
// reconcile path could not be analysed: a comparison with the cluster, and
// the write applying what differs, may be in each, or in what it calls,
// and are not seen. The drift found elsewhere is not settled as the
// answer, nor is its absence.
func (a *analysis) unreadDrift(unanalysed []*ssa.Function, reach *callgraph.Reach) []Step {
	var out []Step
	calls := a.unfollowedCalls(reach)
	for _, fn := range unanalysed {
		if fn.Syntax() == nil {
			continue
		}
		note := "not settled: " + cite.ObjectName(fn.Object().(*types.Func)) + " could not be analysed (type errors; see the warnings): a comparison with the cluster, and the write applying what differs, may be there and are not seen"
		if len(calls) > 0 {
			note += "; nor in what the bodies not analysed call: " + listSites(calls)
			calls = nil
		}
		out = append(out, Step{Site: a.funcSite(fn).Site, Step: StepUnread, Note: note})
	}
	return out
}
