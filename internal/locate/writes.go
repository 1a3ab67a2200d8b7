package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// Write is one write a reconcile can make to the API server.
type Write struct {
	cite.Site
	Verb   string `json:"verb"`
	Target string `json:"target"`
	// Always says the write happens on every pass that reaches the normal
	// return: every call on its path dominates its function's normal
	// returns, or runs deferred from such a place.
	Always bool `json:"always"`
	// Path is the chain of calls from the entry, "file:line symbol" each.
	Path []string `json:"path,omitempty"`
	Note string   `json:"note,omitempty"`
	// Partial says the write was found in a function body holding type
	// errors, read from its syntax and the types recorded (no SSA): when
	// it runs is not known, so it is never marked always.
	Partial bool `json:"partial,omitempty"`
}

// writes lists every write reachable from the entry, in the order the
// reconcile reaches them.
func (a *analysis) writes(f *found, reach *callgraph.Reach, normal map[*ssa.Function][]*ssa.Return) []Write {
	var out []Write
	alwaysVia := a.alwaysReached(f.entry, normal)
	for _, wc := range a.writeCalls(reach) {
		c, fn := wc.call, wc.call.in
		w := Write{Site: a.site(c.expr.Lparen).Site, Verb: wc.verb, Target: wc.target}
		if c.known && c.fact.Role == RoleApply {
			w.Note = "server-side apply: writes only the objects whose dry run differs from the cluster"
			if c.fact.Summary != "" {
				w.Note = c.fact.Summary
			}
		}
		w.Partial = wc.partial
		// A create-or-update writes only when the mutated live object
		// differs from what it read: never on a pass of an unchanged one.
		idleWhenEqual := c.known && (c.fact.Verb == verbCreateOrUpdate || c.fact.Verb == verbCreateOrPatch)
		w.Always = !wc.partial && !idleWhenEqual && always(fn, c.expr.Lparen, alwaysVia, normal)
		if w.Always {
			if risk := a.hotLoopRisk(fn, wc.info, c.expr.Pos()); risk != "" {
				w.Note = strings.TrimPrefix(w.Note+"; "+risk, "; ")
			}
		}
		chain := reach.Path(fn)
		if wc.partial {
			chain = a.pathToUnanalysed(reach, fn)
		}
		if w.Always {
			chain = nil
			for e := alwaysVia[fn]; e != nil; e = alwaysVia[e.Caller.Func] {
				chain = append([]*callgraph.Edge{e}, chain...)
			}
		}
		for _, e := range chain {
			s := a.site(e.Site.Pos())
			w.Path = append(w.Path, fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Func))
		}
		out = append(out, w)
	}
	return out
}

// hotLoopRisk looks, before a write made on every pass, for what makes its
// payload differ on every pass: a clock read, or a map ranged over (its
// order changes) in the function that writes. A write that differs every
// time fires the controller's own watch again: a hot loop.
func (a *analysis) hotLoopRisk(fn *ssa.Function, info *types.Info, before token.Pos) string {
	var risk string
	ast.Inspect(body(fn), func(n ast.Node) bool {
		if risk != "" || n == nil || n.Pos() >= before {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if c := a.makeCall(info, n, fn); c.known && c.fact.Role == RoleClock {
				s := a.site(n.Pos())
				risk = fmt.Sprintf("hot-loop risk: the payload may hold %s from %s:%d, which differs on every pass", cite.ObjectName(c.fn)+"()", s.File, s.Line)
			}
		case *ast.RangeStmt:
			if _, isMap := info.TypeOf(n.X).Underlying().(*types.Map); isMap {
				s := a.site(n.Pos())
				risk = fmt.Sprintf("hot-loop risk: a map is ranged over at %s:%d, whose order differs on every pass", s.File, s.Line)
			}
		}
		return true
	})
	return risk
}

// writeCall is a call that writes, found in a reached function (partial:
// in one left out of the call graph because it holds type errors).
type writeCall struct {
	call         call
	info         *types.Info
	verb, target string
	partial      bool
}

