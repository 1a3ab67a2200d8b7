package locate

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// The metadata an object's annotations are read from: ObjectMeta's field
// and the getters of ObjectMeta and of the metav1.Object interface.
const (
	fieldAnnotations          = typeObjectMeta + ".Annotations"
	methodGetAnnotations      = "(*" + typeObjectMeta + ").GetAnnotations"
	methodObjectGetAnnotation = "(k8s.io/apimachinery/pkg/apis/meta/v1.Object).GetAnnotations"
)

// readsAnnotations reports whether e is an object's annotations map
// (obj.GetAnnotations(), obj.Annotations).
func readsAnnotations(info *types.Info, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn, ok := typeutil.Callee(info, x).(*types.Func)
		return ok && (funcKey(fn) == methodGetAnnotations || funcKey(fn) == methodObjectGetAnnotation)
	case *ast.SelectorExpr:
		s := info.Selections[x]
		return s != nil && s.Kind() == types.FieldVal && fieldKey(s.Obj().(*types.Var), fieldOwner(s)) == fieldAnnotations
	}
	return false
}

// fieldOwner is the type that declares the field a selection selects,
// through the embedded fields it is promoted from (obj.Annotations is
// ObjectMeta's).
func fieldOwner(s *types.Selection) types.Type {
	t := s.Recv()
	for _, i := range s.Index()[:len(s.Index())-1] {
		st, ok := derefStruct(t)
		if !ok {
			return s.Recv()
		}
		t = st.Field(i).Type()
	}
	return t
}

// derefStruct is the struct under a type, through a pointer and names.
func derefStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// storedIntervals are the values stored into the RequeueAfter field of the
// reconcile result variable v in body b before at (result.RequeueAfter =
// d), in source order.
func storedIntervals(info *types.Info, b *ast.BlockStmt, v *types.Var, at ast.Node) []ast.Expr {
	if typeKey(v.Type()) != typeResult {
		return nil
	}
	var out []ast.Expr
	ast.Inspect(b, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Pos() > at.Pos() || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
			if !ok {
				continue
			}
			id, ok := ast.Unparen(sel.X).(*ast.Ident)
			s := info.Selections[sel]
			if !ok || info.Uses[id] != v || s == nil || s.Kind() != types.FieldVal {
				continue
			}
			if fieldKey(s.Obj().(*types.Var), s.Recv()) == fieldResultRequeueAfter {
				out = append(out, as.Rhs[i])
			}
		}
		return true
	})
	return out
}

// index traces a value read from a map: a config map's data under a
// constant key is a setting of the controller's configuration, and the
// trace ends there naming the key; another map's element is not followed.
func (t *tracer) index(info *types.Info, x *ast.IndexExpr) {
	site := t.a.site(x.Pos()).Site
	if sel, ok := ast.Unparen(x.X).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal && fieldKey(s.Obj().(*types.Var), s.Recv()) == configMapData {
			if key, ok := stringValue(info, x.Index); ok {
				t.add(site, StepComputed, fmt.Sprintf("read from the key %q of a config map's data: a setting of the controller's configuration, not of the object; the trace ends", key))
				return
			}
			t.add(site, StepComputed, "not settled: read from a config map's data under a key not followed to a constant; the trace ends")
			return
		}
	}
	if readsAnnotations(info, x.X) {
		t.add(site, StepComputed, fmt.Sprintf("read from the object's annotations under %s: metadata, not a field of the spec; the trace ends", types.ExprString(x.Index)))
		return
	}
	t.add(site, StepComputed, "not settled: an element of a map, not followed; the trace ends")
}

// declaredWith is the value a declaration before at gives v (var d = 45 *
// time.Second), when n is one.
func declaredWith(info *types.Info, n ast.Node, v *types.Var, at ast.Node) []ast.Expr {
	vs, ok := n.(*ast.ValueSpec)
	if !ok || vs.Pos() >= at.Pos() || len(vs.Values) != len(vs.Names) {
		return nil
	}
	for i, id := range vs.Names {
		if info.Defs[id] == v {
			return []ast.Expr{vs.Values[i]}
		}
	}
	return nil
}
