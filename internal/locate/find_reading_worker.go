package locate

import (
	"go/ast"
	"go/types"
	"slices"
)

// readingWorker finds the controller of a worker that does the re-read
// itself: it takes one key off the queue, reads the object by that key
// (a lister or client Get, also through a helper of the tree's that
// makes it and returns what it read) and hands the object, not the key,
// to the work (a handler's method, possibly through an interface). No function
// is handed the key: the worker is the function that handles one dequeued
// item, so it is the entry, and its re-read is the primary's. It returns
// nil when the worker takes several keys in a loop, reads nothing by the
// key, or hands the key itself on (a context that logs it does not count).
func (a *analysis) readingWorker(fd *ast.FuncDecl, info *types.Info, worker ast.Node, get ast.Expr, item *types.Var, vars map[*types.Var]bool) *found {
	entry := a.bySyntax[worker]
	if entry == nil || inLoop(a.path(get.Pos(), get.End())) {
		return nil
	}
	// The read: the first by the key, in the worker's body or in a
	// function literal of it whose result is the read's.
	var read ast.Expr
	ast.Inspect(worker, func(n ast.Node) bool {
		e, ok := n.(*ast.CallExpr)
		if !ok || read != nil {
			return read == nil
		}
		// The call is made with its SSA function, the worker's or a
		// closure's, so that a read handing back an interface is typed
		// by the assertion that follows it.
		var key ast.Expr
		var obj types.Type
		for _, fn := range withClosures(entry) {
			if key, obj = a.readShape(info, a.makeCall(info, e, fn)); obj != nil {
				break
			}
		}
		if obj == nil {
			key, obj = a.typedReadThrough(info, a.makeCall(info, e, nil))
		}
		if key != nil && mentions(info, key, vars) && isReadObject(obj) {
			read = a.outOfClosures(info, e, worker)
		}
		return read == nil
	})
	if read == nil {
		return nil
	}
	objs := map[*types.Var]bool{}
	assignedFrom(info, worker, read, true, objs)
	heldFrom(info, worker, objs)
	// The work is the first call of the tree's own handed the object (or
	// a value made from it, also as the receiver of a method) that is
	// neither a test of it (a function returning only bools: is it
	// outdated, is it done) nor its conversion (a function handing an
	// object back: unstructured to typed): those run before the work.
	var handoff *call
	inspectOwn(worker, func(e *ast.CallExpr) bool {
		handed := slices.ContainsFunc(e.Args, func(arg ast.Expr) bool { return mentions(info, arg, objs) })
		if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && !handed {
			if _, method := info.Selections[sel]; method {
				handed = mentions(info, sel.X, objs)
			}
		}
		if e.Pos() < read.End() || !handed || onlyTestsOrConverts(info, e) {
			return true
		}
		if c := a.makeCall(info, e, nil); len(c.own) > 0 && !c.known {
			handoff = &c
		}
		return handoff == nil
	})
	if handoff == nil {
		return nil
	}
	for _, arg := range handoff.expr.Args {
		// What the read hands back is the object, not the key, even
		// when its type is no object pointer (a record of the tree's
		// holding the object).
		if typeKey(info.TypeOf(arg)) != typeContext && mentions(info, arg, vars) && !mentions(info, arg, objs) {
			return nil // the work is handed the key: it is the entry
		}
	}
	return &found{name: receiverName(fd, info), style: StyleClientGo, entry: entry, worker: entry,
		keyParams: map[*types.Var]bool{item: true}, handoff: handoff.expr.Pos(),
		registration: []Site{a.site(handoff.expr.Lparen), a.site(get.Pos())}}
}

// outOfClosures is the expression of the worker's own body whose value is
// e's: e itself, or the call of the function literal that returns it (a
// literal called at once, or assigned and called once), out of as many
// literals as hold it; nil when the value goes elsewhere.
func (a *analysis) outOfClosures(info *types.Info, e ast.Expr, worker ast.Node) ast.Expr {
	for range maxClosureHops {
		path := a.path(e.Pos(), e.End())
		fn := enclosingFunc(path)
		if fn == worker {
			return e
		}
		lit, ok := fn.(*ast.FuncLit)
		if !ok || len(path) < 2 {
			return nil
		}
		if ret, ok := path[1].(*ast.ReturnStmt); !ok || len(ret.Results) == 0 || ret.Results[0] != e {
			return nil
		}
		next := a.litCall(info, lit)
		if next == nil {
			return nil
		}
		e = next
	}
	return nil
}

