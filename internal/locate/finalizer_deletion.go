package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// Deletion tests: a condition that holds when the primary object is being
// deleted. Besides the timestamp's own tests it may be a local boolean
// defined from one, an && or || holding one, or a call of a predicate
// whose body decides it (isOrphaned(obj), a method IsBeingDeleted() of
// the object's type, reached through an interface by the primary type).

// deletionTest says whether cond holds when the object is being deleted
// (1), when it is not (-1), or does not test the deletion timestamp (0).
func (a *analysis) deletionTest(info *types.Info, cond ast.Expr, kind *types.Named) int {
	return a.deletionTestIn(info, cond, kind, 0)
}

// impliesDeletion reports whether cond, when it evaluates to holds, implies
// that the object is being deleted: a deletion test, an && with one among
// its operands, an || whose operands all are (each read with the sign a !
// gives it).
func (a *analysis) impliesDeletion(info *types.Info, cond ast.Expr, holds bool, kind *types.Named) bool {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return a.impliesDeletion(info, e.X, !holds, kind)
		}
	case *ast.BinaryExpr:
		if e.Op == token.LAND || e.Op == token.LOR {
			x, y := a.impliesDeletion(info, e.X, holds, kind), a.impliesDeletion(info, e.Y, holds, kind)
			if (e.Op == token.LAND) == holds {
				// Both operands take the value: either one decides.
				return x || y
			}
			return x && y
		}
	case *ast.Ident:
		if v := a.definedOnce(info, e); v != nil {
			return a.impliesDeletion(info, v, holds, kind)
		}
	}
	t := a.deletionTest(info, cond, kind)
	return holds && t == 1 || !holds && t == -1
}

// deletionOnOtherKind reports whether every deletion test of cond is about
// an object of a concrete kind other than the primary's (the holder of
// the DeletionTimestamp it reads, or the object arguments of the
// predicate it calls): a branch on that object's deletion, not the
// primary's. A test whose object's kind is not known (an interface) may be
// the primary's.
func (a *analysis) deletionOnOtherKind(info *types.Info, cond ast.Expr, kind *types.Named) bool {
	if kind == nil {
		return false
	}
	other, mine := false, false
	subject := func(e ast.Expr) {
		switch t := holderType(info, e); {
		case isKind(t, kind):
			mine = true
		case t != nil && IsObjectPointer(types.NewPointer(deref(t))) && !types.IsInterface(t):
			other = true
		default:
			mine = true
		}
	}
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if fieldOf(info, n) == fieldDeletionTimestamp {
				subject(n.X)
				return false
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && a.isDeletionTimestamp(info, n) {
				subject(sel.X)
				return false
			}
			if a.deletionTest(info, n, kind) == 0 {
				return true
			}
			objects := 0
			for _, arg := range n.Args {
				if t := info.TypeOf(arg); t != nil && (types.IsInterface(t) || IsObjectPointer(types.NewPointer(deref(t)))) {
					objects++
					subject(arg)
				}
			}
			if objects == 0 {
				mine = true
			}
			return false
		}
		return true
	})
	return other && !mine
}

// holderType is the type of the object e holds, looking through its
// ObjectMeta (obj.ObjectMeta is obj's).
func holderType(info *types.Info, e ast.Expr) types.Type {
	if typeKey(info.TypeOf(e)) == typeObjectMeta {
		if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
			return holderType(info, sel.X)
		}
	}
	return info.TypeOf(e)
}

// deletionPredicateDepth bounds how many predicates deep a deletion test
// is followed.
const deletionPredicateDepth = 2

// deletionTestIn is deletionTest, depth predicates deep.
func (a *analysis) deletionTestIn(info *types.Info, cond ast.Expr, kind *types.Named, depth int) int {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			t := a.deletionTestIn(info, e.X, kind, depth)
			if t == 1 && a.walkedPredicate(info, e.X) {
				// A predicate that holds while the object is being
				// deleted, among other times (managed(obj), true on
				// deletion until a cleanup is marked done): its negation
				// says nothing of the deletion.
				return 0
			}
			return -t
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			// && holds only when the object is being deleted; || holds
			// then, among other times.
			if a.deletionTestIn(info, e.X, kind, depth) == 1 || a.deletionTestIn(info, e.Y, kind, depth) == 1 {
				return 1
			}
		case token.NEQ, token.EQL:
			sign := 1
			if e.Op == token.EQL {
				sign = -1
			}
			if a.isDeletionTimestamp(info, e.X) && isNil(info, e.Y) || a.isDeletionTimestamp(info, e.Y) && isNil(info, e.X) {
				return sign
			}
		}
	case *ast.Ident:
		if v := a.definedOnce(info, e); v != nil {
			return a.deletionTestIn(info, v, kind, depth)
		}
		if depth < deletionPredicateDepth {
			return a.deletionParam(info, e, kind, depth)
		}
	case *ast.CallExpr:
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if c := a.makeCall(info, e, nil); ok && c.known && c.fact.Role == RoleTimeIsZero && a.isDeletionTimestamp(info, sel.X) {
			return -1
		}
		if depth < deletionPredicateDepth {
			return a.deletionPredicate(info, e, kind, depth)
		}
	}
	return 0
}

