package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// finOp is a change of an object's finalizer list.
type finOp struct {
	pos   token.Pos
	value ast.Expr // the finalizer, when known
	info  *types.Info
	in    *ssa.Function
	// calls are, when the finalizer is a parameter of a helper, the calls
	// of the helper on the reconcile path, each with the value it passes.
	calls []finOp
	// whole says the op sets the list whole (SetFinalizers(v),
	// obj.Finalizers = v) to a value in which no new finalizer is found,
	// and no removed one either.
	whole bool
}

// finalizerOps are the changes and tests of finalizer lists on the
// reconcile path.
type finalizerOps struct {
	adds, removes, tests []finOp
	// noFinalizer is the reason every finalizer row gives when there are
	// none, and searched what the search that found none covered.
	noFinalizer, searched string
	// unsettled are the dependency helpers handed the primary object whose
	// bodies could not be read: where the search's trail ends.
	unsettled []string
	// offPath are the additions off the reconcile path (addsOffPath),
	// once offRead.
	offPath []finOp
	offRead bool
}

// absent says the reconcile path neither changes nor tests a finalizer.
func (o *finalizerOps) absent() bool {
	return len(o.adds) == 0 && len(o.removes) == 0 && len(o.tests) == 0
}

// finalizerOps lists the additions, removals and tests of the primary
// object's finalizers in fns; those of objects of another type (a child's
// PersistentVolumeClaim) are left out.
func (a *analysis) finalizerOps(fns []*ssa.Function, kind *types.Named) *finalizerOps {
	var adds, removes, tests []finOp
	var applyUnsettled []string
	for _, fn := range fns {
		b := body(fn)
		if b == nil {
			continue
		}
		info := a.infoAt(b.Pos())
		for _, c := range a.callsIn(fn) {
			if at, ok := a.unreadPatch(info, c, kind); ok {
				applyUnsettled = append(applyUnsettled, at)
			}
			if !c.known {
				continue
			}
			holder := c.arg(c.fact.Obj)
			if sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr); ok && c.fact.Obj < 0 {
				holder = sel.X // obj.SetFinalizers(...)
			}
			if !ofKind(info, holder, kind) {
				continue
			}
			switch c.fact.Role {
			case RoleFinalizerAdd, RoleFinalizerRemove, RoleFinalizerHas, RoleSetFinalizers:
			default:
				continue
			}
			if kind != nil && holder != nil && types.IsInterface(info.TypeOf(holder)) && a.holdsOtherKind(fns, fn, holder, kind) {
				continue // an interface value proven to hold another object
			}
			if a.readByOtherName(fn, info, b, holder, kind) {
				continue // another object of the type, read by a name from the Spec
			}
			op := finOp{pos: c.expr.Lparen, value: c.arg(c.fact.Arg), info: info, in: fn}
			switch c.fact.Role {
			case RoleFinalizerAdd:
				adds = append(adds, op)
			case RoleFinalizerRemove:
				removes = append(removes, op)
			case RoleFinalizerHas:
				tests = append(tests, op)
			case RoleSetFinalizers:
				// The list appended to where it is handed, or in a
				// local the setter is handed (finalizers :=
				// append(obj.GetFinalizers(), X); obj.SetFinalizers(finalizers)).
				if v, vinfo, ok := a.setFinalizersAppended(fn, info, op.value); ok {
					op.value, op.info = v, vinfo
					adds = append(adds, op)
				} else if add, rm, ok := a.setFinalizersSplit(fn, op.value); ok {
					adds = append(adds, add...)
					removes = append(removes, rm...)
				} else {
					op.value, op.whole = nil, true
					removes = append(removes, op)
				}
			}
		}
		ast.Inspect(b, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				if len(n.Lhs) != 1 || len(n.Rhs) != 1 || fieldOf(info, n.Lhs[0]) != fieldFinalizers {
					return true
				}
				if sel, ok := ast.Unparen(n.Lhs[0]).(*ast.SelectorExpr); ok && (!ofKind(info, sel.X, kind) || a.readByOtherName(fn, info, b, sel.X, kind)) {
					return true
				}
				op := finOp{pos: n.Pos(), info: info, in: fn}
				if v, vinfo, ok := a.appendedValue(fn, info, n.Rhs[0]); ok {
					op.value, op.info = v, vinfo
					adds = append(adds, op)
				} else if v, vinfo, in, ok := a.flowAdded(fns, fn, n.Rhs[0]); ok {
					op.value, op.info, op.in = v, vinfo, in
					if outermost(in) != outermost(fn) {
						// A list a caller built and handed to a setter
						// (SetFinalizer(obj, append(list, X))): the
						// finalizer enters the list there. The setter's
						// other callers may hand it lists without one.
						op.pos = v.Pos()
						rm := a.callerRemovals(fns, fn, n.Rhs[0])
						if len(rm) == 0 {
							rm = []finOp{{pos: n.Pos(), info: info, in: fn, whole: true}}
						}
						removes = append(removes, rm...)
					}
					adds = append(adds, op)
				} else {
					op.value = a.removedValue(info, n)
					op.whole = op.value == nil
					removes = append(removes, op)
				}
			}
			return true
		})
		patchAdds, patchRemoves := a.patchOps(fn, info, b, kind)
		adds = append(adds, patchAdds...)
		removes = append(removes, patchRemoves...)
		if kind != nil {
			applyAdds, applyRemoves, u := a.applyOps(fns, fn, info, b, kind)
			adds = append(adds, applyAdds...)
			removes = append(removes, applyRemoves...)
			applyUnsettled = append(applyUnsettled, u...)
		}
	}
	for _, list := range [][]finOp{adds, removes, tests} {
		for i := range list {
			list[i].calls = a.helperCalls(fns, list[i])
		}
	}
	// Helpers of dependencies (an organisation's own module) are searched
	// when the tree's own code does not both add and remove.
	var unsettledAt []string
	if len(adds) == 0 || len(removes) == 0 {
		d := a.depFinalizerOps(fns, kind)
		if len(adds) == 0 {
			adds = d.adds
		}
		if len(removes) == 0 {
			removes = d.removes
		}
		if len(tests) == 0 {
			tests = d.tests
		}
		unsettledAt = d.unsettled
	}
	unsettledAt = append(unsettledAt, applyUnsettled...)
	if len(adds) == 0 && kind != nil {
		if calls := a.unresolvedHanding(fns, kind); len(calls) > 0 {
			unsettledAt = append(unsettledAt, "the "+kind.Obj().Name()+" is handed to calls the call graph resolves to no function, which are not followed: "+listSites(calls))
		}
	}
	ops := &finalizerOps{adds: adds, removes: removes, tests: tests, unsettled: unsettledAt,
		noFinalizer: "no finalizer: nothing reachable from the entry adds one",
		searched:    fmt.Sprintf("every change or test of the primary object's Finalizers (the knowledge table's finalizer functions, SetFinalizers, an assignment or append to .Finalizers, a JSON patch on %s, a server-side apply of a configuration's finalizer list) and every branch on its DeletionTimestamp, in the %d functions reachable from the entry", finalizersPath, len(fns))}
	if ref := a.ownerRef(fns, kind); ref != nil {
		ops.noFinalizer += fmt.Sprintf("; children are removed by garbage collection through their owner reference (%s:%d)", ref.File, ref.Line)
	}
	return ops
}

