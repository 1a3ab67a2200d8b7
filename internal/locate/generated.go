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
)

// Generated reconcilers (spec/rows.md, "generated reconcilers"): a
// dependency's controller runs the Reconcile(ctx, key) of a generated
// reconciler handed to its constructor (RoleRunSync); that Reconcile re-reads
// the object, keeps the finalizer and writes the status, and calls the
// hand-written ReconcileKind (and FinalizeKind, when the hand-written type
// implements the generated Finalizer) through the generated interfaces.
// The controller's entry is that sync function, so that the reconcile path
// covers both; the rows cite the hand-written methods where the contract
// says so.

// generatedKind is what a generated reconciler's Reconcile hands to the
// hand-written code: where it selects ReconcileKind and FinalizeKind through
// the generated interfaces, and the implementations they run.
type generatedKind struct {
	// finalizeAt is where the generated code selects FinalizeKind.
	finalizeAt token.Pos
	// reconcileKind is the hand-written ReconcileKind, finalizeKind its
	// FinalizeKind (nil when the type does not implement the generated
	// Finalizer).
	reconcileKind, finalizeKind *ssa.Function
	// finalizer is the generated Finalizer interface.
	finalizer *types.Interface
	// others are the other implementations of the generated Interface,
	// when there are several: which one the tree hands over is not settled.
	others []*ssa.Function
}

// addGenerated appends to out the generated reconcilers a declaration hands
// to the dependency's controller, skipping those already found.
func (a *analysis) addGenerated(fd *ast.FuncDecl, out []*found, seen map[*ssa.Function]bool) []*found {
	info := a.infoAt(fd.Pos())
	a.allCalls(fd, func(c call) {
		if !c.known || c.fact.Role != RoleRunSync {
			return
		}
		for _, rt := range a.reconcilerTypes(fd, info, c.arg(c.fact.Arg)) {
			sync := a.methodFunc(rt, methodReconcile)
			if sync == nil || seen[sync] {
				continue
			}
			g := a.generatedKind(sync)
			if g == nil {
				continue
			}
			seen[sync] = true
			f := &found{name: syncName(g.reconcileKind), style: StyleGenerated, entry: sync,
				keyParams: map[*types.Var]bool{}, registration: []Site{a.site(c.expr.Lparen)}}
			for i := 0; i < sync.Signature.Params().Len(); i++ {
				if v := sync.Signature.Params().At(i); typeKey(v.Type()) != typeContext {
					f.keyParams[v] = true
				}
			}
			if p := g.reconcileKind.Signature.Params(); p.Len() > 1 {
				f.kind, _ = deref(p.At(1).Type()).(*types.Named)
			}
			a.qualifySameName(out, f, g.reconcileKind)
			out = append(out, f)
		}
	})
	return out
}

// qualifySameName names a generated-style controller and those found before
// it that share its name (every kind's hand-written type is often called
// Reconciler) after the packages of their hand-written types too:
// pkg.Reconciler.
func (a *analysis) qualifySameName(found []*found, f *found, impl *ssa.Function) {
	clash := false
	for _, o := range found {
		if o.style != StyleGenerated || o.name != f.name && !strings.HasSuffix(o.name, "."+f.name) {
			continue
		}
		clash = true
		if g := a.generatedKind(o.entry); g != nil && o.name == f.name && g.reconcileKind.Pkg != nil {
			o.name = g.reconcileKind.Pkg.Pkg.Name() + "." + o.name
		}
	}
	if clash && impl.Pkg != nil {
		f.name = impl.Pkg.Pkg.Name() + "." + f.name
	}
}