// deletionParam reads a boolean parameter as the deletion test its callers
// hand it (Sync(ctx, obj, deleting(obj), …)): the test every call of its
// function passes for it, when they all pass one and the same way.
func (a *analysis) deletionParam(info *types.Info, id *ast.Ident, kind *types.Named, depth int) int {
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() || !isBool(v.Type()) {
		return 0
	}
	fn := a.declaringFunc(v)
	if fn == nil {
		return 0
	}
	index := -1
	params := fn.Signature.Params()
	for i := 0; i < params.Len(); i++ {
		if params.At(i) == v {
			index = i
		}
	}
	if index < 0 {
		return 0
	}
	sign := 0
	for _, e := range a.prog.CallsInto(fn) {
		cinfo := a.infoAt(posOf(e.Caller.Func))
		if cinfo == nil {
			return 0
		}
		for _, c := range a.callsIn(e.Caller.Func) {
			if !slices.Contains(c.own, fn) {
				continue
			}
			t := a.deletionTestIn(cinfo, c.arg(index), kind, depth+1)
			if t == 0 || sign != 0 && t != sign {
				return 0
			}
			sign = t
		}
	}
	return sign
}

// declaringFunc is the function of the tree whose declaration declares a
// parameter (not a closure's), or nil.
func (a *analysis) declaringFunc(v *types.Var) *ssa.Function {
	fi, ok := a.fileAt(v.Pos())
	if !ok {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(fi.file, v.Pos(), v.Pos())
	for _, n := range path {
		switch d := n.(type) {
		case *ast.FuncLit:
			return nil
		case *ast.FuncDecl:
			info := a.infoAt(d.Pos())
			if info == nil {
				return nil
			}
			obj, ok := info.Defs[d.Name].(*types.Func)
			if !ok {
				return nil
			}
			return a.prog.Func(obj)
		}
	}
	return nil
}

// liveList is fn's statement list as a pass of a live object runs it:
// where the list goes on to its deletion path after an if that returns
// unless the object is being deleted (`if obj.DeletionTimestamp.IsZero()
// { …; return }`, its else, if any, the deletion's; the statements after
// it run only on deletion), the pass runs the statements before that if, then its body,
// read the same way. A body whose own statements (its ifs aside: adding
// the finalizer when it is missing is done once) only log and return
// success is no pass of its own: a controller that acts only on deletion
// does its work after it. Any other list is run as written.
func (a *analysis) liveList(info *types.Info, fn *ssa.Function, list []ast.Stmt, kind *types.Named) []ast.Stmt {
	for i, st := range list {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || i+1 == len(list) && ifs.Else == nil || ifs.Init != nil || !returns(ifs.Body) || !a.impliesDeletion(info, ifs.Cond, false, kind) || a.idleBranch(info, fn, unconditional(ifs.Body.List), 0) {
			continue
		}
		live := append(slices.Clone(list[:i]), ifs.Body.List...)
		return a.liveList(info, fn, live, kind)
	}
	return list
}

// unconditional is a statement list without its if statements, but for
// their init statements, which run whatever the test (`if err =
// r.apply(…); err != nil { … }` does the work).
func unconditional(list []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	for _, st := range list {
		ifs, ok := st.(*ast.IfStmt)
		switch {
		case !ok:
			out = append(out, st)
		case ifs.Init != nil:
			out = append(out, ifs.Init)
		}
	}
	return out
}

// returns reports whether a block ends in a return.
func returns(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	_, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	return ok
}

// isConstBool reports whether e is the boolean constant want.
func isConstBool(info *types.Info, e ast.Expr, want bool) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value) == want
}

// definedOnce is the value a local boolean variable is defined with
// (finished := !obj.DeletionTimestamp.IsZero() || …) when the function
// declaring it assigns it nowhere else, else the value of the assignment
// that reaches the use (reachingDefinition), or nil.
func (a *analysis) definedOnce(info *types.Info, id *ast.Ident) ast.Expr {
	if v, ok := info.Uses[id].(*types.Var); !ok || !isBool(v.Type()) {
		return nil
	}
	if e := a.soleDefinition(info, id); e != nil {
		return e
	}
	return a.reachingDefinition(info, id)
}