// unreadPatch says, for a generated typed client's patch or apply of the
// primary kind's object (its result is one), not of a subresource, that
// the data it sends is not read for finalizers: a JSON patch built by
// option helpers or closures may add or remove one there.
func (a *analysis) unreadPatch(info *types.Info, c call, kind *types.Named) (string, bool) {
	if c.known || c.fn == nil || kind == nil {
		return "", false
	}
	sig, ok := c.fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || sig.Results().Len() == 0 {
		return "", false
	}
	if v, write := clientsetVerb(sig); !write || v != verbPatch && v != verbApply {
		return "", false
	}
	if n, ok := deref(sig.Results().At(0).Type()).(*types.Named); !ok || !types.Identical(n, kind) {
		return "", false
	}
	if sub := subresourceArg(info, c, sig); sub != "" || generatedStatusWrites[c.fn.Name()] || a.handedPatch(c, sig) {
		return "", false
	}
	s := a.site(c.expr.Lparen)
	return fmt.Sprintf("the %s is patched at %s:%d with data ctrlcmp does not read for its finalizers", kind.Obj().Name(), s.File, s.Line), true
}

// handedPatch reports whether a typed client's patch sends data made from
// what its function is handed (a helper handed the operations, marshalled
// there): the search reads them where its callers make them.
func (a *analysis) handedPatch(c call, sig *types.Signature) bool {
	fb := a.flowBodyOf(c.in)
	if fb == nil {
		return false
	}
	var data ast.Expr
	for i := 0; i < sig.Params().Len() && i < len(c.expr.Args); i++ {
		if s, ok := sig.Params().At(i).Type().(*types.Slice); ok && types.Identical(s.Elem(), types.Typ[types.Byte]) {
			data = c.expr.Args[i]
		}
	}
	if data == nil {
		return false
	}
	vals := (&flowEngine{a: a}).values(fb, data)
	for _, v := range vals {
		if v.param >= 0 {
			continue
		}
		ce, ok := ast.Unparen(v.e).(*ast.CallExpr)
		if !ok || len(ce.Args) != 1 {
			return false
		}
		if m := a.makeCall(v.b.info, ce, nil); !m.known || m.fact.Role != RoleFormat {
			// Not marshalled (a formatter of the knowledge table).
			return false
		}
		id, ok := ast.Unparen(ce.Args[0]).(*ast.Ident)
		if !ok || v.b.paramIndex(varOf(v.b.info, id)) < 0 {
			return false
		}
	}
	return len(vals) > 0
}

