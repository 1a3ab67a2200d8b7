package locate

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// classifyBare classifies a bare return from the assignment of the named
// results that reaches it: that assignment is the site, the return the
// evidence that hands it back. Named results never assigned before the
// return are the zero result and a nil error; an assignment the return may
// or may not see (under a condition) leaves the result not settled.
func (a *analysis) classifyBare(fn *ssa.Function, info *types.Info, s *ast.ReturnStmt, sc scope, w *retWalk, out *[]retSite) {
	idents := namedResults(fn)
	if w.shape != crResult && len(idents) == 2 && typeKey(info.TypeOf(idents[0])) == w.shape.typ {
		// Named results of a result type of the tree's own: what they
		// hold at a bare return is not followed; the class is unknown.
		*out = append(*out, retSite{pos: s.Pos(), in: fn, ret: s, at: s, opaque: idents[0], note: "a bare return of named results of " + w.shape.typ + ", which ctrlcmp does not follow", via: slices.Clone(w.via)})
		return
	}
	if len(idents) == 1 && typeKey(info.TypeOf(idents[0])) == w.shape.typ {
		// A result alone (a helper that logs its failures and hands back
		// only a result): what the assignment reaching the bare return
		// gives it, with a nil error.
		named := info.Defs[idents[0]]
		as, ok := a.reachingAssignment(info, s, named)
		var res ast.Expr
		var at ast.Node = s
		if ok && as != nil {
			at = as
			if len(as.Lhs) == len(as.Rhs) {
				for j, l := range as.Lhs {
					if assigns(info, l, named) {
						res = as.Rhs[j]
					}
				}
			}
			ok = res != nil
		}
		if !ok {
			*out = append(*out, retSite{pos: s.Pos(), in: fn, ret: s, at: s, opaque: idents[0], via: slices.Clone(w.via), note: "the named result this bare return hands back is assigned under a condition before it, or handed by address"})
			return
		}
		a.classifyPair(fn, info, s, at, res, nil, sc, w, out)
		return
	}
	// A result first and an error last, perhaps with other results
	// between (res, order, err): the two are what the return hands back.
	if len(idents) < 2 || typeKey(info.TypeOf(idents[0])) != typeResult || !isErrorType(info.TypeOf(idents[len(idents)-1])) {
		return
	}
	named := []types.Object{info.Defs[idents[0]], info.Defs[idents[len(idents)-1]]}
	resAs, resOK := a.reachingAssignment(info, s, named[0])
	errAs, errOK := a.reachingAssignment(info, s, named[1])
	retLine := a.site(s.Pos()).Line
	// value is what an assignment gives the named result i, when it
	// assigns it alone or with a value of its own.
	value := func(as *ast.AssignStmt, i int) (ast.Expr, bool) {
		if as == nil {
			return nil, true
		}
		if len(as.Lhs) != len(as.Rhs) {
			return nil, false
		}
		for j, l := range as.Lhs {
			if assigns(info, l, named[i]) {
				return as.Rhs[j], true
			}
		}
		return nil, false
	}
	res, resVal := value(resAs, 0)
	errE, errVal := value(errAs, 1)
	switch {
	case !resOK || !errOK:
		*out = append(*out, retSite{pos: s.Pos(), in: fn, ret: s, at: s, opaque: idents[0], via: slices.Clone(w.via), errOpen: !errOK,
			note: "the named results this bare return hands back are assigned under a condition before it, or handed by address"})
	case resAs != nil && resAs == errAs && len(resAs.Lhs) == len(idents) && len(resAs.Rhs) == 1:
		// result, retErr = r.reconcile(ctx, obj): the callee's returns,
		// or, for a result constructor, the assignment.
		if !a.constructed(fn, info, s, resAs, resAs.Rhs[0], sc, w, out) && !a.mapped(fn, info, s, resAs, resAs.Rhs[0], sc, w, out) {
			a.followResults(fn, info, s, resAs.Rhs[0], sc, w, out)
		}
	case !resVal || !errVal:
		at := cmp.Or(resAs, errAs)
		*out = append(*out, retSite{pos: at.Pos(), in: fn, ret: s, at: at, opaque: at.Rhs[0], via: slices.Clone(w.via)})
	case resAs != nil && resAs == errAs && sc.guard != guardError && a.followPairOf(fn, info, s, resAs, resAs.Rhs, sc, w, out):
		// res0, err0 = res, err, both made by one call: its returns.
	default:
		// A named result never assigned is its zero value (nil below).
		var at ast.Node = s
		switch {
		case resAs != nil && (errAs == nil || resAs.Pos() > errAs.Pos()):
			at = resAs
		case errAs != nil:
			at = errAs
		}
		a.classifyPair(fn, info, s, at, res, errE, sc, w, out)
		if at != ast.Node(s) {
			(*out)[len(*out)-1].note = fmt.Sprintf("handed back by the bare return at line %d", retLine)
		}
	}
}

