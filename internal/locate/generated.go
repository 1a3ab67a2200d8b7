package locate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
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
	// handed are the implementations the tree hands to a function taking
	// the generated Interface (the generated constructor), with the call
	// handing each; when there are some, reconcileKind and others are
	// those, each a controller of its own.
	handed map[*ssa.Function]*ast.CallExpr
}

// forImpl returns the generated reconciler as run with one of the
// hand-written implementations it is handed (a tree may hand several types
// to one generated constructor: a controller each), and that
// implementation's FinalizeKind when it implements the generated Finalizer.
func (a *analysis) forImpl(g *generatedKind, impl *ssa.Function) *generatedKind {
	out := *g
	out.reconcileKind, out.others, out.finalizeKind = impl, nil, nil
	if _, ok := g.handed[impl]; !ok && impl == g.reconcileKind {
		out.others = g.others
	}
	if recv := impl.Signature.Recv(); recv != nil && g.finalizer != nil && types.Implements(recv.Type(), g.finalizer) {
		if n, ok := deref(recv.Type()).(*types.Named); ok {
			out.finalizeKind = a.methodFunc(n, generatedFinalizeMethod)
		}
	}
	return &out
}

// generatedOf is the generated reconciler of a found controller of this
// style, as run with its own hand-written implementation.
func (a *analysis) generatedOf(f *found) *generatedKind {
	g := a.generatedKind(f.entry)
	if g == nil || f.impl == nil {
		return g
	}
	return a.forImpl(g, f.impl)
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
			impls := []*ssa.Function{g.reconcileKind}
			if len(g.handed) > 0 {
				impls = slices.SortedFunc(maps.Keys(g.handed), func(x, y *ssa.Function) int { return int(x.Pos() - y.Pos()) })
			}
			for _, impl := range impls {
				if seen[impl] {
					continue
				}
				seen[impl] = true
				f := &found{name: syncName(impl), style: StyleGenerated, entry: sync, impl: impl,
					keyParams: map[*types.Var]bool{}, registration: []Site{a.site(c.expr.Lparen)}}
				if at, ok := g.handed[impl]; ok {
					handed := a.site(at.Lparen)
					handed.Note = "the hand-written reconciler handed to the generated constructor"
					f.registration = append([]Site{handed}, f.registration...)
				}
				for i := 0; i < sync.Signature.Params().Len(); i++ {
					if v := sync.Signature.Params().At(i); typeKey(v.Type()) != typeContext {
						f.keyParams[v] = true
					}
				}
				if p := impl.Signature.Params(); p.Len() > 1 {
					f.kind, _ = deref(p.At(1).Type()).(*types.Named)
				}
				a.qualifySameName(out, f, impl)
				out = append(out, f)
			}
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
		if o.name == f.name && o.impl != nil && o.impl.Pkg != nil {
			o.name = o.impl.Pkg.Pkg.Name() + "." + o.name
		}
	}
	if clash && impl.Pkg != nil {
		f.name = impl.Pkg.Pkg.Name() + "." + f.name
	}
}

// maxGeneratedDepth bounds how many calls deep, within the generated
// package, the selections of the hand-written methods are looked for.
const maxGeneratedDepth = 4

// generatedFuncs returns a generated Reconcile, the tree's functions it
// calls directly (a helper that picks the method for the object's state),
// and in turn the functions of its own package those call (the rest of its
// body moved to a helper).
func (a *analysis) generatedFuncs(sync *ssa.Function) []*ssa.Function {
	fns := []*ssa.Function{sync}
	for depth, next := 0, []*ssa.Function{sync}; depth < maxGeneratedDepth && len(next) > 0; depth++ {
		var more []*ssa.Function
		for _, fn := range next {
			for _, c := range a.callsIn(fn) {
				for _, o := range c.own {
					if slices.Contains(fns, o) || depth > 0 && o.Pkg != sync.Pkg {
						continue
					}
					fns = append(fns, o)
					if o.Pkg == sync.Pkg {
						more = append(more, o)
					}
				}
			}
		}
		next = more
	}
	return fns
}

