package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// A sync that puts its own object back on the queue calls the tree's
// enqueue helper (the one its event handlers call) with the object it
// re-read by the key: the helper computes the object's key and adds it to
// the worker's queue with a plain Add. That call brings the key back at
// once, as the worker's own re-add of the key does (requeue_readd.go).

// objectReadd is a call on the reconcile path handing the re-read object
// to a helper that adds its key back to the worker's queue.
type objectReadd struct {
	in   *ssa.Function
	expr *ast.CallExpr
}

// objectReadds finds the calls, in the functions reached from the entry,
// that hand the object re-read by the key (or a value held from it) to an
// own function whose plain Add to the worker's queue adds a key computed
// from that parameter; unproven are the other calls of such a function,
// handed a value ctrlcmp does not tell apart from that object (another
// object, or the same one through a closure or a struct).
func (a *analysis) objectReadds(f *found, reach *callgraph.Reach, read reread) (readds, unproven []objectReadd) {
	queue := a.workerQueue(f)
	if queue == nil || read.fn == nil || !read.pos.IsValid() {
		return nil, nil
	}
	adders := map[*ssa.Function]map[int]bool{}
	for _, fn := range reach.Funcs() {
		if ps := a.keyAddingParams(fn, queue); len(ps) > 0 {
			adders[fn] = ps
		}
	}
	if len(adders) == 0 {
		return nil, nil
	}
	objs := a.objectVars(reach, read)
	for _, fn := range reach.Funcs() {
		vars := objs[fn]
		info := a.infoAt(posOf(fn))
		if info == nil {
			continue
		}
		for _, c := range a.callsIn(fn) {
			callee := a.oneFunc(c)
			if callee == nil || adders[callee] == nil || adders[fn] != nil {
				continue // (an adder's own call of another: the helper's inside)
			}
			same := false
			for i := range adders[callee] {
				if arg := c.arg(i); arg != nil && len(vars) > 0 && sameObject(info, arg, vars) {
					same = true
					break
				}
			}
			if same {
				readds = append(readds, objectReadd{fn, c.expr})
			} else {
				unproven = append(unproven, objectReadd{fn, c.expr})
			}
		}
	}
	return readds, unproven
}

// workerQueue is the field holding the queue the worker takes keys from:
// the receiver of its Get, or, when that is a parameter of a shared
// worker, the one queue among the arguments of the call that hands the
// sync function (runWorker(name, c.vpcQueue, c.syncVpc): vpcQueue).
func (a *analysis) workerQueue(f *found) *types.Var {
	if f.worker == nil {
		return nil
	}
	for _, fn := range withClosures(f.worker) {
		info := a.infoAt(posOf(fn))
		for _, c := range a.callsIn(fn) {
			if c.known && c.fact.Role == RoleQueueGet && info != nil {
				if v := receiverField(info, c.expr); v != nil || f.handing == nil {
					return v
				}
				if !receiverParam(info, c.expr, fn) {
					return nil
				}
				return a.handedQueue(f.handing)
			}
		}
	}
	return nil
}

// receiverParam reports whether a method call's receiver is a parameter
// of fn (queue.Get(), queue handed in).
func receiverParam(info *types.Info, e *ast.CallExpr, fn *ssa.Function) bool {
	sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	v, _ := info.Uses[id].(*types.Var)
	params := fn.Signature.Params()
	for i := 0; v != nil && i < params.Len(); i++ {
		if params.At(i) == v {
			return true
		}
	}
	return false
}

// handedQueue is the field read by the one argument of a call that is a
// workqueue, or nil when none or several are.
func (a *analysis) handedQueue(e *ast.CallExpr) *types.Var {
	info := a.infoAt(e.Pos())
	if info == nil {
		return nil
	}
	var queue *types.Var
	for _, arg := range e.Args {
		if !strings.HasPrefix(typeKey(info.TypeOf(arg)), workqueue) {
			continue
		}
		v := selectedField(info, arg)
		if v == nil || queue != nil {
			return nil
		}
		queue = v
	}
	return queue
}

// otherQueue reports whether a queue call's receiver is read from another
// field of the struct that holds queue, the one the worker dequeues from
// (c.statusQueue beside c.queue). A field of another struct may hold the
// same queue (a generic worker's, handed the controller's when it
// registers): that is not told apart.
func otherQueue(info *types.Info, e *ast.CallExpr, queue *types.Var) bool {
	if info == nil || queue == nil {
		return false
	}
	field := receiverField(info, e)
	if field == nil || field == queue {
		return false
	}
	// (receiverField found e's receiver a field selection.)
	recv := ast.Unparen(ast.Unparen(e.Fun).(*ast.SelectorExpr).X)
	obj, _, _ := types.LookupFieldOrMethod(info.Selections[recv.(*ast.SelectorExpr)].Recv(), true, queue.Pkg(), queue.Name())
	return obj == queue
}

