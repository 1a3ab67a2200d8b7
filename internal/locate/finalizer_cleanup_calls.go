package locate

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// What a call on a deletion branch is, when the cleanup is looked for
// among them: the work handed to it as a value, a note (Events only), a
// removal of the finalizer alone, a predicate, a lookup, a call handing the
// object on.

// handedFunc is the tree's function a call is handed as a value (a method
// value r.cleanup, a function's name) when that function reaches a removal
// of the finalizer and the call's own functions do not remove it
// themselves: the call (a wrapper, a retry, a runner of phases) runs it,
// and it is the work. With no finalizer (no removals), the first such
// function that is not a predicate is the work.
func (a *analysis) handedFunc(info *types.Info, c call, removes []finOp) *ssa.Function {
	for _, fn := range c.own {
		if slices.ContainsFunc(removes, func(op finOp) bool { return op.in == fn }) {
			return nil
		}
	}
	for _, arg := range c.expr.Args {
		if lit, ok := ast.Unparen(arg).(*ast.FuncLit); ok {
			// func() error { return r.cleanup(ctx, obj) }: the call
			// the literal is made of.
			if inner := soleCall(lit.Body); inner != nil {
				arg = inner.Fun
			}
		}
		var obj types.Object
		switch x := ast.Unparen(arg).(type) {
		case *ast.SelectorExpr:
			if s := info.Selections[x]; s != nil && s.Kind() != types.MethodVal {
				continue
			}
			obj = info.Uses[x.Sel]
		case *ast.Ident:
			obj = info.Uses[x]
		}
		f, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		decl := a.decls[f.Origin()]
		if decl == nil {
			continue
		}
		sf := a.bySyntax[decl]
		if sf == nil {
			continue
		}
		if len(removes) == 0 {
			// No finalizer to reach: the function handed to run is
			// the work (runOn(conn, deleteRemote)), unless it is a
			// test handed to decide something (a retry's predicate).
			if r := sf.Signature.Results(); r.Len() == 1 && isBool(r.At(0).Type()) {
				continue
			}
			return sf
		}
		sub := a.prog.Reachable(sf)
		for _, op := range removes {
			if sub.Has(op.in) {
				return sf
			}
		}
	}
	return nil
}

// notesOnly reports whether a call only records Events: its functions
// return nothing, every write they reach records an Event, and they reach
// no removal of the finalizer and change none of the controller's own
// state (a helper wrapping the recorder, normalEvent(obj, "Deleting", …)).
// Such a call says that the object goes, as a log line does.
func (a *analysis) notesOnly(c call, removes []finOp) bool {
	if len(c.own) == 0 {
		return false
	}
	for _, fn := range c.own {
		if fn.Signature.Results().Len() != 0 || a.changesOwnState(fn) {
			return false
		}
	}
	sub := a.prog.Reachable(c.own...)
	if len(sub.Unanalysed) > 0 {
		return false
	}
	writes := a.writeCalls(sub)
	if len(writes) == 0 {
		return false
	}
	for _, w := range writes {
		if w.verb != VerbRecord {
			return false
		}
	}
	for _, op := range removes {
		if sub.Has(op.in) {
			return false
		}
	}
	return true
}

// removalOnly reports whether a call only removes the finalizer: each of
// its functions removes it and calls nothing but functions of the
// knowledge table, builtins (append to the list it keeps) and helpers
// that only compute a value, and what they reach writes nothing.
func (a *analysis) removalOnly(c call, removes []finOp) bool {
	return a.removalOnlyIn(c, removes, 0)
}

// removalOnlyIn is removalOnly, depth calls deep: a function that only
// calls one that only removes the finalizer (a closure wrapping it) only
// removes it too.
func (a *analysis) removalOnlyIn(c call, removes []finOp, depth int) bool {
	if depth > 2 || len(c.own) == 0 {
		return false
	}
	for _, fn := range c.own {
		removing := slices.ContainsFunc(removes, func(op finOp) bool { return op.in == fn })
		for _, cc := range a.callsIn(fn) {
			switch {
			case cc.known, runsNoFunction(a.infoAt(cc.expr.Pos()), cc.expr), a.computesOnly(cc):
			case a.removalOnlyIn(cc, removes, depth+1):
				removing = true
			default:
				return false
			}
		}
		if !removing {
			return false
		}
	}
	sub := a.prog.Reachable(c.own...)
	return len(a.writeCalls(sub)) == 0 && len(sub.Unanalysed) == 0
}

