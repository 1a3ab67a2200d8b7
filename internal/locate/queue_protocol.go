package locate

import "go/types"

// A work queue is known by what it does, not by its package: its Get hands
// out an item that stays in flight until Done is called with that item.
// client-go's workqueue is in the knowledge table; a queue of another
// library (a priority queue, a queue of commands) that keeps the same
// protocol is a work queue too.

// protocolQueueGet is the fact of a Get of a queue that no entry of the
// knowledge table names.
var protocolQueueGet = Fact{Role: RoleQueueGet, Obj: -1, Key: -1, Arg: -1}

// isQueueGet reports whether fn hands out a work queue's next item: a Get
// the knowledge table names, or a method Get taking nothing (or only a
// context) whose first result is what a Done method of the same receiver
// takes back.
func isQueueGet(fn *types.Func) bool {
	if knowledge[funcKey(fn)].Role == RoleQueueGet {
		return true
	}
	return keepsQueueProtocol(fn)
}

// keepsQueueProtocol reports whether a method Get is a work queue's by its
// protocol (isQueueGet).
func keepsQueueProtocol(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Get" {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || sig.Results().Len() == 0 {
		return false
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if typeKey(sig.Params().At(i).Type()) != typeContext {
			return false
		}
	}
	item := sig.Results().At(0).Type()
	done, _, _ := types.LookupFieldOrMethod(sig.Recv().Type(), true, fn.Pkg(), "Done")
	doneFn, ok := done.(*types.Func)
	if !ok {
		return false
	}
	ds := doneFn.Type().(*types.Signature)
	return ds.Params().Len() == 1 && ds.Results().Len() == 0 && types.Identical(ds.Params().At(0).Type(), item)
}
