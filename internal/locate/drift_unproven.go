package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// StepUnsettled is the drift answer's one step when no comparison was
// found but the search for one was not complete: a write that could apply
// a difference, made only on some paths, whose guard was not read as a
// comparison or as anything else.
const StepUnsettled = "unsettled"

// driftUnproven is the drift answer when no comparison or drift-detecting
// apply was found. "None" is a claim that nothing compares desired state
// with the cluster before writing it; its candidates are the updates and
// patches of an object other than the primary's own state (a child, a
// Pod's status, or the primary's metadata and spec when the tree does not
// declare its kind: a labeller of Nodes applies its desired state to the
// Node) made under a test in their own function that may
// compare two values: around the write, or before it and leaving. A
// create or a delete applies no difference, a write under tests of errors,
// of existence and of the primary's own desired state only is not guarded
// by a comparison, and the finalizer's cleanup, the writes that add or
// remove the finalizer and those of generated code (a generated
// reconciler's finalizers and status) bring nothing to a desired state,
// so none of those stands against a "none". The first candidate is
// where the trail ends. With none, a write of the primary itself after a
// comparison of its status leaves the answer not settled too
// (ownStatusCompared).
func (a *analysis) driftUnproven(reach *callgraph.Reach, kind *types.Named, rows map[string]Row) []Step {
	writes := a.applyingWrites(reach, rows)
	for _, wc := range writes {
		c := wc.call
		t := writtenType(wc.info, c)
		if t == nil {
			t = a.instanceWritten(wc.info, c)
		}
		if t == nil && !writesInterface(wc.info, c) || a.writesOwnKind(wc.info, c, kind) || t != nil && isKindValue(t, kind) && a.declares(kind) {
			continue
		}
		test := a.guardOnTheWay(reach, c.in, c.expr, func(info *types.Info, b *ast.BlockStmt, e ast.Expr) bool {
			return !progressOnly(info, e) && !a.comparesItself(info, e) && (mayCompare(info, b, kind, e) || comparesState(info, b, kind, e) || a.callVerdict(info, b, kind, e) || objectsVerdict(info, b, e))
		})
		if test == nil {
			continue
		}
		s, at := a.site(c.expr.Lparen).Site, a.site(test.Pos())
		what := "an object of a type the call does not tell"
		if t != nil {
			what = "a " + typeName(t)
		}
		return []Step{{Site: applySite(s, c.in), Step: StepUnsettled,
			Note: fmt.Sprintf("not settled: the %s of %s runs only when the test at %s:%d decides, which may compare desired with live state but was not read as such a comparison; no comparison was found", wc.verb, what, at.File, at.Line)}}
	}
	if steps := a.ownStatusCompared(reach, kind, writes); steps != nil {
		return steps
	}
	return a.externalCompared(reach, kind)
}

// applyingWrites are the writes of the reached functions that can apply a
// difference to an object that exists (an update, a patch, an apply),
// leaving out events, generated code, the finalizer's cleanup and the
// writes that add or remove the finalizer.
func (a *analysis) applyingWrites(reach *callgraph.Reach, rows map[string]Row) []writeCall {
	// The functions that run outside the cleanup too: a helper both the
	// cleanup and the success path call (scale a child to zero, scale it
	// to the desired count) applies differences on the success path.
	var outside *callgraph.Reach
	if cleanup := a.cleanupFunc(reach, rows[RowFinalizerCleanup]); cleanup != nil {
		outside = a.prog.ReachableAvoiding(reach, cleanup)
	}
	var out []writeCall
	for _, wc := range a.writeCalls(reach) {
		c := wc.call
		if !slices.Contains(differenceVerbs, wc.verb) || (c.known && c.fact.Role == RoleEvent) || a.generatedAt(c.expr.Pos()) {
			continue
		}
		if outside != nil && !outside.Has(c.in) || a.persistsFinalizer(wc.info, c, rows) {
			continue
		}
		out = append(out, wc)
	}
	return out
}

