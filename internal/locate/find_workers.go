package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// findWorkers finds client-go workers in a declaration: a workqueue Get, and
// the call of the tree's own function that the dequeued key flows into.
func (a *analysis) findWorkers(fd *ast.FuncDecl) []*found {
	info := a.infoAt(fd.Pos())
	var out []*found
	a.allCalls(fd, func(c call) {
		if c.fact.Role != RoleQueueGet {
			return
		}
		item, worker := a.dequeued(info, c.expr)
		if item == nil {
			a.misses = append(a.misses, miss{at: a.site(c.expr.Lparen), why: "what it takes off the queue is not kept in a variable ctrlcmp follows"})
			return
		}
		if worker == nil {
			return
		}
		vars := map[*types.Var]bool{item: true}
		taint(info, worker, vars)
		if f := a.readingWorker(fd, info, worker, c.expr, item, vars); f != nil {
			out = append(out, f)
			return
		}
		sync := a.syncCall(info, worker, vars)
		if sync == nil {
			a.misses = append(a.misses, miss{at: a.site(c.expr.Lparen), why: "the key it takes off the queue is handed to no function of the tree that ctrlcmp follows"})
			return
		}
		if shared := a.sharedWorker(fd, info, worker, sync, vars); shared != nil {
			out = append(out, shared...)
			return
		}
		if forwarded := a.forwardedSyncs(fd, sync, vars); forwarded != nil {
			out = append(out, forwarded...)
			return
		}
		if len(sync.own) > 1 && dynamicCall(sync) {
			// A worker shared through an interface (a Syncer each
			// controller implements) or a function value it holds (a
			// field set from each controller's method value): one
			// controller per function the call may run, each named
			// after its own receiver.
			for _, entry := range sync.own {
				f := a.workerFound(fd, info, worker, sync, entry)
				f.name = implementationName(entry, sync.own)
				out = append(out, f)
			}
			return
		}
		f := a.workerFound(fd, info, worker, sync, sync.own[0])
		// A queue known only by its protocol hands out events unless its
		// items are strings (a knowledge-table queue's items are keys).
		_, inTable := knowledge[funcKey(c.fn)]
		f.events = !inTable && !isString(item.Type())
		out = append(out, f)
	})
	return out
}

