package locate

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// carriedWork is the one call of the tree's that fn's statements in
// [from, to) wrap around the finalizer's removal, when that is all they
// do: they remove the finalizer themselves (written there, in a closure
// written there, or by a call that only removes it, and may save the
// object), make exactly one call of the tree's that works, before the
// removal (not a test, a value, a lookup, a note, a save, nor a call that
// reaches a removal: the finalizer forced off another way), and write no
// object but to save the primary one or record an Event. Such statements
// may be the deletion branch's body moved into a function, whose cleanup
// is that call, or a cleanup the branch delegates to, which wraps the
// call: the code does not say which. nil for any other statements.
func (a *analysis) carriedWork(fn *ssa.Function, from, to token.Pos, kind *types.Named, removes []finOp) *call {
	b := body(fn)
	if b == nil {
		return nil
	}
	info := a.infoAt(b.Pos())
	removal, own := token.NoPos, false
	first := func(p token.Pos) {
		if removal == token.NoPos || p < removal {
			removal = p
		}
	}
	for _, op := range removes {
		if enclosedIn(op.in, fn) && from <= op.pos && op.pos < to {
			own = true
			first(op.pos)
		}
	}
	var work []call
	for _, c := range a.callsIn(fn) {
		if c.expr.Pos() < from || c.expr.End() > to {
			continue
		}
		if w, writes := a.writeOf(info, c); writes {
			if w.verb != VerbRecord && (w.verb != verbUpdate && w.verb != verbPatch || !passesKind(info, c, kind)) {
				return nil // it writes another object: work of its own
			}
			continue
		}
		switch {
		case c.known, len(c.own) == 0, runsNoFunction(info, c.expr), a.computesOnly(c), a.predicate(c, removes),
			a.lookup(c, removes), a.buildsReceiver(c), a.handedOn(c, removes), a.notesOnly(c, removes), a.savesOnly(c, kind, removes):
			continue
		case a.removalOnly(c, removes), a.removingSave(c, kind, removes):
			own = true
			first(c.expr.Pos())
			continue
		case a.reachesRemoval(c, removes):
			first(c.expr.Pos())
			continue
		}
		work = append(work, c)
	}
	if !own || len(work) != 1 || work[0].expr.Pos() > removal || len(work[0].own) != 1 {
		return nil
	}
	return &work[0]
}

// carriedWhy says why a function that only wraps one call around the
// finalizer's removal is not settled as the cleanup; reached says how the
// deletion branch runs the function.
func (a *analysis) carriedWhy(reached string, fn *ssa.Function, work *call) string {
	f, w := a.funcSite(fn), a.funcSite(a.delegateEnd(work.own[0]))
	at := a.site(work.expr.Lparen)
	return fmt.Sprintf("%s %s (%s:%d), whose one piece of work before it removes the finalizer is the call at %s:%d of %s (%s:%d): the cleanup is %s, as a function the branch delegates to, or %s, as the work of the branch's body moved into a function; the code does not say which",
		reached, fn.String(), f.File, f.Line, at.File, at.Line, a.delegateEnd(work.own[0]).String(), w.File, w.Line, fn.Name(), a.delegateEnd(work.own[0]).Name())
}
