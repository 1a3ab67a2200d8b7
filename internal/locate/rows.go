package locate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
)

// Locate finds every controller of a loaded tree and answers its rows.
func Locate(tree *load.Tree, prog *callgraph.Program, c *cite.Citer) []Controller {
	a := newAnalysis(tree, prog, c)
	var out []Controller
	for _, f := range a.findControllers() {
		out = append(out, a.rows(f))
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func (a *analysis) rows(f *found) Controller {
	reach := a.prog.Reachable(f.entry)
	rows := map[string]Row{}

	entry := a.funcSite(f.entry)
	entry.Primary = true
	rows[RowEntry] = Row{Sites: append([]Site{entry}, f.registration...)}

	reread, kind, readPos := a.reread(f, reach)
	f.rereadPos = readPos
	rows[RowReread] = reread
	if f.kind == nil {
		f.kind = kind
	}

	fin := a.finalizers(f, reach)
	rows[RowFinalizerConst] = fin.constant
	rows[RowFinalizerAdd] = fin.add
	rows[RowFinalizerCleanup] = fin.cleanup
	rows[RowFinalizerRemove] = fin.remove
	rows[RowConditionTypes] = a.conditionTypes(f, reach)
	if f.style == StyleClientGo {
		rows[RowRequeueError], rows[RowRequeueSuccess] = a.queueRequeues(f, reach)
	} else {
		rows[RowRequeueError], rows[RowRequeueSuccess] = a.resultRequeues(f)
	}
	kindName := ""
	if f.kind != nil {
		kindName = f.kind.Obj().Name()
	}
	normal := a.normalReturns(f, reach, f.successPos, f.rereadPos)
	writes := a.writes(f, reach, normal)
	if writes == nil {
		writes = []Write{}
	}
	if len(reach.Unanalysed) > 0 {
		// A function on the reconcile path could not be analysed: no row
		// it might answer can be said to have no answer.
		var names []string
		for _, fn := range reach.Unanalysed {
			names = append(names, cite.ObjectName(fn.Object().(*types.Func)))
		}
		for id, r := range rows {
			if !hasPrimary(r.Sites) {
				r.None = fmt.Sprintf("not settled: %s, on the reconcile path, could not be analysed (type errors; see the warnings) and may hold the answer; without it: %s", strings.Join(names, ", "), r.None)
				rows[id] = r
			}
		}
	}
	ctrl := Controller{Name: f.name, Kind: kindName, Style: f.style, Rows: rows, Writes: writes}
	if f.success != nil {
		ctrl.IntervalTrace = a.intervalTrace(f.kind, f.success.in, f.success.at, f.success.duration)
	}
	if f.retry != nil {
		ctrl.RetryTrace = a.intervalTrace(f.kind, f.retry.in, f.retry.at, f.retry.duration)
	}
	ctrl.Drift = a.drift(reach)
	if ctrl.Drift == nil {
		ctrl.Drift = []Step{}
	}
	return a.withStages(f, reach, writes, ctrl)
}

// keyVars returns the variables of fn that carry the request's key: the
// entry's key parameters (and what is computed from them), or, in a helper,
// every parameter but the context.
func (a *analysis) keyVars(f *found, fn *ssa.Function) map[*types.Var]bool {
	vars := map[*types.Var]bool{}
	if fn == f.entry {
		for v := range f.keyParams {
			vars[v] = true
		}
	} else {
		for _, p := range fn.Params {
			if v, ok := p.Object().(*types.Var); ok && typeKey(v.Type()) != "context.Context" {
				vars[v] = true
			}
		}
	}
	if b := body(fn); b != nil {
		taint(a.infoAt(b.Pos()), b, vars)
	}
	return vars
}

// reread finds the Get of the primary object by the request's key: a
// client.Reader Get, a lister Get(name) or a clientset Get(ctx, name, opts).
func (a *analysis) reread(f *found, reach *callgraph.Reach) (Row, *types.Named, token.Pos) {
	for _, fn := range reach.Funcs() {
		info := a.infoAt(posOf(fn))
		if info == nil {
			continue
		}
		vars := a.keyVars(f, fn)
		for _, c := range a.callsIn(fn) {
			key, obj := a.readShape(info, c)
			if key == nil || !mentions(info, key, vars) {
				continue
			}
			n, ok := deref(obj).(*types.Named)
			if !ok || (f.kind != nil && !types.Identical(n, f.kind)) {
				continue
			}
			s := a.site(c.expr.Lparen)
			s.Primary = true
			return Row{Sites: []Site{s}}, n, c.expr.Lparen
		}
	}
	return none("no Get of the primary object by the request's key is reachable from the entry"), nil, token.NoPos
}

// readShape returns the key argument and the object type of a read: from the
// knowledge table, or by the shape generated listers and clientsets share.
func (a *analysis) readShape(info *types.Info, c call) (ast.Expr, types.Type) {
	if c.known && c.fact.Role == RoleRead {
		if o := c.arg(c.fact.Obj); o != nil {
			return c.arg(c.fact.Key), info.TypeOf(o)
		}
		return nil, nil
	}
	if c.fn == nil || c.fn.Name() != generatedGetMethod || c.fn.Type().(*types.Signature).Recv() == nil {
		return nil, nil
	}
	// The signature as instantiated at the call (a generic lister's T).
	sig, ok := info.TypeOf(c.expr.Fun).(*types.Signature)
	if !ok || sig.Results().Len() != 2 || !isObjectPointer(sig.Results().At(0).Type()) {
		return nil, nil
	}
	params := sig.Params()
	switch {
	case params.Len() == 1 && isString(params.At(0).Type()): // lister: Get(name)
		return c.arg(0), sig.Results().At(0).Type()
	case params.Len() == 3 && isString(params.At(1).Type()) && typeKey(params.At(2).Type()) == typeGetOptions: // clientset
		return c.arg(1), sig.Results().At(0).Type()
	}
	return nil, nil
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}

// isObjectPointer reports whether t is *T for a struct T embedding ObjectMeta.
func isObjectPointer(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Embedded() && typeKey(st.Field(i).Type()) == typeObjectMeta {
			return true
		}
	}
	return false
}

// finOp is a change of an object's finalizer list.
type finOp struct {
	pos   token.Pos
	value ast.Expr // the finalizer, when known
	info  *types.Info
	in    *ssa.Function
}

type finRows struct{ constant, add, cleanup, remove Row }

// finalizerOps lists the additions and removals of finalizers in fns.
func (a *analysis) finalizerOps(fns []*ssa.Function) (adds, removes, tests []finOp) {
	for _, fn := range fns {
		b := body(fn)
		if b == nil {
			continue
		}
		info := a.infoAt(b.Pos())
		for _, c := range a.callsIn(fn) {
			if !c.known {
				continue
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
				if v, ok := appended(info, op.value); ok {
					op.value = v
					adds = append(adds, op)
				} else {
					op.value = nil
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
				op := finOp{pos: n.Pos(), info: info, in: fn}
				if v, ok := appended(info, n.Rhs[0]); ok {
					op.value = v
					adds = append(adds, op)
				} else {
					removes = append(removes, op)
				}
			}
			return true
		})
	}
	return adds, removes, tests
}

// appended reports whether e is append(list, x...) and returns the last x.
func appended(info *types.Info, e ast.Expr) (ast.Expr, bool) {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) < 2 {
		return nil, false
	}
	id, ok := ast.Unparen(c.Fun).(*ast.Ident)
	if !ok {
		return nil, false
	}
	if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != "append" {
		return nil, false
	}
	return c.Args[len(c.Args)-1], true
}