// interfaceSelections calls each with the selections of interface methods
// in a generated Reconcile and its generatedFuncs: the method and the
// interface declaring it, called or taken as a method value.
func (a *analysis) interfaceSelections(sync *ssa.Function, each func(sel *ast.SelectorExpr, m *types.Func, it *types.Interface)) {
	fns := a.generatedFuncs(sync)
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
			recv := m.Type().(*types.Signature).Recv()
			if recv == nil {
				return true
			}
			if it, ok := recv.Type().Underlying().(*types.Interface); ok {
				each(sel, m, it)
			}
			return true
		})
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
	a.interfaceSelections(sync, func(sel *ast.SelectorExpr, m *types.Func, it *types.Interface) {
		sig := m.Type().(*types.Signature)
		if sig.Results().Len() != 1 || typeKey(sig.Results().At(0).Type()) != typeEvent {
			return
		}
		switch m.Name() {
		case generatedKindMethod:
			iface, ifaceType = it, sig.Recv().Type()
		case generatedFinalizeMethod:
			if g.finalizer == nil {
				g.finalizer, g.finalizeAt = it, sel.Sel.Pos()
			}
		}
	})
	if iface == nil {
		return nil
	}
	impls := a.implementations(iface, generatedKindMethod)
	if len(impls) == 0 {
		return nil
	}
	if handed, at := a.handedAs(ifaceType, impls); len(handed) > 0 {
		impls, g.handed = handed, at
	}
	g.reconcileKind, g.others = impls[0], impls[1:]
	return a.forImpl(g, g.reconcileKind)
}

// handedAs returns the implementations whose receivers the tree passes as
// an argument of the interface's type (the hand-written reconciler handed
// to the generated constructor), and the first call handing each.
func (a *analysis) handedAs(iface types.Type, impls []*ssa.Function) ([]*ssa.Function, map[*ssa.Function]*ast.CallExpr) {
	var out []*ssa.Function
	at := map[*ssa.Function]*ast.CallExpr{}
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
						at[impl] = c.expr
					}
				}
			}
		})
	}
	slices.SortFunc(out, func(x, y *ssa.Function) int { return int(x.Pos() - y.Pos()) })
	return out, at
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
	g := p.a.generatedOf(p.f)
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
	p.generatedWrites(g)
}

