package locate

// A return that hands back what a result constructor makes (return
// intctrlutil.RequeueE(ctx, err, "…"), return requeueAfter(d)): a function
// of the tree's whose body is one return of a result literal and an error,
// called at several places. The path is chosen by the calling return, not
// by the constructor, so that return is the site, classified with what the
// call hands the constructor. A helper called once (a pass extracted from
// the entry) keeps its own return as the site.

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// retStand is the return a constructor's result is classified as: the
// calling return, in its function.
type retStand struct {
	fn   *ssa.Function
	info *types.Info
	ret  *ast.ReturnStmt
}

// constructed classifies the return s of fn when what it hands back, e, is
// a call of a result constructor (constructorReturn): at at (s itself, or
// the assignment of the named results a bare s hands back), under s's
// scope; false when e is no such call.
func (a *analysis) constructed(fn *ssa.Function, info *types.Info, s *ast.ReturnStmt, at ast.Node, e ast.Expr, sc scope, w *retWalk, out *[]retSite) bool {
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	callee, ret := a.constructorReturn(fn, info, ce, w.shape)
	if ret == nil {
		return false
	}
	cinfo := a.infoAt(ret.Pos())
	params := callee.Signature.Params()
	errE := ret.Results[1]
	if i := paramIndex(params, cinfo, errE); i >= 0 {
		// The error the call hands the constructor decides.
		switch arg := ce.Args[i]; {
		case isNil(info, arg):
			errE = nil
		case a.neverFails(fn, arg):
			return true
		}
	}
	if !w.shape.isLiteral(cinfo, ret.Results[0]) {
		// A result the constructor's receiver holds (return
		// r.delayedResult, nil, the handler built where the caller made
		// it): what the call hands back, asked where the receiver is
		// known, with the error the call hands the constructor.
		var callErr ast.Expr
		if i := paramIndex(params, cinfo, ret.Results[1]); i >= 0 {
			callErr = ce.Args[i]
		}
		a.classifyPair(fn, info, s, at, ce, callErr, sc, w, out)
		return true
	}
	var made []retSite
	w.stand = &retStand{fn: fn, info: info, ret: s}
	a.classifyPair(callee, cinfo, ret, ret, ret.Results[0], errE, sc, w, &made)
	w.stand = nil
	built := a.site(ret.Pos())
	note := fmt.Sprintf("the result is made by %s (%s:%d)", a.funcName(callee), built.File, built.Line)
	for _, r := range made {
		r.pos, r.at, r.ret, r.in = at.Pos(), at, s, fn
		r.via = slices.Clone(w.via)
		r.note = joinNotes(r.note, note)
		if at != ast.Node(s) {
			r.note = joinNotes(r.note, fmt.Sprintf("handed back by the bare return at line %d", a.site(s.Pos()).Line))
		}
		if r.after != nil {
			// The duration, as the call hands it: the argument of the
			// parameter it is, or else the call itself for the trace to
			// follow in.
			r.after, r.afterIn = ce, fn
			if _, after := w.shape.fields(cinfo, ret.Results[0]); after != nil {
				if i := paramIndex(params, cinfo, after); i >= 0 {
					r.after = ce.Args[i]
				}
			}
			r.interval = namedBy(info, r.after)
		}
		*out = append(*out, r)
	}
	return true
}

// constructorReturn is, when ce calls exactly one function of the tree's,
// called at more than one place, whose body holds a single return (outside
// function literals) handing back a result literal of shape, or a field of
// its receiver, and an error that is nil or one of its parameters, that
// function and that return; nil otherwise.
func (a *analysis) constructorReturn(fn *ssa.Function, info *types.Info, ce *ast.CallExpr, shape resultShape) (*ssa.Function, *ast.ReturnStmt) {
	callee, decl, cinfo := a.ownDecl(fn, info, ce, true)
	if callee == nil || !fixedArgs(callee.Signature, ce) {
		return nil, nil
	}
	var rets []*ast.ReturnStmt
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			rets = append(rets, n)
		}
		return true
	})
	if len(rets) != 1 || len(rets[0].Results) != 2 || !shape.isLiteral(cinfo, rets[0].Results[0]) && !selectsReceiverField(cinfo, decl, rets[0].Results[0]) {
		return nil, nil
	}
	errE := rets[0].Results[1]
	if !isNil(cinfo, errE) && paramIndex(callee.Signature.Params(), cinfo, errE) < 0 {
		return nil, nil
	}
	return callee, rets[0]
}

// paramIndex is the index among params of the parameter e names, -1 when
// e names none. (A result's duration or error is never the variadic
// parameter, so the index is that of the call's argument too.)
func paramIndex(params *types.Tuple, info *types.Info, e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return -1
	}
	obj := info.Uses[id]
	for i := 0; i < params.Len(); i++ {
		if params.At(i) == obj {
			return i
		}
	}
	return -1
}

// ownDecl is the one function of the tree's that ce calls, its
// declaration and its package's type information, when the call names
// exactly one such function, declared with a body, and, with shared,
// called at more than one place (called once, a helper is a pass
// extracted from its caller, whose returns are its own sites); nil
// otherwise.
func (a *analysis) ownDecl(fn *ssa.Function, info *types.Info, ce *ast.CallExpr, shared bool) (*ssa.Function, *ast.FuncDecl, *types.Info) {
	c := a.makeCall(info, ce, fn)
	if c.known || len(c.own) != 1 {
		return nil, nil, nil
	}
	callee := c.own[0]
	if shared && a.callSites(callee) < 2 {
		return nil, nil, nil
	}
	decl, _ := callee.Syntax().(*ast.FuncDecl)
	if decl == nil || decl.Body == nil {
		return nil, nil, nil
	}
	cinfo := a.infoAt(decl.Pos())
	if cinfo == nil {
		return nil, nil, nil
	}
	return callee, decl, cinfo
}

// fixedArgs reports whether the call ce hands a function of signature sig
// each of its parameters but a variadic one by position (a slice spread
// into the variadic one, f(a, b, rest...), included).
func fixedArgs(sig *types.Signature, ce *ast.CallExpr) bool {
	n := len(ce.Args)
	switch {
	case ce.Ellipsis.IsValid():
		return sig.Variadic() && n == sig.Params().Len()
	case sig.Variadic():
		return n >= sig.Params().Len()-1
	}
	return n == sig.Params().Len()
}

// selectsReceiverField reports whether e selects a field of the receiver of the
// method decl (r.delayedResult).
func selectsReceiverField(info *types.Info, decl *ast.FuncDecl, e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || decl.Recv == nil || len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if s := info.Selections[sel]; !ok || s == nil || s.Kind() != types.FieldVal {
		return false
	}
	return info.Uses[id] != nil && info.Uses[id] == info.Defs[decl.Recv.List[0].Names[0]]
}