// inspectOwn visits the calls of a function's body in source order, not
// those of the function literals it makes, until visit returns false.
func inspectOwn(fn ast.Node, visit func(*ast.CallExpr) bool) {
	var b *ast.BlockStmt
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		b = fn.Body
	case *ast.FuncLit:
		b = fn.Body
	}
	if b == nil {
		return
	}
	more := true
	ast.Inspect(b, func(n ast.Node) bool {
		if !more {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			more = visit(n)
		}
		return more
	})
}

// heldFrom grows vars with the variables of body assigned a value made
// from one of them only (a type assertion, a field, a conversion of
// the object read: the object again, whatever its type), until nothing
// changes. Unlike taint it does not stop at object pointers: it follows
// an object, not a key. A context or an error is never the object.
func heldFrom(info *types.Info, body ast.Node, vars map[*types.Var]bool) {
	for changed := true; changed; {
		changed = false
		ast.Inspect(body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || !mentions(info, as.Rhs[0], vars) {
				return true
			}
			id, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident)
			if !ok {
				return true
			}
			// A context or an error made with the object (a logger
			// naming it, a failure of its work) is neither.
			if v, ok := info.ObjectOf(id).(*types.Var); ok && !vars[v] && typeKey(v.Type()) != typeContext && !isErrorType(v.Type()) {
				vars[v] = true
				changed = true
			}
			return true
		})
	}
}

// onlyTestsOrConverts reports whether a call's function returns only bools
// (a test) or hands an object back first (a conversion, a copy).
func onlyTestsOrConverts(info *types.Info, e *ast.CallExpr) bool {
	sig, ok := info.TypeOf(e.Fun).(*types.Signature)
	if !ok || sig.Results().Len() == 0 {
		return false
	}
	if isReadObject(sig.Results().At(0).Type()) {
		return true
	}
	for i := 0; i < sig.Results().Len(); i++ {
		if b, ok := sig.Results().At(i).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
			return false
		}
	}
	return true
}

// typedReadThrough is the key argument and the object type of a call of a
// typed read helper of the tree's (typedReadKey), or nil: the worker reads
// through it, and the read inside it is cited where it is. The type is the
// call's result, as instantiated there, when that is an object pointer;
// else the type the read inside names (a record of the tree's holding it).
func (a *analysis) typedReadThrough(info *types.Info, c call) (ast.Expr, types.Type) {
	if c.fn == nil || a.decls[c.fn.Origin()] == nil {
		return nil, nil
	}
	r := a.typedReadKey(c.fn.Origin())
	if r.key < 0 {
		return nil, nil
	}
	if obj := objectResult(info, c); obj != nil {
		return c.arg(r.key), obj
	}
	return c.arg(r.key), r.obj
}

// typedRead is what typedReadKey finds: the index of the parameter keying
// the read (-1 for none) and the type of the object read.
type typedRead struct {
	key int
	obj types.Type
}

// typedReadKey is the parameter of an own function that writes nothing,
// keying a read of an object whose type the read names (a clientset's or
// lister's Get, a store of the tree's, or another such function), the
// function handing back what it read as its first result
// (getNode(client, name)).
func (a *analysis) typedReadKey(fn *types.Func) typedRead {
	if r, ok := a.typedReads[fn]; ok {
		return r
	}
	none := typedRead{key: -1}
	a.typedReads[fn] = none
	fd := a.decls[fn]
	sig, _ := fn.Type().(*types.Signature)
	info := a.infoAt(fd.Pos())
	sf := a.bySyntax[fd]
	if fd.Body == nil || sig == nil || info == nil || sf == nil || a.writesAny(sf) {
		return none
	}
	found := none
	a.allCalls(fd, func(c call) {
		if found.key >= 0 {
			return
		}
		key, obj := a.readShape(info, c)
		if key == nil {
			key, obj = a.typedReadThrough(info, c) // a read helper of its own
		}
		if key == nil || !isReadObject(obj) || !readFlowsOut(info, fd, c) {
			return
		}
		found = typedRead{key: paramFeeding(info, fd.Body, sig, key), obj: obj}
	})
	a.typedReads[fn] = found
	return found
}