// generatedFinalizerRows answers the finalizer rows: with FinalizeKind,
// the generated code's additions and removals of the finalizer in the set
// built from the object's list, its constant, and FinalizeKind as the
// cleanup; without, none.
func (p *pass) generatedFinalizerRows(g *generatedKind, rows map[string]Row) {
	if g.finalizeKind == nil {
		p.handWrittenFinalizerRows(g, rows)
		return
	}
	adds, removes := p.generatedFinalizerOps()
	// The generated code may remove the finalizer on two branches, for a
	// nil event and for a normal one: the branch FinalizeKind's success
	// takes comes first. When the removals cannot all be told apart so,
	// which one runs is not settled.
	removeUnsettled := ""
	var fromAdd []*ssa.Function
	if len(adds) > 0 {
		fromAdd = p.a.prog.Reachable(adds[0].in).Funcs()
	}
	// The removals in a helper the addition shares (the patch of the
	// list both ways) are ordered after the cleanup's own below.
	var own []finOp
	for _, op := range removes {
		if !slices.Contains(fromAdd, op.in) {
			own = append(own, op)
		}
	}
	if len(own) > 1 {
		taken := p.a.finalizeOutcome(g.finalizeKind)
		told := taken != ""
		for _, op := range own {
			told = told && p.a.eventBranch(op) != ""
		}
		if told {
			slices.SortStableFunc(removes, func(x, y finOp) int {
				return boolOrder(p.a.eventBranch(x) != taken) - boolOrder(p.a.eventBranch(y) != taken)
			})
		} else {
			var at []string
			for _, op := range own {
				s := p.a.site(op.pos)
				at = append(at, fmt.Sprintf("%s:%d", s.File, s.Line))
			}
			removeUnsettled = "not settled: the generated code removes the finalizer at " + strings.Join(at, ", ") + ", and which of them the event " + generatedFinalizeMethod + " returns leads to was not told apart"
		}
	}
	// An addition's function may also remove (a helper that syncs the list
	// both ways): the removals the cleanup alone reaches come first.
	if len(adds) > 0 {
		slices.SortStableFunc(removes, func(x, y finOp) int {
			return boolOrder(slices.Contains(fromAdd, x.in)) - boolOrder(slices.Contains(fromAdd, y.in))
		})
	}
	var consts []Site
	seen := map[types.Object]bool{}
	for _, op := range append(append([]finOp(nil), adds...), removes...) {
		for _, k := range p.a.finalizerConsts(op, g.handed[g.reconcileKind]) {
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
	if removeUnsettled != "" {
		rows[RowFinalizerRemove] = Row{Sites: p.opSites(removes), None: removeUnsettled}
	}
	cleanup := p.a.funcSite(g.finalizeKind)
	cleanup.Primary = true
	call := p.a.site(g.finalizeAt)
	call.Note = "the generated code runs it once the object is being deleted"
	rows[RowFinalizerCleanup] = Row{Sites: []Site{cleanup, call}}
}

// handWrittenFinalizerRows answers the finalizer rows of a type that does
// not implement the generated Finalizer: the generated reconciler neither
// adds nor removes one, and runs nothing once the object is being deleted,
// so what is left is what the hand-written code reached from ReconcileKind
// does to the object's list. ReconcileKind runs only while the object is
// not being deleted: a removal there drops a finalizer from a live object
// (one an older version added), which nothing of this controller needs.
func (p *pass) handWrittenFinalizerRows(g *generatedKind, rows map[string]Row) {
	reason := fmt.Sprintf("no finalizer: %s does not implement the generated Finalizer (no %s method), so the generated reconciler neither adds nor removes one", syncName(g.reconcileKind), generatedFinalizeMethod)
	searched := "the type implementing the generated Interface, checked against the generated Finalizer interface"
	p.finOps = p.a.finalizerOps(p.a.prog.Reachable(g.reconcileKind).Funcs(), p.kind())
	p.cleanupRes = nil
	ops := p.finOps
	if ops.absent() {
		for _, id := range []string{RowFinalizerConst, RowFinalizerAdd, RowFinalizerCleanup, RowFinalizerRemove} {
			rows[id] = noneAfter(reason, searched)
		}
		return
	}
	rows[RowFinalizerConst] = finalizerConstRow(p)
	rows[RowFinalizerRemove] = finalizerRemoveRow(p)
	cleanup := fmt.Sprintf("no cleanup: %s does not implement the generated Finalizer (no %s method), so the generated reconciler runs nothing once the object is being deleted", syncName(g.reconcileKind), generatedFinalizeMethod)
	rows[RowFinalizerCleanup] = noneAfter(cleanup, searched)
	if len(ops.adds) > 0 {
		rows[RowFinalizerAdd] = finalizerAddRow(p)
		return
	}
	removed := p.a.site(ops.removes[0].pos)
	rows[RowFinalizerAdd] = ops.none(fmt.Sprintf("%s; the hand-written code removes a finalizer at %s:%d, reached from %s, which the generated reconciler runs only while the object is not being deleted: it drops from a live object a finalizer an older version added, and adds none",
		reason, removed.File, removed.Line, generatedKindMethod))
}

// generatedFinalizerOps returns the additions and removals of the
// finalizer in a string set built from the primary object's list, on the
// reconcile path.
func (p *pass) generatedFinalizerOps() (adds, removes []finOp) {
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
			set := p.a.target(info, c.expr.Fun, 0).recv
			if set == nil || !p.a.finalizerSetIn(fn, info, b, set, p.kind(), 0) {
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
	return adds, removes
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

// finalizerSetIn reports whether a set fn changes is built from the
// finalizer list of an object of the primary type: in fn's body (the
// function holding fn, for a closure), or, when it is a parameter of fn (a
// helper ranging over the values it changes the set by), at every call of
// fn, up to maxTypeCallers callers up.
func (a *analysis) finalizerSetIn(fn *ssa.Function, info *types.Info, b *ast.BlockStmt, set ast.Expr, kind *types.Named, depth int) bool {
	if a.finalizerSet(info, b, set, kind) {
		return true
	}
	if outer := outermost(fn); outer != fn {
		if ob := body(outer); ob != nil && a.finalizerSet(info, ob, set, kind) {
			return true
		}
	}
	id, ok := ast.Unparen(set).(*ast.Ident)
	if !ok || depth >= maxTypeCallers {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || !paramIn(fn, v) {
		return false
	}
	index := -1
	for i := 0; i < fn.Signature.Params().Len(); i++ {
		if fn.Signature.Params().At(i) == v {
			index = i
		}
	}
	found := false
	for _, e := range a.prog.CallsInto(fn) {
		caller := e.Caller.Func
		cb := body(caller)
		if cb == nil || e.Site == nil {
			return false
		}
		var call *ast.CallExpr
		for _, c := range a.callsIn(caller) {
			if c.expr.Lparen == e.Site.Common().Pos() {
				call = c.expr
			}
		}
		if call == nil || index >= len(call.Args) {
			return false
		}
		if !a.finalizerSetIn(caller, a.infoAt(cb.Pos()), cb, call.Args[index], kind, depth+1) {
			return false
		}
		found = true
	}
	return found
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
// field it reads (finalizerFieldConsts), an option's override counted
// only in the call handing this controller's type to the generated
// constructor (handing; anywhere when nil). It returns nil when a store
// is not followed to a constant.
func (a *analysis) finalizerConsts(op finOp, handing *ast.CallExpr) []*types.Const {
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
	consts, settled := a.finalizerFieldConsts(field, handing, 0)
	if !settled {
		return nil
	}
	return consts
}

// finalizerFieldConsts returns the constants every keyed literal and
// assignment of the tree stores in a field: a store of another field (an
// option's override) is followed in turn, and its constants come first (an
// override wins over the default); a field nothing stores adds none. It is
// not settled when a store is neither. The stores of an override count
// only inside the call handing the controller's type (the options of the
// tree's other controllers are theirs), and are not settled when that call
// hands an options function other than a literal.
func (a *analysis) finalizerFieldConsts(field *types.Var, handing *ast.CallExpr, depth int) ([]*types.Const, bool) {
	var defaults, overrides []*types.Const
	settled := depth < 3
	if depth > 0 && handing != nil {
		info := a.infoAt(handing.Pos())
		for _, arg := range handing.Args {
			if _, isFunc := info.TypeOf(arg).Underlying().(*types.Signature); isFunc {
				if _, lit := ast.Unparen(arg).(*ast.FuncLit); !lit {
					return nil, false
				}
			}
		}
	}
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n != nil && depth > 0 && handing != nil && (n.End() <= handing.Pos() || n.Pos() >= handing.End()) {
				return false
			}
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
			sub, ok := a.finalizerFieldConsts(other, handing, depth+1)
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

// reachOf walks the reconcile path of a controller. A generated reconciler
// handed several hand-written types calls them through its interfaces, so
// the call graph reaches every one of them from its Reconcile: the walk of
// one controller enters none of the other types' methods.
func (a *analysis) reachOf(f *found) *callgraph.Reach {
	if f.style != StyleGenerated || f.impl == nil {
		return a.prog.Reachable(f.entry)
	}
	g := a.generatedKind(f.entry)
	if g == nil || len(g.handed) < 2 {
		return a.prog.Reachable(f.entry)
	}
	own := f.impl.Signature.Recv().Type()
	var others []types.Type
	for impl := range g.handed {
		if t := impl.Signature.Recv().Type(); !types.Identical(t, own) {
			others = append(others, t)
		}
	}
	return a.prog.ReachableExcept(func(fn *ssa.Function) bool {
		recv := fn.Signature.Recv()
		return recv != nil && slices.ContainsFunc(others, func(t types.Type) bool {
			return types.Identical(deref(recv.Type()), deref(t))
		})
	}, f.entry)
}

// Outcomes of a hand-written method for the generated code's tests of the
// event it returned.
const (
	eventNil    = "nil"
	eventNormal = "event"
)

// finalizeOutcome says what FinalizeKind returns on its success path (the
// returns no condition guards): eventNil when they are all nil when the
// pass succeeds (nilOnSuccess), eventNormal when they are all normal
// events, "" otherwise.
func (a *analysis) finalizeOutcome(fn *ssa.Function) string {
	if a.normalEventReturn(fn) != "" {
		return eventNormal
	}
	b := body(fn)
	if b == nil {
		return ""
	}
	info := a.infoAt(b.Pos())
	allNil, some := true, false
	a.eventResults(fn, info, b, scope{}, func(r *ast.ReturnStmt, e ast.Expr, _ ast.Node, sc scope, settled bool) {
		if sc.guard != guardNone {
			return
		}
		some = true
		allNil = allNil && settled && (e == nil || isNil(info, e) || a.nilOnSuccess(fn, info, r, e))
	})
	if some && allNil {
		return eventNil
	}
	return ""
}

// nilOnSuccess reports whether a returned error is nil when the pass
// succeeds: an error a test found nil on every path to the return, or the
// error of a write the return hands back (return client.Delete(…)), which
// is nil when the write succeeds and an API error, never an event, when
// it fails.
func (a *analysis) nilOnSuccess(fn *ssa.Function, info *types.Info, r *ast.ReturnStmt, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return testedNilReturn(fn, r)
	case *ast.CallExpr:
		_, write := a.writeOf(info, a.makeCall(info, e, fn))
		return write
	}
	return false
}

// eventBranch says on which outcome of the hand-written method a change of
// the finalizer set is made, from the innermost test of an event against
// nil around it: eventNil in the branch taken for nil, eventNormal in the
// other; "" when no such test guards it.
func (a *analysis) eventBranch(op finOp) string {
	path := a.path(op.pos, op.pos)
	for i := 1; i < len(path); i++ {
		ifs, ok := path[i].(*ast.IfStmt)
		if !ok {
			continue
		}
		be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || be.Op != token.NEQ && be.Op != token.EQL {
			continue
		}
		x := be.X
		switch {
		case isNil(op.info, be.Y):
		case isNil(op.info, be.X):
			x = be.Y
		default:
			continue
		}
		if typeKey(op.info.TypeOf(x)) != typeEvent {
			continue
		}
		if inBody := path[i-1] == ifs.Body; inBody == (be.Op == token.NEQ) {
			return eventNormal
		}
		return eventNil
	}
	return ""
}
