package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// finalizerRemoveRow cites the removals the cleanup reaches (every removal
// when it reaches none), the one on its function's main path first.
func finalizerRemoveRow(p *pass) Row {
	ops := p.finalizers()
	if ops.absent() {
		return ops.none(ops.noFinalizer)
	}
	c := p.cleanup()
	removes := c.removes
	if len(removes) == 0 {
		removes = ops.removes
	}
	ordered := addedFirst(p.a.mainPathFirst(removes, ops.removes), ops.adds)
	pick, _, ambiguous := p.removedOnly()
	if pick != nil {
		// The removal of the finalizer the tree adds off the reconcile
		// path comes first.
		if i := slices.IndexFunc(ordered, func(op finOp) bool { return p.removesObject(op, pick) }); i > 0 {
			ordered = append([]finOp{ordered[i]}, slices.Delete(slices.Clone(ordered), i, i+1)...)
		}
	}
	var sites []Site
	for _, op := range ordered {
		sites = append(sites, p.a.site(op.pos))
	}
	if len(ambiguous) > 0 && len(sites) > 0 {
		return Row{Sites: sites, None: fmt.Sprintf("not settled: the reconcile path removes the finalizers %s and adds none, and the tree off it does not add just one of them: which removal is the controller's finalizer's is not settled", p.objectNames(ambiguous))}
	}
	if len(sites) == 0 {
		return ops.none("nothing reachable from the entry removes the finalizer")
	}
	if c.tied != "" {
		return Row{Sites: sites, None: "not settled: " + c.tied}
	}
	if c.unsettled != "" && len(c.removes) > 0 {
		// The cleanup is not settled, and the finalizer is removed
		// elsewhere too: which removal follows the cleanup is not
		// settled either.
		var others []string
		for _, op := range ops.removes {
			if !slices.ContainsFunc(c.removes, func(o finOp) bool { return o.pos == op.pos }) {
				s := p.a.site(op.pos)
				sites = append(sites, s)
				others = append(others, fmt.Sprintf("%s:%d", s.File, s.Line))
			}
		}
		if others != nil {
			return Row{Sites: sites, None: fmt.Sprintf("not settled: the cleanup is not settled, and the finalizer is removed at %s:%d on the branch read for it and at %s too: which removal follows the cleanup is not settled", sites[0].File, sites[0].Line, strings.Join(others, ", "))}
		}
	}
	if len(ops.adds) == 0 && !slices.ContainsFunc(removes, func(op finOp) bool { return !op.whole }) && !(c.deleting && len(c.removes) > 0) {
		// Only lists set whole, and no addition anywhere: a list the
		// flow does not follow may as well be the one that adds. Not
		// on a branch taken only while the object is being deleted,
		// where the API server adds no new finalizer: a list set whole
		// there keeps or drops them.
		return none(fmt.Sprintf("not settled: the finalizers are set whole at %s:%d to a list in which ctrlcmp finds no new finalizer, and no addition is found: whether that list adds or removes one is not followed", sites[0].File, sites[0].Line))
	}
	return rowOf(sites, "")
}

// mainPathFirst puts first, when the first removal is a shortcut (in a
// branch that returns at once: nothing to clean up, remove and return),
// the first removal of the same function (or of a function literal
// written in it, or of a helper that only removes the finalizer, called
// there) that is not one: the removal made after the cleanup's work. The
// order is kept otherwise.
func (a *analysis) mainPathFirst(removes, all []finOp) []finOp {
	if len(removes) < 2 || removes[0].in == nil || !shortcutAt(removes[0].in, removes[0].pos) {
		return removes
	}
	host := outermost(removes[0].in)
	for i, op := range removes[1:] {
		if op.in == nil {
			continue
		}
		in, at := op.in, op.pos
		if outermost(op.in) != host {
			in, at = a.removalCallIn(host, op, all)
		}
		if in != nil && !shortcutAt(in, at) {
			out := append([]finOp{op}, removes[:i+1]...)
			return append(out, removes[i+2:]...)
		}
	}
	return removes
}