// writeCalls lists the write calls of the reached functions in the order
// they are reached, leaving out those inside the implementation of another
// write (a typed client of the tree's own that calls the dynamic client).
func (a *analysis) writeCalls(reach *callgraph.Reach) []writeCall {
	var all []writeCall
	impl := map[*ssa.Function]bool{}
	for _, fn := range reach.Funcs() {
		info := a.infoAt(posOf(fn))
		if info == nil {
			continue
		}
		for _, c := range a.callsIn(fn) {
			if w, ok := a.writeOf(info, c); ok {
				all = append(all, writeCall{call: c, info: info, verb: w.verb, target: w.target})
				for _, o := range c.own {
					impl[o] = true
				}
			}
		}
	}
	for _, fn := range reach.Unanalysed {
		obj, ok := fn.Object().(*types.Func)
		if !ok {
			continue
		}
		b := a.ownBody(obj.Origin())
		if b == nil {
			continue
		}
		ast.Inspect(b.decl.Body, func(n ast.Node) bool {
			if e, ok := n.(*ast.CallExpr); ok {
				c := a.makeCall(b.info, e, fn)
				if w, ok := a.writeOf(b.info, c); ok {
					all = append(all, writeCall{call: c, info: b.info, verb: w.verb, target: w.target, partial: true})
				}
			}
			return true
		})
	}
	var out []writeCall
	for _, w := range all {
		if !impl[w.call.in] {
			out = append(out, w)
		}
	}
	return out
}

// pathToUnanalysed is the chain of calls from the entry to a function left
// out of the call graph: the path to a reached caller, then its call.
func (a *analysis) pathToUnanalysed(reach *callgraph.Reach, fn *ssa.Function) []*callgraph.Edge {
	for _, e := range a.prog.CallsInto(fn) {
		if reach.Has(e.Caller.Func) {
			return append(reach.Path(e.Caller.Func), e)
		}
	}
	return nil
}

// writeOf says whether a call writes, with its verb and target: from the
// knowledge table, or by the shape of generated typed clients (a method
// taking one of apimachinery's Create/Update/Patch/Delete options).
func (a *analysis) writeOf(info *types.Info, c call) (w writeDesc, ok bool) {
	if c.known {
		switch c.fact.Role {
		case RoleWrite, RoleEvent, RoleApply:
		default:
			return writeDesc{}, false
		}
		target := c.fact.Target
		if obj := c.arg(c.fact.Obj); obj != nil {
			name := typeName(info.TypeOf(obj))
			switch {
			case c.fact.Role == RoleEvent:
				target = "Event about " + name
			case target != "":
				target = name + " " + target
			default:
				target = name
			}
		}
		return writeDesc{c.fact.Verb, target, c.fact.Status}, true
	}
	if c.fn == nil {
		return writeDesc{}, false
	}
	sig, okSig := info.TypeOf(c.expr.Fun).(*types.Signature)
	if !okSig || c.fn.Type().(*types.Signature).Recv() == nil {
		return writeDesc{}, false
	}
	for i := 0; i < sig.Params().Len(); i++ {
		v, isWrite := clientsetVerbs[typeKey(sig.Params().At(i).Type())]
		if !isWrite {
			continue
		}
		target := "by name"
		for j := 0; j < sig.Params().Len(); j++ {
			if IsObjectPointer(sig.Params().At(j).Type()) {
				target = typeName(sig.Params().At(j).Type())
			}
		}
		status := generatedStatusWrites[c.fn.Name()]
		if status {
			target += " status"
		}
		return writeDesc{v, target, status}, true
	}
	return writeDesc{}, false
}

// writeDesc describes a write: its verb, what it writes, and whether that
// is (or includes) the object's status.
type writeDesc struct {
	verb, target string
	status       bool
}

