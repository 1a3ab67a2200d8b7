package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"golang.org/x/tools/go/ssa"
)

// hotLoopRisk looks, before a write made on every pass, for what makes its
// payload differ on every pass: a clock read, or a map ranged over (its
// order changes) in the function that writes. A write that differs every
// time fires the controller's own watch again: a hot loop. A closure is
// read as if inline: the function that makes it is looked at too, before
// the closure's call there (or, when something else calls it, before its
// literal), and so is a function literal called where it stands. A payload
// handed in as a parameter was built by the caller: the caller is looked
// at too, before its call, along the calls every pass makes.
func (a *analysis) hotLoopRisk(fn *ssa.Function, info *types.Info, write *ast.CallExpr, alwaysVia map[*ssa.Function]*callgraph.Edge) string {
	ci, before := callInstr(fn, write.Lparen), write.Pos()
	for seen := map[*ssa.Function]bool{}; fn != nil && !seen[fn]; {
		seen[fn] = true
		top := fn
		for ; fn != nil; fn = fn.Parent() {
			if risk := a.hotLoopRiskIn(fn, info, before); risk != "" {
				return risk
			}
			top, before = fn, fn.Pos()
			if e := alwaysVia[fn]; e != nil && e.Site != nil && e.Caller.Func == fn.Parent() {
				before = e.Site.Pos()
			}
		}
		e := alwaysVia[top]
		if ci == nil || e == nil || e.Site == nil || !payloadHandedIn(ci, top) {
			return ""
		}
		ci, fn, before = e.Site, e.Caller.Func, e.Site.Pos()
		if info = a.infoAt(fn.Pos()); info == nil {
			return ""
		}
	}
	return ""
}

// payloadHandedIn reports whether the call sends an object (a pointer to a
// struct) that is a parameter of top, the function the call stands in or
// the one whose closure holds it.
func payloadHandedIn(ci ssa.CallInstruction, top *ssa.Function) bool {
	for _, v := range ci.Common().Args {
		for {
			switch x := v.(type) {
			case *ssa.MakeInterface:
				v = x.X
				continue
			case *ssa.ChangeType:
				v = x.X
				continue
			case *ssa.FreeVar:
				if b := boundTo(x); b != nil {
					v = b
					continue
				}
			}
			break
		}
		if p, ok := v.(*ssa.Parameter); ok && p.Parent() == top {
			if ptr, ok := p.Type().Underlying().(*types.Pointer); ok {
				if _, ok := ptr.Elem().Underlying().(*types.Struct); ok {
					return true
				}
			}
		}
	}
	return false
}

// hotLoopRiskIn is hotLoopRisk within the body of one function.
func (a *analysis) hotLoopRiskIn(fn *ssa.Function, info *types.Info, before token.Pos) string {
	var risk string
	calledInPlace := map[*ast.FuncLit]bool{}
	ast.Inspect(body(fn), func(n ast.Node) bool {
		if risk != "" || n == nil || n.Pos() >= before {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return calledInPlace[n]
		case *ast.CallExpr:
			if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
				calledInPlace[lit] = true
			}
			if c := a.makeCall(info, n, fn); c.known && c.fact.Role == RoleClock {
				s := a.site(n.Pos())
				risk = fmt.Sprintf("hot-loop risk: the payload may hold %s from %s:%d, which differs on every pass", cite.ObjectName(c.fn)+"()", s.File, s.Line)
			}
		case *ast.RangeStmt:
			if _, isMap := info.TypeOf(n.X).Underlying().(*types.Map); isMap {
				s := a.site(n.Pos())
				risk = fmt.Sprintf("hot-loop risk: a map is ranged over at %s:%d, whose order differs on every pass", s.File, s.Line)
			}
		}
		return true
	})
	return risk
}
