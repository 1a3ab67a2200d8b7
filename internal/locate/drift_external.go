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
				c := a.outsideCall(info, fn, n.Body, kind)
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

// outsideCall is the first call in block (of fn) that a library's
// knowledge does not name, that runs no function of the tree's or runs it
// through an interface (another system's client), that writes nothing to
// the cluster, hands back an error and is handed the primary object; nil
// when there is none.
func (a *analysis) outsideCall(info *types.Info, fn *ssa.Function, block *ast.BlockStmt, kind *types.Named) *call {
	for _, c := range a.callsIn(fn) {
		if c.expr.Pos() < block.Pos() || c.expr.End() > block.End() || c.known || c.fn == nil {
			continue
		}
		sig, ok := c.fn.Type().(*types.Signature)
		if !ok || sig.Results().Len() == 0 || !isErrorType(sig.Results().At(sig.Results().Len()-1).Type()) {
			continue
		}
		if len(c.own) > 0 && (sig.Recv() == nil || !types.IsInterface(sig.Recv().Type())) {
			continue // a function of the tree's, called by name
		}
		if slices.ContainsFunc(c.own, a.writesWork) {
			continue
		}
		for _, arg := range c.expr.Args {
			if isKind(info.TypeOf(arg), kind) {
				return &c
			}
		}
	}
	return nil
}
