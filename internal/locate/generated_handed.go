package locate

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// handedMarkers finds the kind's methods a dependency runs on the primary
// object's status (or the object) that the reconcile path hands one of its
// functions as an interface parameter (auth.SetupOIDCServiceAccount(…,
// &obj.Status, …), whose body calls marker.MarkOIDCIdentityCreated…()):
// the call graph, built over the tree's own code, does not see those
// calls. The dependency's body is read; each method it calls on that
// parameter is the method of the value's own type, and the functions it
// runs (those of the tree reached from it) are returned, with the call
// that hands the value. Where the trail ends (the body is not read, it does
// more with the parameter than call its methods, a method is not the
// tree's), lost names the call and why.
func (p *pass) handedMarkers() (fns []*ssa.Function, at map[*ssa.Function]ast.Node, lost []string) {
	kind := p.kind()
	if kind == nil {
		return nil, nil, nil
	}
	at = map[*ssa.Function]ast.Node{}
	reached := map[*ssa.Function]bool{}
	for _, fn := range p.reach.Funcs() {
		reached[fn] = true
	}
	var add func(fn *ssa.Function, call ast.Node)
	add = func(fn *ssa.Function, call ast.Node) {
		if fn == nil || reached[fn] || at[fn] != nil {
			return
		}
		at[fn] = call
		fns = append(fns, fn)
		for _, c := range p.a.callsIn(fn) {
			for _, o := range c.own {
				add(o, call)
			}
		}
	}
	for _, fn := range p.reach.Funcs() {
		b := body(fn)
		if b == nil {
			continue
		}
		info := p.a.infoAt(b.Pos())
		if info == nil {
			continue
		}
		for _, c := range p.a.callsIn(fn) {
			if c.known || c.fn == nil || isInterfaceMethod(c.fn) || p.a.fileOwn(c.fn.Pos()) || p.a.generatedAt(c.expr.Pos()) {
				continue
			}
			sig, ok := c.fn.Type().(*types.Signature)
			if !ok {
				continue
			}
			for i, arg := range c.expr.Args {
				if i >= sig.Params().Len() || sig.Variadic() && i >= sig.Params().Len()-1 {
					break
				}
				if !types.IsInterface(sig.Params().At(i).Type()) {
					continue
				}
				t := info.TypeOf(arg)
				if t == nil || types.IsInterface(t) || !p.ofKindOrStatus(t) || !p.a.ownImplements(t, sig.Params().At(i).Type()) {
					continue
				}
				methods, why := p.a.methodsCalledOn(c.fn, i, t)
				if why != "" {
					s := p.a.site(c.expr.Lparen)
					lost = append(lost, fmt.Sprintf("%s:%d (%s: %s)", s.File, s.Line, s.Func, why))
					continue
				}
				for _, m := range methods {
					add(p.a.prog.Func(m), c.expr)
				}
			}
		}
	}
	return fns, at, lost
}

// ownImplements says whether one of the methods of the interface iface is,
// on t, a method the tree declares: the interface is one the tree's
// type implements for the dependency to call (a status marker), not one
// a library's embedded type satisfies (the conditions accessor a
// condition set's Manage takes).
func (a *analysis) ownImplements(t, iface types.Type) bool {
	it, ok := iface.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := 0; i < it.NumMethods(); i++ {
		m := it.Method(i)
		if obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name()); obj != nil && a.fileOwn(obj.Pos()) {
			return true
		}
	}
	return false
}

// ofKindOrStatus says whether t is the primary type or its status type
// (or a pointer to one).
func (p *pass) ofKindOrStatus(t types.Type) bool {
	kind := p.kind()
	t = deref(t)
	if types.Identical(t, kind) {
		return true
	}
	if f, _, _ := types.LookupFieldOrMethod(kind, true, kind.Obj().Pkg(), statusField); f != nil {
		if v, ok := f.(*types.Var); ok && v.IsField() {
			return types.Identical(t, deref(v.Type()))
		}
	}
	return false
}