// typeName is the bare name of a (pointer to a) named type.
func typeName(t types.Type) string {
	if n, ok := deref(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	if t == nil {
		return "object"
	}
	return types.TypeString(t, func(*types.Package) string { return "" })
}

// alwaysReached walks the call graph from the entry along the calls every
// path to their function's normal returns makes: first the calls that
// dominate those returns, then, for the functions not reached so, several
// calls of one function that together cut every path (a helper that
// records an event, called on each branch). It returns the functions
// every succeeding pass runs, each with the edge it is first reached by.
func (a *analysis) alwaysReached(entry *ssa.Function, normal map[*ssa.Function][]*ssa.Return) map[*ssa.Function]*callgraph.Edge {
	via := map[*ssa.Function]*callgraph.Edge{entry: nil}
	walk := func(queue []*ssa.Function, cutSets bool) {
		for len(queue) > 0 {
			f := queue[0]
			queue = queue[1:]
			byCallee := map[*ssa.Function][]*callgraph.Edge{}
			var order []*ssa.Function
			for _, e := range a.prog.CallsFrom(f) {
				callee := e.Callee.Func
				if _, seen := via[callee]; seen || !a.prog.Own[callee] || e.Site == nil {
					continue
				}
				if !cutSets {
					if dominatesReturns(e.Site, normal[f]) {
						via[callee] = e
						queue = append(queue, callee)
					}
					continue
				}
				if byCallee[callee] == nil {
					order = append(order, callee)
				}
				byCallee[callee] = append(byCallee[callee], e)
			}
			for _, callee := range order {
				edges := byCallee[callee]
				var sites []ssa.Instruction
				for _, e := range edges {
					sites = append(sites, e.Site)
				}
				if cutsReturns(f, sites, normal[f]) {
					via[callee] = edges[0]
					queue = append(queue, callee)
				}
			}
		}
	}
	walk([]*ssa.Function{entry}, false)
	// The cut sets, from every function reached, until nothing more is.
	for n := 0; n != len(via); {
		n = len(via)
		var from []*ssa.Function
		for f := range via {
			from = append(from, f)
		}
		sort.Slice(from, func(i, j int) bool {
			if from[i].Pos() != from[j].Pos() {
				return from[i].Pos() < from[j].Pos()
			}
			return from[i].String() < from[j].String()
		})
		walk(from, true)
	}
	return via
}

// cutsReturns reports whether every path from fn's entry to one of its
// normal returns passes through a block holding one of the instructions:
// a single instruction that dominates the returns, or calls of one helper
// on each branch.
func cutsReturns(fn *ssa.Function, sites []ssa.Instruction, rets []*ssa.Return) bool {
	if len(rets) == 0 || len(fn.Blocks) == 0 {
		return false
	}
	if len(sites) == 0 {
		return false
	}
	cut := map[*ssa.BasicBlock]bool{}
	for _, s := range sites {
		if s.Block() == nil || s.Parent() != fn {
			return false
		}
		cut[s.Block()] = true
	}
	ret := map[*ssa.BasicBlock]bool{}
	for _, r := range rets {
		ret[r.Block()] = true
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{fn.Blocks[0]}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] || cut[b] {
			continue
		}
		seen[b] = true
		if ret[b] {
			return false
		}
		stack = append(stack, b.Succs...)
	}
	return true
}

// always reports whether a write in fn runs on every succeeding pass: fn is
// always reached and the write dominates fn's normal returns.
func always(fn *ssa.Function, writePos token.Pos, alwaysVia map[*ssa.Function]*callgraph.Edge, normal map[*ssa.Function][]*ssa.Return) bool {
	if _, ok := alwaysVia[fn]; !ok {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ci, ok := instr.(ssa.CallInstruction); ok && ci.Common().Pos() == writePos {
				return dominatesReturns(ci, normal[fn])
			}
		}
	}
	return false
}

func dominatesReturns(instr ssa.Instruction, rets []*ssa.Return) bool {
	if len(rets) == 0 {
		return false
	}
	for _, r := range rets {
		if !instr.Block().Dominates(r.Block()) {
			return false
		}
	}
	return true
}

