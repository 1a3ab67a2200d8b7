package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// found is a controller before its rows are located.
type found struct {
	name  string
	style string
	// kind is the primary type, when the registration names it (pass.kind
	// falls back on the type re-read).
	kind *types.Named
	// watched are the types a registration without a For watches (the
	// primary among them is the one the reconcile reads by the request's
	// key).
	watched []*types.Named
	// entry is the reconcile entry: Reconcile, or the client-go sync function.
	entry *ssa.Function
	// worker is the client-go function that dequeues keys (nil otherwise,
	// or when it was left out because of type errors).
	worker *ssa.Function
	// unanalysed are the functions beyond the reconcile path that the
	// rows depend on (the worker's declaration) and that were left out
	// because of type errors.
	unanalysed []*ssa.Function
	// keyParams are the entry's parameters that carry the request's key.
	keyParams map[*types.Var]bool
	// registration cites where the controller is wired up.
	registration []Site
	// events says the queue's items are events that carry the object, not
	// keys (a FIFO popped with a process function, a channel of events).
	events bool
}

// timedRequeue is a requeue after a duration: where it is asked for, and
// the duration.
type timedRequeue struct {
	in       *ssa.Function
	at       ast.Node
	duration ast.Expr
}

// ownFuncs lists the tree's function declarations with bodies in a stable
// order (computed once: every controller's locators walk it).
func (a *analysis) ownFuncs() []*ast.FuncDecl {
	if a.funcDecls == nil {
		for _, fd := range a.decls {
			if fd.Body != nil {
				a.funcDecls = append(a.funcDecls, fd)
			}
		}
		sort.Slice(a.funcDecls, func(i, j int) bool { return a.funcDecls[i].Pos() < a.funcDecls[j].Pos() })
	}
	return a.funcDecls
}

// allCalls visits every call in a declaration, closures included. The calls
// of a declaration are resolved once, however many locators ask.
func (a *analysis) allCalls(fd *ast.FuncDecl, visit func(call)) {
	cs, ok := a.declCalls[fd]
	if !ok {
		info := a.infoAt(fd.Pos())
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if e, ok := n.(*ast.CallExpr); ok {
				cs = append(cs, a.makeCall(info, e, nil))
			}
			return true
		})
		a.declCalls[fd] = cs
	}
	for _, c := range cs {
		visit(c)
	}
}

// findControllers finds every controller-runtime reconciler registered with a
// manager, every client-go worker/sync pair and every generated reconciler.
func (a *analysis) findControllers() []*found {
	var out []*found
	seen := map[*ssa.Function]bool{}
	for _, fd := range a.ownFuncs() {
		for _, f := range a.findRegistered(fd) {
			if !seen[f.entry] {
				seen[f.entry] = true
				out = append(out, f)
			}
		}
		for _, f := range append(a.findWorkers(fd), a.findEventWorkers(fd)...) {
			if !seen[f.entry] {
				seen[f.entry] = true
				out = append(out, f)
			}
		}
		out = a.addGenerated(fd, out, seen)
	}
	nameByEntry(out)
	return out
}

// nameByEntry tells apart the controllers that share a name because one
// type runs several workers (a sync and a status sync): when their entries
// are methods of different names, each is named after its entry too,
// Type.Method. (Reconcilers of one type name in several packages keep
// their name: their entries are all Reconcile.)
func nameByEntry(ctrls []*found) {
	entries := map[string]map[string]int{}
	for _, f := range ctrls {
		if entries[f.name] == nil {
			entries[f.name] = map[string]int{}
		}
		entries[f.name][f.entry.Name()]++
	}
	for _, f := range ctrls {
		byEntry := entries[f.name]
		if len(byEntry) > 1 && byEntry[f.entry.Name()] == 1 && f.entry.Signature.Recv() != nil {
			f.name += "." + f.entry.Name()
		}
	}
}

