package locate

import (
	"go/ast"
	"go/types"
)

// Flags and owner references in the comparisons of the drift answer.

// flagSets are the ifs of body whose branch sets a local bool to a
// constant (updated = true under if portsDiff != ""), or appends to a
// local slice of the differences found (changes = append(changes,
// "image") under if live.Image != want): a guard that tests the flag
// later (if updated { Update(…) }, if len(changes) > 0 { Update(…) })
// reads what their conditions compare. Each is the innermost if whose
// branch holds the assignment; an assignment in no if's branch (the
// flag's declaration, a helper's differences appended whatever they are)
// sets none.
func flagSets(info *types.Info, body *ast.BlockStmt, v *types.Var) []*ast.IfStmt {
	parents := parentsIn(body)
	var out []*ast.IfStmt
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); !ok || info.ObjectOf(id) != v || !isConst(info, as.Rhs[i]) && !appendsTo(info, body, v, as.Rhs[i]) {
				continue
			}
			if ifs := branchOf(parents, as); ifs != nil {
				out = append(out, ifs)
			}
		}
		return true
	})
	return out
}

// branchOf is the innermost if whose branch (not its else) holds n.
func branchOf(parents map[ast.Node]ast.Node, n ast.Node) *ast.IfStmt {
	for child, p := n, parents[n]; p != nil; child, p = p, parents[p] {
		if ifs, ok := p.(*ast.IfStmt); ok && child == ifs.Body {
			return ifs
		}
	}
	return nil
}

// flagComparisons are the ifs setting the flag a guard tests (flagOf)
// whose conditions compare desired with live state (compares); nil when
// the guard tests no such flag.
func (a *analysis) flagComparisons(info *types.Info, body *ast.BlockStmt, kind *types.Named, guard ast.Expr, depth int, given map[*types.Var]bool) []*ast.IfStmt {
	v := flagOf(info, body, guard)
	if v == nil {
		return nil
	}
	var out []*ast.IfStmt
	for _, ifs := range flagSets(info, body, v) {
		if a.compares(info, body, kind, ifs.Cond, ifs.Body, depth+1, given) {
			out = append(out, ifs)
		}
	}
	return out
}

// readsOwnerReference reports whether an expression selects a field of an
// owner reference (ref.Name, ref.UID): a test of it asks who owns an
// object, not whether its state is the desired one.
func readsOwnerReference(info *types.Info, e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	return typeKey(info.TypeOf(sel.X)) == typeOwnerReference
}

// readsIdentity reports whether an expression is an object's name,
// namespace or UID (obj.Name, obj.GetNamespace()), an owner reference's
// field (readsOwnerReference), or a value naming a kind of object
// (kindTypes: a GroupVersionKind) or a field of one, or of a
// GroupVersion (gvk.Kind, corev1.SchemeGroupVersion.Group): a test of
// it asks which object this is, not whether its state is the desired one.
func readsIdentity(info *types.Info, e ast.Expr) bool {
	if readsOwnerReference(info, e) || kindTypes[typeKey(info.TypeOf(e))] {
		return true
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		v, ok := info.Uses[x.Sel].(*types.Var)
		if t := typeKey(deref(info.TypeOf(x.X))); ok && v.IsField() && (kindTypes[t] || t == typeGroupVersion) {
			return true // a field of a kind's name (gvk.Group, gvk.Kind, corev1.SchemeGroupVersion.Group)
		}
		return ok && v.IsField() && v.Pkg() != nil && v.Pkg().Path() == metaV1 && identityFields[v.Name()]
	case *ast.CallExpr:
		sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		return ok && len(x.Args) == 0 && identityGetters[sel.Sel.Name] && isObjectValue(info.TypeOf(sel.X))
	}
	return false
}

// identityFields are the metadata fields that name an object, and
// identityGetters their accessors.
var (
	identityFields  = map[string]bool{"Name": true, "Namespace": true, "UID": true}
	identityGetters = map[string]bool{"GetName": true, "GetNamespace": true, "GetUID": true}
)

// holdsIdentity reports whether an expression is a local that every
// assignment gives an object's identity (namespace := obj.GetNamespace()):
// tested against a constant (namespace != ""), it asks which object this
// is. (Compared with another value, the name may be the desired one: a
// label naming the Secret a pod must use.)
func holdsIdentity(info *types.Info, body *ast.BlockStmt, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || body == nil {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return false
	}
	rhs := assignmentsTo(info, body, v)
	for _, r := range rhs {
		if !readsIdentity(info, r) {
			return false
		}
	}
	return len(rhs) > 0
}
