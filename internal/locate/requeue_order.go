package locate

import (
	"cmp"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// How two returns of one function stand to each other in its syntax: the
// relation a rewrite that keeps the meaning keeps (a branch extracted into
// a helper is still that branch; an `if err != nil` turned into
// `if err == nil {…} else {…}` still branches off at that if), where their
// order in the source does not.
const (
	// relNone: the two are not told apart (one position, or one holds
	// the other).
	relNone = iota
	// relBefore: the first is in a statement that comes before the one
	// holding the second, in a statement list holding both: every path to
	// the second passes the first's statement.
	relBefore
	// relAfter: the converse.
	relAfter
	// relBranches: the two are in the two branches of one if.
	relBranches
	// relCases: the two are in different clauses of one switch or select.
	relCases
)

// stmtRelation relates the positions p and h of one function: the
// relation, and the statement where the path to h and the path to p part
// (the statement holding p in the list holding both, or the if or switch
// whose branches hold them).
func (a *analysis) stmtRelation(p, h token.Pos) (int, ast.Node) {
	if p == h || !p.IsValid() || !h.IsValid() {
		return relNone, nil
	}
	pp, hp := a.path(p, p), a.path(h, h)
	if len(pp) == 0 || len(hp) == 0 || pp[len(pp)-1] != hp[len(hp)-1] {
		return relNone, nil
	}
	// Outermost first; k is the deepest node holding both.
	k := 0
	for k+1 < len(pp) && k+1 < len(hp) && pp[len(pp)-2-k] == hp[len(hp)-2-k] {
		k++
	}
	common := pp[len(pp)-1-k]
	if k+1 >= len(pp) || k+1 >= len(hp) {
		return relNone, nil
	}
	pc, hc := pp[len(pp)-2-k], hp[len(hp)-2-k]
	var parent ast.Node
	if k > 0 {
		parent = pp[len(pp)-k]
	}
	switch c := common.(type) {
	case *ast.IfStmt:
		if (pc == c.Body && hc == c.Else) || (pc == c.Else && hc == c.Body) {
			return relBranches, c
		}
	case *ast.BlockStmt:
		switch parent.(type) {
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			return relCases, parent
		}
		return sequence(pc, hc)
	case *ast.CaseClause, *ast.CommClause:
		return sequence(pc, hc)
	}
	return relNone, nil
}

// sequence relates two statements of one statement list.
func sequence(pc, hc ast.Node) (int, ast.Node) {
	switch {
	case pc.Pos() < hc.Pos():
		return relBefore, pc
	case pc.Pos() > hc.Pos():
		return relAfter, pc
	}
	return relNone, nil
}

// branchOff is, for a failure return at p and the return at h that hands
// the success back, in one function, where the path to h leaves for p:
// the statement before h's that holds p, or the if whose other branch
// holds p (a clause of a switch before h's, as the source has them);
// false when p is not off the path to h (it comes after it). The later
// that statement starts, the closer to h the failure branches off: every
// such statement holds h or comes before one that does.
func (a *analysis) branchOff(p, h token.Pos) (token.Pos, bool) {
	rel, at := a.stmtRelation(p, h)
	switch {
	case rel == relBefore, rel == relBranches, rel == relCases && p < h:
		return at.Pos(), true
	}
	return token.NoPos, false
}

// chain is the functions a site's results pass through to the entry,
// outermost first, each with where it hands them on; the site's own last.
func (r *retSite) chain() []retHop {
	return append(append([]retHop{}, r.via...), retHop{in: r.in, pos: r.pos})
}

// latestHandBacks is a chain with each hop moved to the last return of its
// function that hands back the next function's results: a helper handed
// back from several returns (a special case's, then the steady state's)
// ends the pass as late as the last of them, whichever one the walk that
// found the site came through.
func (a *analysis) latestHandBacks(chain []retHop) []retHop {
	for i := 0; i+1 < len(chain); i++ {
		b := body(chain[i].in)
		if b == nil {
			continue
		}
		info, next := a.infoAt(b.Pos()), chain[i+1].in
		ast.Inspect(b, func(n ast.Node) bool {
			if _, lit := n.(*ast.FuncLit); lit {
				return false
			}
			var handed ast.Expr
			switch st := n.(type) {
			case *ast.ReturnStmt:
				if len(st.Results) > 0 {
					handed = st.Results[0]
				}
			case *ast.AssignStmt:
				// r0, r1 = f(…) into the named results a bare return
				// hands back.
				if len(st.Rhs) == 1 && assignsResults(info, chain[i].in, st.Lhs) {
					handed = st.Rhs[0]
				}
			}
			if handed == nil || n.Pos() <= chain[i].pos {
				return true
			}
			ce, ok := ast.Unparen(handed).(*ast.CallExpr)
			if !ok {
				return true
			}
			if c := a.makeCall(info, ce, chain[i].in); !c.known && len(c.own) == 1 && c.own[0] == next {
				chain[i].pos = n.Pos()
			}
			return true
		})
	}
	return chain
}

// assignsResults reports whether lhs are fn's named results, in order.
func assignsResults(info *types.Info, fn *ssa.Function, lhs []ast.Expr) bool {
	res := fn.Signature.Results()
	if res.Len() != len(lhs) || res.Len() == 0 {
		return false
	}
	for i, l := range lhs {
		id, ok := ast.Unparen(l).(*ast.Ident)
		if !ok || res.At(i).Name() == "" || info.Uses[id] != res.At(i) {
			return false
		}
	}
	return true
}

// steadier settles which of two success returns is the steady state: the
// one whose return comes after the other's statement, in the deepest
// function that hands both back (a special case returns early, the
// steady state at the end). It says 1 for x, -1 for y, 0 when no rule
// does (the two are in branches of one if or cases of one switch, or are
// reached through different callees of one call).
func (a *analysis) steadier(x, y *retSite) int {
	switch {
	case x.deferred && !y.deferred:
		return 1 // a deferred assignment runs after every return
	case y.deferred && !x.deferred:
		return -1
	}
	cx, cy := a.latestHandBacks(x.chain()), a.latestHandBacks(y.chain())
	for i := 0; i < len(cx) && i < len(cy); i++ {
		if cx[i].in != cy[i].in {
			return 0
		}
		if cx[i].pos == cy[i].pos {
			continue
		}
		switch rel, _ := a.stmtRelation(cx[i].pos, cy[i].pos); rel {
		case relBefore:
			return -1
		case relAfter:
			return 1
		}
		return 0
	}
	return 0
}

// onDeletion reports whether the site is reached only on the deletion
// branch: it, or a return of the chain that hands it back, stands where
// the object is being deleted (deletingAt), or its interval is made in a
// function run only then.
func (a *analysis) onDeletion(r *retSite, kind *types.Named) bool {
	if m := cmp.Or(r.madeIn, r.afterIn); m != nil && m != r.in && a.deletionOnly(m, kind, 3) {
		// The interval is made in a function the pass runs only while
		// the object is being deleted (a helper's wait handed back by
		// its caller as a result it tests: if res != nil { return *res,
		// nil }).
		return true
	}
	for _, h := range r.chain() {
		if a.deletingAt(h.pos, kind) {
			return true
		}
	}
	return false
}

// deletionOnly reports whether every call of fn in the tree stands where
// the object is being deleted: in the branch of an if whose test implies
// it, after an if that returns unless it holds (if
// obj.DeletionTimestamp.IsZero() { return }), or in a function that is
// itself run only then (depth calls up).
func (a *analysis) deletionOnly(fn *ssa.Function, kind *types.Named, depth int) bool {
	edges := a.prog.CallsInto(fn)
	if depth == 0 || len(edges) == 0 {
		return false
	}
	for _, e := range edges {
		if e.Site == nil || !a.deletingAt(e.Site.Pos(), kind) && !a.deletionOnly(e.Caller.Func, kind, depth-1) {
			return false
		}
	}
	return true
}

// deletingAt reports whether the statement at pos runs only while the
// object is being deleted: it stands in the branch of an if whose test
// implies it, or after an if of its list that returns unless it holds.
func (a *analysis) deletingAt(pos token.Pos, kind *types.Named) bool {
	info := a.infoAt(pos)
	if info == nil || !pos.IsValid() {
		return false
	}
	path := a.path(pos, pos)
	for i, n := range path {
		switch x := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if i > 0 && path[i-1] == x.Body && a.impliesDeletion(info, x.Cond, true, kind) {
				return true
			}
		case *ast.BlockStmt:
			for _, st := range x.List {
				if st.Pos() >= pos {
					break
				}
				if ifs, ok := st.(*ast.IfStmt); ok && ifs.Else == nil && returns(ifs.Body) && a.impliesDeletion(info, ifs.Cond, false, kind) {
					return true
				}
			}
		}
	}
	return false
}

