package locate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// managedConditions answers the condition types of a kind whose conditions
// are set through a condition set's manager: each type a Mark… call on the
// reconcile path names, cited at its constant with the first call setting
// it, and the set's happy type, which every call of the manager recomputes.
func (p *pass) managedConditions() Row {
	var out []Site
	index := map[string]int{}
	add := func(k *types.Const, at token.Pos, truth bool) {
		name := constant.StringVal(k.Val())
		if i, ok := index[name]; ok {
			if truth && !out[i].Primary {
				set := p.a.site(at).Site
				out[i].Set = &set
				out[i].Primary = true // marks a True set, cleared below
			}
			return
		}
		s := p.a.objSite(k)
		s.Name = name
		set := p.a.site(at).Site
		s.Set = &set
		s.Primary = truth
		index[name] = len(out)
		out = append(out, s)
	}
	var lost []string
	for _, fn := range p.reach.Funcs() {
		b := body(fn)
		if b == nil {
			continue
		}
		info := p.a.infoAt(b.Pos())
		for _, c := range p.a.callsIn(fn) {
			if !c.known || c.fact.Role != RoleManagedCondition {
				continue
			}
			if !p.a.managesKind(info, c, p.kind()) {
				continue
			}
			if happy := p.a.happyType(info, c); happy != nil {
				// Marking a dependent True may make the happy type True.
				add(happy, c.expr.Lparen, c.fact.True)
			}
			if c.fact.Arg < 0 {
				continue
			}
			k := constOf(info, c.arg(c.fact.Arg))
			if k == nil || k.Val().Kind() != constant.String {
				s := p.a.site(c.expr.Lparen)
				lost = append(lost, fmt.Sprintf("%s:%d (%s)", s.File, s.Line, s.Func))
				continue
			}
			add(k, c.expr.Lparen, c.fact.True)
		}
	}
	if len(out) == 0 {
		if len(lost) > 0 {
			return none("not settled: a condition is set through a condition set at " + listSites(lost) + ", with a type that could not be followed to a constant")
		}
		if at := p.depKindMethod(); at != "" {
			return none("not settled: the kind's methods are declared in a dependency, whose bodies are not read for condition sets; the reconcile path calls one at " + at)
		}
		return noneAfter("no status condition is set through a condition set on the reconcile path",
			"the condition managers' Mark… and InitializeConditions calls in every function reachable from the generated Reconcile")
	}
	for i := range out {
		out[i].Primary = i == 0
	}
	if len(lost) > 0 {
		out[0].Note = "not settled beyond these: a condition is also set at " + listSites(lost) + ", with a type that could not be followed to a constant"
	}
	return Row{Sites: out}
}

// depKindMethod returns where the reconcile path first calls a method of a
// type declared with the primary type, when that is in a dependency (the
// kind's Mark… methods are then out of sight), or "".
func (p *pass) depKindMethod() string {
	kind := p.kind()
	if kind == nil || kind.Obj().Pkg() == nil {
		return ""
	}
	if _, own := p.a.fileAt(kind.Obj().Pos()); own {
		return ""
	}
	for _, fn := range p.reach.Funcs() {
		for _, c := range p.a.callsIn(fn) {
			if c.fn == nil || c.fn.Pkg() != kind.Obj().Pkg() || c.fn.Type().(*types.Signature).Recv() == nil {
				continue
			}
			s := p.a.site(c.expr.Lparen)
			return fmt.Sprintf("%s:%d (%s)", s.File, s.Line, s.Func)
		}
	}
	return ""
}

// happyType returns the happy type of the condition set whose manager a
// call uses: set.Manage(status).MarkTrue(…), the set a package-level
// variable made by a constructor that implies its happy type.
func (a *analysis) happyType(info *types.Info, c call) *types.Const {
	sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	manage, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok {
		return nil
	}
	msel, ok := ast.Unparen(manage.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	var setVar *types.Var
	switch x := ast.Unparen(msel.X).(type) {
	case *ast.Ident:
		setVar, _ = info.Uses[x].(*types.Var)
	case *ast.SelectorExpr:
		setVar, _ = info.Uses[x.Sel].(*types.Var)
	}
	if setVar == nil {
		return nil
	}
	fi, ok := a.fileAt(setVar.Pos())
	if !ok {
		return nil
	}
	var implied string
	for _, n := range a.path(setVar.Pos(), setVar.Pos()) {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			continue
		}
		for i, name := range vs.Names {
			if fi.info.Defs[name] != setVar || i >= len(vs.Values) {
				continue
			}
			if ce, ok := ast.Unparen(vs.Values[i]).(*ast.CallExpr); ok {
				if mc := a.makeCall(fi.info, ce, nil); mc.known && mc.fact.Role == RoleNewConditionSet {
					implied = mc.fact.Implied
				}
			}
		}
	}
	if implied == "" {
		return nil
	}
	pkgPath, name := splitQualified(implied)
	return a.lookupConst(pkgPath, name)
}

// managesKind says whether a condition manager's call sets conditions of
// the primary object: set.Manage(x).Mark…(…) where x is the kind's status,
// or is reached from a value of the kind or of its status (rev.GetStatus(),
// &rev.Status.Status). A manager of a status the code makes itself (a
// scratch duck status it then translates) is not. A manager held in a
// variable is not followed, and counts.
func (a *analysis) managesKind(info *types.Info, c call, kind *types.Named) bool {
	sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr)
	if !ok || kind == nil {
		return true
	}
	manage, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok || len(manage.Args) != 1 {
		return true
	}
	var status types.Type
	if f, _, _ := types.LookupFieldOrMethod(kind, true, kind.Obj().Pkg(), statusField); f != nil {
		if v, ok := f.(*types.Var); ok && v.IsField() {
			status = v.Type()
		}
	}
	ofKind := func(e ast.Expr) bool {
		t := deref(info.TypeOf(e))
		return t != nil && (types.Identical(t, kind) || status != nil && types.Identical(t, deref(status)))
	}
	e := manage.Args[0]
	for range 8 {
		if ofKind(e) {
			return true
		}
		switch x := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.CallExpr:
			fs, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return false
			}
			e = fs.X
		default:
			return false
		}
	}
	return false
}