// funcType is the signature a function is declared with, in its syntax
// (a declaration's or a literal's); nil for a function with no syntax.
func funcType(fn *ssa.Function) *ast.FuncType {
	switch s := fn.Syntax().(type) {
	case *ast.FuncDecl:
		return s.Type
	case *ast.FuncLit:
		return s.Type
	}
	return nil
}

// namedResults returns the names a function declares for its results.
func namedResults(fn *ssa.Function) []*ast.Ident {
	ft := funcType(fn)
	if ft == nil || ft.Results == nil {
		return nil
	}
	var out []*ast.Ident
	for _, f := range ft.Results.List {
		out = append(out, f.Names...)
	}
	return out
}

// assigns reports whether the left-hand side l assigns the variable v.
func assigns(info *types.Info, l ast.Expr, v types.Object) bool {
	id, ok := ast.Unparen(l).(*ast.Ident)
	return ok && v != nil && info.Uses[id] == v
}

// reachingAssignment finds the assignment of a named result that a bare
// return hands back: walking out from the return, the nearest statement
// before it, in each enclosing block, that assigns it (an if whose
// branches assign it only before leaving the function does not; the
// assignment in its init does). It is nil when none does (the zero
// value), and not settled when the nearest one that touches it does so
// under a condition that falls through, or in a loop.
func (a *analysis) reachingAssignment(info *types.Info, ret *ast.ReturnStmt, v types.Object) (*ast.AssignStmt, bool) {
	touches := func(n ast.Node) bool {
		found := false
		if n == nil {
			return false
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					found = found || assigns(info, l, v)
				}
			case *ast.UnaryExpr:
				found = found || x.Op == token.AND && assigns(info, x.X, v)
			}
			return !found
		})
		return found
	}
	// earlier says what an earlier statement of the same block does to v:
	// assigns it (as), leaves it (neither), or may or may not (unsettled).
	var earlier func(st ast.Stmt) (as *ast.AssignStmt, touched, settled bool)
	earlier = func(st ast.Stmt) (*ast.AssignStmt, bool, bool) {
		if !touches(st) {
			return nil, false, true
		}
		switch x := st.(type) {
		case *ast.AssignStmt:
			return x, true, x.Tok == token.ASSIGN
		case *ast.IfStmt:
			for _, br := range []ast.Stmt{x.Body, x.Else} {
				if touches(br) && !leaves(info, br) {
					return nil, true, false
				}
			}
			if x.Init != nil {
				return earlier(x.Init)
			}
			return nil, false, true
		}
		return nil, true, false
	}
	child := ast.Node(ret)
	for _, n := range a.path(ret.Pos(), ret.End()) {
		var list []ast.Stmt
		switch b := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return nil, true
		case *ast.BlockStmt:
			list = b.List
		case *ast.CaseClause:
			list = b.Body
		case *ast.CommClause:
			list = b.Body
		case *ast.IfStmt:
			if b.Init != nil && child != b.Init {
				if as, touched, settled := earlier(b.Init); touched || !settled {
					return as, settled
				}
			}
		case *ast.ForStmt, *ast.RangeStmt:
			// A loop's earlier iterations may have assigned it.
			if touches(n) {
				return nil, false
			}
		}
		for i := len(list) - 1; i >= 0; i-- {
			if list[i].Pos() >= child.Pos() {
				continue
			}
			if as, touched, settled := earlier(list[i]); touched || !settled {
				return as, settled
			}
		}
		child = n
	}
	return nil, false
}

// leaves reports whether a branch ends by leaving the function (or the
// loop or switch that holds it), so nothing it assigns falls through.
func leaves(info *types.Info, st ast.Stmt) bool {
	b, ok := st.(*ast.BlockStmt)
	if !ok {
		return false
	}
	if len(b.List) == 0 {
		return false
	}
	switch x := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if c, ok := x.X.(*ast.CallExpr); ok && isBuiltin(info, c.Fun, "panic") {
			return true
		}
	}
	return false
}

// endsBare reports whether a function's last statement is a bare return.
func endsBare(fn *ssa.Function) bool {
	b := body(fn)
	if b == nil || len(b.List) == 0 {
		return false
	}
	r, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	return ok && len(r.Results) == 0
}

