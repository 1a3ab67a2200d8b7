package locate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// A controller may run on a worker a dependency provides: the tree hands
// one of its functions to the dependency (yacht's WithHandlerFunc, a
// controller factory's WithSync), which keeps it in a field, and the
// dependency's worker calls that field with what it takes off a workqueue.
// The tree's function is then a sync function like any other, whose key is
// the item the dependency dequeued.

// depWorkerFields are, for one dependency package, the fields of function
// type that its workers call with an item taken off a workqueue, and the
// fields whose values are copied into those (a factory's sync handed to
// the controller it builds), each with the worker's call it reaches.
type depWorkerFields map[*types.Var]token.Pos

// findDepWorkers finds the controllers a call of fd's runs on a
// dependency's worker: a function of the tree's handed to a dependency
// function that stores it (or a closure calling it) in a field the
// dependency's worker calls with a dequeued item.
func (a *analysis) findDepWorkers(fd *ast.FuncDecl) []*found {
	info := a.infoAt(fd.Pos())
	var out []*found
	a.allCalls(fd, func(c call) {
		if c.fn == nil || c.known || c.fn.Pkg() == nil || a.decls[c.fn.Origin()] != nil || isInterfaceMethod(c.fn) || moduleOfPkg(a, c.fn.Pkg().Path()) == "" {
			return // the tree's own, the standard library's
		}
		for i, arg := range c.expr.Args {
			entry := a.funcValue(info, arg)
			if entry == nil {
				continue
			}
			worker := a.depStores(c, i)
			if !worker.IsValid() {
				continue
			}
			f := &found{name: syncName(entry), style: StyleClientGo, entry: entry, depWorker: worker, keyParams: map[*types.Var]bool{}}
			sig := entry.Signature
			for j := 0; j < sig.Params().Len(); j++ {
				if v := sig.Params().At(j); typeKey(v.Type()) != typeContext {
					f.keyParams[v] = true
				}
			}
			f.registration = []Site{a.site(c.expr.Lparen), a.site(worker)}
			out = append(out, f)
		}
	})
	return out
}

// depStores is the dependency worker's call that runs what the call c
// hands in its argument i: the call that takes the field the callee
// stores the argument in (itself, or a closure that calls it); token.NoPos
// when the callee stores it in no such field.
func (a *analysis) depStores(c call, i int) token.Pos {
	b := a.depBody(c.fn.Origin())
	if b == nil || b.decl.Body == nil {
		return token.NoPos
	}
	params := b.params
	if sig, ok := c.fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		params = params[1:]
	}
	if i >= len(params) {
		return token.NoPos
	}
	fields := a.depWorkers(c.fn.Pkg().Path())
	if len(fields) == 0 {
		return token.NoPos
	}
	param := map[*types.Var]bool{params[i]: true}
	at := token.NoPos
	ast.Inspect(b.decl.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || at.IsValid() || len(as.Lhs) != len(as.Rhs) {
			return !at.IsValid()
		}
		for j, l := range as.Lhs {
			if v := selectedField(b.info, l); v != nil && fields[v].IsValid() && mentions(b.info, as.Rhs[j], param) {
				at = fields[v]
			}
		}
		return !at.IsValid()
	})
	return at
}