// generatedKind finds, in a generated Reconcile and the tree's functions it
// calls directly (a helper that picks the method for the object's state),
// the selections of the hand-written methods: interface methods returning
// an event, called or taken as method values; and the implementation of
// ReconcileKind, or nil when there is none.
func (a *analysis) generatedKind(sync *ssa.Function) *generatedKind {
	g := &generatedKind{}
	var iface *types.Interface
	var ifaceType types.Type
	fns := []*ssa.Function{sync}
	for _, c := range a.callsIn(sync) {
		for _, o := range c.own {
			if !slices.Contains(fns, o) {
				fns = append(fns, o)
			}
		}
	}
	for _, fn := range fns {
		b := body(fn)
		if b == nil {
			continue
		}
		info := a.infoAt(b.Pos())
		ast.Inspect(b, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			m, ok := info.Uses[sel.Sel].(*types.Func)
			if !ok {
				return true
			}
			sig := m.Type().(*types.Signature)
			if sig.Recv() == nil || sig.Results().Len() != 1 || typeKey(sig.Results().At(0).Type()) != typeEvent {
				return true
			}
			it, ok := sig.Recv().Type().Underlying().(*types.Interface)
			if !ok {
				return true
			}
			switch m.Name() {
			case generatedKindMethod:
				iface, ifaceType = it, sig.Recv().Type()
			case generatedFinalizeMethod:
				if g.finalizer == nil {
					g.finalizer, g.finalizeAt = it, sel.Sel.Pos()
				}
			}
			return true
		})
	}
	if iface == nil {
		return nil
	}
	impls := a.implementations(iface, generatedKindMethod)
	if len(impls) == 0 {
		return nil
	}
	if handed := a.handedAs(ifaceType, impls); len(handed) > 0 {
		impls = handed
	}
	g.reconcileKind, g.others = impls[0], impls[1:]
	if recv := g.reconcileKind.Signature.Recv(); recv != nil && g.finalizer != nil && types.Implements(recv.Type(), g.finalizer) {
		if n, ok := deref(recv.Type()).(*types.Named); ok {
			g.finalizeKind = a.methodFunc(n, generatedFinalizeMethod)
		}
	}
	return g
}

// handedAs returns the implementations whose receivers the tree passes as
// an argument of the interface's type (the hand-written reconciler handed
// to the generated constructor).
func (a *analysis) handedAs(iface types.Type, impls []*ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		a.allCalls(fd, func(c call) {
			if c.fn == nil {
				return
			}
			params := c.fn.Type().(*types.Signature).Params()
			for i, arg := range c.expr.Args {
				if i >= params.Len() || !types.Identical(params.At(i).Type(), iface) {
					continue
				}
				for _, impl := range impls {
					if t := info.TypeOf(arg); t != nil && types.Identical(t, impl.Signature.Recv().Type()) && !slices.Contains(out, impl) {
						out = append(out, impl)
					}
				}
			}
		})
	}
	slices.SortFunc(out, func(x, y *ssa.Function) int { return int(x.Pos() - y.Pos()) })
	return out
}