// anotherMadeQueue reports whether a queue call's receiver is read from a
// field other than queue, the worker's, where both fields are filled only
// with queues the tree makes: two queues, whatever structs hold them.
func (a *analysis) anotherMadeQueue(info *types.Info, e *ast.CallExpr, queue *types.Var) bool {
	if info == nil || queue == nil {
		return false
	}
	field := receiverField(info, e)
	return field != nil && field != queue && a.madeQueue(field) && a.madeQueue(queue)
}

// madeQueue reports whether the tree fills a struct field only with
// queues it makes itself (p.queue = workqueue.NewTypedRateLimitingQueue…,
// or in a literal): a field no other queue is copied into. Two such
// fields hold two queues; such a field is never the queue of a
// dependency's controller.
func (a *analysis) madeQueue(field *types.Var) bool {
	if field == nil {
		return false
	}
	if made, ok := a.madeQueues[field]; ok {
		return made
	}
	made, other := false, false
	a.fieldStores(field, func(info *types.Info, _ *ast.FuncDecl, value ast.Expr) {
		ce, ok := ast.Unparen(value).(*ast.CallExpr)
		if !ok {
			other = true
			return
		}
		if fn, ok := typeutil.Callee(info, ce).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path()+"." == workqueue {
			made = true
		} else {
			other = true
		}
	})
	a.madeQueues[field] = made && !other
	return made && !other
}

// receiverField is the struct field a method call's receiver is read
// from (c.queue.Get(): queue), or nil.
func receiverField(info *types.Info, e *ast.CallExpr) *types.Var {
	sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	return selectedField(info, sel.X)
}

