package locate

// A wait with a nil error that a failure takes only when a test picks out
// its kind (if errors.As(err, &NotReady{}) { return ctrl.Result{RequeueAfter:
// d}, nil }): the code names what went wrong, and a failure of that kind may
// be a wait on a dependency (brokers still starting) as well as a retry after
// a failure. Which one it is, the source does not tell; the requeue on
// success row does not claim "event-driven only" past it.

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// errorKindTest names the kind of failure a test enclosing n, in n's own
// function, picks out before n runs: errors.As or errors.Is (the standard
// library's, or a package's re-export) in the condition of an if whose body
// holds n (not negated, alone or in a conjunction), in the case of a tagless
// switch that holds n, or the case of a type switch on an error. "" when
// there is none.
func (a *analysis) errorKindTest(info *types.Info, n ast.Node) string {
	path := a.path(n.Pos(), n.End())
	for i, p := range path {
		switch x := p.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return ""
		case *ast.IfStmt:
			if x.Body.Pos() <= n.Pos() && n.End() <= x.Body.End() {
				if k := a.errorKindCall(info, x.Cond); k != "" {
					return k
				}
			}
		case *ast.CaseClause:
			if i+2 >= len(path) {
				continue
			}
			switch sw := path[i+2].(type) {
			case *ast.SwitchStmt:
				if sw.Tag != nil {
					continue
				}
				for _, e := range x.List {
					if k := a.errorKindCall(info, e); k != "" {
						return k
					}
				}
			case *ast.TypeSwitchStmt:
				if t := typeSwitchSubject(info, sw); len(x.List) > 0 && t != nil && isErrorType(t) {
					var names []string
					for _, e := range x.List {
						names = append(names, shortType(info.TypeOf(e)))
					}
					return "a type switch on the error picks out " + strings.Join(names, ", ")
				}
			}
		}
	}
	return ""
}

// errorKindCall describes the errors.As or errors.Is call that cond holds,
// itself, as a term of a conjunction or as the value of a flag it reads,
// not negated; "" when there is none.
func (a *analysis) errorKindCall(info *types.Info, cond ast.Expr) string {
	switch c := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		if c.Op != token.LAND {
			return ""
		}
		return cmp.Or(a.errorKindCall(info, c.X), a.errorKindCall(info, c.Y))
	case *ast.Ident:
		// if ok := errors.As(err, &wait); ok { … }: the flag's value.
		if d := a.definedOnce(info, c); d != nil {
			return a.errorKindCall(info, d)
		}
	case *ast.CallExpr:
		switch errorsCall(info, c) {
		case "Is":
			return fmt.Sprintf("errors.Is picks out %s", a.exprText(c.Args[1]))
		case "As":
			t := info.TypeOf(c.Args[1])
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			return fmt.Sprintf("errors.As picks out %s", shortType(t))
		}
	}
	return ""
}

// errorsCall is the name of the function of an errors package (the
// standard library's, or a package's re-export of it) that ce calls with
// two arguments (Is, As), or "".
func errorsCall(info *types.Info, ce *ast.CallExpr) string {
	fn, ok := typeOfCallee(info, ce).(*types.Func)
	if !ok || len(ce.Args) != 2 || fn.Pkg() == nil || !strings.HasSuffix("/"+fn.Pkg().Path(), "/errors") {
		return ""
	}
	return fn.Name()
}

// typeSwitchSubject is the type of the value a type switch asserts on
// (switch e := err.(type)).
func typeSwitchSubject(info *types.Info, sw *ast.TypeSwitchStmt) types.Type {
	var x ast.Expr
	switch s := sw.Assign.(type) {
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			x = s.Rhs[0]
		}
	case *ast.ExprStmt:
		x = s.X
	}
	ta, ok := ast.Unparen(x).(*ast.TypeAssertExpr)
	if !ok {
		return nil
	}
	return info.TypeOf(ta.X)
}

// kindWaitUnsettled is, with no steady-state requeue and no wait after work
// off the deletion branch to cite (a wait on something else ranks no
// higher than it), why a wait of a failure of a named kind
// (kindWait) leaves the requeue on success not settled; "" when no return
// makes one.
func (a *analysis) kindWaitUnsettled(rets []retSite, kind *types.Named) string {
	w := a.waitPrimary(rets, kind)
	if w != nil && !a.onDeletion(w, kind) && w.afterWork {
		return "" // a wait after work outranks it
	}
	var kw *retSite
	for i := range rets {
		r := &rets[i]
		if r.kindWait == "" || r.deferred || kw != nil && (!a.onDeletion(kw, kind) || a.onDeletion(r, kind)) {
			continue
		}
		kw = r
	}
	if kw == nil {
		return ""
	}
	why := fmt.Sprintf("not settled: a failure waits with a nil error at %s: a failure the code names by its kind may be a wait on a dependency (something still starting) as well as a retry after a failure, which the source does not tell; no return on the success path sets RequeueAfter otherwise", kw.kindWait)
	switch {
	case w != nil && a.onDeletion(w, kind):
		s := a.site(w.pos)
		why += fmt.Sprintf(", but for the wait on the deletion branch at %s:%d", s.File, s.Line)
	case w != nil:
		s := a.site(w.pos)
		why += fmt.Sprintf(", but for the wait at %s:%d, on something else than work the pass did, which ranks no higher", s.File, s.Line)
	}
	return why
}
