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
				c := a.outsideCall(fn, n.Body, kind)
				if c == nil || !a.compares(info, b, kind, n.Cond, n.Body, 0, nil) {
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
// error and is handed the primary object; nil when there is none.
func (a *analysis) outsideCall(fn *ssa.Function, block *ast.BlockStmt, kind *types.Named) *call {
	for _, c := range a.callsIn(fn) {
		if c.expr.Pos() >= block.Pos() && c.expr.End() <= block.End() && a.reachesOutside(c, kind, 0) {
			return &c
		}
	}
	return nil
}

// maxOutsideHelpers bounds the functions of the tree's reachesOutside
// follows.
const maxOutsideHelpers = 2

// reachesOutside reports whether c is such a call, or runs one through
// the one function of the tree's it calls statically.
func (a *analysis) reachesOutside(c call, kind *types.Named, depth int) bool {
	if c.known || slices.ContainsFunc(c.own, a.writesWork) {
		return false
	}
	var sig *types.Signature
	if c.fn != nil {
		sig, _ = c.fn.Type().(*types.Signature)
	}
	dispatched := sig != nil && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
	if len(c.own) == 1 && !dispatched {
		if depth >= maxOutsideHelpers {
			return false
		}
		return slices.ContainsFunc(a.callsIn(c.own[0]), func(inner call) bool { return a.reachesOutside(inner, kind, depth+1) })
	}
	if sig == nil || sig.Results().Len() == 0 || !isErrorType(sig.Results().At(sig.Results().Len()-1).Type()) {
		return false
	}
	info := a.infoAt(c.expr.Pos())
	if info == nil {
		return false
	}
	if _, write := a.writeOf(info, c); write {
		return false // a write of the cluster (a typed client's, by name)
	}
	return slices.ContainsFunc(c.expr.Args, func(arg ast.Expr) bool { return isKind(info.TypeOf(arg), kind) })
}