// methodsCalledOn reads the body of the dependency's function fn and
// returns the methods of t (the concrete type handed its parameter i, an
// interface) it calls on that parameter, declared by the tree; why says
// why they are not known otherwise.
func (a *analysis) methodsCalledOn(fn *types.Func, i int, t types.Type) (out []*types.Func, why string) {
	db := a.depBody(fn.Origin())
	if db == nil || db.decl == nil || db.decl.Body == nil {
		return nil, "handed to " + fn.Name() + ", whose body is not read"
	}
	pi := i
	if sig, _ := fn.Type().(*types.Signature); sig != nil && sig.Recv() != nil {
		pi++
	}
	if pi >= len(db.params) || db.params[pi] == nil {
		return nil, "handed to " + fn.Name() + ", whose parameter is not found"
	}
	p := db.params[pi]
	calls := map[*ast.Ident]string{}
	ast.Inspect(db.decl.Body, func(n ast.Node) bool {
		if ce, ok := n.(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok {
				if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && db.info.Uses[id] == p {
					calls[id] = sel.Sel.Name
				}
			}
		}
		return true
	})
	ast.Inspect(db.decl.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if why != "" || !ok || db.info.Uses[id] != p {
			return why == ""
		}
		name, isCall := calls[id]
		if !isCall {
			why = "handed to " + fn.Name() + ", which does more with it than call its methods"
			return false
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, fn.Pkg(), name)
		m, ok := obj.(*types.Func)
		switch {
		case !ok:
			why = "handed to " + fn.Name() + ", whose call of its " + name + " is not resolved"
			return false
		case a.fileOwn(m.Pos()):
			out = append(out, m)
		case holdsConditions(m.Type().(*types.Signature).Recv().Type(), 0):
			// A library's method of an embedded type that holds the
			// conditions (a duck status' SetConditions).
			why = "handed to " + fn.Name() + ", which calls its " + name + ", a library's method of what holds its conditions"
			return false
		}
		return true
	})
	return out, why
}

// passedAt moves the sites a caller's argument made to the return of a
// helper called from that one place (a branch moved out of its caller)
// that hands the parameter back: the helper's return is where the event
// is handed back, the caller's return a hop. Sites stay where they are
// when the helper is called from several places, or hands the parameter
// back at other than one return.
func (a *analysis) passedAt(callee *ssa.Function, param *types.Var, sites []retSite) {
	b := body(callee)
	if b == nil || a.callSites(callee) != 1 || len(sites) == 0 {
		return
	}
	info := a.infoAt(b.Pos())
	var ret *ast.ReturnStmt
	var made ast.Node
	n := 0
	a.eventResults(callee, info, b, scope{}, func(r *ast.ReturnStmt, e ast.Expr, at ast.Node, _ scope, settled bool) {
		if id, ok := ast.Unparen(a.unwrapError(callee, info, e)).(*ast.Ident); ok && settled && info.Uses[id] == param {
			ret, made, n = r, at, n+1
		}
	})
	if n != 1 {
		return
	}
	for i := range sites {
		if sites[i].afterIn == nil {
			sites[i].afterIn = sites[i].in // the duration is the caller's
		}
		sites[i].pos, sites[i].at, sites[i].ret, sites[i].in = made.Pos(), made, ret, callee
	}
}

// handsOnPassed reports whether e is a call of helpers of the tree's own
// that each hand back the parameter passed, handed to them
// (return r.finish(ctx, obj, err) in a function given err): that return
// passes it on too, and what else those helpers hand back is classified.
func (a *analysis) handsOnPassed(fn *ssa.Function, info *types.Info, e ast.Expr, passed *types.Var, sc scope, seen map[*ssa.Function]bool, out *[]retSite) bool {
	ce, ok := ast.Unparen(a.unwrapError(fn, info, e)).(*ast.CallExpr)
	if !ok {
		return false
	}
	c := a.makeCall(info, ce, fn)
	if c.known || len(c.own) == 0 {
		return false
	}
	params := make([]*types.Var, len(c.own))
	for k, callee := range c.own {
		i, param := a.passedError(callee)
		if param == nil || i >= len(ce.Args) {
			return false
		}
		if id, ok := ast.Unparen(ce.Args[i]).(*ast.Ident); !ok || info.Uses[id] != passed {
			return false
		}
		params[k] = param
	}
	for k, callee := range c.own {
		a.eventReturnsPassing(callee, params[k], sc, seen, out)
	}
	return true
}

// passedError returns the parameter of an own function's (its index among
// the call's arguments) that is an error or an event and that some return
// of the function hands back, as it is or combined with others (a helper
// finishing the pass with the error it is given, wrapping or appending to
// it), or nil.
func (a *analysis) passedError(fn *ssa.Function) (int, *types.Var) {
	b := body(fn)
	sig := fn.Signature
	if b == nil || sig.Results().Len() != 1 {
		return 0, nil
	}
	info := a.infoAt(b.Pos())
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		if !isErrorOrEvent(p.Type()) {
			continue
		}
		carried := map[*types.Var]bool{p: true}
		taint(info, b, carried)
		found := false
		a.eventResults(fn, info, b, scope{}, func(_ *ast.ReturnStmt, e ast.Expr, _ ast.Node, _ scope, settled bool) {
			found = found || settled && e != nil && mentions(info, e, carried)
		})
		if found {
			return i, p
		}
	}
	return 0, nil
}
