package locate

import (
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// Which calls are writes: the knowledge table's, and a generated typed
// client's write methods, told by the options struct they take.

// writeOf says whether a call writes, with its verb and target: from the
// knowledge table, or by the shape of generated typed clients (a method
// taking one of apimachinery's Create/Update/Patch/Delete options).
func (a *analysis) writeOf(info *types.Info, c call) (w writeDesc, ok bool) {
	if c.known {
		switch c.fact.Role {
		case RoleWrite, RoleEvent, RoleApply:
		default:
			return writeDesc{}, false
		}
		target := c.fact.Target
		if obj := c.arg(c.fact.Obj); obj != nil {
			name := typeName(info.TypeOf(obj))
			switch {
			case c.fact.Role == RoleEvent:
				target = "Event about " + name
			case target != "":
				target = name + " " + target
			default:
				target = name
			}
		}
		return writeDesc{verb: c.fact.Verb, target: target, status: c.fact.Status}, true
	}
	if c.fn == nil {
		return writeDesc{}, false
	}
	sig, okSig := info.TypeOf(c.expr.Fun).(*types.Signature)
	if !okSig || c.fn.Type().(*types.Signature).Recv() == nil {
		return writeDesc{}, false
	}
	v, isWrite := clientsetVerb(sig)
	if !isWrite {
		return writeDesc{}, false
	}
	target := "by name"
	for j := 0; j < sig.Params().Len(); j++ {
		if IsObjectPointer(sig.Params().At(j).Type()) {
			target = typeName(sig.Params().At(j).Type())
		}
	}
	status := generatedStatusWrites[c.fn.Name()] || subresourceArg(info, c, sig) == statusSubresource
	if status {
		target += " status"
	}
	return writeDesc{verb: v, target: target, status: status}, true
}

// clientsetVerb is the verb of a generated typed client's write method,
// said by the apimachinery options struct it takes (clientsetVerbs).
func clientsetVerb(sig *types.Signature) (string, bool) {
	for i := 0; i < sig.Params().Len(); i++ {
		if v, ok := clientsetVerbs[typeKey(sig.Params().At(i).Type())]; ok {
			return v, true
		}
	}
	return "", false
}

// subresourceArg is the constant a generated typed client's write is
// handed for its trailing subresources parameter (Patch(ctx, name, pt,
// data, opts, "status")), or "".
func subresourceArg(info *types.Info, c call, sig *types.Signature) string {
	n := sig.Params().Len()
	if !sig.Variadic() || len(c.expr.Args) < n || c.expr.Ellipsis.IsValid() {
		return ""
	}
	tv := info.Types[c.expr.Args[n-1]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return ""
	}
	return constant.StringVal(tv.Value)
}

// writeDesc describes a write: its verb, what it writes, and whether that
// is (or includes) the object's status.
type writeDesc struct {
	verb, target string
	status       bool
	// madeAt is the write itself when a helper of the tree's makes it
	// (the call described runs the helper); nil when the call writes.
	madeAt *call
}

// typeName is the bare name of a (pointer to a) named type.
func typeName(t types.Type) string {
	if n, ok := deref(t).(*types.Named); ok && n != nil {
		return n.Obj().Name()
	}
	if n, ok := t.(*types.Named); t == nil || ok && n == nil {
		return "object"
	}
	return types.TypeString(t, func(*types.Package) string { return "" })
}

// writeCall is a call that writes, found in a reached function (partial:
// in one left out of the call graph because it holds type errors).
type writeCall struct {
	call         call
	info         *types.Info
	verb, target string
	// status says the write is of the status subresource.
	status  bool
	partial bool
	// library are the writes a library's function the call runs makes
	// inside (writes_library.go).
	library []libWrite
}

// writeCalls lists the write calls of the reached functions in the order
// they are reached, leaving out those inside the implementation of another
// write (a typed client of the tree's own that calls the dynamic client).
func (a *analysis) writeCalls(reach *callgraph.Reach) []writeCall {
	var all []writeCall
	impl := map[*ssa.Function]bool{}
	for _, fn := range reach.Funcs() {
		info := a.infoAt(posOf(fn))
		if info == nil {
			continue
		}
		for _, c := range a.callsIn(fn) {
			if w, ok := a.writeOf(info, c); ok {
				all = append(all, writeCall{call: c, info: info, verb: w.verb, target: w.target, status: w.status})
				for _, o := range c.own {
					impl[o] = true
				}
			} else if ws := a.libraryWrites(c); len(ws) > 0 {
				w := libraryWriteDesc(info, c, ws)
				all = append(all, writeCall{call: c, info: info, verb: w.verb, target: w.target, status: w.status, library: ws})
			}
		}
	}
	a.unanalysedCalls(reach, func(fn *ssa.Function, _ *types.Func, info *types.Info, e *ast.CallExpr) {
		c := a.makeCall(info, e, fn)
		if w, ok := a.writeOf(info, c); ok {
			all = append(all, writeCall{call: c, info: info, verb: w.verb, target: w.target, status: w.status, partial: true})
		}
	})
	var out []writeCall
	for _, w := range all {
		if !impl[w.call.in] {
			out = append(out, w)
		}
	}
	return out
}

// pathToUnanalysed is the chain of calls from the entry to a function left
// out of the call graph: the path to a reached caller, then its call.
func (a *analysis) pathToUnanalysed(reach *callgraph.Reach, fn *ssa.Function) []*callgraph.Edge {
	for _, e := range a.prog.CallsInto(fn) {
		if reach.Has(e.Caller.Func) {
			return append(reach.Path(e.Caller.Func), e)
		}
	}
	return nil
}