// normalReturns finds, for each reached function, the returns a pass that
// succeeds ends with: in the entry, the success returns (or the nil-error
// returns after the re-read); elsewhere the nil-error returns, or every
// return when no return is known to succeed.
func (a *analysis) normalReturns(f *found, kind *types.Named, reach *callgraph.Reach, successPos []token.Pos, reread token.Pos) map[*ssa.Function][]*ssa.Return {
	out := map[*ssa.Function][]*ssa.Return{}
	for _, fn := range reach.Funcs() {
		var all, nilErr []*ssa.Return
		for _, b := range fn.Blocks {
			r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok {
				continue
			}
			all = append(all, r)
			if n := len(r.Results); n > 0 && isErrorType(r.Results[n-1].Type()) {
				if k, ok := r.Results[n-1].(*ssa.Const); ok && k.IsNil() {
					nilErr = append(nilErr, r)
				}
			}
		}
		normal := all
		if len(nilErr) > 0 {
			normal = nilErr
		} else if ok := slices.DeleteFunc(slices.Clone(all), failing); len(ok) > 0 {
			normal = ok
		}
		if fn == f.entry {
			normal = a.entryReturns(fn, kind, all, nilErr, successPos, reread)
		}
		out[fn] = normal
	}
	return out
}

// failing reports whether a return hands back an error that cannot be nil:
// a new error (fmt.Errorf, errors.New: the knowledge table), or an error
// value returned where a test of it against nil has found it set (the
// return lies under the branch of `err != nil`). Such a return ends a
// pass that failed, never one that succeeded.
func failing(r *ssa.Return) bool {
	n := len(r.Results)
	if n == 0 || !isErrorType(r.Results[n-1].Type()) {
		return false
	}
	v := r.Results[n-1]
	if c, ok := v.(*ssa.Call); ok {
		if fn := c.Call.StaticCallee(); fn != nil {
			if obj, ok := fn.Object().(*types.Func); ok && knowledge[funcKey(obj)].Role == RoleNewError {
				return true
			}
		}
	}
	for b := r.Block(); b != nil; b = b.Idom() {
		d := b.Idom()
		if d == nil {
			break
		}
		ifs, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifs.Cond.(*ssa.BinOp)
		if !ok || (cmp.Op != token.NEQ && cmp.Op != token.EQL) {
			continue
		}
		other := cmp.Y
		if cmp.Y == v {
			other = cmp.X
		} else if cmp.X != v {
			continue
		}
		if k, ok := other.(*ssa.Const); !ok || !k.IsNil() {
			continue
		}
		set := d.Succs[0]
		if cmp.Op == token.EQL {
			set = d.Succs[1]
		}
		if set.Dominates(r.Block()) && len(set.Preds) == 1 {
			return true
		}
	}
	return false
}

// entryReturns narrows the entry's normal returns to the success returns,
// or to the returns at the top level of its body that come after the
// re-read (a pass that finds no object, or stops under a condition, ends
// early), those returning a nil error first, with the steady-state early
// returns (steadyReturns): a pass of an unchanged object may end there.
func (a *analysis) entryReturns(fn *ssa.Function, kind *types.Named, all, nilErr []*ssa.Return, successPos []token.Pos, reread token.Pos) []*ssa.Return {
	var success []*ssa.Return
	for _, r := range all {
		if slices.Contains(successPos, r.Pos()) {
			success = append(success, r)
		}
	}
	if len(success) > 0 {
		return success
	}
	unguarded := map[token.Pos]bool{}
	if b := body(fn); b != nil {
		a.walkReturns(a.infoAt(b.Pos()), b, scope{}, func(r *ast.ReturnStmt, sc scope) {
			if sc.guard == guardNone {
				unguarded[r.Pos()] = true
			}
		})
	}
	var readBlock *ssa.BasicBlock
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ci, ok := instr.(ssa.CallInstruction); ok && reread.IsValid() && ci.Common().Pos() == reread {
				readBlock = b
			}
		}
	}
	pick := func(rs []*ssa.Return) []*ssa.Return {
		var out []*ssa.Return
		for _, r := range rs {
			if unguarded[r.Pos()] && (readBlock == nil || readBlock.Dominates(r.Block())) {
				out = append(out, r)
			}
		}
		return out
	}
	rs := pick(nilErr)
	if len(rs) == 0 {
		rs = pick(all)
	}
	if len(rs) == 0 {
		return rs
	}
	steady := a.steadyReturns(fn, kind, reread)
	for _, r := range all {
		if steady[r.Pos()] && !slices.Contains(rs, r) && (readBlock == nil || readBlock.Dominates(r.Block())) {
			rs = append(rs, r)
		}
	}
	return rs
}