// savesOnly reports whether a call only saves the primary object: each of
// its functions calls nothing but updates or patches of a value of the
// primary type, other functions of the knowledge table, builtins, helpers
// that only compute, test or read a value, a logger's lines, and functions
// that only save the object in turn, and saves at least once, reaching no
// removal of the finalizer, all it reaches analysed. Such a call (a
// closure or a helper around the Update, the status written) records the
// deletion or persists a removal: it is not the work of a cleanup.
func (a *analysis) savesOnly(c call, kind *types.Named, removes []finOp) bool {
	return a.savesOnlyIn(c, kind, removes, 0) && !a.reachesRemoval(c, removes)
}

// removingSave reports whether a call only removes the finalizer and
// saves the object (release(ctx, obj): RemoveFinalizer, then Update).
func (a *analysis) removingSave(c call, kind *types.Named, removes []finOp) bool {
	return a.savesOnlyIn(c, kind, removes, 0) && a.reachesRemoval(c, removes)
}

// persistsRemoval reports whether what a call runs removes the finalizer
// and writes nothing but updates and patches of a value of the primary
// type, or of an interface it implements (a base reconciler's
// RemoveFinalizer(ctx, obj client.Object, name), then Update), all it
// reaches analysed: the removal persisted, not the work.
func (a *analysis) persistsRemoval(c call, kind *types.Named, removes []finOp) bool {
	if kind == nil || !a.reachesRemoval(c, removes) {
		return false
	}
	sub := a.prog.Reachable(c.own...)
	if len(sub.Unanalysed) > 0 {
		return false
	}
	for _, w := range a.writeCalls(sub) {
		if w.verb != verbUpdate && w.verb != verbPatch || w.status || !handsObject(w.info, w.call, kind) {
			return false
		}
	}
	return true
}

// reachesRemoval reports whether what a call runs removes the finalizer.
func (a *analysis) reachesRemoval(c call, removes []finOp) bool {
	sub := a.prog.Reachable(c.own...)
	return slices.ContainsFunc(removes, func(op finOp) bool { return sub.Has(op.in) })
}

// savesOnlyIn is savesOnly, depth calls deep, removals allowed.
func (a *analysis) savesOnlyIn(c call, kind *types.Named, removes []finOp, depth int) bool {
	if kind == nil || depth > 2 || len(c.own) == 0 || c.known {
		return false
	}
	for _, fn := range c.own {
		saving := false
		for _, cc := range a.callsIn(fn) {
			info := a.infoAt(cc.expr.Pos())
			if w, writes := a.writeOf(info, cc); writes {
				if w.verb != verbUpdate && w.verb != verbPatch || !passesKind(info, cc, kind) {
					return false
				}
				saving = true
				continue
			}
			switch {
			case cc.known, runsNoFunction(info, cc.expr), a.computesOnly(cc), a.removalOnly(cc, removes),
				a.predicate(cc, removes), a.lookup(cc, removes), a.logsOnly(cc), a.buildsReceiver(cc), a.marksObjectOnly(cc, kind):
			case a.savesOnlyIn(cc, kind, removes, depth+1):
				saving = true
			default:
				return false
			}
		}
		// A function a retry runs (retry.RetryOnConflict(backoff,
		// func() error { get; set; update })) is called here too.
		for _, rc := range a.runCalls(fn) {
			if !a.savesOnlyIn(call{own: []*ssa.Function{rc.fn}}, kind, removes, depth+1) {
				return false
			}
			saving = true
		}
		if !saving {
			return false
		}
	}
	return len(a.prog.Reachable(c.own...).Unanalysed) == 0
}

// logsOnly reports whether a call is a line of a logger, as onlyLogs
// reads one: a call of no library role outside the tree whose results are
// dropped, or only the receiver of the next such call
// (log.FromContext(ctx).V(1).Info(…)).
func (a *analysis) logsOnly(c call) bool {
	if c.known || len(c.own) > 0 || c.fn == nil {
		return false
	}
	path := a.path(c.expr.Pos(), c.expr.End())
	if len(path) > 1 {
		if _, ok := path[1].(*ast.ExprStmt); ok {
			return true
		}
	}
	return a.buildsReceiver(c)
}

// predicate reports whether a call only tests something: its functions
// return one bool and reach neither a write nor a removal of the
// finalizer.
func (a *analysis) predicate(c call, removes []finOp) bool {
	for _, fn := range c.own {
		if r := fn.Signature.Results(); r.Len() != 1 || !isBool(r.At(0).Type()) {
			return false
		}
	}
	return a.changesNothing(c, removes)
}