// implementations returns the tree's methods of a name whose receivers
// implement an interface, in source order.
func (a *analysis) implementations(iface *types.Interface, name string) []*ssa.Function {
	var out []*ssa.Function
	for f := range a.prog.Own {
		if recv := f.Signature.Recv(); recv != nil && f.Name() == name && f.Synthetic == "" && types.Implements(recv.Type(), iface) {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(x, y *ssa.Function) int { return int(x.Pos() - y.Pos()) })
	return out
}

// generatedRows answers the rows whose sites, in this style, are in the
// hand-written code or in the generated finalizer code: the entry, the
// finalizer rows and the condition types.
func (p *pass) generatedRows(rows map[string]Row) {
	g := p.a.generatedKind(p.f.entry)
	if g == nil {
		return
	}
	entry := p.a.funcSite(g.reconcileKind)
	entry.Primary = true
	if len(g.others) > 0 {
		var also []string
		for _, o := range g.others {
			s := p.a.funcSite(o)
			also = append(also, fmt.Sprintf("%s:%d (%s)", s.File, s.Line, s.Func))
		}
		entry.Note = "not settled: the generated Interface has other implementations, and which one is handed to the generated reconciler was not followed: " + listSites(also)
	}
	sync := p.a.funcSite(p.f.entry)
	sync.Note = "the generated Reconcile(ctx, key): the queue's sync function, which calls ReconcileKind"
	rows[RowEntry] = Row{Sites: append([]Site{entry, sync}, p.f.registration...)}
	p.generatedFinalizerRows(g, rows)
	rows[RowConditionTypes] = p.managedConditions()
}

// generatedFinalizerRows answers the finalizer rows: with FinalizeKind,
// the generated code's additions and removals of the finalizer in the set
// built from the object's list, its constant, and FinalizeKind as the
// cleanup; without, none.
func (p *pass) generatedFinalizerRows(g *generatedKind, rows map[string]Row) {
	if g.finalizeKind == nil {
		reason := fmt.Sprintf("no finalizer: %s does not implement the generated Finalizer (no %s method), so the generated reconciler neither adds nor removes one", syncName(g.reconcileKind), generatedFinalizeMethod)
		for _, id := range []string{RowFinalizerConst, RowFinalizerAdd, RowFinalizerCleanup, RowFinalizerRemove} {
			rows[id] = noneAfter(reason, "the type implementing the generated Interface, checked against the generated Finalizer interface")
		}
		return
	}
	var adds, removes []finOp
	for _, fn := range p.reach.Funcs() {
		b := body(fn)
		if b == nil {
			continue
		}
		info := p.a.infoAt(b.Pos())
		for _, c := range p.a.callsIn(fn) {
			if !c.known || c.fact.Role != RoleSetInsert && c.fact.Role != RoleSetDelete {
				continue
			}
			sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr)
			if !ok || !p.a.finalizerSet(info, b, sel.X, p.kind()) {
				continue
			}
			op := finOp{pos: c.expr.Lparen, value: c.arg(c.fact.Arg), info: info, in: fn}
			if c.fact.Role == RoleSetInsert {
				adds = append(adds, op)
			} else {
				removes = append(removes, op)
			}
		}
	}
	// An addition's function may also remove (a helper that syncs the list
	// both ways): the removals the cleanup alone reaches come first.
	if len(adds) > 0 {
		fromAdd := p.a.prog.Reachable(adds[0].in).Funcs()
		slices.SortStableFunc(removes, func(x, y finOp) int {
			return boolOrder(slices.Contains(fromAdd, x.in)) - boolOrder(slices.Contains(fromAdd, y.in))
		})
	}
	var consts []Site
	seen := map[types.Object]bool{}
	for _, op := range append(append([]finOp(nil), adds...), removes...) {
		for _, k := range p.a.finalizerConsts(op) {
			if seen[k] {
				continue
			}
			seen[k] = true
			s := p.a.objSite(k)
			s.Name = constant.StringVal(k.Val())
			consts = append(consts, s)
		}
	}
	none := "not settled: the generated reconciler calls " + generatedFinalizeMethod + ", but no change of the finalizer set built from the object's list was found on the reconcile path"
	rows[RowFinalizerConst] = rowOf(consts, "not settled: the finalizer the generated code adds was not followed to a constant")
	rows[RowFinalizerAdd] = rowOf(p.opSites(adds), none)
	rows[RowFinalizerRemove] = rowOf(p.opSites(removes), none)
	cleanup := p.a.funcSite(g.finalizeKind)
	cleanup.Primary = true
	call := p.a.site(g.finalizeAt)
	call.Note = "the generated code runs it once the object is being deleted"
	rows[RowFinalizerCleanup] = Row{Sites: []Site{cleanup, call}}
}

// boolOrder orders false before true.
func boolOrder(b bool) int {
	if b {
		return 1
	}
	return 0
}

// opSites cites finalizer operations, in order.
func (p *pass) opSites(ops []finOp) []Site {
	var out []Site
	for _, op := range ops {
		out = append(out, p.a.site(op.pos))
	}
	return out
}

// finalizerSet reports whether a set is built, in the body, from the
// finalizer list of an object of the primary type.
func (a *analysis) finalizerSet(info *types.Info, b *ast.BlockStmt, set ast.Expr, kind *types.Named) bool {
	id, ok := ast.Unparen(set).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	from := false
	ast.Inspect(b, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return !from
		}
		for i, l := range as.Lhs {
			lid, ok := l.(*ast.Ident)
			if !ok || info.Defs[lid] != v && info.Uses[lid] != v {
				continue
			}
			ast.Inspect(as.Rhs[i], func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && fieldOf(info, sel) == fieldFinalizers && ofKind(info, sel.X, kind) {
					from = true
				}
				return !from
			})
		}
		return !from
	})
	return from
}

