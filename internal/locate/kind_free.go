package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// A controller whose kind is not known cannot have its search for the
// primary object's finalizers or conditions proven complete for that
// kind. It can be proven for every kind at once: when nothing on the
// reconcile path names a finalizer or a condition at all, the rows are
// none whatever the primary is.

// kindFreeRows lists the kind rows that nothing on the reconcile path could
// answer for any kind: every function reached is analysed, none names a
// finalizer (a call, a field, a JSON path) or a status condition, and none
// hands a dependency's function the knowledge table does not describe an
// API object, a client or an object's key (with which it may do either
// out of sight).
func (p *pass) kindFreeRows() map[string]bool {
	if len(p.reach.Unanalysed) > 0 {
		return nil
	}
	finalizers, conditions, opaque := false, false, false
	for _, fn := range p.reach.Funcs() {
		b := body(fn)
		if b == nil || !p.a.prog.Own[fn] {
			continue
		}
		info := p.a.infoAt(b.Pos())
		if info == nil {
			return nil
		}
		ast.Inspect(b, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				finalizers = finalizers || strings.Contains(x.Sel.Name, "Finalizer")
				conditions = conditions || strings.Contains(x.Sel.Name, "Condition")
			case *ast.Ident:
				finalizers = finalizers || strings.Contains(x.Name, "Finalizer")
				conditions = conditions || strings.Contains(x.Name, "Condition")
			case *ast.BasicLit:
				if x.Kind == token.STRING {
					s := strings.ToLower(x.Value)
					finalizers = finalizers || strings.Contains(s, "finalizer")
					conditions = conditions || strings.Contains(s, "conditions")
				}
			case *ast.CallExpr:
				if _, builtin := info.Uses[callIdent(x.Fun)].(*types.Builtin); builtin {
					break // append(list.Items, item)
				}
				c := p.a.makeCall(info, x, fn)
				if _, writes := p.a.writeOf(info, c); c.known || len(c.own) > 0 || writes || generatedRead(c.fn) {
					// (A write sends the object as the code made it:
					// a finalizer added to it is named there; a
					// generated client's read changes nothing.)
					break
				}
				for _, arg := range append(slices.Clone(x.Args), callReceiver(x)) {
					if t := info.TypeOf(arg); arg != nil && t != nil && mayReachObject(t, arg == callReceiver(x)) {
						opaque = true
					}
				}
			}
			return true
		})
	}
	if opaque {
		return nil
	}
	out := map[string]bool{}
	if !finalizers {
		for _, id := range []string{RowFinalizerConst, RowFinalizerAdd, RowFinalizerCleanup, RowFinalizerRemove} {
			out[id] = true
		}
	}
	if !conditions {
		out[RowConditionTypes] = true
	}
	return out
}

// callIdent is the identifier a call's function expression names: f, or
// the selected name of x.f; nil otherwise.
func callIdent(fun ast.Expr) *ast.Ident {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// callReceiver is the receiver of a method call (x of x.f(…)), or nil.
func callReceiver(ce *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// mayReachObject reports whether a value handed to a function gives it an
// API object, or the means to read or write one: an object (not the
// client.Object interface alone, which names no kind of its own and is
// counted where it is made; not as the receiver of its own type's method,
// a deep copy or an accessor), a client of the API server (a Get taking a
// context, and a write), or an object's key.
func mayReachObject(t types.Type, receiver bool) bool {
	switch typeKey(t) {
	case typeNamespacedName, typeRequest:
		return true
	}
	if isObjectValue(t) && !types.IsInterface(t) {
		return !receiver
	}
	return apiClient(t)
}

// apiClient reports whether t reads and writes through the API server: a
// Get taking a context, and an Update or a Patch.
func apiClient(t types.Type) bool {
	if !hasMethods(t, "Get") || !hasMethods(t, "Update") && !hasMethods(t, "Patch") {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Get")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Params().Len() > 0 && typeKey(sig.Params().At(0).Type()) == typeContext
}

// generatedRead reports whether fn is a generated typed client's read: a
// method handed GetOptions or ListOptions.
func generatedRead(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	for i := 0; i < sig.Params().Len(); i++ {
		switch typeKey(sig.Params().At(i).Type()) {
		case typeGetOptions, typeListOptions:
			return true
		}
	}
	return false
}
