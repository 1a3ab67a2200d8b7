package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"
)

// maxDepMarkers bounds how many methods of the kind's package declared in
// a dependency are read for the conditions they mark.
const maxDepMarkers = 64

// depKindMarks reads the bodies of the methods of the primary type's
// package, when a dependency declares it, that the reconcile path calls
// (the kind's Mark… methods, out of the call graph), and the methods of
// that package those call in turn: each condition manager's Mark… call in
// them on the kind's status is handed to add, cited at the call in the
// tree that leads there, with its type and the set's happy type. It
// returns the calls in the tree whose methods could not be read whole
// (a body not read, a type not followed to a constant), "file:line (func)"
// each.
func (p *pass) depKindMarks(add func(k *types.Const, at token.Pos, truth bool)) (lost []string) {
	kind := p.kind()
	if kind == nil || kind.Obj().Pkg() == nil {
		return nil
	}
	if _, own := p.a.fileAt(kind.Obj().Pos()); own {
		return nil
	}
	pkg := kind.Obj().Pkg().Path()
	type visit struct {
		fn *types.Func
		at token.Pos
	}
	var queue []visit
	for _, fn := range p.reach.Funcs() {
		for _, c := range p.a.callsIn(fn) {
			if isKindPkgMethod(c.fn, pkg) {
				queue = append(queue, visit{c.fn, c.expr.Lparen})
			}
		}
	}
	read := map[string]bool{}
	lostAt := map[token.Pos]bool{}
	for len(queue) > 0 && len(read) < maxDepMarkers {
		v := queue[0]
		queue = queue[1:]
		key := fmt.Sprintf("%s@%d", funcKey(v.fn), v.at)
		if read[key] {
			continue
		}
		read[key] = true
		b := p.a.depBody(v.fn)
		if b == nil || b.partial {
			lostAt[v.at] = true
			continue
		}
		ast.Inspect(b.decl.Body, func(n ast.Node) bool {
			ce, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			c := p.a.makeCall(b.info, ce, nil)
			if isKindPkgMethod(c.fn, pkg) {
				queue = append(queue, visit{c.fn, v.at})
			}
			if !c.known || c.fact.Role != RoleManagedCondition || c.fact.ArgIsCondition || !p.a.managesKindByName(b.info, c, kind) {
				return true
			}
			k := constOf(b.info, c.arg(c.fact.Arg))
			if c.fact.Arg >= 0 && k == nil {
				lostAt[v.at] = true
				return true
			}
			if k != nil {
				add(k, v.at, c.fact.True)
			}
			if happy, deps := p.a.depHappyType(b.info, c); happy != nil && (k == nil || k == happy || slices.Contains(deps, k)) {
				add(happy, v.at, c.fact.True)
			}
			return true
		})
	}
	if len(queue) > 0 {
		lostAt[queue[0].at] = true
	}
	for at := range lostAt {
		s := p.a.site(at)
		lost = append(lost, fmt.Sprintf("%s:%d (%s)", s.File, s.Line, s.Func))
	}
	slices.Sort(lost)
	return lost
}

// isKindPkgMethod reports whether fn is a method declared in the package
// at path.
func isKindPkgMethod(fn *types.Func, path string) bool {
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == path && fn.Type().(*types.Signature).Recv() != nil
}

// managesKindByName is managesKind for a body type-checked apart from the
// tree (a dependency's, read from source): its types are other objects
// than the tree's, so the kind and its status are matched by package path
// and name.
func (a *analysis) managesKindByName(info *types.Info, c call, kind *types.Named) bool {
	manage := a.managerCall(info, c)
	if manage == nil || len(manage.Args) != 1 {
		return true
	}
	status := ""
	if f, _, _ := types.LookupFieldOrMethod(kind, true, kind.Obj().Pkg(), statusField); f != nil {
		if v, ok := f.(*types.Var); ok && v.IsField() {
			status = typeKey(v.Type())
		}
	}
	t := typeKey(info.TypeOf(manage.Args[0]))
	return t != "" && (t == typeKey(kind) || t == status)
}

// depHappyType is happyType for a dependency's body: the happy type and
// dependents of the condition set a package-level variable of that
// dependency holds, made by a constructor that implies its happy type.
func (a *analysis) depHappyType(info *types.Info, c call) (happy *types.Const, deps []*types.Const) {
	manage := a.managerCall(info, c)
	if manage == nil {
		return nil, nil
	}
	msel, ok := ast.Unparen(manage.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	var setVar *types.Var
	switch x := ast.Unparen(msel.X).(type) {
	case *ast.Ident:
		setVar, _ = info.Uses[x].(*types.Var)
	case *ast.CallExpr:
		// s.GetConditionSet().Manage(s): a getter of the set's variable.
		if fn, _ := typeutil.Callee(info, x).(*types.Func); fn != nil {
			if b := a.depBody(fn); b != nil && !b.partial {
				setVar = returnedVar(b.info, b.decl.Body)
			}
		}
	}
	if setVar == nil || setVar.Pkg() == nil || setVar.Parent() != setVar.Pkg().Scope() {
		return nil, nil
	}
	dp := a.depPackage(setVar.Pkg().Path())
	if dp == nil {
		return nil, nil
	}
	ce, ok := ast.Unparen(dp.inits[setVar.Name()]).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	mc := a.makeCall(info, ce, nil)
	if !mc.known || mc.fact.Role != RoleNewConditionSet {
		return nil, nil
	}
	for _, arg := range ce.Args {
		if k := constOf(info, arg); k != nil {
			deps = append(deps, k)
		}
	}
	pkgPath, name := splitQualified(mc.fact.Implied)
	return a.lookupConst(pkgPath, name), deps
}
