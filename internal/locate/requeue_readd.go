package locate

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A worker that adds the key it took off the queue back with a plain Add
// (no rate limiter, no delay) brings it back at once: after a failure
// when the Add is under a test of one, on every pass when nothing guards
// it ("re-enqueue anyway": a poller pacing its workers). A plain Add of
// another key (a parent's, a dependent's) is an enqueue, and so is an Add
// in an event handler.

// readdsDequeued reports whether a workqueue Add called in fn adds back
// the item the worker took off the queue: its key argument is the value
// the queue's Get handed out, through conversions, assertions and the
// variables of the closures that hold it.
func (a *analysis) readdsDequeued(fn *ssa.Function, c call) bool {
	sc := ssaCallAt(fn, c.expr.Lparen)
	if sc == nil || c.fact.Key < 0 {
		return false
	}
	i := c.fact.Key
	if !sc.Call.IsInvoke() && sc.Call.Signature().Recv() != nil {
		i++ // a concrete queue's method: its receiver is the first argument
	}
	if i >= len(sc.Call.Args) {
		return false
	}
	return a.dequeuedValue(sc.Call.Args[i], map[ssa.Value]bool{})
}

// ssaCallAt is the call of fn whose opening parenthesis is at pos.
func ssaCallAt(fn *ssa.Function, pos token.Pos) *ssa.Call {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if sc, ok := in.(*ssa.Call); ok && sc.Pos() == pos {
				return sc
			}
		}
	}
	return nil
}

// dequeuedValue reports whether v is the item a workqueue's Get handed
// out.
func (a *analysis) dequeuedValue(v ssa.Value, seen map[ssa.Value]bool) bool {
	if v == nil || seen[v] {
		return false
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return a.dequeuedValue(v.X, seen)
	case *ssa.ChangeInterface:
		return a.dequeuedValue(v.X, seen)
	case *ssa.ChangeType:
		return a.dequeuedValue(v.X, seen)
	case *ssa.Convert:
		return a.dequeuedValue(v.X, seen)
	case *ssa.TypeAssert:
		return a.dequeuedValue(v.X, seen)
	case *ssa.Extract:
		switch t := v.Tuple.(type) {
		case *ssa.TypeAssert:
			return v.Index == 0 && a.dequeuedValue(t.X, seen)
		case *ssa.Call:
			return v.Index == 0 && a.queueGet(t)
		}
	case *ssa.FreeVar:
		// A closure's captured variable: what its creators bind to it.
		return a.boundDequeued(v, seen)
	case *ssa.UnOp:
		// A variable captured by a closure lives in memory: what is
		// stored into it.
		if v.Op == token.MUL {
			return a.storedDequeued(v.X, seen)
		}
	}
	return false
}

// queueGet reports whether a call is a workqueue's Get.
func (a *analysis) queueGet(c *ssa.Call) bool {
	var fn *types.Func
	if c.Call.IsInvoke() {
		fn = c.Call.Method
	} else if callee := c.Call.StaticCallee(); callee != nil {
		fn, _ = callee.Object().(*types.Func)
	}
	return fn != nil && isQueueGet(fn)
}

// boundDequeued reports whether every closure made of the function
// holding a free variable binds it to the dequeued item.
func (a *analysis) boundDequeued(fv *ssa.FreeVar, seen map[ssa.Value]bool) bool {
	bound := closureBindings(fv)
	for _, v := range bound {
		if !a.dequeuedValue(v, seen) && !a.storedDequeued(v, seen) {
			return false
		}
	}
	return len(bound) > 0
}

// storedDequeued reports whether addr is a variable's memory (a local
// captured by a closure, or the free variable that captures it) that is
// only ever stored the dequeued item.
func (a *analysis) storedDequeued(addr ssa.Value, seen map[ssa.Value]bool) bool {
	switch addr := addr.(type) {
	case *ssa.FreeVar:
		return a.boundDequeued(addr, seen)
	case *ssa.Alloc:
		stored := false
		for _, r := range *addr.Referrers() {
			st, ok := r.(*ssa.Store)
			if !ok || st.Addr != addr {
				continue
			}
			if !a.dequeuedValue(st.Val, seen) {
				return false
			}
			stored = true
		}
		return stored
	}
	return false
}