// depWorkers are the worker fields of a dependency package (cached).
func (a *analysis) depWorkers(path string) depWorkerFields {
	if f, ok := a.depFields[path]; ok {
		return f
	}
	fields := depWorkerFields{}
	a.depFields[path] = fields
	dp := a.depPackage(path)
	if dp == nil {
		return fields
	}
	for _, b := range dp.funcs {
		if b.decl.Body == nil {
			continue
		}
		ast.Inspect(b.decl.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 {
				return true
			}
			get, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok {
				return true
			}
			callee, _ := typeutil.Callee(b.info, get).(*types.Func)
			if callee == nil || knowledge[funcKey(callee)].Role != RoleQueueGet {
				return true
			}
			item, _ := b.info.ObjectOf(identOf(as.Lhs[0])).(*types.Var)
			if item == nil {
				return true
			}
			vars := map[*types.Var]bool{item: true}
			taint(b.info, b.decl.Body, vars)
			ast.Inspect(b.decl.Body, func(n ast.Node) bool {
				e, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if v := selectedField(b.info, e.Fun); v != nil && isFuncType(v.Type()) {
					for _, arg := range e.Args {
						if mentions(b.info, arg, vars) {
							fields[v] = e.Lparen
						}
					}
				}
				return true
			})
			return true
		})
	}
	// A field copied into a worker's field carries what it holds there
	// (a factory's sync, handed to the controller it builds).
	for changed := true; changed; {
		changed = false
		for _, b := range dp.funcs {
			if b.decl.Body == nil {
				continue
			}
			ast.Inspect(b.decl.Body, func(n ast.Node) bool {
				var pairs [][2]ast.Expr
				switch n := n.(type) {
				case *ast.AssignStmt:
					if len(n.Lhs) == len(n.Rhs) {
						for j := range n.Lhs {
							pairs = append(pairs, [2]ast.Expr{n.Lhs[j], n.Rhs[j]})
						}
					}
				case *ast.KeyValueExpr:
					pairs = append(pairs, [2]ast.Expr{n.Key, n.Value})
				}
				for _, p := range pairs {
					to := fieldOrKey(b.info, p[0])
					from := selectedField(b.info, p[1])
					if to != nil && from != nil && fields[to].IsValid() && !fields[from].IsValid() {
						fields[from] = fields[to]
						changed = true
					}
				}
				return true
			})
		}
	}
	return fields
}

// selectedField is the field a selection expression reads (x.f), or nil.
func selectedField(info *types.Info, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
		v, _ := s.Obj().(*types.Var)
		return v
	}
	return nil
}

// fieldOrKey is the field an assignment's left side or a composite
// literal's key names, or nil.
func fieldOrKey(info *types.Info, e ast.Expr) *types.Var {
	if v := selectedField(info, e); v != nil {
		return v
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v, ok := info.Uses[id].(*types.Var); ok && v.IsField() {
			return v
		}
	}
	return nil
}

// identOf is e as an identifier, or a blank one.
func identOf(e ast.Expr) *ast.Ident {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		return id
	}
	return &ast.Ident{Name: "_"}
}

