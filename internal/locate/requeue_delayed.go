package locate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// The delayed re-adds of a client-go key: the delay a sync returns for
// the worker to wait, and which of several re-adds is the success requeue.

// underField reports whether the conditions around a call (the case
// clause or the if that holds it, in its function) test a field (by its
// fieldKey) of a value.
func (a *analysis) underField(info *types.Info, call *ast.CallExpr, field string) bool {
	for _, n := range a.path(call.Pos(), call.End()) {
		var conds []ast.Expr
		switch n := n.(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		case *ast.CaseClause:
			conds = n.List
		case *ast.IfStmt:
			conds = []ast.Expr{n.Cond}
		}
		for _, c := range conds {
			if sel, ok := ast.Unparen(c).(*ast.SelectorExpr); ok {
				if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
					if v, ok := s.Obj().(*types.Var); ok && fieldKey(v, s.Recv()) == field {
						return true
					}
				}
			}
		}
	}
	return false
}

// syncResultDelay reports whether a worker's AddAfter waits a delay the
// sync returned: its delay is a field of a variable of the worker's that
// only a call running the sync (the entry) defines, as its first result
// (out, err := sync(key); …; queue.AddAfter(key, out.Delay)). The shape
// is that result's type, the field its duration; the bool field the
// worker tests before an AddRateLimited, when there is one, is its
// immediate requeue.
func (a *analysis) syncResultDelay(f *found, fn *ssa.Function, info *types.Info, c call) (resultShape, bool) {
	if info == nil || c.delay == nil || f.entry == nil {
		return resultShape{}, false
	}
	sel, ok := ast.Unparen(c.delay).(*ast.SelectorExpr)
	if !ok {
		return resultShape{}, false
	}
	if s := info.Selections[sel]; s == nil || s.Kind() != types.FieldVal {
		return resultShape{}, false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return resultShape{}, false
	}
	v := varOf(info, id)
	b := body(fn)
	if v == nil || b == nil {
		return resultShape{}, false
	}
	def := onlyCallDef(info, b, v)
	if def == nil {
		return resultShape{}, false
	}
	if dc := a.makeCall(info, def, fn); !slices.Contains(dc.own, f.entry) {
		return resultShape{}, false
	}
	field, _ := info.Selections[sel].Obj().(*types.Var)
	typ := typeKey(v.Type())
	if field == nil || typ == "" {
		return resultShape{}, false
	}
	shape := resultShape{typ: typ, after: fieldKey(field, v.Type())}
	// The bool field the worker tests right before an AddRateLimited.
	ast.Inspect(b, func(n ast.Node) bool {
		var cond ast.Expr
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.CaseClause:
			if len(n.List) == 1 {
				cond, list = n.List[0], n.Body
			}
		case *ast.IfStmt:
			cond, list = n.Cond, n.Body.List
		}
		cs, ok := ast.Unparen(cond).(*ast.SelectorExpr)
		if !ok || len(list) == 0 {
			return true
		}
		if x, ok := ast.Unparen(cs.X).(*ast.Ident); !ok || varOf(info, x) != v {
			return true
		}
		es, ok := list[0].(*ast.ExprStmt)
		if !ok {
			return true
		}
		ce, ok := es.X.(*ast.CallExpr)
		if !ok {
			return true
		}
		if rc := a.makeCall(info, ce, fn); rc.known && rc.fact.Role == RoleQueueAddRateLimited {
			if fv, ok := info.Selections[cs]; ok && fv.Kind() == types.FieldVal {
				if bv, ok := fv.Obj().(*types.Var); ok {
					shape.requeue = fieldKey(bv, v.Type())
				}
			}
		}
		return true
	})
	if a.shapes == nil {
		a.shapes = map[string]resultShape{}
	}
	a.shapes[shape.typ] = shape
	return shape, true
}

// depRequeueDepth bounds how deep the bodies of dependency functions are
// followed when they hand the queue on.
const depRequeueDepth = 3

// depResult is what a dependency call does with the queue it is handed: it
// calls AddAfter (site, and the call's argument that is the duration when
// the dependency takes it as a parameter), or it cannot be settled (why,
// and where).
type depResult struct {
	site      *Site
	duration  ast.Expr
	unsettled string
}

// steadyAdd chooses, among the delayed re-adds of the key (after, each
// with its requeue in timed; a dependency handed the queue and its own
// AddAfter share one), the success requeue: the interval, of several the
// steady state's, the one a pass makes after the others (addedAfter);
// with no interval, the first wait on something else. When two
// intervals are neither after the other (the branches of one if, the
// cases of one switch, two functions), it returns -1 and says so.
func (a *analysis) steadyAdd(after []Site, timed []*timedRequeue) (int, string) {
	var intervals []int
	for i, s := range after {
		if s.Class != ClassSuccessInterval || i > 0 && timed[i] != nil && timed[i] == timed[i-1] {
			continue // the dependency's own AddAfter supports the call handing it the queue
		}
		intervals = append(intervals, i)
	}
	var steady []int
	for _, i := range intervals {
		beaten := false
		for _, j := range intervals {
			if j != i && a.addedAfter(timed[j], timed[i]) {
				beaten = true
				break
			}
		}
		if !beaten {
			steady = append(steady, i)
		}
	}
	switch {
	case len(steady) == 1:
		return steady[0], ""
	case len(steady) > 1:
		var at []string
		for _, i := range steady {
			at = append(at, fmt.Sprintf("%s:%d", after[i].File, after[i].Line))
		}
		return -1, "not settled: the delayed adds at " + strings.Join(at, " and ") + " both requeue the key after an interval, and neither comes after the other (branches of one if or cases of one switch, or different functions): which is the steady state is not settled"
	}
	for i, s := range after {
		if s.Class == ClassDependencyWait {
			return i, ""
		}
	}
	return 0, ""
}

// addedAfter reports whether the delayed add d runs after c on a pass, as
// the success returns are ordered (steadier): both in one function, d's
// statement after the one holding c in the list that holds both (an early
// special case's add comes before the one that ends the pass).
func (a *analysis) addedAfter(d, c *timedRequeue) bool {
	if d == nil || c == nil || d.in != c.in {
		return false
	}
	rel, _ := a.stmtRelation(d.at.Pos(), c.at.Pos())
	return rel == relAfter
}
