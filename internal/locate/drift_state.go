package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// stateTest reports whether a comparison tests a value against a constant
// (obj.Status.Phase == Done, len(obj.Status.Entries) == 0), or a local
// variable read from a field every time (owner := cm.Labels[k]; owner ==
// "", or a field of each kind a type switch names: no one field is then
// returned), or a local holding objects (len(pods) == 0: what was found), and
// returns the field tested when there is one. A local computed otherwise
// (diff := cmp.Diff(live, want); diff != "") may hold a comparison's
// outcome: no state test. Locals are read so only with locals set: in
// the guard of a write itself, not in a predicate the guard calls, where a
// value missing (no record of what was applied: "") answers that the
// states differ.
func stateTest(info *types.Info, body *ast.BlockStmt, e *ast.BinaryExpr, locals bool) (*types.Var, bool) {
	var other ast.Expr
	switch {
	case isConst(info, e.Y):
		other = e.X
	case isConst(info, e.X):
		other = e.Y
	default:
		return nil, false
	}
	if field := testedField(info, other); field != nil {
		return field, true
	}
	id, ok := ast.Unparen(testedValue(info, other)).(*ast.Ident)
	if !ok || !locals {
		return nil, false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() || body == nil {
		return nil, false
	}
	rhs := assignmentsTo(info, body, v)
	if len(rhs) == 0 {
		return nil, false
	}
	var field *types.Var
	several := false
	for i, r := range rhs {
		f := testedField(info, r)
		if f == nil {
			return nil, holdsObjects(v.Type())
		}
		several = several || i > 0 && f != field
		field = f
	}
	if several {
		// Read from a field every time, but from another one on each
		// path (a field of each kind a type switch names): state all
		// the same, with no one field to be written back.
		return nil, true
	}
	return field, true
}

// holdsObjects reports whether a type is an object, or a list or map of
// objects.
func holdsObjects(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		t = u.Elem()
	case *types.Map:
		t = u.Elem()
	}
	return isObjectValue(t)
}

// testedValue is the value an expression tests: the map or list of an
// element (a label, an annotation), the list of a length, else itself.
func testedValue(info *types.Info, e ast.Expr) ast.Expr {
	if ix, ok := ast.Unparen(e).(*ast.IndexExpr); ok {
		e = ix.X
	}
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(c.Args) == 1 && isBuiltin(info, c.Fun, "len") {
		e = c.Args[0]
	}
	return e
}

// testedField is the field an expression reads, through an element or a
// length of it (testedValue), or nil.
func testedField(info *types.Info, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(testedValue(info, e)).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
		return s.Obj().(*types.Var)
	}
	return nil
}

// leftState is the constant a state test finds a value equal to, when it
// is neither a zero value (a value missing, which a write fills in) nor a
// bool (x == true is x != false): the state the object is in, which a
// write of another constant moves it on from; nil otherwise.
func leftState(info *types.Info, e *ast.BinaryExpr) constant.Value {
	if e.Op != token.EQL {
		return nil
	}
	for _, side := range []ast.Expr{e.X, e.Y} {
		v := info.Types[ast.Unparen(side)].Value
		if v == nil {
			continue
		}
		switch v.Kind() {
		case constant.String:
			if constant.StringVal(v) != "" {
				return v
			}
		case constant.Int, constant.Float:
			if constant.Sign(v) != 0 {
				return v
			}
		}
		return nil
	}
	return nil
}

// movesOn reports whether the i-th assignment of as gives a constant
// other than left.
func movesOn(info *types.Info, as *ast.AssignStmt, i int, left constant.Value) bool {
	if left == nil || len(as.Lhs) != len(as.Rhs) || as.Tok != token.ASSIGN {
		return false
	}
	v := info.Types[ast.Unparen(as.Rhs[i])].Value
	return v != nil && v.Kind() == left.Kind() && !constant.Compare(v, token.EQL, left)
}

// getterTested is the getter of an object a comparison with a constant
// reads (obj.GetLabels()[k] == "true", len(obj.GetFinalizers()) == 0): a
// field read through its accessor, a state test as stateTest's; "" when
// it reads none.
func getterTested(info *types.Info, e *ast.BinaryExpr) string {
	var other ast.Expr
	switch {
	case isConst(info, e.Y):
		other = e.X
	case isConst(info, e.X):
		other = e.Y
	default:
		return ""
	}
	call, ok := ast.Unparen(testedValue(info, other)).(*ast.CallExpr)
	if !ok || len(call.Args) > 0 {
		return ""
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !strings.HasPrefix(sel.Sel.Name, "Get") || !isObjectValue(info.TypeOf(sel.X)) {
		return ""
	}
	return sel.Sel.Name
}

// callsSetter reports whether a block calls the setter of an object that
// matches a getter (SetLabels for GetLabels): the value written back.
func callsSetter(info *types.Info, b *ast.BlockStmt, getter string) bool {
	setter := "Set" + strings.TrimPrefix(getter, "Get")
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && !found {
			if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == setter && isObjectValue(info.TypeOf(sel.X)) {
				found = true
			}
		}
		return !found
	})
	return found
}