// keyAddingParams are the parameters of fn (by argument index, the
// receiver left out) from which the key of a plain Add to queue is
// computed.
func (a *analysis) keyAddingParams(fn *ssa.Function, queue *types.Var) map[int]bool {
	b := body(fn)
	info := a.infoAt(posOf(fn))
	if b == nil || info == nil {
		return nil
	}
	var keys []ast.Expr
	for _, c := range a.callsIn(fn) {
		if c.known && c.fact.Role == RoleQueueAdd && c.in == fn && receiverField(info, c.expr) == queue {
			if k := c.arg(c.fact.Key); k != nil {
				keys = append(keys, k)
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	out := map[int]bool{}
	for i, p := range namedParams(info, fn) {
		if p == nil {
			continue
		}
		vars := map[*types.Var]bool{p: true}
		taint(info, b, vars)
		for _, k := range keys {
			if mentions(info, k, vars) {
				out[i] = true
			}
		}
	}
	return out
}

// namedParams are the variables of fn's parameters, in order (nil for
// an unnamed one), the receiver left out.
func namedParams(info *types.Info, fn *ssa.Function) []*types.Var {
	ft := funcType(fn)
	if ft == nil {
		return nil
	}
	var out []*types.Var
	for _, field := range ft.Params.List {
		if len(field.Names) == 0 {
			out = append(out, nil)
		}
		for _, id := range field.Names {
			v, _ := info.Defs[id].(*types.Var)
			out = append(out, v)
		}
	}
	return out
}

// objectVars are, for each function reached from the entry, the
// variables holding the object the re-read returned: those it is assigned
// to (or the one it reads into), the parameters a reached caller hands
// it, and its copies; a closure sees its creator's.
func (a *analysis) objectVars(reach *callgraph.Reach, read reread) map[*ssa.Function]map[*types.Var]bool {
	out := map[*ssa.Function]map[*types.Var]bool{}
	if read.fn == nil {
		return out // nothing re-reads the object
	}
	info := a.infoAt(posOf(read.fn))
	b := body(read.fn)
	if info == nil || b == nil {
		return out
	}
	for _, c := range a.callsIn(read.fn) {
		if c.expr.Lparen == read.pos {
			vars := map[*types.Var]bool{}
			assignedFrom(info, b, c.expr, true, vars)
			if c.known && c.fact.Obj >= 0 {
				// A read into the object it is handed (r.Get(ctx, key, obj)).
				if id, ok := stripAddr(c.arg(c.fact.Obj)).(*ast.Ident); ok {
					if v, ok := info.Uses[id].(*types.Var); ok {
						vars[v] = true
					}
				}
			}
			copiesOf(info, b, vars)
			out[read.fn] = vars
			a.readersCallers(reach, read.fn, vars, out)
			// A read in a closure (func() error { return r.Get(ctx, key,
			// obj) }()) fills a variable of the function around it.
			for in := read.fn; in.Parent() != nil; in = in.Parent() {
				syn := in.Syntax()
				for v := range vars {
					if syn != nil && (v.Pos() < syn.Pos() || v.Pos() >= syn.End()) {
						if out[in.Parent()] == nil {
							out[in.Parent()] = map[*types.Var]bool{}
						}
						out[in.Parent()][v] = true
					}
				}
			}
		}
	}
	for grown := true; grown; {
		grown = false
		for _, fn := range reach.Funcs() {
			fi := a.infoAt(posOf(fn))
			fb := body(fn)
			if fi == nil || fb == nil {
				continue
			}
			vars := out[fn]
			if vars == nil {
				vars = map[*types.Var]bool{}
			}
			n := len(vars)
			if p := fn.Parent(); p != nil {
				for v := range out[p] {
					vars[v] = true
				}
			}
			for _, e := range a.prog.CallsInto(fn) {
				caller := e.Caller.Func
				if caller == fn || !reach.Has(caller) || e.Site == nil || len(out[caller]) == 0 {
					continue
				}
				ci := a.infoAt(posOf(caller))
				for _, c := range a.callsIn(caller) {
					if c.expr.Lparen != e.Site.Pos() || ci == nil {
						continue
					}
					for i, p := range namedParams(fi, fn) {
						if arg := c.arg(i); p != nil && arg != nil && sameObject(ci, arg, out[caller]) {
							vars[p] = true
						}
					}
				}
			}
			copiesOf(fi, fb, vars)
			if len(vars) > n {
				out[fn] = vars
				grown = true
			}
		}
	}
	return out
}

// readersCallers adds, for a read made in a helper into an object it is
// handed (func fetch(…, obj *T) error { return r.Get(ctx, key, obj) }), the
// variable its one reached caller hands it: the caller's object is what
// the helper read. It follows callers that hand on a parameter of their
// own in turn, each called from one place.
func (a *analysis) readersCallers(reach *callgraph.Reach, fn *ssa.Function, vars map[*types.Var]bool, out map[*ssa.Function]map[*types.Var]bool) {
	for seen := map[*ssa.Function]bool{}; fn != nil && !seen[fn]; {
		seen[fn] = true
		fi := a.infoAt(posOf(fn))
		if fi == nil {
			return
		}
		var next *ssa.Function
		var nextVars map[*types.Var]bool
		params := namedParams(fi, fn)
		var sites []*callgraph.Edge
		for _, e := range a.prog.CallsInto(fn) {
			if e.Caller.Func != fn && reach.Has(e.Caller.Func) && e.Site != nil {
				sites = append(sites, e)
			}
		}
		if len(sites) != 1 {
			// A helper called from several places may read other
			// objects there: which one is the primary is not known.
			return
		}
		for _, e := range sites {
			caller := e.Caller.Func
			ci := a.infoAt(posOf(caller))
			for _, c := range a.callsIn(caller) {
				if c.expr.Lparen != e.Site.Pos() || ci == nil {
					continue
				}
				for i, p := range params {
					if p == nil || !vars[p] || !isPointer(p.Type()) {
						continue
					}
					id, ok := stripAddr(c.arg(i)).(*ast.Ident)
					if !ok {
						continue
					}
					v, ok := ci.Uses[id].(*types.Var)
					if !ok {
						continue
					}
					if out[caller] == nil {
						out[caller] = map[*types.Var]bool{}
					}
					out[caller][v] = true
					copiesOf(ci, body(caller), out[caller])
					if slices.ContainsFunc(namedParams(ci, caller), func(q *types.Var) bool { return q == v }) {
						next, nextVars = caller, out[caller]
					}
				}
			}
		}
		fn, vars = next, nextVars
	}
}

// copiesOf grows vars with the variables of body assigned the object one
// of them holds (sameObject), until nothing changes.
func copiesOf(info *types.Info, body ast.Node, vars map[*types.Var]bool) {
	for changed := true; changed; {
		changed = false
		ast.Inspect(body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, rhs := range as.Rhs {
				id, ok := ast.Unparen(as.Lhs[i]).(*ast.Ident)
				if !ok || !sameObject(info, rhs, vars) {
					continue
				}
				if v, ok := info.ObjectOf(id).(*types.Var); ok && !vars[v] {
					vars[v] = true
					changed = true
				}
			}
			return true
		})
	}
}

// sameObject reports whether e is the object a variable of vars holds:
// the variable, its address or what it points to, a type assertion of it,
// or a copy made by one of its methods (no arguments, a result of its own
// type), not a value read from it nor another object found with it.
func sameObject(info *types.Info, e ast.Expr, vars map[*types.Var]bool) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		return ok && vars[v]
	case *ast.UnaryExpr:
		return e.Op == token.AND && sameObject(info, e.X, vars)
	case *ast.StarExpr:
		return sameObject(info, e.X, vars)
	case *ast.TypeAssertExpr:
		return sameObject(info, e.X, vars)
	case *ast.CallExpr:
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if !ok || len(e.Args) > 0 || info.Selections[sel] == nil || !sameObject(info, sel.X, vars) {
			return false
		}
		return types.Identical(info.TypeOf(e), info.TypeOf(sel.X))
	}
	return false
}