func (a *analysis) finalizers(f *found, reach *callgraph.Reach) finRows {
	adds, removes, tests := a.finalizerOps(reach.Funcs())
	var r finRows
	noFin := "no finalizer: nothing reachable from the entry adds one"
	if refs := a.callsOf(RoleOwnerRef); len(refs) > 0 {
		noFin += fmt.Sprintf("; children are removed by garbage collection through their owner reference (%s:%d)", refs[0].File, refs[0].Line)
	}
	var addSites []Site
	for _, op := range adds {
		addSites = append(addSites, a.site(op.pos))
	}
	r.add = rowOf(addSites, noFin)

	// The constant: the first finalizer value whose identity is known.
	var values []finOp
	values = append(append(append(values, adds...), removes...), tests...)
	r.constant = none(noFin)
	for _, op := range values {
		if op.value == nil {
			continue
		}
		if k := constOf(op.info, op.value); k != nil {
			s := a.objSite(k)
			s.Primary = true
			s.Name = constant.StringVal(k.Val())
			r.constant = Row{Sites: []Site{s}}
			break
		}
		if lit, ok := ast.Unparen(op.value).(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s := a.site(lit.Pos())
			s.Primary = true
			s.Note = "a string literal: no constant declares this finalizer"
			r.constant = Row{Sites: []Site{s}}
			break
		}
	}
	if len(adds) == 0 && len(removes) == 0 && len(tests) == 0 {
		r.cleanup = none(noFin + "; no branch on DeletionTimestamp needs a cleanup")
		r.remove = none(noFin)
		return r
	}

	cleanup, branchRemoves := a.cleanup(reach, removes)
	r.cleanup = rowOf(cleanup, "no branch taken when DeletionTimestamp is set is reachable from the entry")
	if len(branchRemoves) == 0 {
		branchRemoves = removes
	}
	var rm []Site
	for _, op := range branchRemoves {
		rm = append(rm, a.site(op.pos))
	}
	r.remove = rowOf(rm, "nothing reachable from the entry removes the finalizer")
	return r
}