// findRegistered finds the reconcilers a function registers with
// controller-runtime: a builder's For(&T{}) ... Complete(r), or
// controller.New(..., Options{Reconciler: r}) and its Watch(source.Kind(...)).
// Each registration is paired with the For, or the watches, of its own
// builder or controller value, however many a function registers.
func (a *analysis) findRegistered(fd *ast.FuncDecl) []*found {
	info := a.infoAt(fd.Pos())
	var fors, completes []call
	a.allCalls(fd, func(c call) {
		switch c.fact.Role {
		case RoleRegisterFor, RoleEnqueueOwner:
			fors = append(fors, c)
		case RoleRegisterComplete:
			completes = append(completes, c)
		}
	})
	var out []*found
	for _, c := range completes {
		arg := c.arg(c.fact.Arg)
		if c.fact.ArgIsOptions {
			arg = optionsField(info, arg, optionsReconciler)
		}
		kinds := a.registeredKinds(fd, info, c, fors)
		if len(kinds) == 0 && len(completes) == 1 {
			// The one registration of the function, on a builder or
			// controller held where the chain is not followed (a field):
			// the function's own For, or its watches, are its.
			kinds = registeredIn(info, fors)
		}
		for _, rt := range a.reconcilerTypes(fd, info, arg) {
			entry := a.methodFunc(rt, methodReconcile)
			if entry == nil {
				continue
			}
			f := &found{name: rt.Obj().Name(), style: StyleControllerRuntime, entry: entry,
				registration: []Site{a.site(c.expr.Lparen)}}
			if len(kinds) == 1 && !c.fact.ArgIsOptions {
				f.kind = kinds[0]
			} else {
				f.watched = kinds
			}
			f.keyParams = requestParams(entry)
			out = append(out, f)
		}
	}
	return out
}

// registeredKinds returns the types a registration names: for a builder's
// Complete, the For of its own builder (the last one before it, when one
// builder value is given several); for a controller made by an options
// struct, the types of the source.Kind watches made on the value it
// returns, in source order (which of them is the primary is the type the
// reconcile reads by the request's key).
func (a *analysis) registeredKinds(fd *ast.FuncDecl, info *types.Info, c call, fors []call) []*types.Named {
	roots := map[any]bool{}
	if sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr); ok && info.Selections[sel] != nil {
		roots = builderGroup(info, fd.Body, builderRoot(info, sel.X))
	} else {
		vars := map[*types.Var]bool{}
		assignedFrom(info, fd.Body, c.expr, true, vars)
		for v := range vars {
			for r := range builderGroup(info, fd.Body, v) {
				roots[r] = true
			}
		}
	}
	var kinds, owners []*types.Named
	var last token.Pos // the builder's For nearest before its Complete
	for _, fc := range fors {
		n, ok := deref(info.TypeOf(fc.arg(fc.fact.Arg))).(*types.Named)
		if !ok {
			continue
		}
		if fc.fact.Role == RoleEnqueueOwner {
			// A watch enqueueing the owner of what it watches (a
			// builder's Watches, a source.Kind's handler): the owner's
			// type is a candidate when the builder has no For.
			if w := a.watchOf(fc); w != nil && roots[builderRoot(info, w)] && !slices.Contains(owners, n) {
				owners = append(owners, n)
			}
			continue
		}
		if sel, isSel := ast.Unparen(fc.expr.Fun).(*ast.SelectorExpr); isSel && info.Selections[sel] != nil {
			if roots[builderRoot(info, sel.X)] && fc.expr.Lparen < c.expr.Lparen && fc.expr.Lparen > last {
				last = fc.expr.Lparen
				kinds = []*types.Named{n}
			}
			continue
		}
		// source.Kind: an argument of a method call (Watch) on the value
		// the registration returned; when its handler enqueues the owner,
		// the owner's type is the one watched.
		w := a.watchOf(fc)
		if w == nil || !roots[builderRoot(info, w)] {
			continue
		}
		if h, ok := ast.Unparen(fc.arg(2)).(*ast.CallExpr); ok {
			if hc := a.makeCall(info, h, nil); hc.known && hc.fact.Role == RoleEnqueueOwner {
				n, ok = deref(info.TypeOf(hc.arg(hc.fact.Arg))).(*types.Named)
			}
		}
		if ok && !slices.Contains(kinds, n) {
			kinds = append(kinds, n)
		}
	}
	if last == 0 {
		for _, n := range owners {
			if !slices.Contains(kinds, n) {
				kinds = append(kinds, n)
			}
		}
	}
	return kinds
}