// steadyReturns finds the entry's early returns a pass of an unchanged
// object may end with: at the top level of its body after the re-read, the
// return closing an if (or a tagless switch's case) whose condition reads live state (a field of an
// object other than the primary's Spec, or a value computed from one:
// "already done", "nothing to do") and tests no error nor the deletion
// timestamp, whose branch does nothing but log before returning success
// with nothing to requeue (a zero Result, a nil error). A branch that
// writes or changes something ends a pass that changed the object, and a
// condition on the primary's Spec alone (suspended) is not the steady
// state of an object that is reconciled.
func (a *analysis) steadyReturns(fn *ssa.Function, kind *types.Named, reread token.Pos) map[token.Pos]bool {
	out := map[token.Pos]bool{}
	b := body(fn)
	if b == nil {
		return out
	}
	info := a.infoAt(b.Pos())
	if info == nil {
		return out
	}
	// idle marks the return closing a branch taken under cond, when the
	// branch only logs and returns success with nothing to requeue.
	idle := func(cond ast.Expr, list []ast.Stmt) {
		if len(list) == 0 || cond == nil {
			return
		}
		ret, ok := list[len(list)-1].(*ast.ReturnStmt)
		if !ok || !succeedsIdle(info, ret) || condGuard(info, cond) != guardOther || a.testsDeletion(info, cond) || testsFieldValue(info, cond) {
			return
		}
		if a.readsLive(info, b, kind, cond, nil, map[*types.Var]bool{}) && a.onlyLogs(info, fn, list[:len(list)-1]) {
			out[ret.Pos()] = true
		}
	}
	for _, st := range b.List {
		if reread.IsValid() && st.Pos() < reread {
			continue
		}
		switch st := st.(type) {
		case *ast.IfStmt:
			if st.Else == nil {
				idle(st.Cond, st.Body.List)
			}
		case *ast.SwitchStmt:
			// A tagless switch whose case leaves the object as it is.
			for _, cl := range st.Body.List {
				if cc := cl.(*ast.CaseClause); st.Tag == nil && len(cc.List) > 0 {
					idle(cc.List[0], cc.Body)
				}
			}
		}
	}
	return out
}

// testsFieldValue reports whether a condition compares a field of a value
// (an annotation, a phase, the length of a list) with a constant: an
// opt-in filter or a state not reached yet, which says nothing of whether
// an unchanged object ends there; a value the pass computed (a local
// variable, a predicate's result) is the outcome of its comparison.
func testsFieldValue(info *types.Info, cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || found {
			return !found
		}
		switch b.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		default:
			return true
		}
		for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if _, local := ast.Unparen(pair[0]).(*ast.Ident); isConst(info, pair[1]) && !local {
				found = true
			}
		}
		return !found
	})
	return found
}

// succeedsIdle reports whether a return hands back success with nothing
// to requeue: a nil error, and a zero reconcile.Result when it returns one.
func succeedsIdle(info *types.Info, ret *ast.ReturnStmt) bool {
	n := len(ret.Results)
	if n == 0 || n > 2 || !isNil(info, ret.Results[n-1]) {
		return false
	}
	if n == 1 {
		return true
	}
	lit, ok := ast.Unparen(ret.Results[0]).(*ast.CompositeLit)
	return ok && isResultLiteral(info, lit) && len(lit.Elts) == 0
}

// testsDeletion reports whether a condition reads the deletion timestamp.
func (a *analysis) testsDeletion(info *types.Info, cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && !found {
			found = a.isDeletionTimestamp(info, e)
		}
		return !found
	})
	return found
}

// onlyLogs reports whether statements do nothing but call functions of
// no library role outside the tree (a logger): no write, no change of a
// value, no call of the tree's own functions.
func (a *analysis) onlyLogs(info *types.Info, fn *ssa.Function, list []ast.Stmt) bool {
	for _, st := range list {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			return false
		}
		ce, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		if c := a.makeCall(info, ce, fn); c.known || len(c.own) > 0 || c.fn == nil {
			return false
		}
	}
	return true
}