// innermostBody is the body of the innermost function (declared or
// literal) on a path, innermost first; nil when there is none.
func innermostBody(path []ast.Node) *ast.BlockStmt {
	for _, n := range path {
		switch f := n.(type) {
		case *ast.FuncDecl:
			return f.Body
		case *ast.FuncLit:
			return f.Body
		}
	}
	return nil
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
	if dynamicCall(sync) {
		// A worker handed the sync as a value (a function of its own, a
		// loop calling a field a controller set): the controller is the
		// sync's.
		f.name = syncName(entry)
	}
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

// withClosures is fn and the closures it makes, those of its closures
// included (a re-add wrapped in a function literal inside the worker's
// item closure is the worker's).
func withClosures(fn *ssa.Function) []*ssa.Function {
	out := []*ssa.Function{fn}
	for _, anon := range fn.AnonFuncs {
		out = append(out, withClosures(anon)...)
	}
	return out
}

// dynamicCall reports whether a call runs what the call graph says: a
// method of an interface, or a function value (a field, a parameter, a
// variable), rather than one static function.
func dynamicCall(c *call) bool {
	return c.fn == nil || isInterfaceMethod(c.fn)
}

// syncName names the controller of a sync function after its receiver
// type, or the function itself; a closure after the function that makes it.
func syncName(f *ssa.Function) string {
	for f.Parent() != nil {
		f = f.Parent()
	}
	if recv := f.Signature.Recv(); recv != nil {
		if n, ok := deref(recv.Type()).(*types.Named); ok {
			return n.Obj().Name()
		}
	}
	return f.Name()
}

// implementationName names the controller of one of the sync functions a
// shared worker runs (the implementations of an interface's sync method,
// the functions handed to it) after its receiver type, qualified by its
// package when another one's receiver, in another package, has the same
// name (one type's several syncs are told apart by nameByEntry).
func implementationName(entry *ssa.Function, all []*ssa.Function) string {
	own := syncName(entry)
	for _, f := range all {
		if f != entry && syncName(f) == own && entry.Pkg != nil && f.Pkg != entry.Pkg {
			return entry.Pkg.Pkg.Name() + "." + own
		}
	}
	return own
}

// sharedWorker finds the controllers of a worker loop shared by several: a
// function that dequeues keys (in its body or a closure of it) and hands
// them to a sync function its callers give it (a parameter, a field of a
// parameter such as an options struct, a variable assigned from one).
// Each function the tree's calls hand the worker, directly or through the
// parameters of other functions (layers, in other packages too) and the
// adapters that wrap it, is a controller of its own, named after its
// receiver (its kind comes from what it re-reads by the key); its key
// parameters are those the worker's key reaches (vars, the worker's
// variables that carry it). It returns nil when the sync function does not
// come from the worker's callers (a method, a field of the receiver).
func (a *analysis) sharedWorker(fd *ast.FuncDecl, info *types.Info, worker ast.Node, sync *call, vars map[*types.Var]bool) []*found {
	if sync.fn != nil || worker.Pos() < fd.Pos() || worker.End() > fd.End() {
		return nil
	}
	if _, lit := ast.Unparen(sync.expr.Fun).(*ast.FuncLit); lit {
		return nil
	}
	obj, ok := info.Defs[fd.Name].(*types.Func)
	if !ok || a.ownBody(obj) == nil {
		return nil
	}
	keyed := make([]bool, len(sync.expr.Args))
	for i, arg := range sync.expr.Args {
		keyed[i] = mentions(info, arg, vars)
	}
	hs, ends, shared := a.handedSyncs(a.ownBody(obj), sync.expr.Fun, keyed)
	if !shared {
		return nil
	}
	var entries []*ssa.Function
	for _, h := range hs {
		entries = append(entries, h.entry)
	}
	var out []*found
	for _, h := range hs {
		entry := h.entry
		f := &found{name: implementationName(entry, entries), style: StyleClientGo, entry: entry,
			worker: a.bySyntax[fd], keyParams: map[*types.Var]bool{}, handing: h.at.expr}
		params := entry.Signature.Params()
		for i := 0; i < params.Len() && i < len(h.keyed); i++ {
			if h.keyed[i] {
				f.keyParams[params.At(i)] = true
			}
		}
		f.registration = []Site{a.site(h.at.expr.Lparen), a.site(sync.expr.Lparen)}
		out = append(out, f)
	}
	return append(out, a.unfollowedSyncs(ends, sync)...)
}

// forwardedSyncs follows a worker's sync call into a function of the tree
// that forwards the key: handed the key and a function value, its sync
// call (syncCall, read in its body) is a call of a function value with the
// key or its parts, split from a queue item. The controllers are those of the function
// value, found from the worker's callers as for a shared worker; the
// worker stays the function that dequeues, and the forwarding call joins
// the registration. It returns nil when the call forwards nothing.
func (a *analysis) forwardedSyncs(fd *ast.FuncDecl, sync *call, vars map[*types.Var]bool) []*found {
	if sync.fn == nil || len(sync.own) != 1 || isInterfaceMethod(sync.fn) {
		return nil
	}
	b := a.ownBody(sync.fn)
	if b == nil {
		return nil
	}
	keys := map[*types.Var]bool{}
	handedFunc := false
	for i, p := range paramIdents(b.decl.Type) {
		v, ok := b.info.Defs[p].(*types.Var)
		if !ok || i >= len(sync.expr.Args) {
			continue
		}
		if mentions(a.infoAt(fd.Pos()), sync.expr.Args[i], vars) {
			keys[v] = true
		}
		if _, ok := v.Type().Underlying().(*types.Signature); ok {
			handedFunc = true
		}
	}
	if len(keys) == 0 || !handedFunc {
		return nil
	}
	taint(b.info, b.decl.Body, keys)
	inner := a.syncCall(b.info, b.decl.Body, keys)
	if inner == nil || inner.fn != nil {
		return nil
	}
	out := a.sharedWorker(b.decl, b.info, b.decl, inner, keys)
	for _, f := range out {
		f.worker = a.bySyntax[fd]
		f.registration = append(f.registration, a.site(sync.expr.Lparen))
	}
	return out
}

// unfollowedSyncs are the controllers of a shared worker whose sync
// function ctrlcmp could not follow from the call that hands it: one for
// each such call, named after the type (or function) that makes it, every
// row not settled, saying where the trail ended. A controller is there;
// which function is its entry, and so its kind, is not known.
func (a *analysis) unfollowedSyncs(ends []handEnd, sync *call) []*found {
	var out []*found
	byCall := map[token.Pos]*found{}
	for _, e := range ends {
		a.misses = append(a.misses, e.miss)
		if e.at == nil {
			continue
		}
		at := a.site(e.at.expr.Lparen)
		why := fmt.Sprintf("%s at %s", e.why, fileLine(e.miss.at))
		if f := byCall[e.at.expr.Lparen]; f != nil {
			f.unsettled += "; " + why
			continue
		}
		// Named after the type (or function) making the call, qualified
		// by its package: the controllers found of the same worker are
		// named so when their type names meet.
		name := "worker at " + fileLine(at)
		for _, n := range a.path(e.at.expr.Pos(), e.at.expr.End()) {
			if fd, ok := n.(*ast.FuncDecl); ok {
				info := a.infoAt(fd.Pos())
				name = receiverName(fd, info)
				if obj, ok := info.Defs[fd.Name].(*types.Func); ok && obj.Pkg() != nil {
					name = obj.Pkg().Name() + "." + name
				}
			}
		}
		f := &found{name: name, style: StyleClientGo, registration: []Site{at, a.site(sync.expr.Lparen)},
			unsettled: fmt.Sprintf("the sync function handed to the shared worker at %s is not followed to a function of the tree: %s", fileLine(at), why)}
		byCall[e.at.expr.Lparen] = f
		out = append(out, f)
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

// maxClosureHops bounds the closures a dequeued value is followed out of.
const maxClosureHops = 8

// dequeued returns the variable a queue's Get result is kept in, and the
// function that keeps it (the worker). The result is followed as a value
// out of the function literals that return it: one called at once, or
// assigned to a variable that the enclosing function calls once.
func (a *analysis) dequeued(info *types.Info, get ast.Expr) (*types.Var, ast.Node) {
	e := get
	for range maxClosureHops {
		path := a.path(e.Pos(), e.End())
		if len(path) < 2 {
			return nil, nil
		}
		i := 1
		for i < len(path)-1 {
			if _, paren := path[i].(*ast.ParenExpr); !paren {
				break
			}
			i++
		}
		ret, ok := path[i].(*ast.ReturnStmt)
		if !ok {
			return dequeuedVar(info, path), enclosingFunc(path)
		}
		lit, ok := enclosingFunc(path[i:]).(*ast.FuncLit)
		if !ok || len(ret.Results) != 1 {
			return nil, nil
		}
		next := a.litCall(info, lit)
		if next == nil {
			return nil, nil
		}
		e = next
	}
	return nil, nil
}

// litCall is the one call of a function literal: the literal called at
// once, or the variable it is assigned to called once in the function
// that assigns it; nil otherwise.
func (a *analysis) litCall(info *types.Info, lit *ast.FuncLit) *ast.CallExpr {
	path := a.path(lit.Pos(), lit.End())
	i := 1
	for i < len(path)-1 {
		if _, paren := path[i].(*ast.ParenExpr); !paren {
			break
		}
		i++
	}
	if len(path) <= i {
		return nil
	}
	var fnVar *types.Var
	switch p := path[i].(type) {
	case *ast.CallExpr:
		if ast.Unparen(p.Fun) == lit {
			return p
		}
		return nil
	case *ast.AssignStmt:
		if len(p.Lhs) == 1 && len(p.Rhs) == 1 {
			if id, ok := p.Lhs[0].(*ast.Ident); ok {
				fnVar = varOf(info, id)
			}
		}
	case *ast.ValueSpec:
		if len(p.Names) == 1 && len(p.Values) == 1 {
			fnVar = varOf(info, p.Names[0])
		}
	}
	scope := enclosingFunc(path[i:])
	if fnVar == nil || scope == nil {
		return nil
	}
	var calls []*ast.CallExpr
	uses := 0
	ast.Inspect(scope, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if info.Uses[n] == fnVar {
				uses++
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && info.Uses[id] == fnVar {
				calls = append(calls, n)
			}
		}
		return true
	})
	// Assigned again, or handed on: the call is not the only place its
	// value goes.
	if len(calls) != 1 || uses != 1 {
		return nil
	}
	return calls[0]
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

// returnsError reports whether a call's function has an error among its
// results.
func returnsError(info *types.Info, e *ast.CallExpr) bool {
	sig, ok := types.Unalias(info.TypeOf(e.Fun)).Underlying().(*types.Signature)
	if !ok {
		return false
	}
	for i := 0; i < sig.Results().Len(); i++ {
		if isErrorType(sig.Results().At(i).Type()) {
			return true
		}
	}
	return false
}

// closureSync follows a key handed to a closure of the worker
// (processItem := func(obj interface{}) error { ... sync(key) ... }) into
// it: the closure's parameters that receive the key carry it (they join
// vars, with what is computed from them), and the sync call is the one
// inside. It returns nil when the call runs no closure of the worker.
func (a *analysis) closureSync(info *types.Info, worker ast.Node, c call, vars map[*types.Var]bool) *call {
	if len(c.own) != 1 {
		return nil
	}
	lit, ok := c.own[0].Syntax().(*ast.FuncLit)
	if !ok || lit.Pos() < worker.Pos() || lit.End() > worker.End() {
		return nil
	}
	var inner []*types.Var
	for i, p := range paramIdents(lit.Type) {
		if v, ok := info.Defs[p].(*types.Var); ok && i < len(c.expr.Args) && mentions(info, c.expr.Args[i], vars) {
			inner = append(inner, v)
		}
	}
	for _, v := range inner {
		vars[v] = true
	}
	taint(info, lit.Body, vars)
	return a.syncCall(info, lit.Body, vars)
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
