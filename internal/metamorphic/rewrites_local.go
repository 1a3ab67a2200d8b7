package metamorphic

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/wants"
)

// hoistLocal holds the line's value in a local variable defined just
// before the statement, which uses the variable: `return ctrl.Result{…},
// nil` becomes `v := ctrl.Result{…}` and `return v, nil`. A site the value
// itself is (a literal the row cites, a step of the interval trace) may be
// cited on the new line too.
func hoistLocal(r *rewriter, t *target) (*change, []string, string) {
	e := valueExpr(t)
	if e == nil {
		return nil, nil, "no value on the line"
	}
	if why := hoistable(t, e); why != "" {
		return nil, nil, why
	}
	v := r.name("V")
	stmt, expr := replaceIn(t, e, v)
	also := ""
	if !strings.Contains(expr, "//") && !strings.Contains(expr, "\n") {
		also = alsoKeys(t, valueSite)
	}
	c := newChange()
	c.edits[t.f.rel] = []edit{{t.f.off(t.stmt.Pos()), t.f.stmtEnd(t.stmt), fmt.Sprintf("%s := %s%s\n%s", v, expr, also, stmt)}}
	return c, []string{t.at}, ""
}

// valueSite says whether a want key may be cited at the value of its line
// wherever the value is written: a step of the interval trace, the
// finalizer's addition or removal (a patch operation's literal), or where a
// condition is set (the append that puts it in the list).
func valueSite(key string) bool {
	return valueStep(key) || key == "finalizer-add" || key == "finalizer-remove" || strings.HasPrefix(key, wants.ConditionSet)
}

// wrapError hands the error a return gives back through a helper of the
// fixture's own that wraps it, keeping nil nil (as errors.Wrap does):
// `return ctrl.Result{}, err` becomes `return ctrl.Result{}, wrap(err)`.
// The error is the same failure, unwrapped by errors.Is and errors.As.
func wrapError(r *rewriter, t *target) (*change, []string, string) {
	ret, ok := t.stmt.(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return nil, nil, "the line is no return with results"
	}
	e := ret.Results[len(ret.Results)-1]
	tv, ok := t.f.pkg.TypesInfo.Types[e]
	if !ok || tv.IsNil() || !types.Identical(tv.Type, types.Universe.Lookup("error").Type()) {
		return nil, nil, "the return's last result is no error, or nil"
	}
	wrap, typ := r.name("Wrap"), r.name("WrapErr")
	c := newChange()
	c.edits[t.f.rel] = []edit{{t.f.off(e.Pos()), t.f.off(e.Pos()), wrap + "("}, {t.f.off(e.End()), t.f.off(e.End()), ")"}}
	c.appends[t.f.rel] = []string{fmt.Sprintf("type %[2]s struct{ err error }\n\nfunc (e %[2]s) Error() string { return e.err.Error() }\n\nfunc (e %[2]s) Unwrap() error { return e.err }\n\nfunc %[1]s(err error) error {\nif err == nil {\nreturn nil\n}\nreturn %[2]s{err}\n}", wrap, typ)}
	return c, []string{t.at}, ""
}
