package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// conditionTypes finds every condition type the controller sets on its own
// object, each cited at its constant with one set site.
func (a *analysis) conditionTypes(kind *types.Named, reach *callgraph.Reach) Row {
	type setSite struct {
		site  Site
		truth bool
	}
	decl := map[string]Site{}
	sets := map[string][]setSite{}
	var names []string
	for _, fn := range reach.Funcs() {
		info := a.infoAt(posOf(fn))
		if info == nil {
			continue
		}
		for _, c := range a.callsIn(fn) {
			if !c.known || c.fact.Role != RoleConditionSet || !a.onOwnObject(info, c.arg(c.fact.Obj), kind) {
				continue
			}
			name, k, truth := a.conditionType(info, c)
			if name == "" {
				continue
			}
			if _, ok := decl[name]; !ok {
				names = append(names, name)
				if k != nil {
					decl[name] = a.objSite(k)
				} else {
					s := a.site(c.expr.Lparen)
					s.Note = "a string literal: no constant declares this condition type"
					decl[name] = s
				}
			}
			sets[name] = append(sets[name], setSite{a.site(c.expr.Lparen), truth})
		}
	}
	if len(names) == 0 {
		return none("no status condition is set on the primary object on the reconcile path")
	}
	var out []Site
	for _, name := range names {
		ss := sets[name]
		sort.SliceStable(ss, func(i, j int) bool {
			if ss[i].site.File != ss[j].site.File {
				return ss[i].site.File < ss[j].site.File
			}
			return ss[i].site.Line < ss[j].site.Line
		})
		chosen := ss[0]
		for _, s := range ss {
			if s.truth {
				chosen = s
				break
			}
		}
		d := decl[name]
		d.Name = name
		set := chosen.site.Site
		d.Set = &set
		out = append(out, d)
	}
	// The summary condition (Ready, by convention) is the one set on most
	// paths: it is the primary, the others follow by name.
	sort.SliceStable(out, func(i, j int) bool {
		ni, nj := len(sets[out[i].Name]), len(sets[out[j].Name])
		if ni != nj {
			return ni > nj
		}
		return out[i].Name < out[j].Name
	})
	out[0].Primary = true
	return Row{Sites: out}
}

// onOwnObject reports whether a setter's target is the primary object (or
// its status conditions).
func (a *analysis) onOwnObject(info *types.Info, target ast.Expr, kind *types.Named) bool {
	if target == nil {
		return false
	}
	e := ast.Unparen(target)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	for {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok || info.Selections[sel] == nil {
			break
		}
		if n, ok := deref(info.TypeOf(sel.X)).(*types.Named); ok && kind != nil && types.Identical(n, kind) {
			return true
		}
		e = ast.Unparen(sel.X)
	}
	if kind == nil {
		return true
	}
	t := info.TypeOf(e)
	if t != nil && types.IsInterface(t) {
		// A helper taking any object (conditions.Setter, client.Object):
		// on this reconcile path it is handed the primary object.
		return true
	}
	n, ok := deref(t).(*types.Named)
	return ok && types.Identical(n, kind)
}

// conditionType returns the type a condition setter sets, its constant when
// one names it, and whether the setter sets it True.
func (a *analysis) conditionType(info *types.Info, c call) (string, *types.Const, bool) {
	if c.fact.Implied != "" {
		pkgPath, name := splitQualified(c.fact.Implied)
		if k := a.lookupConst(pkgPath, name); k != nil {
			return constant.StringVal(k.Val()), k, c.fact.True
		}
		return "", nil, false
	}
	arg := c.arg(c.fact.Arg)
	truth := c.fact.True
	if c.fact.ArgIsCondition {
		lit, ok := ast.Unparen(arg).(*ast.CompositeLit)
		if !ok || typeKey(info.TypeOf(lit)) != typeCondition {
			return "", nil, false
		}
		arg = nil
		keyedFields(info, lit, func(v *types.Var, kv *ast.KeyValueExpr) {
			switch fieldKey(v, info.TypeOf(lit)) {
			case fieldConditionType:
				arg = kv.Value
			case fieldConditionStatus:
				if tv, ok := info.Types[kv.Value]; ok && tv.Value != nil && constant.StringVal(tv.Value) == conditionTrue {
					truth = true
				}
			}
		})
	}
	if arg == nil {
		return "", nil, false
	}
	tv, ok := info.Types[arg]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", nil, false
	}
	return constant.StringVal(tv.Value), constOf(info, arg), truth
}

// lookupConst finds a package-level constant among the loaded packages.
func (a *analysis) lookupConst(pkgPath, name string) *types.Const {
	if p := a.tree.Types(pkgPath); p != nil {
		k, _ := p.Scope().Lookup(name).(*types.Const)
		return k
	}
	return nil
}
