package metamorphic

import (
	"fmt"
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
