package locate

// A return, under the caller's test of an error, that hands back what a
// failure mapper makes (if err != nil { return result.RequeueError(err) }):
// a function of the tree's, called at more than one place, handed the
// caller's error, whose returns hand back, as their error, that error (as
// it is, or wrapped by a call), nil, or a failure of its own (the status
// write that reports the failure). The failure is the caller's,
// found before the call, so a mapper's return that hands the error back
// is cited at the calling return, and its other returns (a retry it
// chooses, a failure it drops) are named in that site's note. Handed an
// error that may be nil (return handle(r.reconcile(ctx, req))), the
// mapper itself tells failure from success: its returns are the sites, as
// any helper's. (Called once, such a helper is a pass extracted from its
// caller, and keeps its own returns as the sites.)

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// mapped classifies the return s of fn, under a test of an error, when
// what it hands back, e, is a call of a failure mapper (failureMapper), at
// at (s itself, or the assignment of the named results a bare s hands
// back); false when e is no such call or s is under no such test.
func (a *analysis) mapped(fn *ssa.Function, info *types.Info, s *ast.ReturnStmt, at ast.Node, e ast.Expr, sc scope, w *retWalk, out *[]retSite) bool {
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || sc.guard != guardError {
		return false
	}
	callee, failing, param := a.failureMapper(fn, info, ce)
	if callee == nil {
		return false
	}
	// Handed nil, or an error that is never set, the mapper's failing
	// returns are not taken from here.
	arg := ce.Args[param]
	dead := isNil(info, arg) || a.neverFails(fn, arg)
	// Each call is its own site: the mapper's returns, and those of the
	// functions it hands back the results of, are classified afresh for
	// it.
	saved := maps.Clone(w.seen)
	for _, f := range a.prog.Reachable(callee).Funcs() {
		delete(w.seen, f)
	}
	defer func() {
		maps.Copy(w.seen, saved)
	}()
	var made []retSite
	if !a.followResults(fn, info, at, ce, sc, w, &made) {
		return false
	}
	// Under a test of the error the call is handed, every return of the
	// mapper handles that failure: the ones that hand it back are the
	// site, the others (a retry the mapper chooses, a failure it drops)
	// are named in its note.
	// (A return of the mapper's that hands back what a call of its
	// makes, return finish(err), stands for the sites of that call.)
	var others []string
	kindWait := ""
	for _, r := range made {
		if p := r.posIn(callee); p.IsValid() && failing[p] == nil && r.class != "" {
			o := a.site(p)
			others = append(others, fmt.Sprintf("%s:%d (%s)", o.File, o.Line, r.class))
			kindWait = cmp.Or(kindWait, r.kindWait)
		}
	}
	others = slices.Compact(others)
	for _, r := range made {
		ret := failing[r.posIn(callee)]
		if ret == nil && r.in == fn && r.pos == at.Pos() {
			// A mapper's return of the pair it is handed is classified
			// at the call, by its arguments (reportedPair).
			ret = firstReturn(failing)
		}
		if ret == nil {
			continue
		}
		if dead || r.class == "" {
			// The result half of a failure handed on under a test of
			// the error: the error is set, so the result is not read.
			continue
		}
		mapSite := a.site(ret.Pos())
		r.pos, r.at, r.ret, r.in = at.Pos(), at, s, fn
		r.via = slices.Clone(w.via)
		r.kindWait = cmp.Or(r.kindWait, kindWait)
		r.note = joinNotes(r.note, fmt.Sprintf("the failure is handed to %s, which returns it (%s:%d)", a.funcName(callee), mapSite.File, mapSite.Line))
		if len(others) > 0 {
			r.note = joinNotes(r.note, "it may instead return "+strings.Join(others, ", "))
		}
		*out = append(*out, r)
	}
	return true
}

// firstReturn is the first in the source of a mapper's failing returns.
func firstReturn(failing map[token.Pos]*ast.ReturnStmt) *ast.ReturnStmt {
	var first *ast.ReturnStmt
	for _, r := range failing {
		if first == nil || r.Pos() < first.Pos() {
			first = r
		}
	}
	return first
}

// failureMapper is, when ce calls exactly one function of the tree's,
// called at more than one place, with one error parameter, assigned to
// only from a call that makes a failure of it (err =
// reconcile.TerminalError(err)), whose every return (outside function
// literals) hands back a result and an error, at least one of them, as
// the error, that parameter or a call handed it (fmt.Errorf("…: %w",
// err)), or hands back what a call handed it makes (return finish(err)):
// that function, those returns, and the parameter's index. Its other
// returns hand back nil or a failure of its own (a status write's).
// nil otherwise.
func (a *analysis) failureMapper(fn *ssa.Function, info *types.Info, ce *ast.CallExpr) (*ssa.Function, map[token.Pos]*ast.ReturnStmt, int) {
	callee, decl, cinfo := a.ownDecl(fn, info, ce, true)
	if callee == nil {
		return nil, nil, -1
	}
	sig := callee.Signature
	if sig.Results().Len() != 2 || !isErrorType(sig.Results().At(1).Type()) || sig.Variadic() || len(ce.Args) != sig.Params().Len() {
		return nil, nil, -1
	}
	param := -1
	for i := 0; i < sig.Params().Len(); i++ {
		if isErrorType(sig.Params().At(i).Type()) {
			if param >= 0 {
				return nil, nil, -1
			}
			param = i
		}
	}
	if param < 0 {
		return nil, nil, -1
	}
	errParam := sig.Params().At(param)
	isParam := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && cinfo.Uses[id] == errParam
	}
	failing := map[token.Pos]*ast.ReturnStmt{} // by where the site stands
	ok := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			// The parameter changed only by a call that makes a
			// failure of it (err = reconcile.TerminalError(cfgErr)).
			for i, l := range n.Lhs {
				if !isParam(l) {
					continue
				}
				if len(n.Lhs) != len(n.Rhs) {
					ok = false
				} else if _, isCall := ast.Unparen(n.Rhs[i]).(*ast.CallExpr); !isCall {
					ok = false
				}
			}
		case *ast.ReturnStmt:
			results, site := n.Results, n.Pos()
			if ids := namedResults(callee); len(results) == 0 && len(ids) == 2 {
				// A bare return hands back what both named results
				// were last assigned together.
				if as := a.lastAssign(cinfo, n, cinfo.Defs[ids[1]]); as != nil && len(as.Lhs) == 2 && len(as.Rhs) == 2 {
					results, site = as.Rhs, as.Pos()
				}
			}
			if len(results) == 1 {
				// What a call of its hands back: the failure when
				// the call is handed it (return finish(err)).
				if call, isCall := ast.Unparen(results[0]).(*ast.CallExpr); isCall && slices.ContainsFunc(call.Args, isParam) {
					failing[site] = n
				}
				return true
			}
			if len(results) != 2 {
				ok = false
				return false
			}
			errE := results[1]
			switch call, isCall := ast.Unparen(errE).(*ast.CallExpr); {
			case isNil(cinfo, errE):
			case isParam(errE), isCall && slices.ContainsFunc(call.Args, isParam):
				failing[site] = n
			default:
				// A failure of its own (the report's write): no
				// return of the failure it is handed.
			}
		}
		return ok
	})
	if !ok || len(failing) == 0 {
		return nil, nil, -1
	}
	return callee, failing, param
}