// callersGuard is what the calls of fn on the reconcile path are guarded
// by: guardError when every one is under a test of a failure (a branch
// extracted into fn, called under if err != nil), guardOther when every
// one is under a test, not all of a failure; guardNone when one is under
// none, or there is no call. at are the calls' sites. A test of the
// delay a call hands the helper (if d > 0) guards nothing. absent says
// every call is under a test of a failure that found a read's object
// absent (absentWait: what the helper's add waits for).
func (a *analysis) callersGuard(reach *callgraph.Reach, fn *ssa.Function, kind *types.Named) (g guard, at []string, absent bool) {
	g, absent = guardError, true
	for _, caller := range reach.Funcs() {
		info := a.infoAt(posOf(caller))
		if info == nil {
			continue
		}
		for _, c := range a.callsIn(caller) {
			if a.oneFunc(c) != fn {
				continue
			}
			here := a.requeueGuard(info, c.expr, kind, caller)
			for _, arg := range c.expr.Args {
				if isDuration(info.TypeOf(arg)) {
					// A test of the delay handed in (if d > 0) tests
					// whether there is one, not what the wait is on.
					here = a.storeGuard(info, arg, kind, caller)
					break
				}
			}
			switch here {
			case guardNone:
				return guardNone, nil, false
			case guardOther:
				g = guardOther
			}
			absent = absent && here == guardError && a.absentWait(info, c.expr, nil)
			s := a.site(c.expr.Lparen)
			at = append(at, fmt.Sprintf("%s:%d", s.File, s.Line))
		}
	}
	if len(at) == 0 {
		return guardNone, nil, false
	}
	return g, at, absent && g == guardError
}

// helperAddGuard is what the calls of fn, a helper whose AddAfter (the
// site s) stands under no test of its own, say of that add: guardError
// (a retry, noted on s) when every call is under a test of a failure;
// under tests of something else only, the reason the add is not settled.
// absent says every call is under a test that found a read's object
// absent: the add waits for it.
func (a *analysis) helperAddGuard(reach *callgraph.Reach, fn *ssa.Function, kind *types.Named, s *Site) (g guard, absent bool, why string) {
	g, at, absent := a.callersGuard(reach, fn, kind)
	switch g {
	case guardOther:
		return g, false, fmt.Sprintf("the AddAfter at %s:%d is in %s, which the reconcile path calls only under tests of something else than a failure (%s): whether each is the steady state's interval, a wait on a dependency or a retry is not settled", s.File, s.Line, a.funcName(fn), strings.Join(at, ", "))
	case guardError:
		if !absent {
			s.Note = "the reconcile path calls " + a.funcName(fn) + " only under tests of a failure (" + strings.Join(at, ", ") + ")"
		}
	}
	return g, absent, ""
}

// oneFunc is the one own function a call runs: its only callee, or the
// generic function whose instances its callees all are (a generic worker's
// helper, called once per type argument the tree uses); nil otherwise.
func (a *analysis) oneFunc(c call) *ssa.Function {
	if len(c.own) == 1 {
		return c.own[0]
	}
	if len(c.own) == 0 || c.own[0].Syntax() == nil {
		return nil
	}
	for _, f := range c.own[1:] {
		if f.Syntax() != c.own[0].Syntax() {
			return nil
		}
	}
	return a.bySyntax[c.own[0].Syntax()]
}
