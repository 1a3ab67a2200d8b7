package locate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// managedConditions answers the condition types of a kind whose conditions
// are set through a condition set's manager: each type a Mark… call on the
// reconcile path names, cited at its constant with the first call setting
// it, and the set's happy type, which every call of the manager recomputes.
func (p *pass) managedConditions() Row {
	if at := p.statusNeverWritten(); at != "" {
		return noneAfter("no condition reaches the object: the options handed to the generated reconciler set SkipStatusUpdates (at "+at+"), so the generated Reconcile never writes the status the pass computes, and nothing else on the reconcile path writes a status",
			"the options literal handed to the generated constructor with this controller's type; the status writes of every function reachable from the generated Reconcile")
	}
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
	// The kind's methods a dependency runs on the status the reconcile
	// path hands it are read as reached.
	handed, _, handedLost := p.handedMarkers()
	funcs := append(append([]*ssa.Function{}, p.reach.Funcs()...), handed...)
	for _, fn := range funcs {
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
			var ks []*types.Const
			settled, truth := true, c.fact.True
			if c.fact.Arg >= 0 {
				var path []string
				if c.fact.ArgIsCondition {
					// A whole condition (SetCondition(apis.Condition{…})):
					// its Type field, True when its Status is.
					path = []string{"Type"}
					truth = p.a.conditionTrue(fn, c.arg(c.fact.Arg))
				}
				ks, settled = p.a.typeConsts(funcs, fn, c.arg(c.fact.Arg), path)
				if !settled {
					s := p.a.site(c.expr.Lparen)
					lost = append(lost, fmt.Sprintf("%s:%d (%s)", s.File, s.Line, s.Func))
				}
			}
			if happy, deps, ok := p.a.happyType(info, c); happy != nil && !c.fact.ArgIsCondition {
				// Marking a dependent (or the happy type itself) may make
				// the happy type True; a type outside the set leaves it.
				if c.fact.Arg < 0 || !settled || !ok || slices.ContainsFunc(ks, func(k *types.Const) bool { return k == happy || slices.Contains(deps, k) }) {
					add(happy, c.expr.Lparen, c.fact.True)
				}
			}
			for _, k := range ks {
				add(k, c.expr.Lparen, truth)
			}
		}
	}
	depLost := p.depKindMarks(add)
	if len(out) == 0 {
		if len(handedLost) > 0 {
			return none("not settled: the status is handed to a dependency that may mark conditions on it, at " + listSites(handedLost))
		}
		if len(lost) > 0 {
			return none("not settled: a condition is set through a condition set at " + listSites(lost) + ", with a type that could not be followed to a constant")
		}
		if len(depLost) > 0 {
			return none("not settled: the kind's methods are declared in a dependency, whose bodies were not read whole for condition sets; the reconcile path calls them at " + listSites(depLost))
		}
		return noneAfter("no status condition is set through a condition set on the reconcile path",
			"the condition managers' Mark… and InitializeConditions calls in every function reachable from the generated Reconcile")
	}
	for i := range out {
		out[i].Primary = i == 0
	}
	if len(lost) > 0 {
		out[0].Note = "not settled beyond these: a condition is also set at " + listSites(lost) + ", with a type that could not be followed to a constant"
	} else if len(handedLost) > 0 {
		out[0].Note = "not settled beyond these: the status is handed to a dependency that may mark conditions on it, at " + listSites(handedLost)
	} else if len(depLost) > 0 {
		// The kind's Mark… methods, in a dependency, may set others.
		out[0].Note = "not settled beyond these: the kind's methods are declared in a dependency, whose bodies were not read whole for condition sets; the reconcile path calls them at " + listSites(depLost)
	}
	return Row{Sites: out}
}

// statusNeverWritten is, for a generated reconciler handed this
// controller's type with options that set SkipStatusUpdates to true
// (skipsStatusAt), where they do, when no write reachable from the
// generated Reconcile outside the generated code is a status write: the
// conditions the pass marks then stay in memory. "" otherwise.
func (p *pass) statusNeverWritten() string {
	if p.f.style != StyleGenerated {
		return ""
	}
	g := p.a.generatedOf(p.f)
	if g == nil {
		return ""
	}
	at := p.a.skipsStatusAt(g.handed[g.reconcileKind])
	if at == "" {
		return ""
	}
	for _, wc := range p.a.writeCalls(p.reach) {
		if wc.partial || strings.HasSuffix(wc.target, " status") && !p.a.generatedAt(wc.call.expr.Pos()) {
			return ""
		}
	}
	return at
}

