package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// A function may keep a failure in an error variable and go on (a runner
// that records each step's error and carries on), then hand back a timed
// result with a nil error where that variable may still hold the failure
// (`case Requeue: return ctrl.Result{RequeueAfter: d}, nil`): the interval
// is then a failure's retry as much as a success's, and which the code
// does not say.

// errorHandedAt is the error a return hands back, or a named results'
// assignment a bare return hands back (metaR0, metaR1 = res, nil): the last
// of its values; nil for a bare return.
func errorHandedAt(s ast.Stmt) ast.Expr {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		if len(s.Results) > 0 {
			return s.Results[len(s.Results)-1]
		}
	case *ast.AssignStmt:
		if len(s.Rhs) > 1 && len(s.Rhs) == len(s.Lhs) {
			return s.Rhs[len(s.Rhs)-1]
		}
	}
	return nil
}

// droppedError is, for a return s of fn that hands back a nil error (or the
// assignment of its named results), where a local error variable in scope
// at s is given a value other than nil before s, when the function hands
// that variable back as its error at another return (the pass's error,
// kept), no test of it that leaves by a return follows the assignment at
// once (if err = f(); err != nil { return … }), and no test of it s
// stands under or follows (an if whose test names it, around s, or before
// s, leaving by a return); token.NoPos when there is none.
func (a *analysis) droppedError(info *types.Info, s ast.Stmt) token.Pos {
	if e := errorHandedAt(s); e == nil || !isNil(info, e) {
		return token.NoPos
	}
	path := a.path(s.Pos(), s.End())
	fnBody := innermostBody(path)
	if fnBody == nil {
		return token.NoPos
	}
	// The error variables given a value other than nil before s (but
	// those s itself assigns: the named results it hands back).
	assigned := map[*types.Var]bool{}
	if as, ok := s.(*ast.AssignStmt); ok {
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				if v, ok := info.ObjectOf(id).(*types.Var); ok {
					assigned[v] = true
				}
			}
		}
	}
	// handed are the error variables another return hands back as the
	// function's error, as they stand, or an assignment of its named
	// results does.
	results := namedResultVars(info, path)
	handed := map[*types.Var]bool{}
	handedAt := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok {
				handed[v] = true
			}
		}
	}
	ast.Inspect(fnBody, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if n != s && len(n.Results) > 0 {
				handedAt(n.Results[len(n.Results)-1])
			}
		case *ast.AssignStmt:
			if last := len(n.Lhs) - 1; n != s && last >= 0 && len(n.Rhs) == len(n.Lhs) {
				if id, ok := n.Lhs[last].(*ast.Ident); ok && results[info.ObjectOf(id)] {
					handedAt(n.Rhs[last])
				}
			}
		}
		return true
	})
	set := map[*types.Var]token.Pos{}
	ast.Inspect(fnBody, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Pos() >= s.Pos() || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				continue
			}
			v, _ := info.ObjectOf(id).(*types.Var)
			if v == nil || assigned[v] || !handed[v] || !isErrorType(v.Type()) || isNil(info, as.Rhs[i]) || v.Parent() == nil || !v.Parent().Contains(s.Pos()) || !a.flowsTo(as, s) || a.testedAtOnce(info, as, v) {
				continue
			}
			set[v] = as.Pos()
		}
		return true
	})
	names := func(e ast.Node, v *types.Var) bool { return mentions(info, e, map[*types.Var]bool{v: true}) }
	// leavesOnTest reports whether a statement of list before s tests v
	// after at and leaves by a return.
	leavesOnTest := func(list []ast.Stmt, v *types.Var, at token.Pos) bool {
		for _, st := range list {
			if st.End() > s.Pos() {
				break
			}
			if ifs, ok := st.(*ast.IfStmt); ok && ifs.Cond.Pos() > at && names(ifs.Cond, v) && returns(ifs.Body) {
				return true
			}
		}
		return false
	}
	first := token.NoPos
	for v, at := range set {
		tested := false
		for i := 1; i < len(path) && !tested; i++ {
			switch p := path[i].(type) {
			case *ast.IfStmt:
				tested = names(p.Cond, v)
			case *ast.BlockStmt:
				tested = leavesOnTest(p.List, v, at)
			case *ast.CaseClause:
				tested = leavesOnTest(p.Body, v, at)
			}
		}
		if !tested && (!first.IsValid() || at < first) {
			first = at
		}
	}
	return first
}

