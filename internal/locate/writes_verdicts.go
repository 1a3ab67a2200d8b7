package locate

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// verdictTests are the blocks of fn that end in a test of a verdict an
// interface value hands back (if v := step(); v.Completed() { return
// v.Output() }), or of whether it hands back a value at all (next, err :=
// a.Handle(ctx, obj); if next != nil {…}): which implementation runs,
// and so which way the pass goes, is not followed.
func verdictTests(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	for _, b := range fn.Blocks {
		cond, ok := blockTest(b)
		if !ok {
			continue
		}
		if c, ok := cond.(*ssa.Call); ok && c.Call.IsInvoke() {
			out[b] = true
		}
		if bin, ok := cond.(*ssa.BinOp); ok && (bin.Op == token.EQL || bin.Op == token.NEQ) {
			for _, pair := range [][2]ssa.Value{{bin.X, bin.Y}, {bin.Y, bin.X}} {
				if k, ok := pair[1].(*ssa.Const); ok && k.IsNil() && invokeResult(pair[0]) {
					out[b] = true
				}
			}
		}
	}
	return out
}

// invokeResult reports whether v is what a call through an interface
// hands back (the call's value, or one of its results) and not an error.
func invokeResult(v ssa.Value) bool {
	if isErrorType(v.Type()) {
		return false
	}
	if x, ok := v.(*ssa.Extract); ok {
		v = x.Tuple
	}
	c, ok := v.(*ssa.Call)
	return ok && c.Call.IsInvoke()
}

// helperVerdicts are the blocks of fn that end in a test of the bool a
// function of the tree's (own) hands back first, that is not handed two
// values of one type to compare (finalizerAdded, err := syncer.Sync(obj);
// if finalizerAdded { return }): which way it goes on an unchanged pass
// is what that function computes, not followed here.
func helperVerdicts(fn *ssa.Function, own map[*ssa.Function]bool) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	if own == nil {
		return out
	}
	for _, b := range fn.Blocks {
		cond, ok := blockTest(b)
		if !ok {
			continue
		}
		if x, ok := cond.(*ssa.Extract); ok && x.Index == 0 {
			cond = x.Tuple
		}
		c, ok := cond.(*ssa.Call)
		if !ok {
			continue
		}
		callee := c.Call.StaticCallee()
		if callee == nil || !own[callee] || !firstResultBool(callee) || comparesTwo(c.Call.Args) {
			continue
		}
		out[b] = true
	}
	return out
}

// handedValueTests are the blocks of fn that end in a test of values its
// callers hand it (a flag, a result, a count: a parameter that is no
// pointer, map, slice or interface) and constants, an error's test
// against nil aside (if res.Requeue { … }): which way it goes is what the
// caller computed, not followed here.
func handedValueTests(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ifs, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		if c, ok := ifs.Cond.(*ssa.BinOp); ok && (nilErrorTest(c.X, c.Y) || nilErrorTest(c.Y, c.X)) {
			continue
		}
		if only, touches := handedOnly(ifs.Cond, 0); only && touches {
			out[b] = true
		}
	}
	return out
}

// handedOnly reports whether v is computed only from the values a
// function is handed by value and constants, and whether it reads one.
func handedOnly(v ssa.Value, depth int) (only, touches bool) {
	if depth > 6 {
		return false, false
	}
	both := func(xs ...ssa.Value) (bool, bool) {
		only, touches := true, false
		for _, x := range xs {
			o, t := handedOnly(x, depth+1)
			only, touches = only && o, touches || t
		}
		return only, touches
	}
	switch v := v.(type) {
	case *ssa.Const:
		return true, false
	case *ssa.Parameter:
		switch v.Type().Underlying().(type) {
		case *types.Basic, *types.Struct:
			return !isErrorType(v.Type()), true
		}
	case *ssa.UnOp:
		switch v.Op {
		case token.ARROW:
		case token.MUL:
			// a field of a parameter kept in a local of its own (its
			// methods take its address)
			if p := spilledParam(v.X); p != nil {
				return handedOnly(p, depth+1)
			}
		default:
			return both(v.X)
		}
	case *ssa.BinOp:
		return both(v.X, v.Y)
	case *ssa.Field:
		return both(v.X)
	}
	return false, false
}

// spilledParam is the parameter whose local copy an address (or the
// address of a field in it) points into: the local holds only the
// parameter stored into it; nil otherwise.
func spilledParam(addr ssa.Value) ssa.Value {
	for {
		fa, ok := addr.(*ssa.FieldAddr)
		if !ok {
			break
		}
		addr = fa.X
	}
	if fv, ok := addr.(*ssa.FreeVar); ok {
		// A closure's captured local: its maker's, when the closure
		// never stores to it.
		for _, r := range *fv.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == fv {
				return nil
			}
		}
		addr = boundTo(fv)
	}
	al, ok := addr.(*ssa.Alloc)
	if !ok || al.Referrers() == nil {
		return nil
	}
	var param ssa.Value
	for _, r := range *al.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == al {
			p, ok := st.Val.(*ssa.Parameter)
			if !ok || param != nil {
				return nil
			}
			param = p
		}
	}
	return param
}

// statusTests are the blocks of fn that end in a library call's test of
// the primary object's status (meta.IsStatusConditionTrue(obj.Status.
// Conditions, t)): it holds what earlier passes left there, which the
// search does not follow.
func statusTests(fn *ssa.Function, kind *types.Named, own map[*ssa.Function]bool) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	if kind == nil || own == nil {
		return out
	}
	for _, b := range fn.Blocks {
		cond, ok := blockTest(b)
		if !ok {
			continue
		}
		c, ok := cond.(*ssa.Call)
		if !ok || c.Call.StaticCallee() == nil || own[c.Call.StaticCallee()] {
			continue
		}
		for _, arg := range c.Call.Args {
			if readsStatus(arg, kind, 0) {
				out[b] = true
			}
		}
	}
	return out
}