// skipsStatusAt is where the options a call hands to a generated
// constructor (its options function literal) set knative.dev/pkg's
// controller.Options.SkipStatusUpdates to the constant true: the
// generated Reconcile then leaves the status alone. "" when they do not,
// or when the call hands options other than a literal.
func (a *analysis) skipsStatusAt(handing *ast.CallExpr) string {
	if handing == nil {
		return ""
	}
	info := a.infoAt(handing.Pos())
	at := ""
	ast.Inspect(handing, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || at != "" || typeKey(info.TypeOf(lit)) != knOptions {
			return at == ""
		}
		keyedFields(info, lit, func(v *types.Var, kv *ast.KeyValueExpr) {
			if v.Name() != knSkipStatusUpdates {
				return
			}
			if tv, ok := info.Types[kv.Value]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value) {
				s := a.site(kv.Pos())
				at = fmt.Sprintf("%s:%d", s.File, s.Line)
			}
		})
		return at == ""
	})
	return at
}

// happyType returns the happy type of the condition set whose manager a
// call uses (set.Manage(status).MarkTrue(…), managerCall), the set a
// package-level variable made by a constructor that implies its happy
// type, and the set's dependents, the constants the constructor is given
// (ok false when one is not a constant).
func (a *analysis) happyType(info *types.Info, c call) (happy *types.Const, deps []*types.Const, ok bool) {
	manage := a.managerCall(info, c)
	if manage == nil {
		return nil, nil, false
	}
	msel, isSel := ast.Unparen(manage.Fun).(*ast.SelectorExpr)
	if !isSel {
		return nil, nil, false
	}
	var setVar *types.Var
	switch x := ast.Unparen(msel.X).(type) {
	case *ast.Ident:
		setVar, _ = info.Uses[x].(*types.Var)
	case *ast.SelectorExpr:
		setVar, _ = info.Uses[x.Sel].(*types.Var)
	case *ast.CallExpr:
		// s.GetConditionSet().Manage(s): a getter of the set's variable.
		setVar = a.gottenVar(info, x)
	}
	if setVar == nil {
		return nil, nil, false
	}
	fi, own := a.fileAt(setVar.Pos())
	if !own {
		return nil, nil, false
	}
	var implied string
	for _, n := range a.path(setVar.Pos(), setVar.Pos()) {
		vs, isSpec := n.(*ast.ValueSpec)
		if !isSpec {
			continue
		}
		for i, name := range vs.Names {
			if fi.info.Defs[name] != setVar || i >= len(vs.Values) {
				continue
			}
			ce, isCall := ast.Unparen(vs.Values[i]).(*ast.CallExpr)
			if !isCall {
				continue
			}
			if mc := a.makeCall(fi.info, ce, nil); mc.known && mc.fact.Role == RoleNewConditionSet {
				implied = mc.fact.Implied
				ok = !ce.Ellipsis.IsValid()
				for _, arg := range ce.Args {
					k := constOf(fi.info, arg)
					ok = ok && k != nil
					if k != nil {
						deps = append(deps, k)
					}
				}
			}
		}
	}
	if implied == "" {
		return nil, nil, false
	}
	pkgPath, name := splitQualified(implied)
	return a.lookupConst(pkgPath, name), deps, ok
}

