package locate

import (
	"go/ast"
	"go/token"
	"go/types"
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
// hands an API object to a dependency's function the knowledge table does
// not describe (which may do either out of sight).
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
				if _, writes := p.a.writeOf(info, c); c.known || len(c.own) > 0 || writes {
					// (A write sends the object as the code made it:
					// a finalizer added to it is named there.)
					break
				}
				for _, arg := range x.Args {
					if t := info.TypeOf(arg); t != nil && isObjectValue(t) && !types.IsInterface(t) {
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