// instanceWritten is the type a write of a generic function's object
// writes in the instance the reconcile reaches (client.Update(ctx, obj)
// with obj of a type parameter, in Apply[*rbacv1.ClusterRole]), or nil.
func (a *analysis) instanceWritten(info *types.Info, c call) *types.Named {
	if c.in == nil {
		return nil
	}
	for _, arg := range c.expr.Args {
		t := info.TypeOf(arg)
		if _, param := types.Unalias(deref(t)).(*types.TypeParam); !param {
			continue
		}
		if n, _ := deref(a.instanceType(c.in, deref(t))).(*types.Named); n != nil && !types.IsInterface(n) && isObjectValue(n) {
			return n
		}
	}
	return nil
}

// guardOnTheWay is the first test that compares accepts and that decides
// whether a call at node, in fn, runs: in fn and the closures it sits in,
// then in each reached caller of fn at each of its calls, breadth first
// (a helper several functions call, one after a comparison and one not,
// is guarded on the first one's way), then on the path from the entry
// (which holds the call that runs fn when the walk reached fn as a
// function value handed on). One way with such a test leaves a "none"
// unproven: the write may run only when that test finds a difference.
func (a *analysis) guardOnTheWay(reach *callgraph.Reach, fn *ssa.Function, node ast.Node, compares func(info *types.Info, b *ast.BlockStmt, e ast.Expr) bool) ast.Expr {
	test := func(info *types.Info, b *ast.BlockStmt, at ast.Node) ast.Expr {
		return testedAround(info, b, at, func(e ast.Expr) bool { return compares(info, b, e) })
	}
	type place struct {
		fn   *ssa.Function
		node ast.Node
	}
	expanded := map[*ssa.Function]bool{}
	queue := []place{{fn, node}}
	for len(queue) > 0 && len(expanded) < maxGuardCallers {
		p := queue[0]
		queue = queue[1:]
		for f, n := p.fn, p.node; f != nil; n, f = f.Syntax(), f.Parent() {
			if b := body(f); b != nil && n != nil {
				if t := test(a.infoAt(b.Pos()), b, n); t != nil {
					return t
				}
			}
			if expanded[f] {
				break
			}
			expanded[f] = true
			for _, e := range a.prog.CallsInto(f) {
				caller := e.Caller.Func
				if e.Site == nil || !reach.Has(caller) {
					continue
				}
				if b := body(caller); b != nil {
					if at := siteIn(b, e.Site.Pos()); at != nil {
						queue = append(queue, place{caller, at})
					}
				}
			}
		}
	}
	return a.testOnTheWay(reach.Path(fn), fn, node, test)
}

// maxGuardCallers bounds the functions whose callers guardOnTheWay visits:
// the nearest tests decide, and a helper every controller calls would
// otherwise take the search through the whole tree.
const maxGuardCallers = 64

// testOnTheWay is the first test that test finds around a call at node in
// fn, then in each function on the way to it along path (the edges from
// the entry to fn): the closures fn sits in, and each caller at its call,
// nearest first.
func (a *analysis) testOnTheWay(path []*callgraph.Edge, fn *ssa.Function, node ast.Node, test func(info *types.Info, b *ast.BlockStmt, at ast.Node) ast.Expr) ast.Expr {
	for i := len(path); ; i-- {
		var callee *ssa.Function
		if i > 0 {
			callee = path[i-1].Callee.Func
		}
		for {
			if b := body(fn); b != nil && node != nil {
				if t := test(a.infoAt(b.Pos()), b, node); t != nil {
					return t
				}
			}
			if fn == callee || fn.Parent() == nil {
				break
			}
			node, fn = fn.Syntax(), fn.Parent()
		}
		if i == 0 || fn != callee {
			return nil
		}
		e := path[i-1]
		fn, node = e.Caller.Func, nil
		if b := body(fn); b != nil {
			node = siteIn(b, e.Site.Pos())
		}
		if node == nil {
			return nil
		}
	}
}

