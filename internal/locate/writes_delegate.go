package locate

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// The function a return delegates the rest of the pass to, whose normal
// returns are read as the entry's (normalReturns).

// delegateOf is the function a return hands the error result of, when
// that error is a call's that runs one function (alone or as the last of
// its tuple), or the function whose result it hands back with a nil error
// (res, err := f(…); if err != nil {…}; return res, nil): the rest of the
// pass is f's.
func (a *analysis) delegateOf(r *ssa.Return) *ssa.Function {
	n := len(r.Results)
	if n == 0 || !isErrorType(r.Results[n-1].Type()) {
		return nil
	}
	v := unwrapped(storedResult(r, r.Results[n-1]))
	if k, ok := v.(*ssa.Const); ok && k.IsNil() && n > 1 {
		v = storedResult(r, r.Results[0])
	}
	if x, ok := v.(*ssa.Extract); ok {
		v = x.Tuple
	}
	c, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	if fn := c.Call.StaticCallee(); fn != nil {
		return fn
	}
	var only *ssa.Function
	for _, e := range a.prog.CallsFrom(r.Parent()) {
		if e.Site != ssa.CallInstruction(c) {
			continue
		}
		if only != nil {
			return nil
		}
		only = e.Callee.Func
	}
	return only
}

// storedResult is what a return hands back as v: in a function that
// defers, a return stores its values in the result slots and hands back
// their loads (return *t1, *t2), so a load of a slot is the value last
// stored in it in the return's block; any other value is itself.
func storedResult(r *ssa.Return, v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	instrs := r.Block().Instrs
	for i := len(instrs) - 1; i >= 0; i-- {
		if st, ok := instrs[i].(*ssa.Store); ok && st.Addr == slot {
			return st.Val
		}
	}
	return v
}

// resultOf is what the return r hands back as its i-th result where it
// stands: storedResult, unless a closure captures the slot and may change
// it after the return stored it (a named result a deferred function
// assigns). A function that defers returns through its results' slots
// however its returns are written, so every reader of what a return hands
// back asks here.
func resultOf(r *ssa.Return, i int) ssa.Value {
	v := r.Results[i]
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL && capturedSlot(load.X) {
		return v
	}
	return storedResult(r, v)
}

// succeedingReturns are the returns of all a pass may succeed with:
// nilErrorReturns, and the returns handing back an own delegate's result
// (delegateOf) when the delegate has such a return itself and no test
// above the return found its error set (failing): the rest of a body
// moved into a helper called under `if err == nil` succeeds there.
// on holds the functions whose returns are being read, a cycle's.
func (a *analysis) succeedingReturns(all []*ssa.Return, on map[*ssa.Function]bool) []*ssa.Return {
	nilErr := nilErrorReturns(all)
	var out []*ssa.Return
	for _, r := range all {
		if slices.Contains(nilErr, r) {
			out = append(out, r)
			continue
		}
		d := a.delegateOf(r)
		if d == nil || on[d] || !a.prog.Own[d] || failing(r) {
			continue
		}
		on[d] = true
		if len(a.succeedingReturns(blockReturns(d), on)) > 0 {
			out = append(out, r)
		}
		delete(on, d)
	}
	return out
}

// deferredDelegates are the functions of the tree whose error a closure
// that fn defers keeps: the calls of the closure, of one function each,
// whose last result is an error the closure uses.
func (a *analysis) deferredDelegates(fn *ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	for _, mc := range deferredClosures(fn) {
		for _, cb := range mc.Fn.(*ssa.Function).Blocks {
			for _, ci := range cb.Instrs {
				c, ok := ci.(*ssa.Call)
				if !ok || !keptError(c) {
					continue
				}
				if callee := c.Call.StaticCallee(); callee != nil {
					out = append(out, callee)
				}
			}
		}
	}
	return out
}

// keptError reports whether a call's last result is an error that its
// function uses.
func keptError(c *ssa.Call) bool {
	res := c.Call.Signature().Results()
	if res.Len() == 0 || !isErrorType(res.At(res.Len()-1).Type()) {
		return false
	}
	if res.Len() == 1 {
		return len(*c.Referrers()) > 0
	}
	for _, r := range *c.Referrers() {
		if x, ok := r.(*ssa.Extract); ok && x.Index == res.Len()-1 && len(*x.Referrers()) > 0 {
			return true
		}
	}
	return false
}

// errorDelegates are the functions of the tree fn calls on every pass
// (the call's block dominates each of rets) whose error each of rets
// hands back, alone or as one of the values the variable it returns may
// hold (`closure, err := o.sync(ctx, key); if err != nil {…} else { err
// = closure(ctx) }; return err`): a pass succeeds only when that function
// did, so its body continues the pass.
func (a *analysis) errorDelegates(fn *ssa.Function, rets []*ssa.Return) []*ssa.Function {
	if len(rets) == 0 {
		return nil
	}
	var out []*ssa.Function
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee := c.Call.StaticCallee()
			if callee == nil || !a.prog.Own[callee] || !keptError(c) {
				continue
			}
			errv := errorResult(c)
			if errv != nil && !slices.ContainsFunc(rets, func(r *ssa.Return) bool { return !b.Dominates(r.Block()) || !handsBack(r, errv) }) {
				out = append(out, callee)
			}
		}
	}
	return out
}

// errorResult is the value holding a call's error result: the call
// itself, or the extraction of its last result; nil when none is used.
func errorResult(c *ssa.Call) ssa.Value {
	n := c.Call.Signature().Results().Len()
	if n == 1 {
		return c
	}
	for _, r := range *c.Referrers() {
		if x, ok := r.(*ssa.Extract); ok && x.Index == n-1 {
			return x
		}
	}
	return nil
}

// handsBack reports whether a return's error result is v, or a phi one of
// whose values is v.
func handsBack(r *ssa.Return, v ssa.Value) bool {
	if len(r.Results) == 0 {
		return false
	}
	got := unwrapped(storedResult(r, r.Results[len(r.Results)-1]))
	if got == v {
		return true
	}
	phi, ok := got.(*ssa.Phi)
	return ok && slices.Contains(phi.Edges, v)
}
