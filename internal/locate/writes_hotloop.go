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
// at too, before its call, along the calls every pass makes, for what
// flows into the variables it hands on (flowsInto).
func (a *analysis) hotLoopRisk(fn *ssa.Function, info *types.Info, write *ast.CallExpr, alwaysVia map[*ssa.Function]*callgraph.Edge) string {
	ci, before := callInstr(fn, write.Lparen), write.Pos()
	// payload is nil in the function that writes, where any risk before
	// the write counts; in a caller, the variables it hands on.
	var payload map[*types.Var]bool
	for seen := map[*ssa.Function]bool{}; fn != nil && !seen[fn]; {
		seen[fn] = true
		top := fn
		for ; fn != nil; fn = fn.Parent() {
			if risk := a.hotLoopRiskIn(fn, info, before, payload); risk != "" {
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
		call := a.callExprAt(fn, ci)
		if call == nil {
			return ""
		}
		payload = map[*types.Var]bool{}
		for _, arg := range call.Args {
			if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND {
				arg = u.X // &cm: the struct cm
			}
			if v := rootVar(info, arg); v != nil && isObjectValue(v.Type()) {
				payload[v] = true
			}
		}
	}
	return ""
}

// payloadHandedIn reports whether the call sends an API object (isObjectValue)
// that is a parameter of top, the function the call stands in or the one
// whose closure holds it.
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
			case *ssa.UnOp:
				// A captured parameter, boxed: the closure loads it.
				if p := spilledParam(x.X); x.Op == token.MUL && p != nil {
					v = p
					continue
				}
			}
			break
		}
		if p, ok := v.(*ssa.Parameter); ok && p.Parent() == top && isObjectValue(p.Type()) {
			return true
		}
	}
	return false
}

// hotLoopRiskIn is hotLoopRisk within the body of one function; with a
// payload, only a risk that flows into it counts.
func (a *analysis) hotLoopRiskIn(fn *ssa.Function, info *types.Info, before token.Pos, payload map[*types.Var]bool) string {
	var risk string
	calledInPlace := map[*ast.FuncLit]bool{}
	fnBody := body(fn)
	ast.Inspect(fnBody, func(n ast.Node) bool {
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
			if c := a.makeCall(info, n, fn); c.known && c.fact.Role == RoleClock && (payload == nil || a.flowsInto(info, fnBody, n, before, payload)) {
				s := a.site(n.Pos())
				risk = fmt.Sprintf("hot-loop risk: the payload may hold %s from %s:%d, which differs on every pass", cite.ObjectName(c.fn)+"()", s.File, s.Line)
			}
		case *ast.RangeStmt:
			if _, isMap := info.TypeOf(n.X).Underlying().(*types.Map); isMap && (payload == nil || a.flowsInto(info, fnBody, n, before, payload)) {
				s := a.site(n.Pos())
				risk = fmt.Sprintf("hot-loop risk: a map is ranged over at %s:%d, whose order differs on every pass", s.File, s.Line)
			}
		}
		return true
	})
	return risk
}

// flowsInto reports whether what the risk node yields reaches one of the
// payload variables in body before the call that hands them on: the
// statement holding it sets one, or sets variables that a later
// assignment to one uses, or that a method of one is called with,
// followed through the assignments between them. What a function literal
// does is left out (it may run after the call), unless the risk stands in
// one called where it stands.
func (a *analysis) flowsInto(info *types.Info, body ast.Node, risk ast.Node, before token.Pos, payload map[*types.Var]bool) bool {
	var stmt ast.Node = risk
	if _, ok := risk.(*ast.RangeStmt); !ok {
		stmt = nil
		for _, n := range a.path(risk.Pos(), risk.End()) {
			if n == body {
				break
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				stmt = nil
			case ast.Stmt:
				if stmt == nil {
					stmt = n
				}
			}
		}
		if stmt == nil {
			return false
		}
	}
	set := map[*types.Var]bool{}
	assignedIn(info, stmt, set)
	if anyOf(set, payload) {
		return true
	}
	for changed := true; changed; {
		changed = false
		found := false
		ast.Inspect(body, func(n ast.Node) bool {
			if found || n == nil || n.Pos() >= before {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt, *ast.ValueSpec:
				if !mentionsVar(info, n, set) {
					return true
				}
				lhs := map[*types.Var]bool{}
				assignedIn(info, n, lhs)
				if anyOf(lhs, payload) {
					found = true
					return false
				}
				for v := range lhs {
					changed = changed || !set[v]
					set[v] = true
				}
			case *ast.ExprStmt:
				// obj.SetAnnotations(m): a method of the payload.
				if c, ok := ast.Unparen(n.X).(*ast.CallExpr); ok && mentionsVar(info, n, set) {
					if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && payload[rootVar(info, sel.X)] {
						found = true
						return false
					}
				}
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// anyOf reports whether some variable of vars is in of.
func anyOf(vars, of map[*types.Var]bool) bool {
	for v := range vars {
		if of[v] {
			return true
		}
	}
	return false
}

// mentionsVar reports whether n uses or declares a variable of vars.
func mentionsVar(info *types.Info, n ast.Node, vars map[*types.Var]bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v := varOf(info, id); v != nil && vars[v] {
				found = true
			}
		}
		return !found
	})
	return found
}

// assignedIn adds to vars the variables n sets: those on the left of its
// assignments and declarations (the root of m[k] = v, x.f = v), and a
// range's key and value.
func assignedIn(info *types.Info, n ast.Node, vars map[*types.Var]bool) {
	add := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if v := varOf(info, id); v != nil {
				vars[v] = true
			}
			return
		}
		if v := rootVar(info, e); v != nil {
			vars[v] = true
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				add(l)
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				add(id)
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if e != nil {
					add(e)
				}
			}
		}
		return true
	})
}
