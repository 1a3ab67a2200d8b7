package locate

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// Which variables of the functions on the reconcile path carry the
// request's key: the re-read is the Get by one of them.

// keyState memoises keyVars for one controller. A function met again while
// its variables are being worked out (a recursive cycle) gets its answer
// from the previous round, and the rounds are repeated until no answer
// grows (keyFixpoint), so that no answer is a cycle's partial one.
type keyState struct {
	memo, prev map[*ssa.Function]map[*types.Var]bool
	pending    map[*ssa.Function]bool
	cyclic     bool
}

// keyFixpoint works out the key variables of every function in fns.
func (a *analysis) keyFixpoint(f *found, fns []*ssa.Function, reach *callgraph.Reach) *keyState {
	var prev map[*ssa.Function]map[*types.Var]bool
	for round := 0; ; round++ {
		st := &keyState{memo: map[*ssa.Function]map[*types.Var]bool{}, prev: prev, pending: map[*ssa.Function]bool{}}
		for _, fn := range fns {
			a.keyVars(f, fn, reach, st)
		}
		if !st.cyclic || round == 8 || sameKeyVars(prev, st.memo) {
			return st
		}
		prev = st.memo
	}
}

// sameKeyVars reports whether two rounds of keyVars gave the same answers.
func sameKeyVars(a, b map[*ssa.Function]map[*types.Var]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for fn, vs := range a {
		ws, ok := b[fn]
		if !ok || len(vs) != len(ws) {
			return false
		}
		for v := range vs {
			if !ws[v] {
				return false
			}
		}
	}
	return true
}

// keyVars returns the variables of fn that carry the request's key: the
// entry's key parameters, or, in a helper, the parameters that a reached
// caller hands an argument carrying the key; and what is computed from
// them.
func (a *analysis) keyVars(f *found, fn *ssa.Function, reach *callgraph.Reach, st *keyState) map[*types.Var]bool {
	if vars, ok := st.memo[fn]; ok {
		return vars
	}
	if st.pending[fn] {
		st.cyclic = true
		return st.prev[fn]
	}
	st.pending[fn] = true
	defer delete(st.pending, fn)
	vars := map[*types.Var]bool{}
	if fn == f.entry {
		for v := range f.keyParams {
			vars[v] = true
		}
	} else {
		a.keyParamsFromCallers(f, fn, reach, st, vars)
	}
	if parent := fn.Parent(); parent != nil {
		// A closure sees its creator's variables.
		for v := range a.keyVars(f, parent, reach, st) {
			vars[v] = true
		}
	}
	if b, _ := a.readBody(fn); b != nil {
		taint(a.infoAt(b.Pos()), b, vars)
	}
	st.memo[fn] = vars
	return vars
}

// keyParamsFromCallers adds to vars the parameters of fn that a reached
// caller passes an argument carrying the key. An API object is never the
// key (see taint).
func (a *analysis) keyParamsFromCallers(f *found, fn *ssa.Function, reach *callgraph.Reach, st *keyState, vars map[*types.Var]bool) {
	recv := 0
	if fn.Signature.Recv() != nil {
		recv = 1 // SSA's Params start with the receiver; the call's arguments do not
	}
	for _, e := range a.prog.CallsInto(fn) {
		caller := e.Caller.Func
		if caller == fn || !reach.Has(caller) || e.Site == nil {
			continue
		}
		info := a.infoAt(posOf(caller))
		if info == nil {
			continue
		}
		callerVars := a.keyVars(f, caller, reach, st)
		for _, c := range a.callsIn(caller) {
			if c.expr.Lparen != e.Site.Pos() {
				continue
			}
			for i, p := range fn.Params[recv:] {
				v, ok := p.Object().(*types.Var)
				if arg := c.arg(i); ok && arg != nil && typeKey(v.Type()) != typeContext && !IsObjectPointer(v.Type()) && mentions(info, arg, callerVars) {
					vars[v] = true
				}
			}
		}
	}
}