// registeredIn returns the types the For and source.Kind calls of a
// function name, in source order.
func registeredIn(info *types.Info, fors []call) []*types.Named {
	var kinds []*types.Named
	for _, fc := range fors {
		if fc.fact.Role != RoleRegisterFor {
			continue
		}
		if n, ok := deref(info.TypeOf(fc.arg(fc.fact.Arg))).(*types.Named); ok && !slices.Contains(kinds, n) {
			kinds = append(kinds, n)
		}
	}
	return kinds
}

// watchOf returns the receiver of the method call that a source is handed
// to (c.Watch(source.Kind(...))), or nil.
func (a *analysis) watchOf(src call) ast.Expr {
	path := a.path(src.expr.Pos(), src.expr.End())
	for _, n := range path[1:] {
		if ce, ok := n.(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok {
				return sel.X
			}
			return nil
		}
	}
	return nil
}

// builderRoot is what a fluent chain of method calls starts from: the
// variable it is called on, or the first call (NewControllerManagedBy(mgr)).
// A method that returns a value of its receiver's type is taken to return
// the receiver, as a builder's do.
func builderRoot(info *types.Info, e ast.Expr) any {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return x
			}
			s := info.Selections[sel]
			sig, isSig := info.TypeOf(x.Fun).(*types.Signature)
			if s == nil || s.Kind() != types.MethodVal || !isSig || sig.Results().Len() != 1 ||
				!types.Identical(sig.Results().At(0).Type(), info.TypeOf(sel.X)) {
				return x
			}
			e = sel.X
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok {
				return v
			}
			return x
		default:
			return x
		}
	}
}

// builderGroup returns the roots of one builder value, from the root of a
// chain: the root and, when it is a variable, the roots of every value the
// body assigns to it, transitively.
func builderGroup(info *types.Info, body ast.Node, root any) map[any]bool {
	group := map[any]bool{}
	var visit func(r any)
	visit = func(r any) {
		if r == nil || group[r] {
			return
		}
		group[r] = true
		v, ok := r.(*types.Var)
		if !ok {
			return
		}
		ast.Inspect(body, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.AssignStmt:
				if len(s.Lhs) == len(s.Rhs) {
					for i, l := range s.Lhs {
						if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) == v {
							visit(builderRoot(info, s.Rhs[i]))
						}
					}
				}
			case *ast.ValueSpec:
				for i, id := range s.Names {
					if i < len(s.Values) && len(s.Names) == len(s.Values) && info.ObjectOf(id) == v {
						visit(builderRoot(info, s.Values[i]))
					}
				}
			}
			return true
		})
	}
	visit(root)
	return group
}

// optionsField returns the value of a field in an options literal, or nil.
func optionsField(info *types.Info, e ast.Expr, field string) ast.Expr {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	var value ast.Expr
	keyedFields(info, lit, func(v *types.Var, kv *ast.KeyValueExpr) {
		if v.Name() == field {
			value = kv.Value
		}
	})
	return value
}

