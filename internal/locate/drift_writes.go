package locate

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// The writes drift correction makes: by the tree's call of a library, or
// inside a helper of the tree that is handed the desired object.

// driftWrite reports whether a call writes what drift correction writes:
// an object other than the primary's own kind, not its status, not an
// event.
func (a *analysis) driftWrite(info *types.Info, c call, kind *types.Named) bool {
	w, ok := a.writeOf(info, c)
	return ok && w.verb != "" && !(c.known && c.fact.Role == RoleEvent) && !w.status && !a.writesOwnKind(info, c, kind)
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
// server, events aside: work a return made after it may wait on.
func (a *analysis) writesWork(fn *ssa.Function) bool {
	for _, g := range a.prog.Reachable(fn).Funcs() {
		info := a.infoAt(posOf(g))
		if info == nil {
			continue
		}
		for _, c := range a.callsIn(g) {
			if w, ok := a.writeOf(info, c); ok && w.verb != "" && !(c.known && c.fact.Role == RoleEvent) {
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