// transitional reports whether a success return stands in the branch a
// state field selects (switch obj.Status.State { case New: … }, if
// obj.Status.Phase == Pending { … }) and that branch, before the return,
// stores another constant into the same field (obj.Status.State =
// Scheduled): the pass moves the object out of that state, so an
// unchanged object is not in it, and the return is not the steady state's.
func (a *analysis) transitional(r *retSite) bool {
	info := a.infoAt(r.pos)
	if info == nil {
		return false
	}
	path := a.path(r.pos, r.pos)
	for i, n := range path {
		var field *types.Var
		var vals []ast.Expr
		var body []ast.Stmt
		switch x := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		case *ast.CaseClause:
			if i+2 >= len(path) {
				continue
			}
			sw, ok := path[i+2].(*ast.SwitchStmt)
			if !ok || sw.Tag == nil {
				continue
			}
			field, vals, body = selectedField(info, sw.Tag), x.List, x.Body
		case *ast.IfStmt:
			b, ok := ast.Unparen(x.Cond).(*ast.BinaryExpr)
			if !ok || b.Op != token.EQL || !(x.Body.Pos() <= r.pos && r.pos < x.Body.End()) {
				continue
			}
			field, vals, body = selectedField(info, b.X), []ast.Expr{b.Y}, x.Body.List
		}
		if field == nil || len(vals) == 0 {
			continue
		}
		for _, st := range body {
			if st.Pos() >= r.pos {
				break
			}
			as, ok := st.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || selectedField(info, as.Lhs[0]) != field {
				continue
			}
			stored := info.Types[as.Rhs[0]].Value
			if stored == nil {
				continue
			}
			other := true
			for _, v := range vals {
				if k := info.Types[v].Value; k == nil || constant.Compare(k, token.EQL, stored) {
					other = false
				}
			}
			if other {
				return true
			}
		}
	}
	return false
}