// reconcilerTypes returns the tree's types that may be the reconciler passed
// to Complete: the argument's own type when concrete, else the concrete types
// assigned to the variable it names, else the registering method's receiver.
func (a *analysis) reconcilerTypes(fd *ast.FuncDecl, info *types.Info, arg ast.Expr) []*types.Named {
	if arg == nil {
		return nil
	}
	out := a.ownTypesOf(fd, info, arg)
	if len(out) == 0 && fd.Recv != nil {
		if obj, ok := info.Defs[fd.Name].(*types.Func); ok {
			out = a.ownNamed(out, obj.Type().(*types.Signature).Recv().Type())
		}
	}
	if len(out) == 0 {
		// A reconciler handed to a library's wrapper (a rate limiter, a
		// conflict filter: Complete(wrap(name, r, …))): the wrapper's
		// Reconcile calls the one it holds, which is the tree's entry.
		return a.wrappedReconcilers(fd, info, arg, wrapDepth)
	}
	var withReconcile []*types.Named
	for _, n := range out {
		if a.methodFunc(n, methodReconcile) != nil {
			withReconcile = append(withReconcile, n)
		}
	}
	return withReconcile
}

// ownTypesOf returns the tree's own concrete types an expression holds: its
// type, or for a variable the types of the values the function assigns it.
func (a *analysis) ownTypesOf(fd *ast.FuncDecl, info *types.Info, e ast.Expr) []*types.Named {
	out := a.ownNamed(nil, info.TypeOf(e))
	if len(out) > 0 {
		return out
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v, ok := info.Uses[id].(*types.Var); ok {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
					for i, l := range as.Lhs {
						if lid, ok := l.(*ast.Ident); ok && (info.Uses[lid] == v || info.Defs[lid] == v) {
							out = a.ownNamed(out, info.TypeOf(as.Rhs[i]))
						}
					}
				}
				return true
			})
		}
	}
	return out
}