// managesKind says whether a condition manager's call sets conditions of
// the primary object: set.Manage(x).Mark…(…) where x is the kind's status,
// or is reached from a value of the kind or of its status (rev.GetStatus(),
// &rev.Status.Status). A manager of a status the code makes itself (a
// scratch duck status it then translates) is not. A manager held in a
// variable is not followed, and counts.
func (a *analysis) managesKind(info *types.Info, c call, kind *types.Named) bool {
	if kind == nil {
		return true
	}
	manage := a.managerCall(info, c)
	if manage == nil || len(manage.Args) != 1 {
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

// managerCall returns the call making the condition manager a Mark… call
// runs on (set.Manage(status)), seen through an interface the manager is
// converted to and a generic identity handing the method value back; nil
// when the receiver is not such a call (a manager held in a variable).
func (a *analysis) managerCall(info *types.Info, c call) *ast.CallExpr {
	recv := a.target(info, c.expr.Fun, 0).recv
	if recv == nil {
		return nil
	}
	ce, _ := ast.Unparen(recv).(*ast.CallExpr)
	return ce
}

// maxTypeCallers bounds how many callers up a condition type handed as a
// parameter is followed.
const maxTypeCallers = 3

// typeConsts resolves, through the value-flow engine, the string
// constants the path below e (in fn) may hold: a local, a tuple result, an
// options field, a helper's result; a parameter is followed to the
// arguments of the calls of fn in fns (a helper ranging over the types it
// is given). settled is false when a value is not followed to a constant.
func (a *analysis) typeConsts(fns []*ssa.Function, fn *ssa.Function, e ast.Expr, path []string) ([]*types.Const, bool) {
	if e == nil {
		return nil, false
	}
	b := a.flowBodyOf(fn)
	if _, lit := fn.Syntax().(*ast.FuncLit); lit {
		b = a.closureBody(fn)
	}
	if b == nil {
		return nil, false
	}
	fl := &flowEngine{a: a}
	var out []*types.Const
	settled := a.valueConsts(fl, fns, fn, b, fl.values(b, e, path...), 0, &out)
	return out, settled
}

// valueConsts adds to out the string constants the values (of body b,
// function fn) name, following those that are fn's parameters to its
// callers in fns; it says whether every value was followed to one.
func (a *analysis) valueConsts(fl *flowEngine, fns []*ssa.Function, fn *ssa.Function, b *flowBody, vals []flowVal, depth int, out *[]*types.Const) bool {
	settled := len(vals) > 0
	for _, v := range vals {
		switch {
		case v.zero:
		case v.param >= 0 && v.b != nil && v.b.decl == b.decl && v.b.lit == b.lit:
			if depth >= maxTypeCallers || !a.callerConsts(fl, fns, fn, v, depth, out) {
				settled = false
			}
		case v.param >= 0 && v.b != nil && v.b.decl == b.decl && v.b.lit == nil && fn.Parent() != nil:
			// A parameter of the function declaring the closure fn:
			// that function's callers decide.
			outer := fn
			for outer.Parent() != nil {
				outer = outer.Parent()
			}
			if depth >= maxTypeCallers || !a.callerConsts(fl, fns, outer, v, depth, out) {
				settled = false
			}
		case v.e != nil && v.b != nil && len(v.path) == 0 && !v.ended():
			k := constOf(v.b.info, stripConversions(v.b.info, v.e))
			if k == nil || k.Val().Kind() != constant.String {
				settled = false
				continue
			}
			if !slices.Contains(*out, k) {
				*out = append(*out, k)
			}
		default:
			settled = false
		}
	}
	return settled
}

// callerConsts follows a value of fn's parameter (its index counting the
// receiver first, as the engine does) to the arguments the calls of fn in
// fns hand it; false when no call is found or one is not followed.
func (a *analysis) callerConsts(fl *flowEngine, fns []*ssa.Function, fn *ssa.Function, v flowVal, depth int, out *[]*types.Const) bool {
	found, settled := false, true
	for _, caller := range fns {
		for _, c := range a.callsIn(caller) {
			if !slices.Contains(c.own, fn) {
				continue
			}
			found = true
			cb := a.flowBodyOf(caller)
			if _, lit := caller.Syntax().(*ast.FuncLit); lit {
				cb = a.closureBody(caller)
			}
			if cb == nil {
				settled = false
				continue
			}
			args := a.callArgs(cb.info, c.expr, v.b)
			if v.param >= len(args) {
				settled = false
				continue
			}
			if !a.valueConsts(fl, fns, caller, cb, fl.values(cb, args[v.param], v.path...), depth+1, out) {
				settled = false
			}
		}
	}
	return found && settled
}

// conditionTrue says whether a condition value (in fn) has its Status set
// to True on some value the engine follows it to.
func (a *analysis) conditionTrue(fn *ssa.Function, e ast.Expr) bool {
	b := a.flowBodyOf(fn)
	if _, lit := fn.Syntax().(*ast.FuncLit); lit {
		b = a.closureBody(fn)
	}
	if b == nil || e == nil {
		return false
	}
	for _, v := range (&flowEngine{a: a}).values(b, e, "Status") {
		if v.e != nil && v.b != nil && isTrue(v.b.info, v.e) {
			return true
		}
	}
	return false
}

// gottenVar is the package-level variable a call of a getter of the tree
// hands back (returnedVar), or nil.
func (a *analysis) gottenVar(info *types.Info, ce *ast.CallExpr) *types.Var {
	fn, _ := typeutil.Callee(info, ce).(*types.Func)
	decl := a.decls[fn]
	if decl == nil || decl.Body == nil {
		return nil
	}
	return returnedVar(a.infoAt(decl.Pos()), decl.Body)
}

// returnedVar is the package-level variable every return of a body hands
// back, alone (a getter of a condition set, under a lock), or nil.
func returnedVar(info *types.Info, body *ast.BlockStmt) *types.Var {
	var got *types.Var
	ok := true
	returnsOf(body, func(r *ast.ReturnStmt) {
		var v *types.Var
		if len(r.Results) == 1 {
			v = varNamed(info, r.Results[0])
		}
		if v == nil || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || got != nil && got != v {
			ok = false
		}
		got = v
	})
	if !ok {
		return nil
	}
	return got
}
