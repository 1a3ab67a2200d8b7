package locate

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// deletionFuncCleanup reads a deletion branch that is the rest of a
// function's body after a test returning when the object is not being
// deleted, where the function does nothing of its own before that test
// and hands back only values there (func (rc) ProcessDeletion() Result {
// if dc.GetDeletionTimestamp() == nil { return Continue() }; …}). Its
// caller runs it on every pass and it tests the deletion itself: the
// function is the one run on the deletion branch, its call a supporting
// site. ok is false for any other branch, read by cleanupOf. A call of a
// method of the tree's interface that no function of the tree implements
// before the test (a writer's Patch adding the finalizer) is work of the
// function's own.
func (a *analysis) deletionFuncCleanup(reach *callgraph.Reach, fn *ssa.Function, info *types.Info, d deletionBranch, removes []finOp) (c *cleanup, removing, ok bool) {
	guard, isIf := d.stmt.(*ast.IfStmt)
	if _, falls := d.branch.(fallThrough); !falls || !isIf || !d.onlyWhenDeleted || fn.Parent() != nil {
		return nil, false, false
	}
	path := reach.Path(fn)
	if len(path) == 0 || path[len(path)-1].Site == nil {
		return nil, false, false // the entry: its deletion branch is its own
	}
	if b := body(fn); b == nil || !slices.Contains(b.List, ast.Stmt(guard)) {
		return nil, false, false
	}
	for _, c := range a.callsIn(fn) {
		if c.expr.Pos() >= guard.Body.End() {
			continue
		}
		if _, writes := a.writeOf(info, c); writes || a.unresolvedOwnMethod(c) || len(c.own) > 0 && !c.known && !a.computesOnly(c) {
			return nil, false, false // work done before the test, or by the branch that is not the deletion's
		}
	}
	primary := a.funcSite(fn)
	primary.Primary = true
	test := a.site(guard.Pos())
	test.Note = "the test of the deletion inside the function: it returns when DeletionTimestamp is not set"
	caller := a.site(path[len(path)-1].Site.Pos())
	caller.Note = "the call of the function that tests the deletion itself"
	sub := a.prog.Reachable(fn)
	var reached []finOp
	for _, op := range removes {
		if sub.Has(op.in) || enclosedIn(op.in, fn) {
			reached = append(reached, op)
		}
	}
	return &cleanup{sites: []Site{primary, test, caller}, removes: reached, deletes: a.deletesObjects(fn)}, len(reached) > 0, true
}

// deletionDispatch is the function fn hands the work to when its body
// opens (after the calls it defers) by testing the object's deletion, and the statements run when it
// is being deleted (the if's branch that returns, or all that follow an if
// returning when it is not) write nothing themselves and call one function
// of the tree's: if obj.DeletionTimestamp != nil { return r.deleting(ctx,
// obj) }, with the rest of the body the work of an object that is not
// being deleted. test is that if. On a branch taken only when the object
// is being deleted, fn runs nothing else. nil otherwise.
func (a *analysis) deletionDispatch(fn *ssa.Function, kind *types.Named) (to *ssa.Function, test *ast.IfStmt) {
	b := body(fn)
	if b == nil {
		return nil, nil
	}
	// Deferred calls run when fn returns, after the test.
	list := b.List
	for len(list) > 0 {
		if _, deferred := list[0].(*ast.DeferStmt); !deferred {
			break
		}
		list = list[1:]
	}
	if len(list) == 0 {
		return nil, nil
	}
	ifs, ok := list[0].(*ast.IfStmt)
	if !ok || ifs.Init != nil {
		return nil, nil
	}
	info := a.infoAt(b.Pos())
	ds := a.deletionBranches(info, b, kind)
	if len(ds) == 0 || ds[0].stmt != ast.Node(ifs) || !ds[0].onlyWhenDeleted {
		return nil, nil
	}
	branch := ds[0].branch
	if blk, isBlock := branch.(*ast.BlockStmt); isBlock && !returns(blk) && len(list) > 1 {
		return nil, nil // the statements after the if run on deletion too
	}
	if _, isIf := branch.(*ast.IfStmt); isIf {
		return nil, nil // an else if: a test of its own
	}
	var work *call
	for _, c := range a.callsIn(fn) {
		if c.expr.Pos() < branch.Pos() || c.expr.End() > branch.End() {
			continue
		}
		if _, writes := a.writeOf(info, c); writes {
			return nil, nil // work of its own there
		}
		if len(c.own) == 0 || c.known || a.computesOnly(c) {
			continue
		}
		if work != nil {
			return nil, nil // more than one function run
		}
		work = &c
	}
	if work == nil || len(work.own) != 1 || dynamicCall(work) {
		return nil, nil
	}
	return work.own[0], ifs
}

// delegateEnd is the function fn's chain of delegates ends at: fn when it
// does more than hand on to one function.
func (a *analysis) delegateEnd(fn *ssa.Function) *ssa.Function {
	for seen := map[*ssa.Function]bool{fn: true}; ; {
		d := a.delegate(fn)
		if d == nil || seen[d] {
			return fn
		}
		fn, seen[d] = d, true
	}
}

// delegate is the function fn only hands on to, nil when it does more:
// its body is one statement, a static call of one function of the
// tree's (not a method of an interface the tree implements, whose
// implementation is the caller's choice), returned with nothing else
// computed beside it (return ctrl.Result{},
// r.purge(ctx, obj)) or made as a statement. A deletion branch extracted
// into such a helper, or wrapped in a function literal, runs the same
// cleanup as the branch written inline.
func (a *analysis) delegate(fn *ssa.Function) *ssa.Function {
	b := body(fn)
	if b == nil || len(b.List) != 1 {
		return nil
	}
	var calls []*ast.CallExpr
	switch s := b.List[0].(type) {
	case *ast.ReturnStmt:
		for _, r := range s.Results {
			if ce, ok := ast.Unparen(r).(*ast.CallExpr); ok {
				calls = append(calls, ce)
			} else if !computesNothing(r) {
				return nil
			}
		}
	case *ast.ExprStmt:
		if ce, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
			calls = append(calls, ce)
		}
	}
	if len(calls) != 1 {
		return nil
	}
	c := a.makeCall(a.infoAt(b.Pos()), calls[0], fn)
	if c.known || len(c.own) != 1 || dynamicCall(&c) {
		return nil
	}
	return c.own[0]
}

// computesNothing reports whether an expression makes no call and holds
// no function literal: a constant, a variable, a literal of values.
func computesNothing(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.CallExpr, *ast.FuncLit:
			found = true
		}
		return !found
	})
	return !found
}