// lookup reports whether a call only reads: its functions return values
// besides an error, and reach neither a write nor a removal of the
// finalizer (all of them analysed).
func (a *analysis) lookup(c call, removes []finOp) bool {
	for _, fn := range c.own {
		res := fn.Signature.Results()
		values := 0
		for i := 0; i < res.Len(); i++ {
			if !isErrorType(res.At(i).Type()) {
				values++
			}
		}
		if values == 0 {
			return false
		}
	}
	return a.changesNothing(c, removes)
}

// changesNothing reports whether what a call runs reaches neither a write
// nor a removal of the finalizer, all of it analysed: a method of the
// tree's interface that nothing implements (a writer field's Patch) may
// write.
func (a *analysis) changesNothing(c call, removes []finOp) bool {
	if a.unresolvedOwnMethod(c) {
		return false // a method nothing in the tree implements: what it does is not read
	}
	sub := a.prog.Reachable(c.own...)
	if len(a.writeCalls(sub)) > 0 || len(sub.Unanalysed) > 0 {
		return false
	}
	for _, fn := range sub.Funcs() {
		if slices.ContainsFunc(a.callsIn(fn), a.unresolvedOwnMethod) {
			return false
		}
	}
	for _, op := range removes {
		if sub.Has(op.in) {
			return false
		}
	}
	return true
}