// callsOf cites every call, anywhere in the tree, of a library function
// with the given role (owner references made, event sinks started).
func (a *analysis) callsOf(role Role) []Site {
	var out []Site
	for _, fd := range a.ownFuncs() {
		a.allCalls(fd, func(c call) {
			if c.known && c.fact.Role == role {
				out = append(out, a.site(c.expr.Lparen))
			}
		})
	}
	return out
}

// cleanup finds the deletion branch (taken when DeletionTimestamp is set) and
// the function it runs; it returns the cleanup's sites and the removals of
// the finalizer that the cleanup reaches.
func (a *analysis) cleanup(reach *callgraph.Reach, removes []finOp) ([]Site, []finOp) {
	for _, fn := range reach.Funcs() {
		b := body(fn)
		if b == nil {
			continue
		}
		info := a.infoAt(b.Pos())
		var branch ast.Node
		var ifStmt *ast.IfStmt
		ast.Inspect(b, func(n ast.Node) bool {
			if branch != nil {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				switch a.deletionTest(info, n.Cond) {
				case 1:
					branch, ifStmt = n.Body, n
				case -1:
					if n.Else != nil {
						branch, ifStmt = n.Else, n
					}
				}
			}
			return branch == nil
		})
		if branch == nil {
			continue
		}
		ifSite := a.site(ifStmt.Pos())
		ifSite.Note = "the branch taken when DeletionTimestamp is set"
		// Removals written in the branch itself.
		var inBranch []finOp
		for _, op := range removes {
			if op.in == fn && branch.Pos() <= op.pos && op.pos < branch.End() {
				inBranch = append(inBranch, op)
			}
		}
		// The tree's functions the branch calls, the one reaching a removal first.
		var first, best *call
		var bestRemoves []finOp
		for _, c := range a.callsIn(fn) {
			c := c
			if c.expr.Pos() < branch.Pos() || c.expr.End() > branch.End() || len(c.own) == 0 || c.known {
				continue
			}
			if first == nil {
				first = &c
			}
			sub := a.prog.Reachable(c.own...)
			var reached []finOp
			for _, op := range removes {
				if sub.Has(op.in) {
					reached = append(reached, op)
				}
			}
			if len(reached) > 0 {
				best, bestRemoves = &c, reached
				break
			}
		}
		if best == nil {
			best = first
		}
		if best == nil {
			ifSite.Primary = true
			ifSite.Note = "cleanup written inline in the branch taken when DeletionTimestamp is set"
			return []Site{ifSite}, inBranch
		}
		primary := a.funcSite(best.own[0])
		primary.Primary = true
		callSite := a.site(best.expr.Lparen)
		callSite.Note = "dispatch"
		return []Site{primary, ifSite, callSite}, append(inBranch, bestRemoves...)
	}
	return nil, nil
}

// deletionTest says whether cond holds when the object is being deleted
// (1), when it is not (-1), or does not test the deletion timestamp (0).
func (a *analysis) deletionTest(info *types.Info, cond ast.Expr) int {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return -a.deletionTest(info, e.X)
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND:
			if t := a.deletionTest(info, e.X); t == 1 {
				return 1
			}
			if t := a.deletionTest(info, e.Y); t == 1 {
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
	case *ast.CallExpr:
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if c := a.makeCall(info, e, nil); ok && c.known && c.fact.Role == RoleTimeIsZero && a.isDeletionTimestamp(info, sel.X) {
			return -1
		}
	}
	return 0
}

func (a *analysis) isDeletionTimestamp(info *types.Info, e ast.Expr) bool {
	if fieldOf(info, e) == fieldDeletionTimestamp {
		return true
	}
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		cl := a.makeCall(info, c, nil)
		return cl.known && cl.fact.Role == RoleDeletionTimestamp
	}
	return false
}

func isNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}