// siteIn is the call, go or defer statement of a body that the call graph
// places at pos, or nil.
func siteIn(b *ast.BlockStmt, pos token.Pos) ast.Node {
	var out ast.Node
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if n.Lparen == pos {
				out = n
			}
		case *ast.GoStmt, *ast.DeferStmt:
			if n.Pos() == pos {
				out = n
			}
		}
		return out == nil
	})
	return out
}

// declares reports whether the tree declares a kind: its Spec is then the
// desired state, which a write of the object itself does not apply.
func (a *analysis) declares(kind *types.Named) bool {
	if kind == nil {
		return false
	}
	_, own := a.fileAt(kind.Obj().Pos())
	return own
}

// cleanupFunc is the reached function the finalizer-cleanup row cites as
// its primary site, at its declaration, or nil: the row's other sites (the
// branch on DeletionTimestamp, in the function that also does the
// reconcile's work) and a cleanup written inline say nothing of which
// writes are the cleanup's.
func (a *analysis) cleanupFunc(reach *callgraph.Reach, cleanup Row) *ssa.Function {
	primary, ok := cleanup.Primary()
	if !ok {
		return nil
	}
	for _, fn := range reach.Funcs() {
		if fn.Syntax() == nil || fn.Parent() != nil {
			continue
		}
		if fs := a.funcSite(fn); fs.File == primary.File && fs.Line == primary.Line {
			return fn
		}
	}
	return nil
}

// persistsFinalizer reports whether a write persists a change of the
// finalizers: it is a site of the finalizer-add or -remove row, or a
// statement before it in its blocks, or the condition of an if around
// it, makes a call that is such a site or runs the function holding one
// (removeFinalizer(obj, f); return r.Update(ctx, obj)).
func (a *analysis) persistsFinalizer(info *types.Info, c call, rows map[string]Row) bool {
	type line struct {
		file string
		at   int
	}
	var sites []line
	for _, r := range []Row{rows[RowFinalizerAdd], rows[RowFinalizerRemove]} {
		for _, s := range r.Sites {
			sites = append(sites, line{s.File, s.Line})
		}
	}
	// holds reports whether a site lies in [from, to] of one file.
	holds := func(from, to token.Pos) bool {
		f, t := a.site(from).Site, a.site(to).Site
		return slices.ContainsFunc(sites, func(l line) bool { return l.file == f.File && f.Line <= l.at && l.at <= t.Line })
	}
	touches := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			if ce, ok := n.(*ast.CallExpr); ok && !found {
				found = holds(ce.Lparen, ce.Lparen)
				if fn, _ := typeutil.Callee(info, ce).(*types.Func); fn != nil && !found {
					if d := a.decls[fn.Origin()]; d != nil {
						found = holds(d.Pos(), d.End())
					}
				}
			}
			return !found
		})
		return found
	}
	if touches(c.expr) {
		return true
	}
	b := body(c.in)
	if b == nil {
		return false
	}
	parents := parentsIn(b)
	for n, p := ast.Node(c.expr), parents[c.expr]; p != nil; n, p = p, parents[p] {
		switch p := p.(type) {
		case *ast.IfStmt:
			if p.Cond != n && touches(p.Cond) {
				return true
			}
		case *ast.BlockStmt:
			for _, st := range p.List {
				if st == n {
					break
				}
				if touches(st) {
					return true
				}
			}
		}
	}
	return false
}

// differenceVerbs are the verbs of a write that can apply a difference to
// an object that exists.
var differenceVerbs = []string{verbUpdate, verbPatch, verbApply, verbCreateOrUpdate, verbCreateOrPatch}