// ownNamed appends t's named type to out when the tree declares it and it
// is concrete, once.
func (a *analysis) ownNamed(out []*types.Named, t types.Type) []*types.Named {
	if t == nil {
		return out
	}
	if n, ok := deref(t).(*types.Named); ok && !types.IsInterface(n) {
		if _, own := a.fileAt(n.Obj().Pos()); own && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// wrapDepth bounds how many wrappers deep a registered reconciler is looked
// for.
const wrapDepth = 3

// wrappedReconcilers returns the tree's reconciler types handed, as
// arguments, to the calls that build a registered reconciler the tree does
// not declare, up to depth wrappers deep: only types whose Reconcile takes
// a reconcile.Request, as the wrapper's own does.
func (a *analysis) wrappedReconcilers(fd *ast.FuncDecl, info *types.Info, arg ast.Expr, depth int) []*types.Named {
	call, ok := ast.Unparen(arg).(*ast.CallExpr)
	if !ok || depth == 0 || info.Types[call.Fun].IsType() {
		return nil
	}
	var out []*types.Named
	for _, inner := range call.Args {
		found := a.ownTypesOf(fd, info, inner)
		if len(found) == 0 {
			found = a.wrappedReconcilers(fd, info, inner, depth-1)
		}
		for _, n := range found {
			if fn := a.methodFunc(n, methodReconcile); fn != nil && takesRequest(fn) && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// takesRequest reports whether a Reconcile method takes a
// reconcile.Request.
func takesRequest(f *ssa.Function) bool {
	params := f.Signature.Params()
	for i := 0; i < params.Len(); i++ {
		if typeKey(params.At(i).Type()) == typeRequest {
			return true
		}
	}
	return false
}

// methodFunc returns the own SSA function of a method of *T or T: one
// analysed, or one left out because of its type errors (an entry whose rows
// are then not settled).
func (a *analysis) methodFunc(t *types.Named, name string) *ssa.Function {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, t.Obj().Pkg(), name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	if sf := a.leftOut(fn); sf != nil {
		return sf
	}
	sf := a.prog.Func(fn)
	if sf == nil && t.TypeArgs().Len() > 0 {
		// A method of an instantiated generic type: its instance.
		if sel := a.prog.SSA.MethodSets.MethodSet(types.NewPointer(t)).Lookup(fn.Pkg(), name); sel != nil {
			sf = a.prog.SSA.MethodValue(sel)
		}
	}
	if sf == nil || !a.prog.Own[sf] {
		return nil
	}
	return sf
}

// leftOut returns the SSA function of an own function whose body was left
// out of the analysis because it holds type errors, or nil.
func (a *analysis) leftOut(fn *types.Func) *ssa.Function {
	if fn == nil || !a.prog.Unanalysed[fn.Origin()] {
		return nil
	}
	return a.prog.Func(fn.Origin())
}

// requestParams returns the Reconcile parameters of type reconcile.Request
// (or its typed form), falling back to every non-context parameter.
func requestParams(f *ssa.Function) map[*types.Var]bool {
	vars := map[*types.Var]bool{}
	sig := f.Signature
	for i := 0; i < sig.Params().Len(); i++ {
		v := sig.Params().At(i)
		if typeKey(v.Type()) == typeRequest {
			vars[v] = true
		}
	}
	if len(vars) == 0 {
		for i := 0; i < sig.Params().Len(); i++ {
			v := sig.Params().At(i)
			if typeKey(v.Type()) != typeContext {
				vars[v] = true
			}
		}
	}
	return vars
}

// findWorkers finds client-go workers in a declaration: a workqueue Get, and
// the call of the tree's own function that the dequeued key flows into.
func (a *analysis) findWorkers(fd *ast.FuncDecl) []*found {
	info := a.infoAt(fd.Pos())
	var out []*found
	a.allCalls(fd, func(c call) {
		if c.fact.Role != RoleQueueGet {
			return
		}
		path := a.path(c.expr.Pos(), c.expr.End())
		item := dequeuedVar(info, path)
		if item == nil {
			return
		}
		worker := enclosingFunc(path)
		if worker == nil {
			return
		}
		vars := map[*types.Var]bool{item: true}
		taint(info, worker, vars)
		sync := a.syncCall(info, worker, vars)
		if sync == nil {
			return
		}
		if shared := a.sharedWorker(fd, info, worker, sync); shared != nil {
			out = append(out, shared...)
			return
		}
		if len(sync.own) > 1 && sync.fn != nil && types.IsInterface(sync.fn.Type().(*types.Signature).Recv().Type()) {
			// A worker shared through an interface (a Syncer each
			// controller implements): one controller per implementation,
			// each named after its own receiver.
			for _, entry := range sync.own {
				f := a.workerFound(fd, info, worker, sync, entry)
				f.name = implementationName(entry, sync.own)
				out = append(out, f)
			}
			return
		}
		out = append(out, a.workerFound(fd, info, worker, sync, sync.own[0]))
	})
	return out
}

// findEventWorkers finds the controllers whose queue holds events that
// carry the object rather than keys: a FIFO popped with a process function
// (the function is the entry), or a channel of events read by a worker
// that hands each item to one of the tree's functions (that function is).
func (a *analysis) findEventWorkers(fd *ast.FuncDecl) []*found {
	info := a.infoAt(fd.Pos())
	var out []*found
	add := func(entry *ssa.Function, at token.Pos) {
		f := &found{name: receiverName(fd, info), style: StyleClientGo, entry: entry,
			worker: a.bySyntax[fd], keyParams: map[*types.Var]bool{}, events: true}
		sig := entry.Signature
		for i := 0; i < sig.Params().Len(); i++ {
			if v := sig.Params().At(i); typeKey(v.Type()) != typeContext {
				f.keyParams[v] = true
			}
		}
		f.registration = []Site{a.site(at)}
		out = append(out, f)
	}
	a.allCalls(fd, func(c call) {
		if !c.known || c.fact.Role != RoleQueuePop {
			return
		}
		fn := c.arg(c.fact.Arg)
		// cache.PopProcessFunc(c.process): a conversion to the process type.
		if conv, ok := ast.Unparen(fn).(*ast.CallExpr); ok && len(conv.Args) == 1 && info.Types[conv.Fun].IsType() {
			fn = conv.Args[0]
		}
		if entry := a.funcValue(info, fn); entry != nil {
			add(entry, c.expr.Lparen)
		}
	})
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		var item *types.Var
		var scope ast.Node
		switch s := n.(type) {
		case *ast.RangeStmt: // for ev := range events
			if id, ok := s.Key.(*ast.Ident); ok && isEventChan(info.TypeOf(s.X)) {
				item, _ = info.Defs[id].(*types.Var)
				scope = s.Body
			}
		case *ast.AssignStmt: // ev := <-events, ev, ok := <-events
			if len(s.Rhs) != 1 || len(s.Lhs) == 0 {
				break
			}
			if u, ok := ast.Unparen(s.Rhs[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW && isEventChan(info.TypeOf(u.X)) && inLoop(a.path(s.Pos(), s.End())) {
				if id, ok := s.Lhs[0].(*ast.Ident); ok {
					item, _ = info.ObjectOf(id).(*types.Var)
					scope = fd.Body
				}
			}
		}
		if item == nil {
			return true
		}
		vars := map[*types.Var]bool{item: true}
		worker := enclosingFunc(a.path(n.Pos(), n.End()))
		if worker == nil {
			return true
		}
		taint(info, worker, vars)
		if sync := a.syncCall(info, scope, vars); sync != nil {
			add(sync.own[0], sync.expr.Lparen)
		}
		return true
	})
	return out
}

// isEventChan reports whether t is a channel whose items carry an API
// object: an object pointer, or a struct (or pointer to one) with a field
// holding an object pointer or an interface value.
func isEventChan(t types.Type) bool {
	if t == nil {
		return false // an expression the type checker left untyped
	}
	ch, ok := types.Unalias(t).Underlying().(*types.Chan)
	if !ok || ch.Dir() == types.SendOnly {
		return false
	}
	elem := ch.Elem()
	if IsObjectPointer(elem) {
		return true
	}
	st, ok := deref(elem).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	errType := types.Universe.Lookup("error").Type()
	for i := 0; i < st.NumFields(); i++ {
		if ft := st.Field(i).Type(); IsObjectPointer(ft) || types.IsInterface(ft) && !types.Identical(ft, errType) {
			return true
		}
	}
	return false
}

// inLoop reports whether the innermost function on a path runs the node in
// a loop (a worker's).
func inLoop(path []ast.Node) bool {
	for _, n := range path {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		}
	}
	return false
}

// workerFound is the client-go controller of a worker whose sync call
// runs entry.
func (a *analysis) workerFound(fd *ast.FuncDecl, info *types.Info, worker ast.Node, sync *call, entry *ssa.Function) *found {
	f := &found{name: receiverName(fd, info), style: StyleClientGo, entry: entry,
		worker: a.bySyntax[worker], keyParams: map[*types.Var]bool{}}
	sig := entry.Signature
	for i := 0; i < sig.Params().Len(); i++ {
		if v := sig.Params().At(i); typeKey(v.Type()) != typeContext {
			f.keyParams[v] = true
		}
	}
	if obj, ok := info.Defs[fd.Name].(*types.Func); ok && f.worker == nil {
		if sf := a.leftOut(obj); sf != nil {
			f.unanalysed = append(f.unanalysed, sf)
		}
	}
	f.registration = []Site{a.site(sync.expr.Lparen)}
	return f
}

// syncName names the controller of a sync function after its receiver
// type, or the function itself.
func syncName(f *ssa.Function) string {
	if recv := f.Signature.Recv(); recv != nil {
		if n, ok := deref(recv.Type()).(*types.Named); ok {
			return n.Obj().Name()
		}
	}
	return f.Name()
}

// implementationName names the controller of one implementation of an
// interface's sync method after its receiver type, qualified by its
// package when another implementation's receiver has the same name.
func implementationName(entry *ssa.Function, all []*ssa.Function) string {
	own := syncName(entry)
	for _, f := range all {
		if f != entry && syncName(f) == own && entry.Pkg != nil {
			return entry.Pkg.Pkg.Name() + "." + own
		}
	}
	return own
}

// sharedWorker finds the controllers of a worker loop shared by several: a
// function that dequeues keys (in its body or a closure of it) and hands
// them to a sync function it takes as a parameter. Each call that passes
// the worker its own sync function, directly or through the parameters of
// other functions (layers, in other packages too), is a controller of its
// own, named after the sync function's receiver (its kind comes from what
// the sync re-reads). It returns nil when the sync function is not a
// parameter of the worker.
func (a *analysis) sharedWorker(fd *ast.FuncDecl, info *types.Info, worker ast.Node, sync *call) []*found {
	id, ok := ast.Unparen(sync.expr.Fun).(*ast.Ident)
	if !ok || worker.Pos() < fd.Pos() || worker.End() > fd.End() {
		return nil
	}
	param, ok := info.Uses[id].(*types.Var)
	obj, isFunc := info.Defs[fd.Name].(*types.Func)
	if !ok || !isFunc {
		return nil
	}
	index := paramIndex(obj, param)
	if index < 0 {
		return nil
	}
	var out []*found
	for _, h := range a.handedFuncs(obj, index, map[*types.Func]bool{}) {
		entry := h.entry
		f := &found{name: syncName(entry), style: StyleClientGo, entry: entry,
			worker: a.bySyntax[fd], keyParams: map[*types.Var]bool{}}
		for i := 0; i < entry.Signature.Params().Len(); i++ {
			if v := entry.Signature.Params().At(i); typeKey(v.Type()) != typeContext {
				f.keyParams[v] = true
			}
		}
		f.registration = []Site{a.site(h.at.expr.Lparen), a.site(sync.expr.Lparen)}
		out = append(out, f)
	}
	return out
}

// paramIndex is the index of a parameter of fn, or -1.
func paramIndex(fn *types.Func, param *types.Var) int {
	sig := fn.Type().(*types.Signature)
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Params().At(i) == param {
			return i
		}
	}
	return -1
}

// handed is an own function handed to a parameter: the function, and the
// call that hands it on first.
type handed struct {
	entry *ssa.Function
	at    call
}

// handedFuncs returns the own functions the tree's calls hand to parameter
// index of fn: a function or method value passed there, or, when a caller
// passes a parameter of its own, what its callers pass to that one, through
// any number of layers.
func (a *analysis) handedFuncs(fn *types.Func, index int, seen map[*types.Func]bool) []handed {
	if seen[fn] {
		return nil
	}
	seen[fn] = true
	var out []handed
	for _, caller := range a.ownFuncs() {
		cinfo := a.infoAt(caller.Pos())
		a.allCalls(caller, func(c call) {
			if c.fn == nil || c.fn.Origin() != fn || c.arg(index) == nil {
				return
			}
			if entry := a.funcValue(cinfo, c.arg(index)); entry != nil {
				out = append(out, handed{entry: entry, at: c})
				return
			}
			id, ok := ast.Unparen(c.arg(index)).(*ast.Ident)
			if !ok {
				return
			}
			v, isVar := cinfo.Uses[id].(*types.Var)
			cobj, isFunc := cinfo.Defs[caller.Name].(*types.Func)
			if !isVar || !isFunc {
				return
			}
			if j := paramIndex(cobj, v); j >= 0 {
				out = append(out, a.handedFuncs(cobj, j, seen)...)
			}
		})
	}
	return out
}

// funcValue resolves a function value to the tree's own function it names:
// a method value (c.sync), a function, or a function literal.
func (a *analysis) funcValue(info *types.Info, e ast.Expr) *ssa.Function {
	var fn *types.Func
	switch x := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return a.bySyntax[x]
	case *ast.Ident:
		fn, _ = info.Uses[x].(*types.Func)
	case *ast.SelectorExpr:
		if sel := info.Selections[x]; sel != nil && sel.Kind() == types.MethodVal {
			fn, _ = sel.Obj().(*types.Func)
		} else {
			fn, _ = info.Uses[x.Sel].(*types.Func)
		}
	}
	if fn == nil {
		return nil
	}
	if sf := a.leftOut(fn); sf != nil {
		return sf
	}
	if sf := a.prog.Func(fn.Origin()); sf != nil && a.prog.Own[sf] {
		return sf
	}
	return nil
}

// dequeuedVar returns the variable a queue's Get result is assigned to.
func dequeuedVar(info *types.Info, path []ast.Node) *types.Var {
	for _, n := range path[1:] {
		switch s := n.(type) {
		case *ast.AssignStmt:
			if len(s.Lhs) > 0 {
				if id, ok := s.Lhs[0].(*ast.Ident); ok {
					if v, ok := info.Defs[id].(*types.Var); ok {
						return v
					}
					v, _ := info.Uses[id].(*types.Var)
					return v
				}
			}
			return nil
		case *ast.ValueSpec:
			if len(s.Names) > 0 {
				v, _ := info.Defs[s.Names[0]].(*types.Var)
				return v
			}
			return nil
		case ast.Stmt:
			return nil
		}
	}
	return nil
}

// enclosingFunc returns the innermost FuncDecl or FuncLit on a path.
func enclosingFunc(path []ast.Node) ast.Node {
	for _, n := range path {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return n
		}
	}
	return nil
}

// syncCall returns the first call in the worker, in source order, that
// passes the dequeued key to one of the tree's own functions (one left out
// because of its type errors included: it is then an entry whose rows are
// not settled).
func (a *analysis) syncCall(info *types.Info, worker ast.Node, vars map[*types.Var]bool) *call {
	var best *call
	ast.Inspect(worker, func(n ast.Node) bool {
		if best != nil {
			return false
		}
		e, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if _, lit := ast.Unparen(e.Fun).(*ast.FuncLit); lit {
			return true
		}
		for _, arg := range e.Args {
			if mentions(info, arg, vars) {
				c := a.makeCall(info, e, nil)
				if sf := a.leftOut(c.fn); len(c.own) == 0 && sf != nil {
					c.own = []*ssa.Function{sf}
				}
				if len(c.own) > 0 && !c.known {
					best = &c
					if inner := a.closureSync(info, worker, c, vars); inner != nil {
						best = inner
					}
					return false
				}
				break
			}
		}
		return true
	})
	return best
}

// closureSync follows a key handed to a closure of the worker
// (processItem := func(obj interface{}) error { ... sync(key) ... }) into
// it: the closure's parameters that receive the key carry it, and the sync
// call is the one inside. It returns nil when the call runs no closure of
// the worker.
func (a *analysis) closureSync(info *types.Info, worker ast.Node, c call, vars map[*types.Var]bool) *call {
	if len(c.own) != 1 {
		return nil
	}
	lit, ok := c.own[0].Syntax().(*ast.FuncLit)
	if !ok || lit.Pos() < worker.Pos() || lit.End() > worker.End() {
		return nil
	}
	inner := map[*types.Var]bool{}
	for v := range vars {
		inner[v] = true
	}
	for i, p := range paramIdents(lit.Type) {
		if v, ok := info.Defs[p].(*types.Var); ok && i < len(c.expr.Args) && mentions(info, c.expr.Args[i], vars) {
			inner[v] = true
		}
	}
	taint(info, lit.Body, inner)
	return a.syncCall(info, lit.Body, inner)
}

// receiverName names a client-go controller after the worker's receiver
// type, or the worker itself.
func receiverName(fd *ast.FuncDecl, info *types.Info) string {
	if obj, ok := info.Defs[fd.Name].(*types.Func); ok {
		if recv := obj.Type().(*types.Signature).Recv(); recv != nil {
			if n, ok := deref(recv.Type()).(*types.Named); ok {
				return n.Obj().Name()
			}
		}
	}
	return fd.Name.Name
}

// posOf is the position a site of an SSA function starts at.
func posOf(f *ssa.Function) token.Pos {
	if f.Syntax() != nil {
		return f.Syntax().Pos()
	}
	return f.Pos()
}