// conditionTypes finds every condition type the controller sets on its own
// object, each cited at its constant with one set site.
func (a *analysis) conditionTypes(f *found, reach *callgraph.Reach) Row {
	type setSite struct {
		site  Site
		truth bool
	}
	decl := map[string]Site{}
	sets := map[string][]setSite{}
	var names []string
	for _, fn := range reach.Funcs() {
		info := a.infoAt(posOf(fn))
		if info == nil {
			continue
		}
		for _, c := range a.callsIn(fn) {
			if !c.known || c.fact.Role != RoleConditionSet || !a.onOwnObject(info, c.arg(c.fact.Obj), f.kind) {
				continue
			}
			name, k, truth := a.conditionType(info, c)
			if name == "" {
				continue
			}
			if _, ok := decl[name]; !ok {
				names = append(names, name)
				if k != nil {
					decl[name] = a.objSite(k)
				} else {
					s := a.site(c.expr.Lparen)
					s.Note = "a string literal: no constant declares this condition type"
					decl[name] = s
				}
			}
			sets[name] = append(sets[name], setSite{a.site(c.expr.Lparen), truth})
		}
	}
	if len(names) == 0 {
		return none("no status condition is set on the primary object on the reconcile path")
	}
	var out []Site
	for _, name := range names {
		ss := sets[name]
		sort.SliceStable(ss, func(i, j int) bool {
			if ss[i].site.File != ss[j].site.File {
				return ss[i].site.File < ss[j].site.File
			}
			return ss[i].site.Line < ss[j].site.Line
		})
		chosen := ss[0]
		for _, s := range ss {
			if s.truth {
				chosen = s
				break
			}
		}
		d := decl[name]
		d.Name = name
		set := chosen.site.Site
		d.Set = &set
		out = append(out, d)
	}
	// The summary condition (Ready, by convention) is the one set on most
	// paths: it is the primary, the others follow by name.
	sort.SliceStable(out, func(i, j int) bool {
		ni, nj := len(sets[out[i].Name]), len(sets[out[j].Name])
		if ni != nj {
			return ni > nj
		}
		return out[i].Name < out[j].Name
	})
	out[0].Primary = true
	return Row{Sites: out}
}

// onOwnObject reports whether a setter's target is the primary object (or
// its status conditions).
func (a *analysis) onOwnObject(info *types.Info, target ast.Expr, kind *types.Named) bool {
	if target == nil {
		return false
	}
	e := ast.Unparen(target)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	for {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok || info.Selections[sel] == nil {
			break
		}
		if n, ok := deref(info.TypeOf(sel.X)).(*types.Named); ok && kind != nil && types.Identical(n, kind) {
			return true
		}
		e = ast.Unparen(sel.X)
	}
	if kind == nil {
		return true
	}
	t := info.TypeOf(e)
	if t != nil && types.IsInterface(t) {
		// A helper taking any object (conditions.Setter, client.Object):
		// on this reconcile path it is handed the primary object.
		return true
	}
	n, ok := deref(t).(*types.Named)
	return ok && types.Identical(n, kind)
}

// conditionType returns the type a condition setter sets, its constant when
// one names it, and whether the setter sets it True.
func (a *analysis) conditionType(info *types.Info, c call) (string, *types.Const, bool) {
	if c.fact.Implied != "" {
		pkgPath, name := splitQualified(c.fact.Implied)
		if k := a.lookupConst(pkgPath, name); k != nil {
			return constant.StringVal(k.Val()), k, c.fact.True
		}
		return "", nil, false
	}
	arg := c.arg(c.fact.Arg)
	truth := c.fact.True
	if c.fact.ArgIsCondition {
		lit, ok := ast.Unparen(arg).(*ast.CompositeLit)
		if !ok || typeKey(info.TypeOf(lit)) != typeCondition {
			return "", nil, false
		}
		arg = nil
		for _, el := range lit.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			switch key, _ := kv.Key.(*ast.Ident); {
			case key == nil:
			case key.Name == "Type":
				arg = kv.Value
			case key.Name == "Status":
				if tv, ok := info.Types[kv.Value]; ok && tv.Value != nil && constant.StringVal(tv.Value) == conditionTrue {
					truth = true
				}
			}
		}
	}
	if arg == nil {
		return "", nil, false
	}
	tv, ok := info.Types[arg]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", nil, false
	}
	return constant.StringVal(tv.Value), constOf(info, arg), truth
}

// lookupConst finds a package-level constant among the loaded packages.
func (a *analysis) lookupConst(pkgPath, name string) *types.Const {
	for _, p := range a.tree.All {
		if p.PkgPath == pkgPath && p.Types != nil {
			k, _ := p.Types.Scope().Lookup(name).(*types.Const)
			return k
		}
	}
	return nil
}

// retSite is a return of a reconcile function, classified.
type retSite struct {
	pos   token.Pos
	class string
	in    *ssa.Function
	// interval is what names the RequeueAfter duration (a field, a
	// variable, a getter), when there is one.
	interval types.Object
	// after is the RequeueAfter expression, ret the return statement.
	after ast.Expr
	ret   ast.Node
	// opaque is a result built by an expression ctrlcmp does not follow
	// (a call of a result builder); its class is then unknown.
	opaque ast.Expr
}

type guard int

