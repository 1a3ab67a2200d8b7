package locate

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"golang.org/x/tools/go/ssa"
)

// handedInReach narrows what a call may run when it calls a parameter of
// its function (statusCleanup() in a helper several controllers share,
// each handing its own closure): to the functions that the calls of that
// function on this controller's path hand it, each a closure or a function
// named at the call (a method value: the method). It is own unchanged when the call is not of a
// parameter, or when any such call hands a value not read that way (a
// field, a parameter of its own): then every function the graph gives
// stays possible.
func (a *analysis) handedInReach(reach *callgraph.Reach, fn *ssa.Function, ce *ast.CallExpr, own []*ssa.Function) []*ssa.Function {
	if reach == nil || len(own) < 2 {
		return own
	}
	param := calledParam(fn, ce)
	if param < 0 {
		return own
	}
	var handed []*ssa.Function
	for _, e := range a.prog.CallsInto(fn) {
		if !reach.Has(e.Caller.Func) {
			continue
		}
		if e.Site == nil {
			return own
		}
		com := e.Site.Common()
		i := param
		switch {
		case com.IsInvoke():
			i-- // the receiver is the interface value, not an argument
		case com.StaticCallee() != fn && fn.Signature.Recv() != nil:
			return own // a method run through a function value: its wrapper's arguments are not fn's
		}
		if i < 0 || i >= len(com.Args) {
			return own
		}
		var f *ssa.Function
		switch v := com.Args[i].(type) {
		case *ssa.MakeClosure:
			f, _ = v.Fn.(*ssa.Function)
		case *ssa.Function:
			f = v
		}
		if f == nil {
			return own
		}
		handed = append(handed, boundMethod(f))
	}
	var out []*ssa.Function
	for _, f := range own {
		if slices.Contains(handed, f) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return own
	}
	return out
}

// boundMethod is the method a method value's wrapper runs (r.release
// handed as a func value), or f itself.
func boundMethod(f *ssa.Function) *ssa.Function {
	if !strings.HasPrefix(f.Synthetic, "bound method wrapper") {
		return f
	}
	for _, blk := range f.Blocks {
		for _, ins := range blk.Instrs {
			if c, ok := ins.(ssa.CallInstruction); ok {
				if callee := c.Common().StaticCallee(); callee != nil {
					return callee
				}
			}
		}
	}
	return f
}

// calledParam is the index in fn.Params of the parameter a call of fn's
// calls (statusCleanup() where statusCleanup is a parameter), or -1.
func calledParam(fn *ssa.Function, ce *ast.CallExpr) int {
	for _, blk := range fn.Blocks {
		for _, ins := range blk.Instrs {
			c, ok := ins.(ssa.CallInstruction)
			if !ok || c.Pos() != ce.Lparen {
				continue
			}
			p, ok := c.Common().Value.(*ssa.Parameter)
			if !ok || c.Common().IsInvoke() {
				return -1
			}
			return slices.Index(fn.Params, p)
		}
	}
	return -1
}

// madeValues are the values a call of fn at ce hands back, its error
// result aside: what a helper building the finalizer's removal makes (the
// patch FinalizerDeletePatch marshals).
func madeValues(fn *ssa.Function, ce *ast.CallExpr) map[ssa.Value]bool {
	out := map[ssa.Value]bool{}
	sc := ssaCallAt(fn, ce.Lparen)
	if sc == nil {
		return out
	}
	tuple, ok := sc.Type().(*types.Tuple)
	if !ok {
		out[sc] = true
		return out
	}
	for i := range tuple.Len() {
		if v := resultAt(sc, i); v != nil && !isErrorType(tuple.At(i).Type()) {
			out[v] = true
		}
	}
	return out
}

// persistsMade reports whether a call of fn only sends what made holds:
// it is handed one of made (handsMade), every write it reaches is an
// update or a patch, it deletes nothing, and all it reaches is analysed.
func (a *analysis) persistsMade(fn *ssa.Function, c call, made map[ssa.Value]bool) bool {
	if len(made) == 0 || !a.handsMade(fn, c.expr, made) {
		return false
	}
	sub := a.prog.Reachable(c.own...)
	if len(sub.Unanalysed) > 0 {
		return false
	}
	for _, w := range a.writeCalls(sub) {
		if w.verb != verbUpdate && w.verb != verbPatch {
			return false
		}
	}
	return true
}

// handsMade reports whether a call of fn at ce is handed one of made, as
// it is or through a library call wrapping it (client.RawPatch(t, patch)):
// the call persists what made holds.
func (a *analysis) handsMade(fn *ssa.Function, ce *ast.CallExpr, made map[ssa.Value]bool) bool {
	sc := ssaCallAt(fn, ce.Lparen)
	if sc == nil || len(made) == 0 {
		return false
	}
	var from func(v ssa.Value, depth int) bool
	from = func(v ssa.Value, depth int) bool {
		if made[v] {
			return true
		}
		if depth > 2 {
			return false
		}
		switch x := v.(type) {
		case *ssa.MakeInterface:
			return from(x.X, depth+1)
		case *ssa.ChangeType:
			return from(x.X, depth+1)
		case *ssa.Convert:
			return from(x.X, depth+1)
		case *ssa.Call:
			if callee := x.Call.StaticCallee(); callee == nil || a.inTree(callee) {
				return false
			}
			return slices.ContainsFunc(x.Call.Args, func(arg ssa.Value) bool { return from(arg, depth+1) })
		}
		return false
	}
	return slices.ContainsFunc(sc.Call.Args, func(arg ssa.Value) bool { return from(arg, 0) })
}