// testedAround is the first test in the write's own function that may
// compare something (mayCompare says which do) and that decides whether
// the write runs: the condition
// of an if (or the tag of a switch) around it, or of an if before it that
// leaves the function or the loop's turn. A test of an error, of nil, or a
// predicate called on one value is not such a test: those say whether
// something failed or exists, not whether two states differ.
func testedAround(info *types.Info, b *ast.BlockStmt, at ast.Node, mayCompare func(ast.Expr) bool) ast.Expr {
	parents := parentsIn(b)
	for n, p := at, parents[at]; p != nil; n, p = p, parents[p] {
		switch p := p.(type) {
		case *ast.IfStmt:
			if (n == p.Body || n == p.Else) && mayCompare(p.Cond) {
				return p.Cond
			}
		case *ast.CaseClause:
			if sw, ok := parents[parents[p]].(*ast.SwitchStmt); ok && sw.Tag != nil && mayCompare(sw.Tag) {
				return sw.Tag
			}
			for _, e := range p.List {
				if mayCompare(e) {
					return e
				}
			}
		case *ast.BlockStmt:
			for _, st := range p.List {
				if st == n {
					break
				}
				if ifs, ok := st.(*ast.IfStmt); ok && leaves(info, ifs.Body) && mayCompare(ifs.Cond) {
					return ifs.Cond
				}
			}
		}
	}
	return nil
}

// mayCompare reports whether a condition holds a comparison of two values
// that are neither errors nor nil nor a zero constant (a value missing)
// nor a state test (isStateTest) nor a test of progress (testsProgress), or a call handed two values of one
// type that answers with a bool (an equality helper), where not every
// value compared is the primary object's (its desired state alone).
func mayCompare(info *types.Info, body *ast.BlockStmt, kind *types.Named, cond ast.Expr) bool {
	found := false
	own := func(es ...ast.Expr) bool {
		for _, e := range es {
			if !primaryOnly(info, body, kind, e, 0, false) {
				return false
			}
		}
		return true
	}
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			switch n.Op {
			case token.EQL, token.NEQ, token.LSS, token.GTR, token.LEQ, token.GEQ:
				if comparedValue(info, n.X) && comparedValue(info, n.Y) && !sameValue(info, n.X, n.Y) && !isZeroConst(info, ast.Unparen(n.X)) && !isZeroConst(info, ast.Unparen(n.Y)) && !own(n.X, n.Y) && !isStateTest(info, body, n) && !testsProgress(info, n) && !identityOnly(info, n.X, n.Y) {
					found = true
				}
			}
		case *ast.CallExpr:
			if t, ok := info.TypeOf(n).(*types.Basic); ok && t.Kind() == types.Bool && len(n.Args) >= 2 {
				x, y := info.TypeOf(n.Args[0]), info.TypeOf(n.Args[1])
				if x != nil && y != nil && types.Identical(x, y) && comparedValue(info, n.Args[0]) && !sameValue(info, n.Args[0], n.Args[1]) && !own(n.Args...) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// identityOnly reports whether every side of a comparison is a constant
// or an object's identity (its name, namespace or UID, an owner
// reference's field, a kind; read as it is or through a function of
// package strings: strings.ToLower(ref.Kind) == "widget", ref.Name ==
// obj.Name, gr != kuberesource.Namespaces): such a test asks which object
// this is, not whether its state is the desired one. A name compared with
// a field of another kind (a selector that should hold it) may be.
func identityOnly(info *types.Info, sides ...ast.Expr) bool {
	for _, e := range sides {
		if ce, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(ce.Args) == 1 {
			if fn, ok := typeutil.Callee(info, ce).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "strings" {
				e = ce.Args[0]
			}
		}
		if !isConst(info, e) && !readsIdentity(info, e) {
			return false
		}
	}
	return true
}

// isStateTest reports whether a comparison tests a field against a
// constant (stateTest: phase == Done, a label read through its getter),
// which the drift search reads as the state an object is in.
func isStateTest(info *types.Info, body *ast.BlockStmt, e *ast.BinaryExpr) bool {
	_, state := stateTest(info, body, e, true)
	return state || getterTested(info, e) != ""
}

// comparedValue reports whether an operand of a comparison is a value
// compared, not an error or nil.
func comparedValue(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok || tv.IsNil() || tv.Type == nil {
		return false
	}
	return !implementsError(tv.Type)
}

// primaryOnly reports whether an expression is made of constants and of
// the primary object only (its fields, its methods' results, locals the
// function assigns from those alone, two assignments deep; with filled,
// only those no call may fill: a pointer, or a value whose address is
// taken, may be read into by a Get).
func primaryOnly(info *types.Info, body *ast.BlockStmt, kind *types.Named, e ast.Expr, depth int, filled bool) bool {
	only := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !only {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			only = false
		case *ast.SelectorExpr:
			if _, isVar := info.ObjectOf(n.Sel).(*types.Var); isVar || info.Selections[n] != nil {
				only = primaryOnly(info, body, kind, n.X, depth, filled)
				return false
			}
		case *ast.Ident:
			v, isVar := info.ObjectOf(n).(*types.Var)
			switch {
			case !isVar:
			case isKindValue(v.Type(), kind):
			case depth < 2 && v.Parent() != nil && v.Parent() != v.Pkg().Scope() && !(filled && filledByCall(info, body, v)):
				rhs := assignmentsTo(info, body, v)
				only = len(rhs) > 0
				for _, r := range rhs {
					only = only && primaryOnly(info, body, kind, r, depth+1, filled)
				}
			default:
				only = false
			}
		}
		return true
	})
	return only
}