// scope is what the conditions around a return say about it.
type scope struct {
	guard guard
	// terminal says a condition tests for a TerminalError, so the error
	// returned under it is one.
	terminal bool
}

const (
	guardNone  guard = iota
	guardOther       // under a condition that tests no error
	guardError       // under a condition that tests an error
)

// resultRequeues classifies every return of the reconcile path of a
// controller-runtime reconciler, following returns that hand back a helper's
// result.
func (a *analysis) resultRequeues(f *found) (Row, Row) {
	var rets []retSite
	a.returns(f.entry, scope{}, map[*ssa.Function]bool{}, &rets)
	rets = append(rets, a.deferredResults(f.entry)...)
	// A failure path that requeues after a setting of the controller's own
	// (a field of the reconciler) that it also waits on dependencies with
	// is waiting on a dependency too; an interval of the object is a retry.
	waits := map[types.Object]bool{}
	for _, r := range rets {
		if v, ok := r.interval.(*types.Var); ok && r.class == ClassDependencyWait && v.IsField() && v.Pkg() == f.entry.Pkg.Pkg {
			waits[r.interval] = true
		}
	}
	for i := range rets {
		if rets[i].class == ClassRetryAfterFailure && waits[rets[i].interval] {
			rets[i].class = ClassDependencyWait
		}
	}

	var success *retSite
	for i := range rets {
		if rets[i].class == ClassSuccessInterval {
			f.successPos = append(f.successPos, rets[i].pos)
			if success == nil || rets[i].in == f.entry {
				success = &rets[i]
			}
		}
	}
	isFailure := func(c string) bool { return c == ClassErrorBackoff || c == ClassRetryAfterFailure }
	var primary *retSite
	for i := range rets {
		r := &rets[i]
		if !isFailure(r.class) {
			continue
		}
		switch {
		case success != nil:
			if r.in == success.in && r.pos < success.pos && (primary == nil || r.pos > primary.pos) {
				primary = r
			}
		case r.in == f.entry && (primary == nil || r.pos > primary.pos):
			primary = r
		}
	}
	var errSites []Site
	for i := range rets {
		r := &rets[i]
		if !isFailure(r.class) && r.class != ClassTerminal {
			continue
		}
		s := a.site(r.pos)
		s.Class = r.class
		if r == primary {
			s.Primary = true
		}
		errSites = append(errSites, s)
	}
	if primary == nil && len(errSites) > 0 {
		for i := range errSites {
			if errSites[i].Class != ClassTerminal {
				errSites[i].Primary = true
				break
			}
		}
	}
	errRow := Row{Sites: errSites}
	if !hasPrimary(errSites) {
		errRow = none("no failure path returns an error or a retry requeue")
		if len(errSites) > 0 {
			errRow.Sites = errSites
			errRow.None = "every failure return is terminal: nothing comes back on error"
		}
	}
	if primary != nil && primary.class == ClassRetryAfterFailure {
		f.retry = &requeue{in: primary.in, at: primary.ret, duration: primary.after}
	}
	if success == nil {
		// Prefer a result built by a call (a builder) to one merely held
		// in a variable.
		sort.SliceStable(rets, func(i, j int) bool { return isCall(rets[i].opaque) && !isCall(rets[j].opaque) })
		for _, r := range rets {
			if r.opaque != nil {
				s := a.site(r.pos)
				return errRow, none(fmt.Sprintf("not settled: the result is built by %s at %s:%d, which ctrlcmp does not follow into; read it to see whether a success requeues (no return on the paths it follows sets RequeueAfter)",
					exprText(a, callee(r.opaque)), s.File, s.Line))
			}
		}
		reason := "event-driven only: no return on the success path sets RequeueAfter, so the object is reconciled again only on watch events"
		if ps := a.syncPeriods(); len(ps) > 0 {
			reason += fmt.Sprintf(" and the cache's resync every %s (%s:%d)", ps[0].Note, ps[0].File, ps[0].Line)
		} else {
			reason += " and the cache's periodic resync (no SyncPeriod is set in the tree: controller-runtime's default applies)"
		}
		return errRow, none(reason)
	}
	f.success = &requeue{in: success.in, at: success.ret, duration: success.after}
	s := a.site(success.pos)
	s.Class = ClassSuccessInterval
	s.Primary = true
	return errRow, Row{Sites: []Site{s}}
}

func hasPrimary(ss []Site) bool {
	for _, s := range ss {
		if s.Primary {
			return true
		}
	}
	return false
}

// returns collects the classified returns of fn under a guard.
func (a *analysis) returns(fn *ssa.Function, sc scope, seen map[*ssa.Function]bool, out *[]retSite) {
	if seen[fn] {
		return
	}
	seen[fn] = true
	b := body(fn)
	if b == nil {
		return
	}
	info := a.infoAt(b.Pos())
	a.walkReturns(info, b, sc, func(r *ast.ReturnStmt, sc scope) {
		a.classifyReturn(fn, info, r, sc, seen, out)
	})
}

