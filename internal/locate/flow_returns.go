package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
)

// The guards around a return, for the walk every requeue and write
// locator shares.

// guard is what the conditions around a return test.
type guard int

// scope is what the conditions around a return say about it.
type scope struct {
	guard guard
	// terminal says a condition tests for a TerminalError, so the error
	// returned under it is one.
	terminal bool
}

const (
	guardNone  guard = iota
	guardOther       // under a condition that tests no error
	guardError       // under a condition that tests an error
)

// walkReturns visits the returns of a body (not of its closures) with what
// the conditions around each say of it.
func (a *analysis) walkReturns(info *types.Info, b *ast.BlockStmt, sc scope, visit func(*ast.ReturnStmt, scope)) {
	under := func(sc scope, g guard, cond ast.Expr) scope {
		sc.guard = max(sc.guard, g)
		sc.terminal = sc.terminal || cond != nil && a.testsTerminal(info, cond)
		return sc
	}
	var walk func(n ast.Stmt, sc scope)
	walkList := func(list []ast.Stmt, sc scope) {
		for _, s := range list {
			walk(s, sc)
		}
	}
	walk = func(n ast.Stmt, sc scope) {
		switch s := n.(type) {
		case *ast.BlockStmt:
			walkList(s.List, sc)
		case *ast.LabeledStmt:
			walk(s.Stmt, sc)
		case *ast.IfStmt:
			bg, eg := branchGuards(info, s.Cond)
			walk(s.Body, under(sc, bg, s.Cond))
			if s.Else != nil {
				walk(s.Else, under(sc, eg, nil))
			}
		case *ast.ForStmt:
			walk(s.Body, under(sc, guardOther, nil))
		case *ast.RangeStmt:
			walk(s.Body, under(sc, guardOther, nil))
		case *ast.SwitchStmt:
			walk(s.Body, sc)
		case *ast.TypeSwitchStmt:
			walk(s.Body, sc)
		case *ast.SelectStmt:
			walk(s.Body, sc)
		case *ast.CaseClause:
			inner := under(sc, guardOther, nil)
			for _, e := range s.List {
				inner = under(inner, condGuard(info, e), e)
			}
			walkList(s.Body, inner)
		case *ast.CommClause:
			walkList(s.Body, under(sc, guardOther, nil))
		case *ast.ReturnStmt:
			visit(s, sc)
		}
	}
	walkList(b.List, sc)
}

// condGuard says whether a condition tests an error, or a collection of
// errors by its length (len(errs) > 0).
func condGuard(info *types.Info, cond ast.Expr) guard {
	g := guardOther
	ast.Inspect(cond, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok {
			if t := info.TypeOf(e); t != nil && isErrorType(t) || errorsCount(info, e) != nil {
				g = guardError
				return false
			}
		}
		return true
	})
	return g
}

// errorsCount is the collection of errors that e counts, when e is
// len(errs) of a slice or map whose elements are errors; nil otherwise.
func errorsCount(info *types.Info, e ast.Expr) ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	if !isBuiltin(info, call.Fun, "len") {
		return nil
	}
	t := info.TypeOf(call.Args[0])
	if t == nil {
		return nil
	}
	var elem types.Type
	switch u := t.Underlying().(type) {
	case *types.Slice:
		elem = u.Elem()
	case *types.Map:
		elem = u.Elem()
	}
	if elem == nil || !implementsError(elem) {
		return nil
	}
	return call.Args[0]
}

// errorsCounted reports whether e compares the count of a collection of
// errors with zero, and whether it holds when errors were collected
// (len(errs) > 0, len(errs) != 0) rather than none (len(errs) == 0).
func errorsCounted(info *types.Info, e ast.Expr) (counted, present bool) {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return false, false
	}
	op, count, zero := b.Op, b.X, b.Y
	if errorsCount(info, count) == nil {
		count, zero = zero, count
		switch op {
		case token.LSS:
			op = token.GTR
		case token.GTR:
			op = token.LSS
		}
	}
	tv, ok := info.Types[ast.Unparen(zero)]
	if errorsCount(info, count) == nil || !ok || tv.Value == nil || constant.Sign(tv.Value) != 0 {
		return false, false
	}
	switch op {
	case token.GTR, token.NEQ:
		return true, true
	case token.EQL:
		return true, false
	}
	return false, false
}

// branchGuards say what an if's condition makes of its two branches. A
// condition that an error is nil (err == nil, alone or in a conjunction)
// guards a success path: its body is unguarded when the test is all the
// condition says, else under another condition, and its else branch is
// where the error is not nil. Any other test of an error guards its body as
// a failure path; a condition that tests no error guards both branches.
func branchGuards(info *types.Info, cond ast.Expr) (body, els guard) {
	conj := conjuncts(cond)
	nilErr, other := 0, guardNone
	for _, c := range conj {
		if errIsNil(info, c) {
			nilErr++
			continue
		}
		other = max(other, condGuard(info, c))
	}
	switch {
	case nilErr > 0 && other == guardNone:
		return guardNone, guardError
	case nilErr > 0 && other == guardOther:
		return guardOther, guardOther
	}
	g := condGuard(info, cond)
	if g == guardOther {
		return guardOther, guardOther
	}
	if g == guardError && slices.ContainsFunc(disjuncts(cond), func(d ast.Expr) bool { return condGuard(info, d) == guardOther }) {
		// err != nil || wait > 0: the body is also entered with no
		// error, when the other test holds.
		return guardOther, guardNone
	}
	return g, guardNone
}

// conjuncts are the operands of a condition's top-level &&s.
func conjuncts(cond ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(cond).(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	return []ast.Expr{cond}
}

// disjuncts are the operands of a condition's top-level ||s.
func disjuncts(cond ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(cond).(*ast.BinaryExpr); ok && b.Op == token.LOR {
		return append(disjuncts(b.X), disjuncts(b.Y)...)
	}
	return []ast.Expr{cond}
}

// errIsNil reports whether e tests that an error is nil (err == nil).
func errIsNil(info *types.Info, e ast.Expr) bool {
	if counted, present := errorsCounted(info, e); counted {
		return !present
	}
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL {
		return false
	}
	for _, side := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		if t := info.TypeOf(side[0]); t != nil && isErrorType(t) && isNilExpr(info, side[1]) {
			return true
		}
	}
	return false
}