// droppedWhy is why the timed return r is not settled as a success's
// requeue when it drops an error (droppedError), else "".
func (a *analysis) droppedWhy(r *retSite) string {
	if !r.dropped.IsValid() {
		return ""
	}
	s, d := a.site(r.ret.Pos()), a.site(r.dropped)
	return fmt.Sprintf("not settled: the interval the return at %s:%d hands back is made with a nil error where the error variable set at %s:%d may still hold a failure, which is dropped: whether the interval is a success's or a failure's retry, the code does not say", s.File, s.Line, d.File, d.Line)
}

// droppedAt is droppedError for the return holding the expression e.
func (a *analysis) droppedAt(info *types.Info, e ast.Expr) token.Pos {
	for _, n := range a.path(e.Pos(), e.End()) {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			return a.droppedError(info, n)
		case *ast.AssignStmt:
			if errorHandedAt(n) != nil && isErrorType(info.TypeOf(n.Lhs[len(n.Lhs)-1])) {
				return a.droppedError(info, n)
			}
		}
	}
	return token.NoPos
}

// flowsTo reports whether control may pass from the statement st to the
// later return s: not when a block holding st and not s ends in a return,
// nor, outside a loop holding both, when they stand in different branches
// of one if or cases of one switch.
func (a *analysis) flowsTo(st, s ast.Stmt) bool {
	inside := func(n ast.Node, p token.Pos) bool { return n.Pos() <= p && p < n.End() }
	path := a.path(st.Pos(), st.End())
	for i, n := range path {
		if inside(n, s.Pos()) {
			// The nearest node holding both: do they stand apart in it?
			if j := i - 1; j >= 0 && !inLoop(path[i:]) {
				switch n.(type) {
				case *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.BlockStmt:
					if c, ok := path[j].(*ast.CaseClause); ok && !inside(c, s.Pos()) {
						return false
					}
					if _, ok := n.(*ast.IfStmt); ok && !inside(path[j], s.Pos()) {
						if _, isBlock := path[j].(*ast.BlockStmt); isBlock {
							return false
						}
					}
				}
			}
			return true
		}
		if b, ok := n.(*ast.BlockStmt); ok && returns(b) {
			return false
		}
		if c, ok := n.(*ast.CaseClause); ok && len(c.Body) > 0 {
			if _, ret := c.Body[len(c.Body)-1].(*ast.ReturnStmt); ret {
				return false
			}
		}
	}
	return true
}

// testedAtOnce reports whether the assignment as of the error variable v is
// tested at once by an if that leaves by a return: the if whose init it is,
// or the statement after it (err = f(); if err != nil { return … }).
func (a *analysis) testedAtOnce(info *types.Info, as *ast.AssignStmt, v *types.Var) bool {
	leavesOn := func(ifs *ast.IfStmt) bool {
		return mentions(info, ifs.Cond, map[*types.Var]bool{v: true}) && returns(ifs.Body)
	}
	path := a.path(as.Pos(), as.End())
	if len(path) < 2 {
		return false
	}
	if ifs, ok := path[1].(*ast.IfStmt); ok && ifs.Init == as {
		return leavesOn(ifs)
	}
	var list []ast.Stmt
	switch p := path[1].(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	}
	for i, st := range list {
		if st == as && i+1 < len(list) {
			ifs, ok := list[i+1].(*ast.IfStmt)
			return ok && leavesOn(ifs)
		}
	}
	return false
}

// namedResultVars are the named results of the innermost function on a path.
func namedResultVars(info *types.Info, path []ast.Node) map[types.Object]bool {
	out := map[types.Object]bool{}
	for _, n := range path {
		var ft *ast.FuncType
		switch f := n.(type) {
		case *ast.FuncDecl:
			ft = f.Type
		case *ast.FuncLit:
			ft = f.Type
		default:
			continue
		}
		if ft.Results != nil {
			for _, f := range ft.Results.List {
				for _, id := range f.Names {
					out[info.Defs[id]] = true
				}
			}
		}
		return out
	}
	return out
}
