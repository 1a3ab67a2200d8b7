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
		for _, f := range a.findWorkers(fd) {
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
// controller-runtime's builder: For(&T{}) ... Complete(r).
func (a *analysis) findRegistered(fd *ast.FuncDecl) []*found {
	info := a.infoAt(fd.Pos())
	var kinds []*types.Named
	var completes []call
	a.allCalls(fd, func(c call) {
		switch c.fact.Role {
		case RoleRegisterFor:
			if n, ok := deref(info.TypeOf(c.arg(c.fact.Arg))).(*types.Named); ok {
				kinds = append(kinds, n)
			}
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
		for _, rt := range a.reconcilerTypes(fd, info, arg) {
			entry := a.methodFunc(rt, methodReconcile)
			if entry == nil {
				continue
			}
			f := &found{name: rt.Obj().Name(), style: StyleControllerRuntime, entry: entry,
				registration: []Site{a.site(c.expr.Lparen)}}
			if len(kinds) > 0 {
				f.kind = kinds[0]
			}
			f.keyParams = requestParams(entry)
			out = append(out, f)
		}
	}
	return out
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
	var out []*types.Named
	add := func(t types.Type) {
		if n, ok := deref(t).(*types.Named); ok && !types.IsInterface(n) {
			if _, own := a.fileAt(n.Obj().Pos()); own && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	if arg == nil {
		return nil
	}
	add(info.TypeOf(arg))
	if len(out) > 0 {
		return out
	}
	if id, ok := ast.Unparen(arg).(*ast.Ident); ok {
		if v, ok := info.Uses[id].(*types.Var); ok {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
					for i, l := range as.Lhs {
						if lid, ok := l.(*ast.Ident); ok && (info.Uses[lid] == v || info.Defs[lid] == v) {
							add(info.TypeOf(as.Rhs[i]))
						}
					}
				}
				return true
			})
		}
	}
	if len(out) == 0 && fd.Recv != nil {
		if obj, ok := info.Defs[fd.Name].(*types.Func); ok {
			add(obj.Type().(*types.Signature).Recv().Type())
		}
	}
	var withReconcile []*types.Named
	for _, n := range out {
		if a.methodFunc(n, methodReconcile) != nil {
			withReconcile = append(withReconcile, n)
		}
	}
	return withReconcile
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
// function that dequeues keys and hands them to a sync function it takes as
// a parameter. Each call of the worker that passes its own sync function is
// a controller of its own, named after the sync function's receiver (its
// kind comes from what the sync re-reads). It returns nil when the sync
// function is not a parameter of the worker.
func (a *analysis) sharedWorker(fd *ast.FuncDecl, info *types.Info, worker ast.Node, sync *call) []*found {
	id, ok := ast.Unparen(sync.expr.Fun).(*ast.Ident)
	if !ok || worker != ast.Node(fd) {
		return nil
	}
	param, ok := info.Uses[id].(*types.Var)
	obj, isFunc := info.Defs[fd.Name].(*types.Func)
	if !ok || !isFunc {
		return nil
	}
	sig := obj.Type().(*types.Signature)
	index := -1
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Params().At(i) == param {
			index = i
		}
	}
	if index < 0 {
		return nil
	}
	var out []*found
	for _, caller := range a.ownFuncs() {
		cinfo := a.infoAt(caller.Pos())
		a.allCalls(caller, func(c call) {
			if c.fn == nil || c.fn.Origin() != obj || c.arg(index) == nil {
				return
			}
			entry := a.funcValue(cinfo, c.arg(index))
			if entry == nil {
				return
			}
			f := &found{name: syncName(entry), style: StyleClientGo, entry: entry,
				worker: a.bySyntax[fd], keyParams: map[*types.Var]bool{}}
			for i := 0; i < entry.Signature.Params().Len(); i++ {
				if v := entry.Signature.Params().At(i); typeKey(v.Type()) != typeContext {
					f.keyParams[v] = true
				}
			}
			f.registration = []Site{a.site(c.expr.Lparen), a.site(sync.expr.Lparen)}
			out = append(out, f)
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
					return false
				}
				break
			}
		}
		return true
	})
	return best
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
