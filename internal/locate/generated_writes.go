package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

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
	never := p.unfinalized(g)
	event := p.a.normalEventReturn(g.reconcileKind)
	generated := p.a.generatedFuncs(p.f.entry)
	for i, wc := range calls {
		switch {
		case never[wc.call.in]:
			ws[i].Always = false
			ws[i].Path = nil
			ws[i].Note = fmt.Sprintf("never for this controller: only the generated finalizer code runs it, which returns first because %s implements no %s", syncName(g.reconcileKind), generatedFinalizeMethod)
		case event != "" && outermost(wc.call.in).Pkg == p.f.entry.Pkg && slices.Contains(generated, outermost(wc.call.in)) && ws[i].Verb == VerbRecord && recordsReturnedEvent(wc.info, wc.call):
			ws[i].Always = true
			ws[i].Note = "records the normal event " + generatedKindMethod + " returns on every succeeding pass (" + event + ")"
		}
	}
}

// unfinalized returns, when the hand-written type implements no
// FinalizeKind, the functions that run only inside the generated finalizer
// helpers (the functions that change the finalizer set after returning
// early when the reconciler is no generated Finalizer): they never run for
// this controller. A function is counted only when every call of it the
// graph knows (and, for a closure, the function making it) is in such a
// helper or in a function counted already.
func (p *pass) unfinalized(g *generatedKind) map[*ssa.Function]bool {
	if g == nil || g.finalizeKind != nil || g.finalizer == nil {
		return nil
	}
	never := map[*ssa.Function]bool{}
	adds, removes := p.generatedFinalizerOps()
	for _, op := range append(adds, removes...) {
		if p.a.assertsFinalizer(op.in, g.finalizer) {
			never[op.in] = true
		}
	}
	if len(never) == 0 {
		return nil
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range p.reach.Funcs() {
			if never[fn] || fn == p.f.entry {
				continue
			}
			var callers []*ssa.Function
			if fn.Parent() != nil {
				callers = append(callers, fn.Parent())
			}
			for _, e := range p.a.prog.CallsInto(fn) {
				callers = append(callers, e.Caller.Func)
			}
			if len(callers) > 0 && !slices.ContainsFunc(callers, func(c *ssa.Function) bool { return !never[c] }) {
				never[fn] = true
				changed = true
			}
		}
	}
	return never
}

// assertsFinalizer says whether a function's body asserts a value to the
// generated Finalizer interface (if _, ok := r.reconciler.(Finalizer); !ok).
func (a *analysis) assertsFinalizer(fn *ssa.Function, finalizer *types.Interface) bool {
	b := body(fn)
	if b == nil {
		return false
	}
	info := a.infoAt(b.Pos())
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if ta, ok := n.(*ast.TypeAssertExpr); ok && ta.Type != nil {
			if t := info.TypeOf(ta.Type); t != nil && types.Identical(t.Underlying(), finalizer) {
				found = true
			}
		}
		return !found
	})
	return found
}

// normalEventReturn returns, when every return of a hand-written method
// that no condition guards is a normal event (reconciler.NewEvent with the
// Normal type), where the first one is ("file:line"); else "". A return
// handing back what a helper of the tree returns counts that helper's
// returns no condition guards.
func (a *analysis) normalEventReturn(fn *ssa.Function) string {
	var first token.Pos
	if !a.normalEvents(fn, map[*ssa.Function]bool{}, &first) || !first.IsValid() {
		return ""
	}
	s := a.site(first)
	return fmt.Sprintf("%s:%d", s.File, s.Line)
}

// normalEvents says whether every unguarded return of fn (and of the
// helpers whose results those hand back) is a normal event, first set to
// the first one.
func (a *analysis) normalEvents(fn *ssa.Function, seen map[*ssa.Function]bool, first *token.Pos) bool {
	if seen[fn] {
		return true
	}
	seen[fn] = true
	b := body(fn)
	if b == nil {
		return false
	}
	info := a.infoAt(b.Pos())
	normal := true
	a.eventResults(fn, info, b, scope{}, func(_ *ast.ReturnStmt, e ast.Expr, at ast.Node, sc scope, settled bool) {
		if sc.guard != guardNone || !normal {
			return
		}
		ce, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || !settled {
			normal = false
			return
		}
		c := a.makeCall(info, ce, fn)
		switch v, isString := stringValue(info, c.arg(c.fact.Arg)); {
		case c.known && c.fact.Role == RoleReconcileEvent && isString && v == eventTypeNormal:
			if !first.IsValid() {
				*first = at.Pos()
			}
		case !c.known && len(c.own) == 1:
			normal = a.normalEvents(c.own[0], seen, first)
		default:
			normal = false
		}
	})
	return normal
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

// generatedDrift leaves out of a generated reconciler's drift answer the
// steps inside the generated code of its reconciler (the functions of the
// generated Reconcile's package whose files are marked generated): their
// comparisons are of the object's own status and finalizer list, the
// generated bookkeeping, not of desired state with what the cluster holds;
// and the steps inside the functions that never run for it (unfinalized).
func (p *pass) generatedDrift(steps []Step) []Step {
	never := p.unfinalized(p.a.generatedOf(p.f))
	type span struct {
		file       string
		start, end int
	}
	var spans []span
	for _, fn := range p.reach.Funcs() {
		if !never[fn] && !p.a.generatedIn(fn, p.f.entry.Pkg) {
			continue
		}
		if syn := fn.Syntax(); syn != nil {
			from, to := p.a.site(syn.Pos()), p.a.site(syn.End())
			spans = append(spans, span{from.File, from.Line, to.Line})
		}
	}
	out := []Step{}
	for _, s := range steps {
		if !slices.ContainsFunc(spans, func(sp span) bool { return s.File == sp.file && s.Line >= sp.start && s.Line <= sp.end }) {
			out = append(out, s)
		}
	}
	return out
}

// generatedIn says whether a function is declared in a package, in a file
// marked generated (a comment "Code generated … DO NOT EDIT.").
func (a *analysis) generatedIn(fn *ssa.Function, pkg *ssa.Package) bool {
	if fn.Pkg != pkg || pkg == nil {
		return false
	}
	fi, ok := a.fileAt(fn.Pos())
	return ok && ast.IsGenerated(fi.file)
}