// ownerRef cites the first owner reference made in fns whose owner is the
// primary object (or may be): the children the reconcile makes are then
// removed with it by garbage collection. Another controller's owner
// references, and those naming another owner, are not this one's.
func (a *analysis) ownerRef(fns []*ssa.Function, kind *types.Named) *Site {
	for _, fn := range fns {
		info := a.infoAt(posOf(fn))
		if info == nil {
			continue
		}
		for _, c := range a.callsIn(fn) {
			if c.known && c.fact.Role == RoleOwnerRef && ofKind(info, c.arg(c.fact.Obj), kind) {
				s := a.site(c.expr.Lparen)
				return &s
			}
		}
	}
	return nil
}

// helperCalls follows a finalizer that is a parameter of the function that
// adds, removes or tests it to the calls of that function in fns, with the
// value each passes.
func (a *analysis) helperCalls(fns []*ssa.Function, op finOp) []finOp {
	id, ok := ast.Unparen(op.value).(*ast.Ident)
	if !ok || op.value == nil {
		return nil
	}
	v, ok := op.info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	index := -1
	params := op.in.Signature.Params()
	for i := 0; i < params.Len(); i++ {
		if params.At(i) == v {
			index = i
		}
	}
	if index < 0 {
		return nil
	}
	var out []finOp
	for _, fn := range fns {
		for _, c := range a.callsIn(fn) {
			if !slices.Contains(c.own, op.in) || c.arg(index) == nil {
				continue
			}
			out = append(out, finOp{pos: c.expr.Lparen, value: c.arg(index), info: a.infoAt(c.expr.Pos()), in: fn})
		}
	}
	return out
}

// ofKind reports whether the object an expression holds may be of the
// primary type: it is, or embeds it (a wrapper, struct{ *v1.Workspace;
// Config }, whose finalizers are the object's), or its type is an
// interface (client.Object), or the primary type is not known.
func ofKind(info *types.Info, e ast.Expr, kind *types.Named) bool {
	if kind == nil || e == nil {
		return true
	}
	t := info.TypeOf(e)
	if t == nil || types.IsInterface(t) {
		return true
	}
	n, ok := deref(t).(*types.Named)
	if !ok {
		return true
	}
	if typeKey(n) == typeObjectMeta {
		// obj.ObjectMeta.Finalizers: the ObjectMeta's holder.
		if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
			return ofKind(info, sel.X, kind)
		}
		return true
	}
	return embedsKind(n, kind, 0)
}

// none is a finalizer row's none: from a complete search when the
// reconcile path neither changes nor tests a finalizer.
func (o *finalizerOps) none(reason string) Row {
	switch {
	case len(o.unsettled) > 0:
		return none("not settled: " + strings.Join(o.unsettled, "; ") + "; without them: " + reason)
	case o.absent():
		return noneAfter(reason, o.searched)
	}
	return none(reason)
}