// removalCallIn is the call written in host (not in a closure) of a helper
// that only removes the finalizer and makes the removal op: the function
// and position the removal is made from; nil when there is none.
func (a *analysis) removalCallIn(host *ssa.Function, op finOp, all []finOp) (*ssa.Function, token.Pos) {
	for _, c := range a.callsIn(host) {
		if len(c.own) > 0 && a.prog.Reachable(c.own...).Has(op.in) && a.removalOnly(c, all) {
			return host, c.expr.Pos()
		}
	}
	return nil, token.NoPos
}

// shortcutAt reports whether pos lies, in fn, in a branch (an if's or
// else's block) whose last statement returns.
func shortcutAt(fn *ssa.Function, pos token.Pos) bool {
	b := body(fn)
	if b == nil {
		return false
	}
	var inner *ast.BlockStmt
	ast.Inspect(b, func(n ast.Node) bool {
		if n == nil || n.Pos() > pos || pos >= n.End() {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			if x != b {
				inner = x
			}
		}
		return true
	})
	if inner == nil || len(inner.List) == 0 {
		return false
	}
	_, ret := inner.List[len(inner.List)-1].(*ast.ReturnStmt)
	return ret
}

// removedValue is the finalizer an assignment of a whole finalizer list
// removes when it drops the element at a loop's index from the list the
// loop ranges over, under a test of the loop's element against a value:
//
//	for i, f := range obj.Finalizers {
//		if f == V {
//			obj.Finalizers = append(obj.Finalizers[:i], obj.Finalizers[i+1:]...)
//
// V, or nil when the assignment is not such a removal.
func (a *analysis) removedValue(info *types.Info, as *ast.AssignStmt) ast.Expr {
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || !call.Ellipsis.IsValid() || len(call.Args) != 2 {
		return nil
	}
	head, ok := ast.Unparen(call.Args[0]).(*ast.SliceExpr)
	if !ok || head.High == nil || fieldOf(info, head.X) != fieldFinalizers {
		return nil
	}
	index, ok := ast.Unparen(head.High).(*ast.Ident)
	if !ok {
		return nil
	}
	at := info.Uses[index]
	path := a.path(as.Pos(), as.End())
	var test ast.Expr
	for _, n := range path {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return nil
		case *ast.IfStmt:
			if test == nil {
				test = n.Cond
			}
		case *ast.RangeStmt:
			key, ok := n.Key.(*ast.Ident)
			if !ok || info.Defs[key] != at || fieldOf(info, n.X) != fieldFinalizers {
				continue
			}
			elem, ok := n.Value.(*ast.Ident)
			if !ok || test == nil {
				return nil
			}
			return comparedWith(info, test, info.Defs[elem])
		}
	}
	return nil
}

// comparedWith is the other side of an equality test of a variable
// (v == X or X == v), or nil when the test is not one.
func comparedWith(info *types.Info, test ast.Expr, v types.Object) ast.Expr {
	be, ok := ast.Unparen(test).(*ast.BinaryExpr)
	if !ok || be.Op != token.EQL || v == nil {
		return nil
	}
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	switch {
	case is(be.X):
		return be.Y
	case is(be.Y):
		return be.X
	}
	return nil
}

// addedFirst puts first, when the first removal drops a finalizer the
// pass never adds (an older name, dropped beside the current one) and
// another removal drops one it adds, or one whose constant is not read
// here (handed through a value), the first of those: the controller's own
// finalizer, as the constant row names it, is not the older name.
func addedFirst(removes, adds []finOp) []finOp {
	added := map[*types.Const]bool{}
	for _, op := range adds {
		if k := finConst(op); k != nil {
			added[k] = true
		}
	}
	if len(removes) < 2 || len(added) == 0 {
		return removes
	}
	if k := finConst(removes[0]); k == nil || added[k] {
		return removes
	}
	for i, op := range removes[1:] {
		if k := finConst(op); k == nil || added[k] {
			out := append([]finOp{op}, removes[:i+1]...)
			return append(out, removes[i+2:]...)
		}
	}
	return removes
}

// finConst is the named constant an op's finalizer is written as, or nil.
func finConst(op finOp) *types.Const {
	if op.value == nil || op.info == nil {
		return nil
	}
	var id *ast.Ident
	switch e := ast.Unparen(op.value).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	default:
		return nil
	}
	k, _ := op.info.Uses[id].(*types.Const)
	return k
}