// deferredResults classifies the values a deferred closure of the entry
// stores into its named results (retErr = ..., result = ...).
func (a *analysis) deferredResults(entry *ssa.Function, kind *types.Named) []retSite {
	fd, ok := entry.Syntax().(*ast.FuncDecl)
	if !ok || fd.Body == nil || fd.Type.Results == nil {
		return nil
	}
	info := a.infoAt(fd.Pos())
	if info == nil {
		return nil
	}
	named := map[types.Object]bool{}
	for _, f := range fd.Type.Results.List {
		for _, id := range f.Names {
			named[info.Defs[id]] = true
		}
	}
	if len(named) == 0 {
		return nil
	}
	var out []retSite
	w := newRetWalk(kind)
	w.seen[entry] = scope{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		d, ok := n.(*ast.DeferStmt)
		if !ok {
			return true
		}
		lit, ok := d.Call.Fun.(*ast.FuncLit)
		if !ok {
			return false
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			if len(as.Rhs) == 1 && len(as.Lhs) > 1 {
				// result, retErr = helper.Summarize(...): built by a helper,
				// followed into the tree's own functions it may run.
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok && named[info.Uses[id]] && typeKey(info.TypeOf(id)) == typeResult {
						closure := a.bySyntax[lit]
						if !a.followResults(closure, info, as, as.Rhs[0], scope{}, w, &out) {
							out = append(out, retSite{pos: as.Pos(), in: closure, ret: as, at: as, opaque: as.Rhs[0], deferred: true})
						}
					}
				}
				return true
			}
			if len(as.Lhs) != len(as.Rhs) {
				return true
			}
			closure := a.bySyntax[lit]
			for i, l := range as.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok || !named[info.Uses[id]] {
					continue
				}
				class := ""
				var after ast.Expr
				afterIn := closure
				switch t := info.TypeOf(id); {
				case isErrorType(t) && !isNil(info, as.Rhs[i]):
					class = ClassErrorBackoff
				case typeKey(t) == typeResult:
					// What the result is set to, as the engine follows it.
					rv, ok := a.resultValue(closure, as.Rhs[i], kind)
					if !ok {
						out = append(out, retSite{pos: as.Pos(), in: closure, ret: as, at: as, opaque: rv.opaque, deferred: true})
						continue
					}
					if rv.after != nil && rv.afterIn != nil {
						afterIn = rv.afterIn
					}
					if after = rv.after; rv.requeue {
						class = ClassImmediate
					} else if after != nil {
						class = ClassRetryAfterFailure
					}
				}
				if class != "" {
					out = append(out, retSite{pos: as.Pos(), class: class, in: closure, afterIn: afterIn, ret: as, at: as, after: after, deferred: true})
				}
			}
			return true
		})
		return false
	})
	return out
}

// overridingDefer finds the deferred function of the entry, registered at
// the top of its body, that assigns both of its named results (the Result
// and the error) on every path through it, at its own top level, before
// any return: every return of the entry after the defer hands back what
// that function sets, not its own values. It gives the defer's position.
func (a *analysis) overridingDefer(entry *ssa.Function) (token.Pos, bool) {
	fd, ok := entry.Syntax().(*ast.FuncDecl)
	if !ok || fd.Body == nil {
		return token.NoPos, false
	}
	ids := namedResults(entry)
	if len(ids) != 2 {
		return token.NoPos, false
	}
	info := a.infoAt(fd.Pos())
	res, errV := info.Defs[ids[0]], info.Defs[ids[1]]
	if res == nil || errV == nil || typeKey(res.Type()) != typeResult || !isErrorType(errV.Type()) {
		return token.NoPos, false
	}
	for _, st := range fd.Body.List {
		d, ok := st.(*ast.DeferStmt)
		if !ok {
			continue
		}
		lit, ok := d.Call.Fun.(*ast.FuncLit)
		if !ok {
			continue
		}
		var setRes, setErr bool
		for _, cs := range lit.Body.List {
			if holdsReturn(cs) {
				break
			}
			as, ok := cs.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN {
				continue
			}
			for _, l := range as.Lhs {
				setRes = setRes || assigns(info, l, res)
				setErr = setErr || assigns(info, l, errV)
			}
		}
		if setRes && setErr {
			return d.Pos(), true
		}
	}
	return token.NoPos, false
}

// holdsReturn reports whether a statement holds a return of its function
// (not of a function literal inside it).
func holdsReturn(st ast.Stmt) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		}
		return !found
	})
	return found
}

