package locate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Controllers whose queue holds events that carry the object, not keys.

// findEventWorkers finds the controllers whose queue holds events that
// carry the object rather than keys: a FIFO popped with a process function
// (the function is the entry), or a channel of events read by a worker
// that hands each item to one of the tree's functions (that function is).
func (a *analysis) findEventWorkers(fd *ast.FuncDecl) []*found {
	info := a.infoAt(fd.Pos())
	var out []*found
	add := func(entry *ssa.Function, at token.Pos, queue ast.Expr) {
		name := receiverName(fd, info)
		if owner := queueOwner(info, queue); fd.Recv == nil && owner != "" {
			name = owner
		}
		f := &found{name: name, style: StyleClientGo, entry: entry,
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
			add(entry, c.expr.Lparen, c.recv())
		}
	})
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		var item *types.Var
		var scope ast.Node
		var queue ast.Expr
		switch s := n.(type) {
		case *ast.RangeStmt: // for ev := range events
			if id, ok := s.Key.(*ast.Ident); ok && a.isEventChan(info.TypeOf(s.X)) {
				item, _ = info.Defs[id].(*types.Var)
				scope, queue = s.Body, s.X
			}
		case *ast.AssignStmt: // ev := <-events, ev, ok := <-events
			if len(s.Rhs) != 1 || len(s.Lhs) == 0 {
				break
			}
			if u, ok := ast.Unparen(s.Rhs[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW && a.isEventChan(info.TypeOf(u.X)) && inLoop(a.path(s.Pos(), s.End())) {
				if id, ok := s.Lhs[0].(*ast.Ident); ok {
					item, _ = info.ObjectOf(id).(*types.Var)
					scope, queue = fd.Body, u.X
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
			add(sync.own[0], sync.expr.Lparen, queue)
		}
		return true
	})
	return out
}

// queueOwner names the struct type whose field the queue is (w.queue: the
// type of w), or gives "": a worker without a receiver is named after the
// controller holding its queue.
func queueOwner(info *types.Info, queue ast.Expr) string {
	sel, ok := ast.Unparen(queue).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
		if n, ok := deref(s.Recv()).(*types.Named); ok {
			return n.Obj().Name()
		}
	}
	return ""
}

// isEventChan reports whether t is a channel whose items carry an API
// object: an object pointer, or a struct (or pointer to one) with a field
// holding an object pointer or an interface value an object can be
// (holdsObject).
func (a *analysis) isEventChan(t types.Type) bool {
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
		if ft := st.Field(i).Type(); IsObjectPointer(ft) || types.IsInterface(ft) && !types.Identical(ft, errType) && a.holdsObject(ft) {
			return true
		}
	}
	return false
}

// holdsObject reports whether an interface value can be an API object: the
// interface is empty, or each of its methods is one every object has
// (those its TypeMeta and ObjectMeta promote, and DeepCopyObject). A model
// with a label selector in it carries no object. When apimachinery is not
// loaded, what an object has is not known: any interface may hold one.
func (a *analysis) holdsObject(t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	var metas []types.Type
	for _, name := range []string{typeTypeMeta, typeObjectMeta} {
		pkg, typ := splitQualified(name)
		if p := a.tree.Types(pkg); p != nil {
			if tn, isType := p.Scope().Lookup(typ).(*types.TypeName); isType {
				metas = append(metas, types.NewPointer(tn.Type()))
			}
		}
	}
	if len(metas) == 0 {
		return true
	}
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		if m.Name() == methodDeepCopyObject {
			continue
		}
		has := false
		for _, meta := range metas {
			if fn, _, _ := types.LookupFieldOrMethod(meta, true, m.Pkg(), m.Name()); fn != nil {
				_, has = fn.(*types.Func)
			}
			if has {
				break
			}
		}
		if !has {
			return false
		}
	}
	return true
}