// handedOn reports whether a call is an argument of another call
// (status.MarkConditions(Deleting())) and only makes a value: it returns
// one, and writes nothing nor removes the finalizer (lookup). Its result is
// what the other call works with, not work of its own.
func (a *analysis) handedOn(c call, removes []finOp) bool {
	for _, n := range a.path(c.expr.Pos(), c.expr.End()) {
		switch x := n.(type) {
		case *ast.CallExpr:
			if x == c.expr {
				continue
			}
			return slices.ContainsFunc(x.Args, func(arg ast.Expr) bool { return ast.Unparen(arg) == c.expr }) && a.lookup(c, removes)
		case *ast.ParenExpr:
			continue
		}
		return false
	}
	return false
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// passesKind reports whether a call passes a value of the primary type (or
// a pointer to it).
func passesKind(info *types.Info, c call, kind *types.Named) bool {
	if kind == nil {
		return false
	}
	for _, arg := range c.expr.Args {
		if n, ok := deref(info.TypeOf(arg)).(*types.Named); ok && types.Identical(n, kind) {
			return true
		}
	}
	return false
}

// buildsReceiver reports whether a call's result is the receiver of the
// method called next (logFor(obj).Info(…)): the call makes a value for
// that call, whose work it is.
func (a *analysis) buildsReceiver(c call) bool {
	path := a.path(c.expr.Pos(), c.expr.End())
	info := a.infoAt(c.expr.Pos())
	var value ast.Expr = c.expr
	i := 1
	for ; i < len(path)-1; i++ {
		if p, paren := path[i].(*ast.ParenExpr); paren {
			value = p
			continue
		}
		// A conversion to an interface the method is called on
		// (iface(r.Status()).Update(…)).
		if cv, ok := path[i].(*ast.CallExpr); ok && info != nil && len(cv.Args) == 1 && ast.Unparen(cv.Args[0]) == ast.Unparen(value) {
			if tv, ok := info.Types[cv.Fun]; ok && tv.IsType() {
				value = cv
				continue
			}
		}
		break
	}
	if i+1 >= len(path) {
		return false
	}
	sel, ok := path[i].(*ast.SelectorExpr)
	if !ok || ast.Unparen(sel.X) != ast.Unparen(value) {
		return false
	}
	outer, ok := path[i+1].(*ast.CallExpr)
	return ok && outer.Fun == sel
}

// handsObject reports whether a call is handed a value that may be the
// primary object: of its type, or of an interface type it implements
// (client.Object).
func handsObject(info *types.Info, c call, kind *types.Named) bool {
	if kind == nil {
		return false
	}
	for _, arg := range c.expr.Args {
		t := info.TypeOf(arg)
		if t == nil {
			continue
		}
		if n, ok := deref(t).(*types.Named); ok && types.Identical(n, kind) {
			return true
		}
		if iface, ok := t.Underlying().(*types.Interface); ok && iface.NumMethods() > 0 && types.Implements(types.NewPointer(kind), iface) {
			return true
		}
	}
	return false
}

// runsNoFunction reports whether a call runs no function: a builtin
// (append, len) or a conversion.
func runsNoFunction(info *types.Info, e *ast.CallExpr) bool {
	if info == nil {
		return false
	}
	if tv, ok := info.Types[e.Fun]; ok && tv.IsType() {
		return true
	}
	id, ok := ast.Unparen(e.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	_, builtin := info.Uses[id].(*types.Builtin)
	return builtin
}

// onlyErrors reports whether fn hands back nothing but errors: a call of
// it is done for what it does, not for a value it reads.
func onlyErrors(fn *types.Func) bool {
	res := fn.Type().(*types.Signature).Results()
	for i := range res.Len() {
		if !isErrorType(res.At(i).Type()) {
			return false
		}
	}
	return true
}

// unresolvedOwnMethod reports whether a call is of a method of the tree's
// own interface that the call graph resolves to no implementation and the
// knowledge table does not know: what it does is not read.
func (a *analysis) unresolvedOwnMethod(c call) bool {
	return !c.known && c.fn != nil && len(c.own) == 0 && isInterfaceMethod(c.fn) && a.fileOwn(c.fn.Pos())
}

// keptFailure reports whether a call of one function of the tree hands
// back only an error, and its caller keeps it.
func (a *analysis) keptFailure(info *types.Info, c call) bool {
	return len(c.own) == 1 && c.fn != nil && onlyErrors(c.fn) && a.reportsFailure(info, c)
}

// reportsFailure reports whether a call hands back an error that its
// caller keeps: the call is not a statement of its own, and the error is
// not assigned to the blank identifier.
func (a *analysis) reportsFailure(info *types.Info, c call) bool {
	if !returnsError(info, c.expr) {
		return false
	}
	path := a.path(c.expr.Pos(), c.expr.End())
	for i, n := range path {
		if n != c.expr {
			continue
		}
		if i+1 >= len(path) {
			return true
		}
		switch parent := path[i+1].(type) {
		case *ast.ExprStmt:
			return false
		case *ast.AssignStmt:
			sig, _ := types.Unalias(info.TypeOf(c.expr.Fun)).Underlying().(*types.Signature)
			if sig == nil || len(parent.Rhs) != 1 || len(parent.Lhs) != sig.Results().Len() {
				return true
			}
			for j := 0; j < sig.Results().Len(); j++ {
				if id, ok := parent.Lhs[j].(*ast.Ident); isErrorType(sig.Results().At(j).Type()) && !(ok && id.Name == "_") {
					return true
				}
			}
			return false
		}
		return true
	}
	return true
}

// removesAt reports whether a call is itself a removal of the finalizer
// (a list applied without it).
func removesAt(c call, removes []finOp) bool {
	return slices.ContainsFunc(removes, func(op finOp) bool { return c.expr.Pos() <= op.pos && op.pos < c.expr.End() })
}

// callsNoWork reports whether the functions a call runs call nothing of
// the tree's but functions that run no work in turn: only the knowledge
// table's functions, builtins, helpers that compute, test or log, and the
// functions a retry runs (retry.RetryOnConflict(backoff, func() error {
// get; set; update })), read the same way. A finalizer helper written for
// every kind passes; a cleanup that hands on to the tree's work does not.
func (a *analysis) callsNoWork(c call, removes []finOp, depth int) bool {
	if depth > 2 || len(c.own) == 0 {
		return false
	}
	for _, fn := range c.own {
		for _, cc := range a.callsIn(fn) {
			info := a.infoAt(cc.expr.Pos())
			switch {
			case cc.known, runsNoFunction(info, cc.expr), a.computesOnly(cc), a.predicate(cc, removes), a.logsOnly(cc):
			case len(cc.own) == 0 && cc.fn != nil && isInterfaceMethod(cc.fn) && !onlyErrors(cc.fn):
				// A method of an interface that hands back a value
				// (obj.DeepCopyObject()): a copy, not work.
			case allClosuresOf(cc.own, fn) && a.callsNoWork(cc, removes, depth+1):
				// A closure of fn's, called there: read as fn's own.
			default:
				return false
			}
		}
		for _, rc := range a.runCalls(fn) {
			if !a.callsNoWork(call{own: []*ssa.Function{rc.fn}}, removes, depth+1) {
				return false
			}
		}
	}
	return true
}

// allClosuresOf reports whether every function of fns is a closure written
// in fn.
func allClosuresOf(fns []*ssa.Function, fn *ssa.Function) bool {
	for _, f := range fns {
		if f.Parent() == nil || !enclosedIn(f, fn) {
			return false
		}
	}
	return len(fns) > 0
}