// pairOfCall is the call whose first and last results a return hands back
// as they are (res, err := f(…) or res, obj, err := f(…); …; return res,
// err), or an assignment of the
// named results gives them (…; res0, err0 = res, err), when the nearest
// assignment before ret in its block, or an enclosing one, that assigns
// either assigns both from that call; nil otherwise.
func (a *analysis) pairOfCall(fn *ssa.Function, info *types.Info, ret ast.Node, results []ast.Expr) ast.Expr {
	if len(results) != 2 {
		return nil
	}
	var vars [2]types.Object
	for i, e := range results {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		if vars[i] = info.Uses[id]; vars[i] == nil {
			return nil
		}
	}
	if typeKey(vars[0].Type()) != typeResult || !isErrorType(vars[1].Type()) {
		return nil
	}
	for _, v := range vars {
		if id := namedResults(fn); len(id) == 2 && (info.Defs[id[0]] == v || info.Defs[id[1]] == v) {
			return nil // a named result: its assignments decide
		}
	}
	for _, as := range []*ast.AssignStmt{a.lastAssign(info, ret, vars[0]), a.lastAssign(info, ret, vars[1])} {
		if as == nil || len(as.Lhs) < 2 || len(as.Rhs) != 1 || !assigns(info, as.Lhs[0], vars[0]) && !defines(info, as.Lhs[0], vars[0]) ||
			!assigns(info, as.Lhs[len(as.Lhs)-1], vars[1]) && !defines(info, as.Lhs[len(as.Lhs)-1], vars[1]) {
			return nil
		}
	}
	as := a.lastAssign(info, ret, vars[0])
	if _, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); !ok {
		return nil
	}
	return as.Rhs[0]
}

// defines reports whether the left-hand side l declares the variable v.
func defines(info *types.Info, l ast.Expr, v types.Object) bool {
	id, ok := ast.Unparen(l).(*ast.Ident)
	return ok && v != nil && info.Defs[id] == v
}

// lastAssign is the nearest statement before ret, in its block or an
// enclosing one of its function, that assigns or declares v, when it is an
// assignment; nil otherwise.
func (a *analysis) lastAssign(info *types.Info, ret ast.Node, v types.Object) *ast.AssignStmt {
	touches := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					found = found || assigns(info, l, v) || defines(info, l, v)
				}
			case *ast.UnaryExpr:
				found = found || x.Op == token.AND && assigns(info, x.X, v)
			}
			return !found
		})
		return found
	}
	child := ast.Node(ret)
	for _, n := range a.path(ret.Pos(), ret.End()) {
		if isFunc(n) {
			return nil
		}
		list, _ := stmtList(n)
		for i := len(list) - 1; i >= 0; i-- {
			if list[i].Pos() >= child.Pos() || !touches(list[i]) {
				continue
			}
			as, _ := list[i].(*ast.AssignStmt)
			return as
		}
		child = n
	}
	return nil
}

// fillsNilOnly says, for a deferred function's assignment to the entry's
// named error (r.at) that stands under a test that the error is still nil
// (if err == nil && status != nil { err = status }), where the entry's
// body also assigns that error on its way to the bare return, that the
// main work's failure is not settled: the deferred one is only the
// pass's when the work did not fail, and which of the body's assignments
// is the work's is not read. "" otherwise.
func (a *analysis) fillsNilOnly(entry *ssa.Function, r *retSite) string {
	as, ok := r.at.(*ast.AssignStmt)
	fd, isDecl := entry.Syntax().(*ast.FuncDecl)
	if !ok || !isDecl || fd.Body == nil {
		return ""
	}
	info := a.infoAt(as.Pos())
	if info == nil {
		return ""
	}
	var errVar types.Object
	for _, l := range as.Lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.Uses[id] != nil && isErrorType(info.Uses[id].Type()) {
			errVar = info.Uses[id]
		}
	}
	if errVar == nil || !a.underNilTestOf(info, as, errVar, token.EQL) {
		return ""
	}
	var body []token.Pos
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && n.Tok == token.ASSIGN && info.Uses[id] == errVar {
					body = append(body, n.Pos())
				}
			}
		}
		return true
	})
	if len(body) == 0 {
		return ""
	}
	s := a.site(as.Pos())
	return fmt.Sprintf("not settled: the deferred function assigns the named error at %s:%d only where the pass's own is nil; the pass's failure is what the body assigns to it on the way to the bare return (%s, and %d more), and which of those is the main work's is not read", s.File, s.Line, fileLine(a.site(body[len(body)-1])), len(body)-1)
}

// underNilTestOf reports whether n stands in the body of an if whose
// condition tests, alone or with &&, that v is nil (op token.EQL) or that
// it is not (token.NEQ).
func (a *analysis) underNilTestOf(info *types.Info, n ast.Node, v types.Object, op token.Token) bool {
	var nilTest func(e ast.Expr) bool
	nilTest = func(e ast.Expr) bool {
		b, ok := ast.Unparen(e).(*ast.BinaryExpr)
		if !ok {
			return false
		}
		if b.Op == token.LAND {
			return nilTest(b.X) || nilTest(b.Y)
		}
		if b.Op != op {
			return false
		}
		for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if id, ok := ast.Unparen(pair[0]).(*ast.Ident); ok && info.Uses[id] == v && isNil(info, pair[1]) {
				return true
			}
		}
		return false
	}
	for _, p := range a.path(n.Pos(), n.End()) {
		switch x := p.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if x.Body.Pos() <= n.Pos() && n.End() <= x.Body.End() && nilTest(x.Cond) {
				return true
			}
		}
	}
	return false
}