// isFuncType reports whether t is a function type.
func isFuncType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// depWorkerRequeues answers the requeue rows of a sync function a
// dependency's worker runs, from that worker's body: what it does with a
// failed key and with the delay the sync hands back. The dependency's
// failure handling is cited; which of the sync's failure returns is the
// main work's is not read through it, so the error row is not settled.
// The success row is none only when the worker waits no delay the sync
// returns, or every return of the sync hands back no delay.
func (a *analysis) depWorkerRequeues(f *found, kind *types.Named) *requeues {
	out := &requeues{}
	var rateLimited, after []Site
	for _, dp := range a.deps {
		if dp == nil {
			continue
		}
		for _, b := range dp.funcs {
			if b.decl.Body == nil || f.depWorker < b.decl.Body.Pos() || f.depWorker >= b.decl.Body.End() {
				continue
			}
			ast.Inspect(b.decl.Body, func(n ast.Node) bool {
				e, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				callee, _ := typeutil.Callee(b.info, e).(*types.Func)
				if callee == nil {
					return true
				}
				switch knowledge[funcKey(callee)].Role {
				case RoleQueueAddRateLimited:
					rateLimited = append(rateLimited, a.site(e.Lparen))
				case RoleQueueAddAfter:
					after = append(after, a.site(e.Lparen))
				}
				return true
			})
		}
	}
	run := a.site(f.depWorker)
	if len(rateLimited) > 0 {
		s := rateLimited[0]
		s.Class = ClassErrorBackoff
		s.Note = "the dependency's worker requeues a failed key rate-limited"
		out.onError = Row{Sites: []Site{s}, None: fmt.Sprintf("not settled: the dependency's worker (%s:%d) requeues a key whose sync fails rate-limited (%s:%d); which failure return of the sync is its main work's is not read through the dependency", run.File, run.Line, s.File, s.Line)}
	} else {
		out.onError = none(fmt.Sprintf("not settled: the dependency's worker (%s:%d) calls no AddRateLimited itself, and what it does with a failed key was not followed further", run.File, run.Line))
	}
	delays := a.returnedDelays(f.entry)
	switch {
	case len(after) > 0 && delays == "":
		reason := fmt.Sprintf("event-driven only: the dependency's worker (%s:%d) adds the key again after the delay the sync returns (%s:%d), and every return of %s hands back none", run.File, run.Line, after[0].File, after[0].Line, a.funcName(f.entry))
		if rs := a.resyncs(kind); len(rs) > 0 {
			reason += fmt.Sprintf("; informer resync period %s (%s:%d)", rs[0].Note, rs[0].File, rs[0].Line)
		}
		out.onSuccess = noneAfter(reason, fmt.Sprintf("the returns of %s, whose results the dependency's worker at %s:%d reads", a.funcName(f.entry), run.File, run.Line))
	case len(after) > 0:
		out.onSuccess = none(fmt.Sprintf("not settled: the dependency's worker (%s:%d) adds the key again after the delay the sync returns (%s:%d), and %s", run.File, run.Line, after[0].File, after[0].Line, delays))
	default:
		out.onSuccess = none(fmt.Sprintf("not settled: the dependency's worker (%s:%d) adds no key after a delay itself, and the sync's other ways to requeue were not followed", run.File, run.Line))
	}
	return out
}

// returnedDelays says where a sync function may hand back a delay: a
// return whose results other than its error are not all nil or zero
// constants (or a bare return of named results); "" when every return
// hands back none.
func (a *analysis) returnedDelays(fn *ssa.Function) string {
	b := body(fn)
	if b == nil {
		return "its body was not read"
	}
	info := a.infoAt(b.Pos())
	why := ""
	ast.Inspect(b, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 0 && fn.Signature.Results().Len() > 1 {
				why = fmt.Sprintf("the bare return at %s hands back named results", fileLine(a.site(n.Pos())))
			}
			for _, r := range n.Results {
				t := info.TypeOf(r)
				if t == nil || implementsError(t) {
					continue
				}
				if tv := info.Types[ast.Unparen(r)]; !isNil(info, r) && (tv.Value == nil || constant.Sign(tv.Value) != 0) {
					why = fmt.Sprintf("the return at %s may hand back one", fileLine(a.site(n.Pos())))
				}
			}
		}
		return why == ""
	})
	return why
}

// delayFromSync reports whether the delay of a worker's AddAfter is a
// result of the worker's call of a function value (its sync), taken as is
// or through a pointer: after, err := c.handle(ctx, item), then
// AddAfter(item, *after).
func (a *analysis) delayFromSync(fn *ssa.Function, info *types.Info, c call) bool {
	if info == nil || c.delay == nil {
		return false
	}
	e := ast.Unparen(c.delay)
	if star, ok := e.(*ast.StarExpr); ok {
		e = ast.Unparen(star.X)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v := varOf(info, id)
	b := body(fn)
	if v == nil || b == nil || isErrorType(v.Type()) {
		return false
	}
	def := findDef(info, b, v)
	return def != nil && a.makeCall(info, def, fn).fn == nil
}

// findDef is the call any of whose results v is assigned from, when body
// assigns v once and that from a call (v, err := f(…)); nil otherwise.
func findDef(info *types.Info, body *ast.BlockStmt, v *types.Var) *ast.CallExpr {
	rhs := assignmentsTo(info, body, v)
	if len(rhs) != 1 {
		return nil
	}
	ce, _ := ast.Unparen(rhs[0]).(*ast.CallExpr)
	return ce
}
