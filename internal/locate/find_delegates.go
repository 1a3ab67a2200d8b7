package locate

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// fieldDelegate is, for a controller whose entry a registered wrapper runs
// from a function-typed field, the wrapper's Reconcile and its call of the
// field.
type fieldDelegate struct {
	wrapper *ssa.Function
	call    token.Pos
	// all are the functions the call runs, one controller each.
	all []*ssa.Function
}

// fieldDelegates are the tree's functions a registered Reconcile hands the
// request to through a function held in a field (a wrapper that runs the
// function each binary configures: ec.config.Reconcile(ctx, req, ec)), as
// the call graph finds them behind that call, with the call. Fewer than two
// give nil: one function there is the wrapper's own path, as any helper;
// several are one controller each, the wrapper registered once for all.
func (a *analysis) fieldDelegates(entry *ssa.Function) ([]*ssa.Function, token.Pos) {
	for _, b := range entry.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok || c.Call.IsInvoke() || c.Call.StaticCallee() != nil || !loadedFromField(c.Call.Value) || !handsRequest(c.Call.Args) {
				continue
			}
			var fns []*ssa.Function
			for _, e := range a.prog.CallsFrom(entry) {
				if e.Site != c {
					continue
				}
				callee := boundMethod(e.Callee.Func)
				if a.prog.Own[callee] && takesRequest(callee) && !slices.Contains(fns, callee) {
					fns = append(fns, callee)
				}
			}
			if len(fns) < 2 {
				return nil, token.NoPos
			}
			slices.SortFunc(fns, func(x, y *ssa.Function) int { return int(x.Pos() - y.Pos()) })
			return fns, c.Pos()
		}
	}
	return nil, token.NoPos
}

// loadedFromField reports whether a called function value is read from a
// struct field (directly, or through a pointer to the struct).
func loadedFromField(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Field:
		return true
	case *ssa.UnOp:
		if x.Op == token.MUL {
			_, ok := x.X.(*ssa.FieldAddr)
			return ok
		}
	}
	return false
}

// handsRequest reports whether a call is handed a request (the entry's:
// it has no other).
func handsRequest(args []ssa.Value) bool {
	return slices.ContainsFunc(args, func(v ssa.Value) bool {
		return typeKey(v.Type()) == typeRequest
	})
}