// finalizerConsts follows the finalizer an operation is handed to its
// constants: the constant itself, or the constants the tree stores in the
// field it reads (finalizerFieldConsts). It returns nil when a store is not
// followed to a constant.
func (a *analysis) finalizerConsts(op finOp) []*types.Const {
	if op.value == nil {
		return nil
	}
	if k := constOf(op.info, op.value); k != nil {
		return []*types.Const{k}
	}
	sel, ok := ast.Unparen(op.value).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	field, ok := op.info.Uses[sel.Sel].(*types.Var)
	if !ok || !field.IsField() {
		return nil
	}
	consts, settled := a.finalizerFieldConsts(field, 0)
	if !settled {
		return nil
	}
	return consts
}

// finalizerFieldConsts returns the constants every keyed literal and
// assignment of the tree stores in a field: a store of another field (an
// option's override) is followed in turn, and its constants come first (an
// override wins over the default); a field nothing stores adds none. It is
// not settled when a store is neither.
func (a *analysis) finalizerFieldConsts(field *types.Var, depth int) ([]*types.Const, bool) {
	var defaults, overrides []*types.Const
	settled := depth < 3
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			var value ast.Expr
			switch n := n.(type) {
			case *ast.CompositeLit:
				keyedFields(info, n, func(v *types.Var, kv *ast.KeyValueExpr) {
					if v == field {
						value = kv.Value
					}
				})
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if s, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && info.Uses[s.Sel] == field && len(n.Lhs) == len(n.Rhs) {
						value = n.Rhs[i]
					}
				}
			}
			if value == nil || !settled {
				return settled
			}
			if k := constOf(info, value); k != nil {
				if !slices.Contains(defaults, k) {
					defaults = append(defaults, k)
				}
				return true
			}
			sel, ok := ast.Unparen(value).(*ast.SelectorExpr)
			other, isVar := (*types.Var)(nil), false
			if ok {
				other, isVar = info.Uses[sel.Sel].(*types.Var)
			}
			if !isVar || !other.IsField() || other == field {
				settled = false
				return false
			}
			sub, ok := a.finalizerFieldConsts(other, depth+1)
			if !ok {
				settled = false
				return false
			}
			for _, k := range sub {
				if !slices.Contains(overrides, k) {
					overrides = append(overrides, k)
				}
			}
			return true
		})
	}
	return append(overrides, defaults...), settled
}

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

// generatedRequeues classifies the events the hand-written ReconcileKind
// returns: a NewRequeueAfter(d) brings the key back after d (classified as
// a controller-runtime RequeueAfter would be), a permanent error is
// terminal, a skipped key, a normal event and nil bring nothing back, and
// any other error (a warning event too) is re-added rate-limited by the
// dependency's controller.
func (a *analysis) generatedRequeues(f *found) *requeues {
	out := &requeues{}
	g := a.generatedKind(f.entry)
	if g == nil {
		out.onError = none("not settled: the generated Reconcile's call of " + generatedKindMethod + " was not found")
		out.onSuccess = out.onError
		return out
	}
	var rets []retSite
	a.eventReturns(g.reconcileKind, scope{}, map[*ssa.Function]bool{}, &rets)
	var success *retSite
	for i := range rets {
		if rets[i].class == ClassSuccessInterval {
			out.successReturns = append(out.successReturns, rets[i].ret.Pos())
			if success == nil || rets[i].in == g.reconcileKind {
				success = &rets[i]
			}
		}
	}
	isFailure := func(c string) bool { return c == ClassErrorBackoff || c == ClassRetryAfterFailure }
	var primary *retSite
	for i := range rets {
		r := &rets[i]
		if !isFailure(r.class) {
			continue
		}
		switch {
		case success != nil:
			if r.in == success.in && r.pos < success.pos && (primary == nil || r.pos > primary.pos) {
				primary = r
			}
		case r.in == g.reconcileKind && (primary == nil || r.pos > primary.pos):
			primary = r
		}
	}
	var errSites []Site
	for i := range rets {
		r := &rets[i]
		if !isFailure(r.class) && r.class != ClassTerminal {
			continue
		}
		s := a.site(r.pos)
		s.Class = r.class
		s.Primary = r == primary
		errSites = append(errSites, s)
	}
	if primary == nil {
		for i := range errSites {
			if errSites[i].Class != ClassTerminal {
				errSites[i].Primary = true
				break
			}
		}
	}
	out.onError = Row{Sites: errSites}
	if _, ok := out.onError.Primary(); !ok {
		out.onError = none("no failure path of " + generatedKindMethod + " returns an error")
		if len(errSites) > 0 {
			out.onError.Sites = errSites
			out.onError.None = "every failure return of " + generatedKindMethod + " is a permanent error: nothing comes back on error"
		}
	} else if f.registration != nil {
		reg := f.registration[0]
		reg.Note = "the dependency's controller re-adds the key rate-limited when the generated Reconcile returns an error"
		out.onError.Sites = append(out.onError.Sites, reg)
	}
	if primary != nil && primary.class == ClassRetryAfterFailure {
		out.retry = &timedRequeue{in: primary.in, at: primary.at, duration: primary.after}
	}
	if success == nil {
		if after := a.enqueuedAfter(f); after != nil {
			out.success = after
			s := a.site(after.at.Pos())
			s.Class = ClassSuccessInterval
			s.Primary = true
			s.Note = "the key is enqueued again after a delay through the controller"
			out.onSuccess = Row{Sites: []Site{s}}
			return out
		}
		out.onSuccess = noneAfter("event-driven only: no return of "+generatedKindMethod+" on the success path asks for a requeue after a delay, and nothing on the reconcile path enqueues the key after one, so the object is reconciled again only on informer events and resyncs",
			"the returns of "+generatedKindMethod+" and the helpers whose events it returns; the delayed enqueues of every function reachable from the generated Reconcile")
		return out
	}
	out.success = &timedRequeue{in: success.in, at: success.at, duration: success.after}
	out.onSuccess = a.successRow(success.pos, "")
	return out
}

