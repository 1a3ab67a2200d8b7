package locate

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// fieldDelegate is, for a controller whose entry a registered wrapper runs
// from a field, the wrapper's Reconcile and its call of the field.
type fieldDelegate struct {
	wrapper *ssa.Function
	// hops are the calls from the wrapper's Reconcile down to the call of
	// the field, that call last (the wrapper may make it in a helper).
	hops []*ssa.Call
	// all are the functions the call runs, one controller each.
	all []*ssa.Function
	// whole is the wrapper's own controller, which the functions' give
	// way to when they do not read kinds of their own (a strategy
	// chosen at construction).
	whole *found
}

// call is the call of the field.
func (d *fieldDelegate) call() *ssa.Call { return d.hops[len(d.hops)-1] }

// ownKinds keeps the controllers of the functions a wrapper runs from a
// field where each reads a kind no other of them reads (kuadrant's
// extensions: each binary's function is a controller of its policy); where
// any two read one kind, or one reads none that is known, the functions
// are strategies of one controller, the wrapper's, which takes their place.
func (a *analysis) ownKinds(out []*found) []*found {
	kinds := map[*fieldDelegate]map[*types.Named]bool{}
	distinct := map[*fieldDelegate]bool{}
	for _, f := range out {
		d := f.delegate
		if d == nil {
			continue
		}
		if kinds[d] == nil {
			kinds[d], distinct[d] = map[*types.Named]bool{}, true
		}
		k := (&pass{a: a, f: f, reach: a.reachOf(f)}).reread().kind
		if k == nil || kinds[d][k] {
			distinct[d] = false
		}
		kinds[d][k] = true
	}
	var kept []*found
	for _, f := range out {
		switch d := f.delegate; {
		case d == nil || distinct[d]:
			kept = append(kept, f)
		case !slices.Contains(kept, d.whole):
			d.whole.strategies = d
			kept = append(kept, d.whole)
		}
	}
	return kept
}

// fieldDelegates are the tree's functions a registered Reconcile hands the
// request to through a function, or an interface value, held in a field (a
// wrapper that runs the function each binary configures:
// ec.config.Reconcile(ctx, req, ec)), in its own body or in a helper of the
// tree's it calls (statically), as the call graph finds them behind that
// call, with the calls down to it. Fewer than two give nil: one function
// there is the wrapper's own path, as any helper; several are one
// controller each, the wrapper registered once for all.
func (a *analysis) fieldDelegates(entry *ssa.Function) ([]*ssa.Function, []*ssa.Call) {
	down := map[*ssa.Function]*ssa.Call{entry: nil}
	queue := []*ssa.Function{entry}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if g := c.Call.StaticCallee(); g != nil {
					if _, seen := down[g]; !seen && a.prog.Own[g] && g.Synthetic == "" {
						down[g] = c
						queue = append(queue, g)
					}
					continue
				}
				if !loadedFromField(c.Call.Value) || !handsRequest(c.Call.Args) {
					continue
				}
				var fns []*ssa.Function
				for _, e := range a.prog.CallsFrom(fn) {
					if e.Site != c {
						continue
					}
					callee := boundMethod(e.Callee.Func)
					if a.prog.Own[callee] && takesRequest(callee) && !slices.Contains(fns, callee) {
						fns = append(fns, callee)
					}
				}
				if len(fns) < 2 {
					return nil, nil
				}
				slices.SortFunc(fns, func(x, y *ssa.Function) int { return int(x.Pos() - y.Pos()) })
				hops := []*ssa.Call{c}
				for at := fn; down[at] != nil; at = down[at].Parent() {
					hops = append([]*ssa.Call{down[at]}, hops...)
				}
				return fns, hops
			}
		}
	}
	return nil, nil
}

// loadedFromField reports whether a called function value, or the
// interface value whose method is called, is read from a struct field
// (directly, or through a pointer to the struct).
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

// handsBack reports whether the wrapper asks for no requeue of its own:
// each return of each function from its Reconcile down to the call of the
// field hands back the result the next call down made, or a zero result,
// or fails (an error that is not nil, whatever result it carries:
// controller-runtime backs off). The function's requeue rows are then the
// controller's, the wrapper's failures further paths back.
func (d *fieldDelegate) handsBack() bool {
	for _, call := range d.hops {
		for _, b := range call.Parent().Blocks {
			for _, instr := range b.Instrs {
				r, ok := instr.(*ssa.Return)
				if !ok || len(r.Results) != 2 {
					continue
				}
				if ex, ok := resultOf(r, 0).(*ssa.Extract); ok && ex.Tuple == call && ex.Index == 0 {
					continue
				}
				if c, ok := resultOf(r, 0).(*ssa.Const); ok && c.Value == nil {
					continue // Result{}
				}
				if c, ok := resultOf(r, 1).(*ssa.Const); !ok || !c.IsNil() {
					continue // a failure: the error comes back
				}
				return false
			}
		}
	}
	return true
}

// fieldRequeues leaves not settled the requeue rows of a function a
// wrapper runs from a field where the wrapper asks for a requeue of its
// own around the call, and of a wrapper whose functions are strategies
// where the requeue found is one strategy's.
func (a *analysis) fieldRequeues(f *found, rows map[string]Row) {
	if d := f.delegate; d != nil && !d.handsBack() {
		unsettleRows(rows, []string{RowRequeueError, RowRequeueSuccess}, fmt.Sprintf("not settled: the registered reconciler is %s, which runs this function from a field at %s, as it runs each other function the tree stores there (a controller each); the wrapper asks for a requeue of its own around the call, which is not read", a.funcName(d.wrapper), fileLine(a.site(d.call().Pos()))))
	}
	if d := f.strategies; d != nil {
		entry := a.funcSite(f.entry).Func
		for _, id := range []string{RowRequeueError, RowRequeueSuccess} {
			if s, ok := rows[id].Primary(); ok && s.Func != entry {
				unsettleRows(rows, []string{id}, fmt.Sprintf("not settled: the entry hands the request, at %s, to one of %d functions the tree stores in a field, chosen where the reconciler is made: the requeue found is one function's, and which one a pass runs is not followed", fileLine(a.site(d.call().Pos())), len(d.all)))
			}
		}
	}
}
