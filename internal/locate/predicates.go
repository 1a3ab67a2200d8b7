package locate

import (
	"go/ast"
	"go/types"
)

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}

// IsObjectPointer reports whether t is *T for a struct T embedding ObjectMeta.
func IsObjectPointer(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Embedded() && typeKey(st.Field(i).Type()) == typeObjectMeta {
			return true
		}
	}
	return false
}

// isReadObject reports whether a value of type t is an API object: an
// object pointer, or a pointer to an object that keeps its content in an
// unstructured map (unstructured.Unstructured, or a type embedding it),
// which a dynamic informer's store hands back.
func isReadObject(t types.Type) bool {
	if IsObjectPointer(t) {
		return true
	}
	_, ok := types.Unalias(t).(*types.Pointer)
	return ok && holdsUnstructured(t)
}

// callsOf cites every call, anywhere in the tree, of a library function
// with the given role (owner references made, event sinks started).
func (a *analysis) callsOf(role Role) []Site {
	var out []Site
	for _, fd := range a.ownFuncs() {
		a.allCalls(fd, func(c call) {
			if c.known && c.fact.Role == role {
				out = append(out, a.site(c.expr.Lparen))
			}
		})
	}
	return out
}

func (a *analysis) isDeletionTimestamp(info *types.Info, e ast.Expr) bool {
	if fieldOf(info, e) == fieldDeletionTimestamp {
		return true
	}
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		cl := a.makeCall(info, c, nil)
		return cl.known && cl.fact.Role == RoleDeletionTimestamp
	}
	return false
}

func isNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}

func isCall(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.CallExpr)
	return e != nil && ok
}

// callee returns the function part of a call expression, or e.
func callee(e ast.Expr) ast.Expr {
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		return c.Fun
	}
	return e
}

// namedBy returns the object an expression ends in: the variable or field
// it reads, or the function it calls.
func namedBy(info *types.Info, e ast.Expr) types.Object {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.Uses[x]
	case *ast.SelectorExpr:
		return info.Uses[x.Sel]
	case *ast.CallExpr:
		return namedBy(info, x.Fun)
	}
	return nil
}

// exprText returns the source text of an expression.
func (a *analysis) exprText(e ast.Expr) string {
	start, end := a.tree.Fset.PositionFor(e.Pos(), false), a.tree.Fset.PositionFor(e.End(), false)
	if start.Line != end.Line {
		return ""
	}
	full := a.cite.LineRaw(start.Filename, start.Line)
	if end.Column-1 > len(full) {
		return ""
	}
	return full[start.Column-1 : end.Column-1]
}

// methodResult is the type of result i of t's method name, or nil.
func methodResult(t types.Type, name string, i int) types.Type {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if i >= sig.Results().Len() {
		return nil
	}
	return sig.Results().At(i).Type()
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, errorType)
}

// implementsError reports whether a value of type t is an error.
func implementsError(t types.Type) bool {
	return types.Implements(t, errorType.Underlying().(*types.Interface))
}

var errorType = types.Universe.Lookup("error").Type()