// eventReturns classifies the returns of a function returning an event,
// following returns that hand back the event of another of the tree's
// functions.
func (a *analysis) eventReturns(fn *ssa.Function, sc scope, seen map[*ssa.Function]bool, out *[]retSite) {
	if seen[fn] {
		return
	}
	seen[fn] = true
	b := body(fn)
	if b == nil {
		return
	}
	info := a.infoAt(b.Pos())
	a.walkReturns(info, b, sc, func(r *ast.ReturnStmt, sc scope) {
		if len(r.Results) != 1 {
			return
		}
		e := ast.Unparen(r.Results[len(r.Results)-1])
		site := retSite{pos: r.Pos(), in: fn, ret: r, at: r}
		if isNil(info, e) {
			return
		}
		if ce, ok := e.(*ast.CallExpr); ok {
			c := a.makeCall(info, ce, fn)
			switch {
			case c.known && c.fact.Role == RoleRequeueAfterEvent:
				site.after = c.arg(c.fact.Arg)
				site.interval = namedBy(info, site.after)
				switch {
				case site.after == nil:
					site.class = ClassImmediate
				case sc.guard == guardError:
					site.class = ClassRetryAfterFailure
				case sc.guard == guardOther:
					site.class = ClassDependencyWait
				default:
					site.class = ClassSuccessInterval
				}
				*out = append(*out, site)
				return
			case c.known && c.fact.Role == RoleSkipKey:
				return
			case c.known && c.fact.Role == RoleReconcileEvent:
				if v, ok := stringValue(info, c.arg(c.fact.Arg)); ok && v == eventTypeNormal {
					return
				}
			case c.known && c.fact.Role == RoleTerminalError:
				site.class = ClassTerminal
				*out = append(*out, site)
				return
			case len(c.own) > 0 && !c.known:
				for _, callee := range c.own {
					a.eventReturns(callee, sc, seen, out)
				}
				return
			}
		}
		site.class = ClassErrorBackoff
		if sc.terminal {
			site.class = ClassTerminal
		}
		*out = append(*out, site)
	})
}

// enqueuedAfter returns the first delayed enqueue (the controller's
// EnqueueAfter) on the reconcile path, or nil.
func (a *analysis) enqueuedAfter(f *found) *timedRequeue {
	for _, fn := range a.prog.Reachable(f.entry).Funcs() {
		for _, c := range a.callsIn(fn) {
			if c.known && c.fact.Role == RoleQueueAddAfter && c.arg(c.fact.Arg) != nil {
				return &timedRequeue{in: fn, at: c.expr, duration: c.arg(c.fact.Arg)}
			}
		}
	}
	return nil
}