// finalizerAddRow cites every addition of a finalizer, and the calls of a
// helper that adds the finalizer it is given as supporting sites. An
// addition in a generated file supports the tree's own when it has one
// (a generated defaulter adding the finalizer the reconciler adds too).
func finalizerAddRow(p *pass) Row {
	ops := p.finalizers()
	adds := slices.Clone(ops.adds)
	slices.SortStableFunc(adds, func(x, y finOp) int {
		switch gx, gy := p.a.generatedAt(x.pos), p.a.generatedAt(y.pos); {
		case gx == gy:
			return 0
		case gy:
			return -1
		}
		return 1
	})
	var sites, calls []Site
	for _, op := range adds {
		sites = append(sites, p.a.site(op.pos))
		for _, c := range op.calls {
			s := p.a.site(c.pos)
			s.Note = "calls the helper that adds the finalizer"
			calls = append(calls, s)
		}
	}
	if removes := slices.DeleteFunc(slices.Clone(ops.removes), p.atEntryTop); len(sites) == 0 && len(removes) > 0 {
		if add, ok := p.addedOffPath(); ok {
			// Added by another component of the tree (a defaulting
			// webhook) at one site, removed on the reconcile path.
			s := p.a.site(add.pos)
			s.Note = fmt.Sprintf("added off the reconcile path, in %s: the reconcile path only removes it", p.a.funcName(add.in))
			return rowOf([]Site{s}, "")
		}
		// A finalizer removed that nothing is seen to add: the search
		// missed the addition (a shape it does not read, a path it does
		// not follow), or another component adds it. No proof either
		// way. (A removal made at the top of the entry's body, on every
		// pass, drops a finalizer an older version added.)
		s := p.a.site(removes[0].pos)
		return ops.none(fmt.Sprintf("not settled: the finalizer is removed at %s:%d, but no addition of it is found on the reconcile path: it is made in a way ctrlcmp does not read, or by another component", s.File, s.Line))
	}
	if len(sites) == 0 {
		return ops.none(ops.noFinalizer)
	}
	row := rowOf(sites, "")
	row.Sites = append(row.Sites, calls...)
	return row
}

// atEntryTop reports whether a change of a finalizer list is a statement of
// the entry's body itself, outside any if, loop or closure, that a pass of
// an object not being deleted runs: no if before it returns on a test of
// the deletion timestamp (if obj.DeletionTimestamp == nil { return }
// leaves the rest of the body to the deletion).
func (p *pass) atEntryTop(op finOp) bool {
	b := body(p.f.entry)
	if op.in != p.f.entry || b == nil {
		return false
	}
	info := p.a.infoAt(b.Pos())
	for _, st := range b.List {
		if st.Pos() <= op.pos && op.pos < st.End() {
			_, expr := st.(*ast.ExprStmt)
			_, assign := st.(*ast.AssignStmt)
			return expr || assign
		}
		if is, ok := st.(*ast.IfStmt); ok && p.a.deletionTest(info, is.Cond, p.kind()) != 0 && holdsReturn(is.Body) {
			return false
		}
	}
	return false
}

// localInit returns the one value a local variable of fn (or of the
// function holding the closure fn is) is ever given, when the variable is
// given exactly one, in its declaration or one assignment, and its
// address is never taken: the local then holds that value wherever it is
// read. ok is false for anything else (a parameter, a package variable, a
// local written twice, in a loop's range or through a pointer).
func localInit(fn *ssa.Function, info *types.Info, e ast.Expr) (ast.Expr, bool) {
	id, isIdent := ast.Unparen(e).(*ast.Ident)
	if !isIdent || fn == nil || info == nil {
		return nil, false
	}
	v, isVar := info.Uses[id].(*types.Var)
	if !isVar || v.IsField() || v.Pkg() == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil, false
	}
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	b := body(fn)
	if b == nil || v.Pos() < b.Pos() || v.Pos() >= b.End() {
		return nil, false // a parameter or a result, handed in
	}
	var init ast.Expr
	writes := 0
	is := func(x ast.Expr) bool {
		xi, ok := ast.Unparen(x).(*ast.Ident)
		return ok && (info.Defs[xi] == v || info.Uses[xi] == v)
	}
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if !is(lhs) {
					continue
				}
				writes++
				if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) {
					init = n.Rhs[i]
				} else {
					init = nil
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] != v {
					continue
				}
				writes++
				if len(n.Values) == len(n.Names) {
					init = n.Values[i]
				} else {
					writes++ // the zero value, then perhaps another
				}
			}
		case *ast.IncDecStmt:
			if is(n.X) {
				writes += 2
			}
		case *ast.RangeStmt:
			if (n.Key != nil && is(n.Key)) || (n.Value != nil && is(n.Value)) {
				writes += 2
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && is(n.X) {
				writes += 2
			}
		}
		return true
	})
	if writes != 1 || init == nil {
		return nil, false
	}
	return init, true
}
