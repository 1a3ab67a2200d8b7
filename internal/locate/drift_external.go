package locate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"golang.org/x/tools/go/ssa"
)

// externalCompared is the drift answer's one unsettled step when no write
// of the cluster stands against a "none" but a comparison of desired with
// live state guards a call that writes nothing ctrlcmp reads as the
// cluster's and is handed the primary object: a repository read over an
// outside API and compared with the object's spec, then updated through
// that API's client (if !asExpected(obj, current) { client.Update(obj) }).
// "Desired state compared with the live cluster" may or may not name a
// system outside the cluster; the source does not settle which reading the
// question means. Nil when no such call is found.
func (a *analysis) externalCompared(reach *callgraph.Reach, kind *types.Named) []Step {
	if kind == nil {
		return nil
	}
	for _, fn := range reach.Funcs() {
		b := body(fn)
		if b == nil {
			continue
		}
		info := a.infoAt(b.Pos())
		if info == nil {
			continue
		}
		var out []Step
		ast.Inspect(b, func(n ast.Node) bool {
			if out != nil {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				c, client := a.outsideCall(fn, n.Body, kind)
				if c == nil || client == nil || !readsThrough(info, b, n, client) || !a.compares(info, b, kind, n.Cond, n.Body, 0, nil) {
					return true
				}
				s, at := a.site(c.expr.Lparen).Site, a.site(n.Pos())
				out = []Step{{Site: applySite(s, c.in), Step: StepUnsettled,
					Note: fmt.Sprintf("not settled: the comparison at %s:%d guards a call handed the %s that writes nothing of the cluster's ctrlcmp reads; it may apply the difference to a system outside the cluster, which the question may or may not mean", at.File, at.Line, kind.Obj().Name())}}
				return false
			}
			return true
		})
		if out != nil {
			return out
		}
	}
	return nil
}

// outsideCall is the first call in block (of fn) that is, or runs through
// functions of the tree's (a closure called there, a helper it calls by
// name, two deep), a call that a library's knowledge does not name, that
// runs no function of the tree's or runs it through an interface (another
// system's client), that writes nothing to the cluster, hands back an
// error and is handed the primary object; with the client it is called
// on (clientOf). Nil when there is none.
func (a *analysis) outsideCall(fn *ssa.Function, block *ast.BlockStmt, kind *types.Named) (*call, types.Object) {
	for _, c := range a.callsIn(fn) {
		if c.expr.Pos() < block.Pos() || c.expr.End() > block.End() {
			continue
		}
		if inner := a.reachesOutside(c, kind, 0); inner != nil {
			return &c, clientOf(a.infoAt(inner.expr.Pos()), inner.expr)
		}
	}
	return nil, nil
}

// maxOutsideHelpers bounds the functions of the tree's reachesOutside
// follows.
const maxOutsideHelpers = 2

// reachesOutside is c when it is such a call, or the one it runs through
// the one function of the tree's it calls statically; nil when neither.
func (a *analysis) reachesOutside(c call, kind *types.Named, depth int) *call {
	if c.known || slices.ContainsFunc(c.own, a.writesWork) {
		return nil
	}
	var sig *types.Signature
	if c.fn != nil {
		sig, _ = c.fn.Type().(*types.Signature)
	}
	dispatched := sig != nil && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
	if len(c.own) == 1 && !dispatched {
		if depth >= maxOutsideHelpers {
			return nil
		}
		for _, inner := range a.callsIn(c.own[0]) {
			if found := a.reachesOutside(inner, kind, depth+1); found != nil {
				return found
			}
		}
		return nil
	}
	if sig == nil || sig.Results().Len() == 0 || !isErrorType(sig.Results().At(sig.Results().Len()-1).Type()) {
		return nil
	}
	info := a.infoAt(c.expr.Pos())
	if info == nil {
		return nil
	}
	if _, write := a.writeOf(info, c); write {
		return nil // a write of the cluster (a typed client's, by name)
	}
	if !slices.ContainsFunc(c.expr.Args, func(arg ast.Expr) bool { return isKind(info.TypeOf(arg), kind) }) {
		return nil
	}
	return &c
}

// clientOf is what a method call is made on, when that is a variable or
// a field (r.Registry.Put: the field Registry): the client of the system
// it writes to. Nil otherwise.
func clientOf(info *types.Info, ce *ast.CallExpr) types.Object {
	sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr)
	if !ok || info == nil {
		return nil
	}
	switch x := ast.Unparen(sel.X).(type) {
	case *ast.SelectorExpr:
		return info.Uses[x.Sel]
	case *ast.Ident:
		return info.Uses[x]
	}
	return nil
}

// maxReadHops bounds the locals readsThrough follows back to a call.
const maxReadHops = 3

// readsThrough reports whether the test of ifs (its condition, and the
// statement before it) reads, through the locals of body it is computed
// from, a value a call on client handed back: what the system the guarded
// call writes to holds now (kept, err := r.Registry.Entry(ctx, b), then
// !maps.Equal(kept, b.Spec.Data)). A test of anything else (which class
// an object belongs to, whether another object is done) decides something
// other than a difference of that system's.
func readsThrough(info *types.Info, body *ast.BlockStmt, ifs *ast.IfStmt, client types.Object) bool {
	seen := map[*types.Var]bool{}
	var reads func(n ast.Node, depth int) bool
	reads = func(n ast.Node, depth int) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				if clientOf(info, x) == client {
					found = true
				}
			case *ast.Ident:
				v, ok := info.Uses[x].(*types.Var)
				if !ok || v.IsField() || seen[v] || depth >= maxReadHops {
					return true
				}
				seen[v] = true
				for _, rhs := range assignmentsTo(info, body, v) {
					found = found || reads(rhs, depth+1)
				}
			}
			return !found
		})
		return found
	}
	if ifs.Init != nil && reads(ifs.Init, 0) {
		return true
	}
	return reads(ifs.Cond, 0)
}
