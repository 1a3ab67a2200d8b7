package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// generatedWrites corrects the writes answer of a generated reconciler for
// what its generated code does with the hand-written code: without
// FinalizeKind, the generated finalizer helpers return before they patch
// (the reconciler is no Finalizer), so the writes only they reach never
// happen; and when every succeeding pass of ReconcileKind returns a normal
// event, the generated Reconcile records that event on every pass.
func (p *pass) generatedWrites(g *generatedKind) {
	ws := p.writes()
	calls := p.a.writeCalls(p.reach)
	if len(calls) != len(ws) {
		return
	}
	onlyThrough := p.unfinalized(g)
	event := p.a.normalEventReturn(g.reconcileKind)
	for i, wc := range calls {
		switch {
		case onlyThrough[wc.call.in]:
			ws[i].Always = false
			ws[i].Path = nil
			ws[i].Note = fmt.Sprintf("never for this controller: only the generated finalizer code reaches it, which returns before it because %s implements no %s", syncName(g.reconcileKind), generatedFinalizeMethod)
		case event != "" && wc.call.in == p.f.entry && ws[i].Verb == VerbRecord && recordsReturnedEvent(wc.info, wc.call):
			ws[i].Always = true
			ws[i].Note = "records the normal event " + generatedKindMethod + " returns on every succeeding pass (" + event + ")"
		}
	}
}

// unfinalized returns, when the hand-written type implements no
// FinalizeKind, the functions only the generated finalizer helpers reach:
// they never run for this controller.
func (p *pass) unfinalized(g *generatedKind) map[*ssa.Function]bool {
	if g == nil || g.finalizeKind != nil {
		return nil
	}
	helpers := map[*ssa.Function]bool{}
	adds, removes := p.generatedFinalizerOps()
	for _, op := range append(adds, removes...) {
		helpers[op.in] = true
	}
	if len(helpers) == 0 {
		return nil
	}
	return p.a.reachedOnlyThrough(p.f.entry, helpers)
}

// reachedOnlyThrough returns the functions reachable from entry only
// through the functions of through (those included).
func (a *analysis) reachedOnlyThrough(entry *ssa.Function, through map[*ssa.Function]bool) map[*ssa.Function]bool {
	free := map[*ssa.Function]bool{entry: true}
	queue := []*ssa.Function{entry}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, e := range a.prog.CallsFrom(f) {
			callee := e.Callee.Func
			if free[callee] || through[callee] || !a.prog.Own[callee] {
				continue
			}
			free[callee] = true
			queue = append(queue, callee)
		}
	}
	out := map[*ssa.Function]bool{}
	for _, f := range a.prog.Reachable(entry).Funcs() {
		if !free[f] {
			out[f] = true
		}
	}
	return out
}

// normalEventReturn returns, when every return of a hand-written method
// that no condition guards is a normal event (reconciler.NewEvent with the
// Normal type), where the first one is ("file:line"); else "".
func (a *analysis) normalEventReturn(fn *ssa.Function) string {
	b := body(fn)
	if b == nil {
		return ""
	}
	info := a.infoAt(b.Pos())
	var first token.Pos
	normal := true
	a.walkReturns(info, b, scope{}, func(r *ast.ReturnStmt, sc scope) {
		if sc.guard != guardNone || len(r.Results) != 1 {
			return
		}
		ce, ok := ast.Unparen(r.Results[0]).(*ast.CallExpr)
		if ok {
			c := a.makeCall(info, ce, fn)
			if v, isString := stringValue(info, c.arg(c.fact.Arg)); c.known && c.fact.Role == RoleReconcileEvent && isString && v == eventTypeNormal {
				if !first.IsValid() {
					first = r.Pos()
				}
				return
			}
		}
		normal = false
	})
	if !normal || !first.IsValid() {
		return ""
	}
	s := a.site(first)
	return fmt.Sprintf("%s:%d", s.File, s.Line)
}

// recordsReturnedEvent says whether an event record takes its type from a
// reconciler event (the generated Reconcile reporting the event the
// hand-written code returned), rather than a type of its own.
func recordsReturnedEvent(info *types.Info, c call) bool {
	for _, arg := range c.expr.Args {
		sel, ok := ast.Unparen(arg).(*ast.SelectorExpr)
		if ok && typeKey(info.TypeOf(sel.X)) == typeReconcilerEvent {
			return true
		}
	}
	return false
}