// soleDefinition is the value a local variable is defined with (at :=
// fmt.Sprintf(…)) when the function declaring it assigns it nowhere else,
// or nil.
func (a *analysis) soleDefinition(info *types.Info, id *ast.Ident) ast.Expr {
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return nil
	}
	fi, ok := a.fileAt(v.Pos())
	if !ok {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(fi.file, v.Pos(), v.Pos())
	fnBody := innermostBody(path)
	if fnBody == nil {
		return nil
	}
	var value ast.Expr
	stores := 0
	ast.Inspect(fnBody, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			lid, ok := ast.Unparen(l).(*ast.Ident)
			if !ok || (info.Defs[lid] != v && info.Uses[lid] != v) {
				continue
			}
			stores++
			if len(as.Lhs) == len(as.Rhs) && as.Tok == token.DEFINE {
				value = as.Rhs[i]
			}
		}
		return true
	})
	if stores != 1 {
		return nil
	}
	return value
}

// implementationsFor narrows the functions a call may run (the
// implementations of an interface method) to those that can run for the
// primary type: the ones that convert their object to it, else the ones
// that convert it to no API object type (they serve every kind).
func (a *analysis) implementationsFor(own []*ssa.Function, kind *types.Named) []*ssa.Function {
	if len(own) < 2 || kind == nil {
		return own
	}
	var forKind, generic []*ssa.Function
	for _, fn := range own {
		kinds := a.assertedKinds(fn)
		switch {
		case kinds[typeKey(kind)]:
			forKind = append(forKind, fn)
		case len(kinds) == 0:
			generic = append(generic, fn)
		}
	}
	if len(forKind) > 0 {
		return forKind
	}
	return generic
}

// assertedKinds are the API object types a function's body converts a
// value to (a type assertion or a type switch's case), by type key.
func (a *analysis) assertedKinds(fn *ssa.Function) map[string]bool {
	kinds := map[string]bool{}
	b := body(fn)
	if b == nil {
		return kinds
	}
	info := a.infoAt(b.Pos())
	if info == nil {
		return kinds
	}
	note := func(e ast.Expr) {
		t := info.TypeOf(e)
		if t == nil {
			return
		}
		if _, ok := types.Unalias(t).(*types.Pointer); !ok {
			t = types.NewPointer(t)
		}
		if IsObjectPointer(t) {
			kinds[typeKey(deref(t))] = true
		}
	}
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			if n.Type != nil {
				note(n.Type)
			}
		case *ast.TypeSwitchStmt:
			for _, s := range n.Body.List {
				for _, e := range s.(*ast.CaseClause).List {
					note(e)
				}
			}
		}
		return true
	})
	return kinds
}

// noFinalizerGuards is the note of a cleanup run on a deletion branch no
// finalizer guards.
const noFinalizerGuards = "no finalizer guards this branch: the object may be gone before it runs"

// unguardedCleanup is, for a controller that keeps no finalizer, the first
// branch on the primary object's own deletion timestamp that runs a
// function of the tree handed the object or deleting objects (a single
// one, or the one the primary type decides), or nil. A branch on a child's deletion is not the primary's.
func (a *analysis) unguardedCleanup(reach *callgraph.Reach, kind *types.Named) *cleanup {
	if kind == nil {
		return nil
	}
	var unsettled *cleanup
	for _, fn := range reach.Funcs() {
		b := body(fn)
		if b == nil {
			continue
		}
		info := a.infoAt(b.Pos())
		for _, d := range a.deletionBranches(info, b, kind) {
			if !a.deletionOnKind(info, d.cond, kind) {
				continue
			}
			c, _ := a.cleanupOf(reach, fn, info, d, kind, nil)
			if c.inline {
				continue
			}
			if c.unsettled != "" {
				if unsettled == nil {
					unsettled = c
				}
				continue
			}
			c.sites[0].Note = noFinalizerGuards
			return c
		}
	}
	return unsettled
}

// deletionOnKind reports whether a deletion test is about an object of the
// primary type: the holder of the DeletionTimestamp it reads, or an
// argument or the receiver of the predicate it calls, is one.
func (a *analysis) deletionOnKind(info *types.Info, cond ast.Expr, kind *types.Named) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if fieldOf(info, n) == fieldDeletionTimestamp && isKindHolder(info, n.X, kind) {
				found = true
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && (a.isDeletionTimestamp(info, n) || a.deletionTest(info, n, kind) != 0) && isKindHolder(info, sel.X, kind) {
				// obj.GetDeletionTimestamp(), or a deletion predicate
				// the object answers (obj.IsMarkedForDeletion()).
				found = true
			}
			for _, arg := range n.Args {
				if isKind(info.TypeOf(arg), kind) {
					found = true
				}
			}
		case *ast.Ident:
			if v := a.definedOnce(info, n); v != nil && a.deletionOnKind(info, v, kind) {
				found = true
			}
		}
		return !found
	})
	return found
}

// isKindHolder reports whether e holds an object of the primary type (or
// of a wrapper that embeds it, or is its ObjectMeta).
func isKindHolder(info *types.Info, e ast.Expr, kind *types.Named) bool {
	if typeKey(info.TypeOf(e)) == typeObjectMeta {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		return ok && isKindHolder(info, sel.X, kind)
	}
	return embedsKind(info.TypeOf(e), kind, 0)
}
