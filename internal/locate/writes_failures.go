package locate

// The failures of a pass: which errors a pass that succeeds hands back as
// nil, so that a test of them goes the nil way (steadyValue).

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// passFailure reports whether v is the error a call hands back as its
// last result, or a merge of such errors and nil (err assigned by each
// step of a chain the steps test against nil): on a pass that succeeds it
// is nil. A read by key (the knowledge table's RoleRead, or any function
// handed a key) is left out, what it looks for may be absent on such a
// pass, but for the read of the primary object by the request's key: an
// unchanged object exists.
func passFailure(v ssa.Value, kind *types.Named, own map[*ssa.Function]bool, seen map[*ssa.Phi]bool) bool {
	if !isErrorType(v.Type()) {
		return false
	}
	var call *ssa.CallCommon
	switch x := v.(type) {
	case *ssa.Extract:
		c, ok := x.Tuple.(*ssa.Call)
		if !ok || x.Index != x.Tuple.Type().(*types.Tuple).Len()-1 {
			return false
		}
		call = &c.Call
	case *ssa.Call:
		call = &x.Call
	case *ssa.UnOp:
		// A named error result a deferred closure reads lives in memory:
		// what each store to it holds.
		alloc, ok := x.X.(*ssa.Alloc)
		if !ok || x.Op != token.MUL {
			return false
		}
		return storedFailures(alloc, kind, own, seen)
	case *ssa.Phi:
		if seen[x] {
			return true
		}
		seen[x] = true
		return failuresOrNil(x.Edges, kind, own, seen)
	default:
		return false
	}
	if callee := call.StaticCallee(); callee != nil && callee.Parent() != nil && own[rootOf(callee)] {
		// A closure of the tree's called where it stands (func() error
		// { return r.Get(…) }()): the errors it returns.
		return closureFailures(callee, kind, own, seen)
	}
	fn := calleeObj(call)
	if fn == nil {
		return false
	}
	f, known := knowledge[funcKey(fn)]
	if known && f.Role == RoleRead {
		// The primary object's own read, by the request's key, finds it:
		// it exists. (The receiver of a method, unless bound, is the
		// first argument here.)
		args, shift := callArgsSSA(call), 0
		if sig := fn.Type().(*types.Signature); sig.Recv() != nil && len(args) == sig.Params().Len()+1 {
			shift = 1
		}
		obj, key := f.Obj+shift, f.Key+shift
		return f.Obj >= 0 && f.Key >= 0 && obj < len(args) && key < len(args) &&
			isKind(madeFrom(args[obj]).Type(), kind) && fromRequest(args[key])
	}
	if readsByKey(fn) {
		// A read by key, of the tree's or through an interface, may
		// find nothing on such a pass (a lock, a stale copy).
		return false
	}
	if callee := call.StaticCallee(); callee != nil && own[callee] {
		return true
	}
	return !known || f.Role != RoleNewError
}

// rootOf is the function a closure is declared in, or fn.
func rootOf(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// closureFailures reports whether every error a closure returns is a pass
// failure (passFailure) or nil.
func closureFailures(fn *ssa.Function, kind *types.Named, own map[*ssa.Function]bool, seen map[*ssa.Phi]bool) bool {
	var errs []ssa.Value
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 {
			errs = append(errs, resultOf(ret, len(ret.Results)-1))
		}
	}
	return failuresOrNil(errs, kind, own, seen)
}

// failuresOrNil reports whether each of vals is nil or a pass failure
// (passFailure), and one at least is not nil.
func failuresOrNil(vals []ssa.Value, kind *types.Named, own map[*ssa.Function]bool, seen map[*ssa.Phi]bool) bool {
	some := false
	for _, v := range vals {
		if k, isConst := v.(*ssa.Const); isConst && k.IsNil() {
			continue
		}
		if !passFailure(v, kind, own, seen) {
			return false
		}
		some = true
	}
	return some
}

// readsByKey reports whether fn takes an object's key (a NamespacedName,
// client.ObjectKey) and hands back an error: what reads by key does.
func readsByKey(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() == 0 || !isErrorType(sig.Results().At(sig.Results().Len()-1).Type()) {
		return false
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if typeKey(sig.Params().At(i).Type()) == typeNamespacedName {
			return true
		}
	}
	return false
}

// fromRequest reports whether v is the key of a reconcile request handed
// to the function (req.NamespacedName), or read from it.
func fromRequest(v ssa.Value) bool {
	for {
		switch x := v.(type) {
		case *ssa.Field:
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Parameter:
			return typeKey(x.Type()) == typeRequest
		case *ssa.FreeVar:
			// A closure's captured variable: what its maker binds.
			bound := boundTo(x)
			if bound == nil {
				return false
			}
			v = bound
		case *ssa.Alloc:
			// A request parameter whose address is taken lives in memory
			// (spilledParam).
			p := spilledParam(x)
			return p != nil && typeKey(p.Type()) == typeRequest
		default:
			return false
		}
	}
}

// boundTo is the value the closure's maker binds a free variable to (nil
// when the closure is made in no place found).
func boundTo(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	i := slices.Index(fn.FreeVars, fv)
	if fn.Parent() == nil || i < 0 {
		return nil
	}
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn && i < len(mc.Bindings) {
				return mc.Bindings[i]
			}
		}
	}
	return nil
}

// storedFailures reports whether every store to the variable alloc holds
// a pass failure (passFailure) or nil, and nothing else may store to it: a
// closure capturing it runs deferred, after every test of it.
func storedFailures(alloc *ssa.Alloc, kind *types.Named, own map[*ssa.Function]bool, seen map[*ssa.Phi]bool) bool {
	var stored []ssa.Value
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp:
		case *ssa.Store:
			if r.Addr != alloc {
				return false
			}
			if load, ok := r.Val.(*ssa.UnOp); ok && load.Op == token.MUL && load.X == alloc {
				// return res, err: the variable's own value, stored back.
				continue
			}
			stored = append(stored, r.Val)
		case *ssa.MakeClosure:
			for _, use := range *r.Referrers() {
				if _, deferred := use.(*ssa.Defer); !deferred {
					return false
				}
			}
		default:
			return false
		}
	}
	return failuresOrNil(stored, kind, own, seen)
}