// walkReturns visits the returns of a body (not of its closures) with what
// the conditions around each say of it.
func (a *analysis) walkReturns(info *types.Info, b *ast.BlockStmt, sc scope, visit func(*ast.ReturnStmt, scope)) {
	under := func(sc scope, g guard, cond ast.Expr) scope {
		sc.guard = max(sc.guard, g)
		sc.terminal = sc.terminal || cond != nil && a.testsTerminal(info, cond)
		return sc
	}
	var walk func(n ast.Stmt, sc scope)
	walkList := func(list []ast.Stmt, sc scope) {
		for _, s := range list {
			walk(s, sc)
		}
	}
	walk = func(n ast.Stmt, sc scope) {
		switch s := n.(type) {
		case *ast.BlockStmt:
			walkList(s.List, sc)
		case *ast.LabeledStmt:
			walk(s.Stmt, sc)
		case *ast.IfStmt:
			cg := condGuard(info, s.Cond)
			walk(s.Body, under(sc, cg, s.Cond))
			if s.Else != nil {
				eg := guardNone
				if cg == guardOther {
					eg = guardOther
				}
				walk(s.Else, under(sc, eg, nil))
			}
		case *ast.ForStmt:
			walk(s.Body, under(sc, guardOther, nil))
		case *ast.RangeStmt:
			walk(s.Body, under(sc, guardOther, nil))
		case *ast.SwitchStmt:
			walk(s.Body, sc)
		case *ast.TypeSwitchStmt:
			walk(s.Body, sc)
		case *ast.SelectStmt:
			walk(s.Body, sc)
		case *ast.CaseClause:
			inner := under(sc, guardOther, nil)
			for _, e := range s.List {
				inner = under(inner, condGuard(info, e), e)
			}
			walkList(s.Body, inner)
		case *ast.CommClause:
			walkList(s.Body, under(sc, guardOther, nil))
		case *ast.ReturnStmt:
			visit(s, sc)
		}
	}
	walkList(b.List, sc)
}

func (a *analysis) classifyReturn(fn *ssa.Function, info *types.Info, s *ast.ReturnStmt, sc scope, seen map[*ssa.Function]bool, out *[]retSite) {
	switch len(s.Results) {
	case 1:
		if ce, ok := ast.Unparen(s.Results[0]).(*ast.CallExpr); ok {
			if c := a.makeCall(info, ce, fn); len(c.own) > 0 && !c.known {
				for _, callee := range c.own {
					a.returns(callee, sc, seen, out)
				}
			}
		}
		return
	case 2:
	default:
		return
	}
	res, errE := s.Results[0], s.Results[1]
	res = a.lastValue(fn, info, res)
	if !isResultLiteral(info, res) {
		*out = append(*out, retSite{pos: s.Pos(), in: fn, ret: s, opaque: res})
		return
	}
	errClass := "nil"
	switch {
	case isNil(info, errE):
	case a.isTerminal(info, errE) || sc.terminal:
		errClass = ClassTerminal
	default:
		errClass = "error"
	}
	requeue, afterExpr := resultFields(info, res)
	after := afterExpr != nil
	g := sc.guard
	class := ClassNone
	switch {
	case errClass == ClassTerminal:
		class = ClassTerminal
	case errClass == "error":
		class = ClassErrorBackoff
	case requeue:
		class = ClassImmediate
	case after && g == guardError:
		class = ClassRetryAfterFailure
	case after && g == guardOther:
		class = ClassDependencyWait
	case after:
		class = ClassSuccessInterval
	}
	*out = append(*out, retSite{pos: s.Pos(), class: class, in: fn, interval: namedBy(info, afterExpr), after: afterExpr, ret: s})
}

// testsTerminal reports whether a condition asks whether an error is a
// TerminalError (errors.Is(err, reconcile.TerminalError(nil))).
func (a *analysis) testsTerminal(info *types.Info, cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && a.isTerminal(info, c) {
			found = true
		}
		return !found
	})
	return found
}

// isResultLiteral reports whether e is a reconcile.Result literal.
func isResultLiteral(info *types.Info, e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	return ok && typeKey(info.TypeOf(lit)) == typeResult
}

