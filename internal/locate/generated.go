package locate

import (
	"fmt"
	"go/ast"
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
	// handWritten says the sync function is the tree's own
	// Reconcile(ctx, key), no generated code: it is its own
	// ReconcileKind, and its finalizer and condition rows are read as any
	// reconcile's.
	handWritten bool
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
				if seen[impl] && impl != sync {
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
		if a.prog.Own[sync] && a.usesKey(sync) {
			// A hand-written Reconcile(ctx, key) the dependency's
			// controller runs: it is its own ReconcileKind, re-reading
			// the object itself, with no generated finalizer.
			return &generatedKind{reconcileKind: sync, handWritten: true}
		}
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

// usesKey reports whether a sync function hands its key (its parameters
// but the context) to a call that does more than log or format it: a
// queue whose sync only logs what it is handed is no controller.
func (a *analysis) usesKey(sync *ssa.Function) bool {
	b := body(sync)
	if b == nil {
		return false
	}
	info := a.infoAt(b.Pos())
	keys := map[*types.Var]bool{}
	for i := range sync.Signature.Params().Len() {
		if v := sync.Signature.Params().At(i); typeKey(v.Type()) != typeContext {
			keys[v] = true
		}
	}
	for _, c := range a.callsIn(sync) {
		if !slices.ContainsFunc(c.expr.Args, func(arg ast.Expr) bool { return mentions(info, arg, keys) }) {
			continue
		}
		if !c.known || c.fact.Role != RoleLog && c.fact.Role != RoleLogError && c.fact.Role != RoleFormat {
			return true
		}
	}
	return false
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
	if g.handWritten {
		rows[RowEntry] = Row{Sites: append([]Site{entry}, p.f.registration...)}
		return
	}
	sync := p.a.funcSite(p.f.entry)
	sync.Note = "the generated Reconcile(ctx, key): the queue's sync function, which calls ReconcileKind"
	rows[RowEntry] = Row{Sites: append([]Site{entry, sync}, p.f.registration...)}
	p.generatedFinalizerRows(g, rows)
	rows[RowConditionTypes] = p.managedConditions()
	p.generatedWrites(g)
}

// reachOf walks the reconcile path of a controller. Code shared between
// controllers calls each controller's own type through an interface (a
// base reconciler handed the controller's syncer; a generated reconciler
// handed several hand-written types), and the call graph, blind to which
// caller handed which, reaches every one of them from each entry: the
// walk of one controller enters no method of another found controller's
// receiver type through such a call.
func (a *analysis) reachOf(f *found) *callgraph.Reach {
	var own types.Type
	if recv := f.entry.Signature.Recv(); recv != nil {
		own = deref(recv.Type())
	}
	if f.style == StyleGenerated && f.impl != nil {
		own = deref(f.impl.Signature.Recv().Type())
	}
	var others []types.Type
	for _, t := range a.entryRecvs {
		if own == nil || !types.Identical(t, own) {
			others = append(others, t)
		}
	}
	if f.style == StyleGenerated && f.impl != nil {
		if g := a.generatedKind(f.entry); g != nil {
			for impl := range g.handed {
				if t := deref(impl.Signature.Recv().Type()); !types.Identical(t, own) {
					others = append(others, t)
				}
			}
		}
	}
	unmade := a.madeByOthers(f.entry)
	if d := f.delegate; d != nil {
		unmade = a.madeByOthers(d.wrapper, f.entry)
		// The wrapper runs around the entry on every pass; the other
		// functions its call runs are other controllers'.
		for _, fn := range d.all {
			if recv := fn.Signature.Recv(); recv != nil && fn != f.entry && !types.Identical(deref(recv.Type()), own) {
				others = append(others, deref(recv.Type()))
			}
		}
		return a.prog.ReachableExcept(func(fn *ssa.Function) bool {
			if fn != f.entry && slices.Contains(d.all, fn) {
				return true
			}
			recv := fn.Signature.Recv()
			return recv != nil && slices.ContainsFunc(others, func(t types.Type) bool {
				return types.Identical(deref(recv.Type()), t)
			})
		}, unmade, d.wrapper, f.entry)
	}
	return a.prog.ReachableExcept(func(fn *ssa.Function) bool {
		recv := fn.Signature.Recv()
		return recv != nil && slices.ContainsFunc(others, func(t types.Type) bool {
			return types.Identical(deref(recv.Type()), t)
		})
	}, unmade, f.entry)
}

// madeByOthers is, for the controller whose walk starts at the roots, the
// functions a dynamic call must not enter: those whose values (a method's
// receiver converted to an interface, a closure, a function named as a
// value) are made only in functions the other controllers' entries reach
// and these roots do not (the steps a runner shared by several
// controllers is handed by another one). A value made where no entry
// reaches (in main, in a package variable) is anyone's.
func (a *analysis) madeByOthers(roots ...*ssa.Function) func(*ssa.Function) bool {
	var others []*ssa.Function
	for _, e := range a.entries {
		if !slices.Contains(roots, e) {
			others = append(others, e)
		}
	}
	if len(others) == 0 {
		return nil
	}
	var mine, theirs *callgraph.Reach
	return func(fn *ssa.Function) bool {
		makers := a.prog.MakersOf(fn)
		if len(makers) == 0 {
			return false
		}
		if mine == nil {
			mine, theirs = a.prog.Reachable(roots...), a.prog.Reachable(others...)
		}
		return !slices.ContainsFunc(makers, func(m *ssa.Function) bool { return mine.Has(m) || !theirs.Has(m) })
	}
}