// readsStatus reports whether v is read from the Status field of a value
// of kind: through loads, fields and their addresses.
func readsStatus(v ssa.Value, kind *types.Named, depth int) bool {
	if depth > 6 {
		return false
	}
	var x ssa.Value
	var field int
	switch v := v.(type) {
	case *ssa.UnOp:
		return v.Op == token.MUL && readsStatus(v.X, kind, depth+1)
	case *ssa.FieldAddr:
		x, field = v.X, v.Field
	case *ssa.Field:
		x, field = v.X, v.Field
	default:
		return false
	}
	if n, ok := types.Unalias(deref(x.Type())).(*types.Named); ok && n.Origin() == kind.Origin() {
		st, ok := n.Underlying().(*types.Struct)
		return ok && st.Field(field).Name() == "Status"
	}
	return readsStatus(x, kind, depth+1)
}

// comparesTwo reports whether two of a call's arguments (the receiver
// aside) share a type: a comparison of two states.
func comparesTwo(args []ssa.Value) bool {
	for i := range args {
		for j := i + 1; j < len(args); j++ {
			if types.Identical(args[i].Type(), args[j].Type()) {
				return true
			}
		}
	}
	return false
}

// nilErrorWays adds to taken, for the tests of an error against nil in
// fns, the way a succeeding pass takes: the error's nil way.
func nilErrorWays(fns []*ssa.Function, taken map[*ssa.BasicBlock]int) map[*ssa.BasicBlock]int {
	out := maps.Clone(taken)
	if out == nil {
		out = map[*ssa.BasicBlock]int{}
	}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			if len(b.Instrs) == 0 || len(b.Succs) != 2 {
				continue
			}
			ifs, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			c, ok := ifs.Cond.(*ssa.BinOp)
			if !ok || c.Op != token.EQL && c.Op != token.NEQ || !nilErrorTest(c.X, c.Y) && !nilErrorTest(c.Y, c.X) {
				continue
			}
			if _, set := out[b]; set {
				continue
			}
			out[b] = 1 // err != nil: the else way
			if c.Op == token.EQL {
				out[b] = 0
			}
		}
	}
	return out
}

// nilErrorTest reports whether v is an error and other the nil constant.
func nilErrorTest(v, other ssa.Value) bool {
	k, ok := other.(*ssa.Const)
	return ok && k.IsNil() && isErrorType(v.Type())
}

// verdictPass is the reading of a pass that lets the tests of what the
// search does not follow (either, with verdicts) and the tests of the
// object's desired state go a write's way, and the tests of errors their nil way: computed once per
// controller, when a write is not settled by the readings before it.
type verdictPass struct {
	view  passView
	taken map[*ssa.BasicBlock]int
	via   map[*ssa.Function]*callgraph.Edge
}

// verdictNote is the note of a write made on every pass only if the
// verdicts tested on its way let the pass go on: "" when even so it is
// not, or when no verdict is tested on its way.
func (a *analysis) verdictNote(vp **verdictPass, f *found, kind *types.Named, reach *callgraph.Reach, normal map[*ssa.Function][]*ssa.Return, taken map[*ssa.BasicBlock]int, made map[*types.Named]bool, fn *ssa.Function, pos token.Pos) string {
	if *vp == nil {
		view := passView{anyCallee: true, loopsRun: true, verdicts: true, own: a.prog.Own}
		if kind != nil {
			view.object = a.newDesiredState(kind, reach.Funcs())
		}
		ways := nilErrorWays(reach.Funcs(), taken)
		*vp = &verdictPass{view: view, taken: ways, via: a.alwaysReached(a.passRoots(f), normal, ways, made, view)}
	}
	p := *vp
	if !a.always(fn, pos, p.via, normal, p.taken, p.view) {
		return ""
	}
	t := testAround(fn, pos, verdictTests, p.via)
	if kind != nil {
		if h := testAround(fn, pos, func(fn *ssa.Function) map[*ssa.BasicBlock]bool { return statusTests(fn, kind, a.prog.Own) }, p.via); h > t {
			s := a.site(h)
			return fmt.Sprintf("not settled: made on every pass if the test at %s:%d of what the %s's status holds goes the write's way (what earlier passes left there is not followed)", s.File, s.Line, kind.Obj().Name())
		}
	}
	if h := testAround(fn, pos, handedValueTests, p.via); h > t {
		s := a.site(h)
		return fmt.Sprintf("not settled: made on every pass if the test at %s:%d of what its caller hands it goes the write's way (the caller's value is not followed)", s.File, s.Line)
	}
	if h := testAround(fn, pos, func(fn *ssa.Function) map[*ssa.BasicBlock]bool { return helperVerdicts(fn, a.prog.Own) }, p.via); h > t {
		s := a.site(h)
		return fmt.Sprintf("not settled: made on every pass if the bool tested at %s:%d, which a function of the tree's hands back, lets the pass go on (what it hands back on an unchanged pass is not followed)", s.File, s.Line)
	}
	if !t.IsValid() {
		return ""
	}
	s := a.site(t)
	return fmt.Sprintf("not settled: made on every pass if the verdict tested at %s:%d, which an interface value hands back, lets the pass go on (the implementation that runs is not followed)", s.File, s.Line)
}

// blockTest is the condition a block ends in an if on, its negation
// stripped (which way it goes is asked of the value tested).
func blockTest(b *ssa.BasicBlock) (ssa.Value, bool) {
	if len(b.Instrs) == 0 {
		return nil, false
	}
	ifs, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, false
	}
	cond := ifs.Cond
	if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
		cond = not.X
	}
	return cond, true
}