// lastValue resolves a local variable to the value last assigned to it
// before its use (result := ctrl.Result{RequeueAfter: d}; ...; return
// result, nil); any other expression is returned as it is.
func (a *analysis) lastValue(fn *ssa.Function, info *types.Info, e ast.Expr) ast.Expr {
	id, ok := ast.Unparen(e).(*ast.Ident)
	b := body(fn)
	if !ok || b == nil {
		return e
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return e
	}
	last := e
	ast.Inspect(b, func(n ast.Node) bool {
		if n == nil || n.Pos() > id.Pos() {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if lid, ok := l.(*ast.Ident); ok && (info.Defs[lid] == v || info.Uses[lid] == v) {
						last = n.Rhs[i]
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] == v && i < len(n.Values) {
					last = n.Values[i]
				}
			}
		}
		return true
	})
	return last
}

// isTerminal reports whether an error expression is a TerminalError.
func (a *analysis) isTerminal(info *types.Info, e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	cl := a.makeCall(info, c, nil)
	return cl.known && cl.fact.Role == RoleTerminalError
}

// resultFields reads a reconcile.Result literal: Requeue true, and the
// RequeueAfter expression when it is not known to be zero.
func resultFields(info *types.Info, e ast.Expr) (requeue bool, after ast.Expr) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok || typeKey(info.TypeOf(lit)) != typeResult {
		return false, nil
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			continue
		}
		tv := info.Types[kv.Value]
		switch key.Name {
		case "Requeue":
			requeue = tv.Value == nil || constant.BoolVal(tv.Value)
		case "RequeueAfter":
			if tv.Value == nil || constant.Sign(tv.Value) > 0 {
				after = kv.Value
			}
		}
	}
	return requeue, after
}

func isCall(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.CallExpr)
	return e != nil && ok
}

// callee returns the function part of a call expression, or e.
func callee(e ast.Expr) ast.Expr {
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		return c.Fun
	}
	return e
}

// namedBy returns the object an expression ends in: the variable or field
// it reads, or the function it calls.
func namedBy(info *types.Info, e ast.Expr) types.Object {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.Uses[x]
	case *ast.SelectorExpr:
		return info.Uses[x.Sel]
	case *ast.CallExpr:
		return namedBy(info, x.Fun)
	}
	return nil
}

// condGuard says whether a condition tests an error.
func condGuard(info *types.Info, cond ast.Expr) guard {
	g := guardOther
	ast.Inspect(cond, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok {
			if t := info.TypeOf(e); t != nil && types.Identical(t, types.Universe.Lookup("error").Type()) {
				g = guardError
				return false
			}
		}
		return true
	})
	return g
}

// deferredResults classifies the values a deferred closure of the entry
// stores into its named results (retErr = ..., result = ...).
func (a *analysis) deferredResults(entry *ssa.Function) []retSite {
	fd, ok := entry.Syntax().(*ast.FuncDecl)
	if !ok || fd.Type.Results == nil {
		return nil
	}
	info := a.infoAt(fd.Pos())
	named := map[types.Object]bool{}
	for _, f := range fd.Type.Results.List {
		for _, id := range f.Names {
			named[info.Defs[id]] = true
		}
	}
	if len(named) == 0 {
		return nil
	}
	var out []retSite
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		d, ok := n.(*ast.DeferStmt)
		if !ok {
			return true
		}
		lit, ok := d.Call.Fun.(*ast.FuncLit)
		if !ok {
			return false
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			if len(as.Rhs) == 1 && len(as.Lhs) > 1 {
				// result, retErr = helper.Summarize(...): built by a helper.
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok && named[info.Uses[id]] && typeKey(info.TypeOf(id)) == typeResult {
						out = append(out, retSite{pos: as.Pos(), in: a.bySyntax[lit], opaque: as.Rhs[0]})
					}
				}
				return true
			}
			if len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok || !named[info.Uses[id]] {
					continue
				}
				class := ""
				switch t := info.TypeOf(id); {
				case types.Identical(t, types.Universe.Lookup("error").Type()) && !isNil(info, as.Rhs[i]):
					class = ClassErrorBackoff
				case typeKey(t) == typeResult:
					if requeue, after := resultFields(info, as.Rhs[i]); requeue {
						class = ClassImmediate
					} else if after != nil {
						class = ClassRetryAfterFailure
					}
				}
				if class != "" {
					out = append(out, retSite{pos: as.Pos(), class: class, in: a.bySyntax[lit]})
				}
			}
			return true
		})
		return false
	})
	return out
}

