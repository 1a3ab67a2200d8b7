package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// registration is one informer event handler registration.
type registration struct {
	call call
	// typ is the type the informer watches (nil when unknown).
	typ      *types.Named
	handlers []handlerFunc
}

// handlerFunc is one function-valued field of a registered handler.
type handlerFunc struct {
	event string // add, update, delete
	field *ast.KeyValueExpr
	fn    *ssa.Function
	lit   *ast.FuncLit
}

// registrations finds every informer event handler the tree registers.
func (a *analysis) registrations() []*registration {
	var out []*registration
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		fn := a.bySyntax[fd]
		a.allCalls(fd, func(c call) {
			if !c.known || c.fact.Role != RoleAddHandler {
				return
			}
			r := &registration{call: c}
			a.handlerFuncs(info, c.arg(c.fact.Arg), &r.handlers)
			if ci := callInstr(fn, c.expr.Lparen); ci != nil {
				// The informer is the receiver: the invoked interface value,
				// or a concrete method's first argument.
				if ci.Common().IsInvoke() {
					r.typ = a.informerType(ci.Common().Value, 0)
				} else if len(ci.Common().Args) > 0 {
					r.typ = a.informerType(ci.Common().Args[0], 0)
				}
			}
			out = append(out, r)
		})
	}
	return out
}

// handlerFuncs reads the functions of a handler struct literal.
func (a *analysis) handlerFuncs(info *types.Info, e ast.Expr, out *[]handlerFunc) {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return
	}
	owner := info.TypeOf(lit)
	keyedFields(info, lit, func(v *types.Var, kv *ast.KeyValueExpr) {
		switch ev := handlerFields[fieldKey(v, owner)]; ev {
		case "":
		case eventNested:
			a.handlerFuncs(info, kv.Value, out)
		default:
			h := handlerFunc{event: ev, field: kv}
			value := ast.Unparen(kv.Value)
			if call, ok := value.(*ast.CallExpr); ok && len(call.Args) == 1 {
				if _, wrapper := ast.Unparen(call.Fun).(*ast.FuncLit); wrapper {
					// A wrapper around a named handler, called with it
					// (the STAGE patch writes one): the handler is its
					// argument.
					value = ast.Unparen(call.Args[0])
				}
			}
			switch x := value.(type) {
			case *ast.FuncLit:
				h.lit, h.fn = x, a.bySyntax[x]
			case *ast.SelectorExpr:
				h.fn = a.ownFunc(info.Uses[x.Sel])
			case *ast.Ident:
				h.fn = a.ownFunc(info.Uses[x])
			}
			if h.fn != nil {
				*out = append(*out, h)
			}
		}
	})
}

// ownFunc returns the SSA function of an own function object.
func (a *analysis) ownFunc(obj types.Object) *ssa.Function {
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	sf := a.prog.Func(fn.Origin())
	if sf == nil || !a.prog.Own[sf] {
		return nil
	}
	return sf
}

// callInstr finds the call at pos in fn or the closures it holds.
func callInstr(fn *ssa.Function, pos token.Pos) ssa.CallInstruction {
	if fn == nil {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ci, ok := instr.(ssa.CallInstruction); ok && ci.Common().Pos() == pos {
				return ci
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		if ci := callInstr(anon, pos); ci != nil {
			return ci
		}
	}
	return nil
}

// informerType follows an informer value back to what says the type it
// watches: a generated informer (its Lister's List returns []*T), or a
// shared informer made with an example object of type *T.
func (a *analysis) informerType(v ssa.Value, depth int) *types.Named {
	if v == nil || depth > 8 {
		return nil
	}
	if t := listedType(v.Type()); t != nil {
		return t
	}
	switch x := v.(type) {
	case *ssa.Call:
		if x.Call.IsInvoke() {
			return a.informerType(x.Call.Value, depth+1)
		}
		if callee := x.Call.StaticCallee(); callee != nil {
			if obj, ok := callee.Object().(*types.Func); ok {
				if fact, known := knowledge[funcKey(obj)]; known && fact.Role == RoleNewInformer && fact.Arg < len(x.Call.Args) {
					return exampleType(x.Call.Args[fact.Arg])
				} else if known && fact.Role == RoleNewDynamicInformer {
					return importedNamed(obj.Pkg(), typeUnstructured)
				}
			}
			return a.returned(callee, 0, depth)
		}
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok {
			if callee := call.Call.StaticCallee(); callee != nil {
				return a.returned(callee, x.Index, depth)
			}
		}
	case *ssa.Parameter:
		fn := x.Parent()
		idx := -1
		for i, p := range fn.Params {
			if p == x {
				idx = i
			}
		}
		if idx < 0 {
			return nil
		}
		for _, e := range a.prog.CallsInto(fn) {
			common := e.Site.Common()
			args := common.Args
			if common.IsInvoke() {
				args = append([]ssa.Value{common.Value}, args...)
			}
			if idx < len(args) {
				if t := a.informerType(args[idx], depth+1); t != nil {
					return t
				}
			}
		}
	case *ssa.Phi:
		for _, e := range x.Edges {
			if t := a.informerType(e, depth+1); t != nil {
				return t
			}
		}
	case *ssa.ChangeInterface:
		return a.informerType(x.X, depth+1)
	case *ssa.MakeInterface:
		return a.informerType(x.X, depth+1)
	}
	return nil
}

// returned follows result i of an own function's returns.
func (a *analysis) returned(fn *ssa.Function, i, depth int) *types.Named {
	if !a.prog.Own[fn] {
		return nil
	}
	for _, b := range fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && i < len(r.Results) {
			if t := a.informerType(resultOf(r, i), depth+1); t != nil {
				return t
			}
		}
	}
	return nil
}