// filledByCall reports whether a local may be filled by a call rather
// than by its assignments: it is a pointer, or its address is taken.
func filledByCall(info *types.Info, body *ast.BlockStmt, v *types.Var) bool {
	if _, ok := v.Type().Underlying().(*types.Pointer); ok {
		return true
	}
	taken := false
	ast.Inspect(body, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND {
			if id, ok := ast.Unparen(u.X).(*ast.Ident); ok && info.Uses[id] == v {
				taken = true
			}
		}
		return !taken
	})
	return taken
}

// writesInterface reports whether a known write is handed its object as
// an interface (client.Object: a helper that writes whatever it is
// handed), whose type the call does not tell: a child as much as any.
func writesInterface(info *types.Info, c call) bool {
	if !c.known {
		return false
	}
	obj := c.arg(c.fact.Obj)
	return obj != nil && types.IsInterface(info.TypeOf(obj))
}

// objectsVerdict reports whether cond tests what a call makes of two
// objects of one type, where it stands or through a boolean it is assigned to
// (changed, err := differs(existing, obj); if !changed { return }): a
// verdict of a function not read, which may compare them.
func objectsVerdict(info *types.Info, body *ast.BlockStmt, cond ast.Expr) bool {
	objectLike := func(t types.Type) bool {
		if t == nil {
			return false
		}
		if types.IsInterface(t) {
			m, _, _ := types.LookupFieldOrMethod(t, false, nil, "DeepCopyObject")
			return m != nil
		}
		return isObject(t)
	}
	// Two objects of one type, or two interface values of objects (a
	// live copy and the mutated one), not two objects of different
	// kinds (a test of which owns which).
	ofObjects := func(ce *ast.CallExpr) bool {
		var ts []types.Type
		for _, arg := range ce.Args {
			if t := info.TypeOf(arg); objectLike(t) {
				ts = append(ts, t)
			}
		}
		for i := range ts {
			for j := i + 1; j < len(ts); j++ {
				if types.Identical(ts[i], ts[j]) || types.IsInterface(ts[i]) && types.IsInterface(ts[j]) {
					return true
				}
			}
		}
		return false
	}
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			found = isBoolCall(info, x) && ofObjects(x)
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && isBool(v.Type()) {
				for _, r := range assignmentsTo(info, body, v) {
					if ce, ok := ast.Unparen(r).(*ast.CallExpr); ok && ofObjects(ce) {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}
