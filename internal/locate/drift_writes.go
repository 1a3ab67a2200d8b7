package locate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// The writes drift correction makes: by the tree's call of a library, or
// inside a helper of the tree that is handed the desired object.

// driftWrite reports whether a call writes what drift correction writes:
// an object other than the primary's own kind, not its status, not an
// event. The status of a primary kind the tree does not declare (a
// Service's load balancer, a Pod's phase) is what such a controller
// applies: its own state, not a report of its work.
func (a *analysis) driftWrite(info *types.Info, c call, kind *types.Named) bool {
	w, ok := a.writeOf(info, c)
	return ok && w.verb != "" && !(c.known && c.fact.Role == RoleEvent) && (!w.status || kind != nil && !a.declares(kind)) && !a.writesOwnKind(info, c, kind)
}

// writesAny reports whether fn, or a function it calls, writes.
func (a *analysis) writesAny(fn *ssa.Function) bool {
	for _, g := range a.prog.Reachable(fn).Funcs() {
		info := a.infoAt(posOf(g))
		if info == nil {
			continue
		}
		for _, c := range a.callsIn(g) {
			if _, ok := a.writeOf(info, c); ok {
				return true
			}
		}
	}
	return false
}

// writesWork reports whether fn, or a function it calls, writes to the API
// server, events aside.
func (a *analysis) writesWork(fn *ssa.Function) bool { return a.reachesWrite(fn, true) }

// makesWork is writesWork without the status writes: a write that makes or
// changes something a later pass may wait for (a child created), not one
// that records what the pass saw.
func (a *analysis) makesWork(fn *ssa.Function) bool { return a.reachesWrite(fn, false) }

// reachesWrite reports whether fn, or a function it calls, writes to the
// API server, events aside, and status writes only with status.
func (a *analysis) reachesWrite(fn *ssa.Function, status bool) bool {
	for _, g := range a.prog.Reachable(fn).Funcs() {
		info := a.infoAt(posOf(g))
		if info == nil {
			continue
		}
		for _, c := range a.callsIn(g) {
			if w, ok := a.writeOf(info, c); ok && w.verb != "" && (status || !w.status) && !(c.known && c.fact.Role == RoleEvent) {
				return true
			}
		}
	}
	return false
}

// handsOtherObject reports whether a call is handed an object of a
// concrete API type other than the primary's: the desired object a helper
// applies.
func handsOtherObject(info *types.Info, c call, kind *types.Named) bool {
	for _, arg := range c.expr.Args {
		t := info.TypeOf(arg)
		if t == nil || types.IsInterface(t) || isKind(t, kind) {
			continue
		}
		if IsObjectPointer(t) || IsObjectPointer(types.NewPointer(t)) {
			return true
		}
	}
	return false
}

// specApplied reports whether a write of the primary object itself (the
// one the re-read returned) applies a desired state computed for it:
// between from and the write, the guarded code stores into the Spec of
// the variable the write is handed (obj.Spec = *desired; r.Update(ctx,
// obj)). Such a controller keeps its own kind's spec in step with other
// objects, and the write applies the difference as a child's would.
func (g driftGuards) specApplied(c call, from token.Pos) (writeDesc, bool) {
	if !c.known || c.fact.Role == RoleEvent {
		return writeDesc{}, false
	}
	w, ok := g.a.writeOf(g.info, c)
	if !ok || w.verb == "" || w.status || !g.a.writesOwnKind(g.info, c, g.kind) {
		return writeDesc{}, false
	}
	id, ok := stripAddr(c.arg(c.fact.Obj)).(*ast.Ident)
	if !ok {
		return writeDesc{}, false
	}
	obj, _ := g.info.Uses[id].(*types.Var)
	if !g.objects[obj] {
		return writeDesc{}, false // another object of the kind (a child of another controller's)
	}
	stored := false
	ast.Inspect(body(g.fn), func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || stored || as.Pos() < from || as.End() > c.expr.Pos() {
			return !stored
		}
		for _, l := range as.Lhs {
			root, sel := objectAt(g.info, l)
			if id, ok := root.(*ast.Ident); ok && sel != nil && g.info.Uses[id] == obj && sel.Sel.Name == specField {
				stored = true
			}
		}
		return !stored
	})
	return w, stored
}

// applySteps are the steps that apply a difference at the write call w:
// the call, and, when a helper of the tree's makes the write, the write in
// that helper, which names the helper as a function that applies.
func (a *analysis) applySteps(w *call, desc writeDesc) []Step {
	note := desc.verb + " " + desc.target + " when they differ"
	steps := []Step{{Site: applySite(a.site(w.expr.Lparen).Site, w.in), Step: StepApply, Note: note}}
	if m := desc.madeAt; m != nil {
		made := applySite(a.site(m.expr.Lparen).Site, m.in)
		steps = append(steps, Step{Site: made, Step: StepApply, Note: note + ": the write is made in " + made.Func + ", reached from the call in " + steps[0].Func})
	}
	return steps
}

// writesOwnKind reports whether a write call writes an object of the
// primary type when the tree declares that type: its object argument (the
// knowledge table's), or, for a typed client's method, an argument of that
// type. The Spec of a kind of the tree's own is the desired state, so a
// write of such an object (a label it normalises, its finalizers) applies
// none of it; a controller of a kind declared elsewhere (a labeller of
// ConfigMaps) applies its desired state to the object itself.
func (a *analysis) writesOwnKind(info *types.Info, c call, kind *types.Named) bool {
	if kind == nil {
		return false
	}
	if _, own := a.fileAt(kind.Obj().Pos()); !own {
		return false
	}
	if c.known {
		obj := c.arg(c.fact.Obj)
		return obj != nil && isKind(info.TypeOf(obj), kind)
	}
	for _, arg := range c.expr.Args {
		if isKind(info.TypeOf(arg), kind) {
			return true
		}
	}
	return false
}

// applySite names the function that applies as the drift answer names it
// (rows.md: "(*T).m" or "pkg.F"): the declared function fn is, or holds
// fn as a closure.
func applySite(s cite.Site, fn *ssa.Function) cite.Site {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if obj, ok := fn.Object().(*types.Func); ok {
		s.Func = cite.ObjectName(obj)
	}
	return s
}