// exampleType is the object type of an informer's example object.
func exampleType(v ssa.Value) *types.Named {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	if IsObjectPointer(v.Type()) {
		n, _ := deref(v.Type()).(*types.Named)
		return n
	}
	return nil
}

// importedNamed is the named type key (typeKey's form) of pkg or of a
// package it imports at any depth, or nil.
func importedNamed(pkg *types.Package, key string) *types.Named {
	seen := map[*types.Package]bool{}
	queue := []*types.Package{pkg}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == nil || seen[p] {
			continue
		}
		seen[p] = true
		if name, ok := strings.CutPrefix(key, p.Path()+"."); ok && !strings.Contains(name, "/") {
			if tn, ok := p.Scope().Lookup(name).(*types.TypeName); ok {
				n, _ := tn.Type().(*types.Named)
				return n
			}
		}
		queue = append(queue, p.Imports()...)
	}
	return nil
}

// listedType is T when t has a Lister method whose result lists []*T: the
// shape of generated informers, client-go's own included.
func listedType(t types.Type) *types.Named {
	lister := methodResult(t, generatedListerMethod, 0)
	if lister == nil {
		return nil
	}
	list := methodResult(lister, generatedListMethod, 0)
	if list == nil {
		return nil
	}
	sl, ok := list.Underlying().(*types.Slice)
	if !ok || !IsObjectPointer(sl.Elem()) {
		return nil
	}
	n, _ := deref(sl.Elem()).(*types.Named)
	return n
}

// handlerSite cites a handler: the func line of a named function, or the
// literal.
func (a *analysis) handlerSite(h handlerFunc) Site {
	if h.lit != nil {
		return a.site(h.lit.Pos())
	}
	return a.funcSite(h.fn)
}

// queueAdds lists the workqueue adds reachable from a handler.
func (a *analysis) queueAdds(fn *ssa.Function) []call {
	var out []call
	for _, g := range a.prog.Reachable(fn).Funcs() {
		for _, c := range a.callsIn(g) {
			if c.known && (c.fact.Role == RoleQueueAdd || c.fact.Role == RoleQueueAddRateLimited || c.fact.Role == RoleQueueAddAfter || c.fact.Role == RoleQueueAddWithOpts) {
				out = append(out, c)
			}
		}
	}
	return out
}

// writtenType is the object type a write of the sync writes, when its shape
// says: the object it is given, what its client's Get returns, or the
// object it hands back.
func writtenType(info *types.Info, c call) *types.Named {
	if c.known {
		if obj := c.arg(c.fact.Obj); obj != nil {
			n, _ := deref(info.TypeOf(obj)).(*types.Named)
			if n != nil && types.IsInterface(n) {
				return nil
			}
			return n
		}
	}
	sig, ok := info.TypeOf(c.expr.Fun).(*types.Signature)
	if !ok {
		return nil
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if t := sig.Params().At(i).Type(); isReadObject(t) {
			n, _ := deref(t).(*types.Named)
			return n
		}
	}
	if sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr); ok {
		if got := methodResult(info.TypeOf(sel.X), generatedGetMethod, 0); got != nil && isReadObject(got) {
			n, _ := deref(got).(*types.Named)
			return n
		}
	}
	if sig.Results().Len() > 0 && isReadObject(sig.Results().At(0).Type()) {
		n, _ := deref(sig.Results().At(0).Type()).(*types.Named)
		return n
	}
	return nil
}