// queueRequeues answers the requeue rows of a client-go controller from its
// worker: AddRateLimited on failure, AddAfter on success.
func (a *analysis) queueRequeues(f *found, reach *callgraph.Reach) (Row, Row) {
	fns := []*ssa.Function{f.worker}
	fns = append(fns, f.worker.AnonFuncs...)
	var rateLimited, after, forget []Site
	scan := func(fn *ssa.Function) {
		for _, c := range a.callsIn(fn) {
			if !c.known {
				continue
			}
			switch c.fact.Role {
			case RoleQueueAddRateLimited:
				s := a.site(c.expr.Lparen)
				s.Class = ClassErrorBackoff
				rateLimited = append(rateLimited, s)
			case RoleQueueAddAfter:
				s := a.site(c.expr.Lparen)
				s.Class = ClassSuccessInterval
				after = append(after, s)
				if f.success == nil {
					f.success = &requeue{in: fn, at: c.expr, duration: c.arg(c.fact.Arg)}
				}
			case RoleQueueForget:
				forget = append(forget, a.site(c.expr.Lparen))
			}
		}
	}
	for _, fn := range fns {
		scan(fn)
	}
	for _, fn := range reach.Funcs() {
		scan(fn)
	}
	// The sync's own failure returns are what triggers AddRateLimited.
	var syncErrs []Site
	if b := body(f.entry); b != nil {
		info := a.infoAt(b.Pos())
		ast.Inspect(b, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(n.Results) > 0 && !isNil(info, n.Results[len(n.Results)-1]) {
					if t := info.TypeOf(n.Results[len(n.Results)-1]); t != nil && types.Implements(t, types.Universe.Lookup("error").Type().Underlying().(*types.Interface)) {
						s := a.site(n.Pos())
						s.Class = ClassErrorBackoff
						s.Note = "the sync fails, so the worker requeues the key rate-limited"
						syncErrs = append(syncErrs, s)
					}
				}
			}
			return true
		})
	}
	errRow := rowOf(append(rateLimited, syncErrs...), "no AddRateLimited in the worker: a failed key is not retried")
	if len(after) > 0 {
		return errRow, rowOf(after, "")
	}
	reason := "event-driven only: no AddAfter on the success path"
	if len(forget) > 0 {
		reason += fmt.Sprintf("; a successful sync calls Forget (%s:%d)", forget[0].File, forget[0].Line)
	}
	if rs := a.resyncs(); len(rs) > 0 {
		reason += fmt.Sprintf("; informer resync period %s (%s:%d)", rs[0].Note, rs[0].File, rs[0].Line)
	}
	return errRow, none(reason)
}

// resyncs cites the informer factories the tree creates, with their resync
// period as written.
func (a *analysis) resyncs() []Site {
	var out []Site
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		a.allCalls(fd, func(c call) {
			isFactory := c.known && c.fact.Role == RoleInformerFactory
			// Generated informer factories live in the tree: their shape is the knowledge.
			if !isFactory && c.fn != nil && strings.HasPrefix(c.fn.Name(), generatedFactoryName) && len(c.own) > 0 && len(c.expr.Args) >= 2 {
				isFactory = true
			}
			if !isFactory || len(c.expr.Args) < 2 {
				return
			}
			// A period passed through from a parameter is a factory's own
			// plumbing (generated constructors calling each other), not a choice.
			if id, ok := ast.Unparen(c.expr.Args[1]).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && isParam(fd, info, v) {
					return
				}
			}
			s := a.site(c.expr.Lparen)
			arg := c.expr.Args[1]
			s.Note = a.tree.Fset.Position(arg.Pos()).String()
			if src := exprText(a, arg); src != "" {
				s.Note = src
			}
			out = append(out, s)
		})
	}
	return out
}

// exprText returns the source text of an expression.
func exprText(a *analysis, e ast.Expr) string {
	start, end := a.tree.Fset.Position(e.Pos()), a.tree.Fset.Position(e.End())
	if start.Line != end.Line {
		return ""
	}
	full := a.cite.LineRaw(start.Filename, start.Line)
	if end.Column-1 > len(full) {
		return ""
	}
	return full[start.Column-1 : end.Column-1]
}

// syncPeriods cites where the tree sets a controller-runtime cache's resync
// period, with the value as written.
func (a *analysis) syncPeriods() []Site {
	var out []Site
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			keyedFields(info, lit, func(v *types.Var, kv *ast.KeyValueExpr) {
				if !resyncFields[fieldKey(v, info.TypeOf(lit))] {
					return
				}
				s := a.site(kv.Pos())
				value := kv.Value
				if u, ok := value.(*ast.UnaryExpr); ok && u.Op == token.AND {
					value = u.X // SyncPeriod: &period
				}
				if fn := a.bySyntax[fd]; fn != nil {
					value = a.lastValue(fn, info, value)
				}
				s.Note = exprText(a, value)
				out = append(out, s)
			})
			return true
		})
	}
	return out
}

// isParam reports whether v is a parameter of fd.
func isParam(fd *ast.FuncDecl, info *types.Info, v *types.Var) bool {
	for _, id := range paramIdents(fd.Type) {
		if info.Defs[id] == v {
			return true
		}
	}
	return false
}
