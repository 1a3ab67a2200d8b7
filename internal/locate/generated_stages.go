package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// The stages of a generated reconciler (spec/rows.md, "generated
// reconcilers"): the tree registers the informers' handlers, which hand
// objects to the dependency's controller's enqueues; the controller's
// worker takes the key off its queue and runs the generated Reconcile,
// which reads the object through the lister and writes its status and
// finalizers. The worker and the queue are cited in the dependency's
// source at the version the tree requires.

// genHandler is one event of a handler registered in the tree, as the
// dependency's helpers (HandleAll, PassNew) and client-go's handler
// structs build it.
type genHandler struct {
	event string
	// at is where the function is handed over: the argument of HandleAll,
	// or the value of the handler struct's field.
	at token.Pos
	// enq is the dependency's enqueue the handler is (impl.Enqueue), or
	// the one whose result it is (impl.EnqueueSentinel(key)); fn is the
	// tree's function it is, when it is one.
	enq *types.Func
	fn  *ssa.Function
	// filter is the FilterFunc of a filtering handler around it.
	filter ast.Expr
	// recv is the controller whose enqueue enq is (impl in impl.Enqueue),
	// read with info in decl.
	recv ast.Expr
	info *types.Info
	decl *ast.FuncDecl
}

// genRegistration is one handler registration with its handlers read
// through the dependency's helpers.
type genRegistration struct {
	*registration
	handlers []genHandler
}

// genRegistrations reads the handlers of every registration of the tree.
func (a *analysis) genRegistrations() []genRegistration {
	var out []genRegistration
	for _, r := range a.registrations() {
		g := genRegistration{registration: r}
		fd := a.enclosingDecl(r.call.expr.Pos())
		info := a.infoAt(r.call.expr.Pos())
		a.genHandlers(info, fd, r.call.arg(r.call.fact.Arg), nil, &g.handlers, 0)
		out = append(out, g)
	}
	return out
}

// enclosingDecl returns the own function declaration holding pos, or nil.
func (a *analysis) enclosingDecl(pos token.Pos) *ast.FuncDecl {
	for _, n := range a.path(pos, pos) {
		if fd, ok := n.(*ast.FuncDecl); ok {
			return fd
		}
	}
	return nil
}

// genHandlers reads a handler value: a handler struct literal (a filtering
// one's Handler nested, its FilterFunc kept), HandleAll(f), or a local
// variable holding one of them.
func (a *analysis) genHandlers(info *types.Info, fd *ast.FuncDecl, e ast.Expr, filter ast.Expr, out *[]genHandler, depth int) {
	if e == nil || depth > 4 {
		return
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v := localValue(info, fd, x); v != nil {
			a.genHandlers(info, fd, v, filter, out, depth+1)
		}
	case *ast.CallExpr:
		c := a.makeCall(info, x, nil)
		if c.known && c.fact.Role == RoleHandleAll {
			for _, ev := range []string{eventAdd, eventUpdate, eventDelete} {
				*out = append(*out, a.genHandlerFunc(info, fd, c.arg(c.fact.Arg), ev, filter))
			}
		}
	case *ast.CompositeLit:
		owner := info.TypeOf(x)
		keyedFields(info, x, func(v *types.Var, kv *ast.KeyValueExpr) {
			if fieldKey(v, owner) == handlerFilterField {
				filter = kv.Value
			}
		})
		keyedFields(info, x, func(v *types.Var, kv *ast.KeyValueExpr) {
			switch ev := handlerFields[fieldKey(v, owner)]; ev {
			case "":
			case eventNested:
				a.genHandlers(info, fd, kv.Value, filter, out, depth+1)
			default:
				*out = append(*out, a.genHandlerFunc(info, fd, kv.Value, ev, filter))
			}
		})
	}
}

// localValue returns the value a local variable is given where it is
// declared in fd (x := v, var x = v), when it is given one once.
func localValue(info *types.Info, fd *ast.FuncDecl, id *ast.Ident) ast.Expr {
	v, ok := info.Uses[id].(*types.Var)
	if !ok || fd == nil || fd.Body == nil {
		return nil
	}
	var value ast.Expr
	stores := 0
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				lid, ok := ast.Unparen(l).(*ast.Ident)
				if !ok || info.Defs[lid] != v && info.Uses[lid] != v {
					continue
				}
				stores++
				if len(n.Lhs) == len(n.Rhs) {
					value = n.Rhs[i]
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] == v && i < len(n.Values) {
					stores++
					value = n.Values[i]
				}
			}
		}
		return true
	})
	if stores != 1 {
		return nil
	}
	return value
}

// genHandlerFunc reads the function a handler's event runs: the
// dependency's enqueue (a method value, or a call returning the function),
// through PassNew, or a function of the tree.
func (a *analysis) genHandlerFunc(info *types.Info, fd *ast.FuncDecl, e ast.Expr, event string, filter ast.Expr) genHandler {
	h := genHandler{event: event, filter: filter, info: info, decl: fd}
	if e == nil {
		return h
	}
	h.at = e.Pos()
	for range 4 {
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			break
		}
		mc := a.makeCall(info, c, nil)
		switch {
		case mc.known && mc.fact.Role == RoleHandlerPass:
			e = mc.arg(mc.fact.Arg)
			continue
		case mc.known && mc.fact.Role == RoleImplEnqueue:
			h.enq = mc.fn
			if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
				h.recv = sel.X
			}
		}
		return h
	}
	var obj types.Object
	switch x := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		h.fn = a.bySyntax[x]
		return h
	case *ast.SelectorExpr:
		obj = info.Uses[x.Sel]
		h.recv = x.X
	case *ast.Ident:
		obj = info.Uses[x]
	}
	if fn, ok := obj.(*types.Func); ok {
		if f, known := knowledge[funcKey(fn)]; known && f.Role == RoleImplEnqueue {
			h.enq = fn
		} else {
			h.fn = a.ownFunc(fn)
		}
	}
	return h
}

// enqueues returns the enqueues of the controller ctor makes that a
// handler makes: itself, or the calls its function reaches (ctor nil: of
// any controller).
func (a *analysis) enqueues(h genHandler, loop depLoop) []*types.Func {
	if h.enq != nil {
		if loop.ctor != nil && !a.madeBy(h.info, h.decl, h.recv, loop, 0) {
			return nil
		}
		return []*types.Func{h.enq}
	}
	var out []*types.Func
	for _, c := range a.enqueueCalls(h, loop) {
		out = append(out, c.fn)
	}
	return out
}

// enqueueCalls returns the calls of the enqueues of the controller the
// loop's constructor makes that a handler's own function reaches (none
// when the handler is the enqueue itself).
func (a *analysis) enqueueCalls(h genHandler, loop depLoop) []call {
	if h.fn == nil {
		return nil
	}
	var out []call
	for _, g := range a.prog.Reachable(h.fn).Funcs() {
		for _, c := range a.callsIn(g) {
			if !c.known || c.fact.Role != RoleImplEnqueue {
				continue
			}
			sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr)
			if loop.ctor != nil && (!ok || !a.madeBy(a.infoAt(c.expr.Pos()), a.enclosingDecl(c.expr.Pos()), sel.X, loop, 0)) {
				continue
			}
			out = append(out, c)
		}
	}
	return out
}

// madeBy says whether a controller value is the one the loop's constructor
// (the generated constructor handing this reconciler to the dependency)
// makes for this controller's hand-written type: a call of it, or of a
// function of the tree that calls it, held in a local variable of decl or
// in a struct field the tree stores it in (r.impl = impl). A call handing
// another hand-written type to the same constructor makes another
// controller.
func (a *analysis) madeBy(info *types.Info, decl *ast.FuncDecl, recv ast.Expr, loop depLoop, depth int) bool {
	if info == nil || depth > 3 {
		return false
	}
	switch e := ast.Unparen(recv).(type) {
	case *ast.Ident:
		return a.madeBy(info, decl, localValue(info, decl, e), loop, depth+1)
	case *ast.SelectorExpr:
		field, ok := info.Uses[e.Sel].(*types.Var)
		if !ok || !field.IsField() {
			return false
		}
		made := false
		a.fieldStores(field, func(info *types.Info, fd *ast.FuncDecl, value ast.Expr) {
			made = made || a.madeBy(info, fd, value, loop, depth+1)
		})
		return made
	case *ast.CallExpr:
		if !a.handsImpl(info, e, loop.impl) {
			return false
		}
		for _, o := range a.makeCall(info, e, nil).own {
			if o == loop.ctor {
				return true
			}
			for _, c := range a.prog.CallsFrom(o) {
				if c.Callee.Func == loop.ctor {
					return true
				}
			}
		}
	}
	return false
}

// handsImpl says whether a constructor call hands the controller's
// hand-written type: false when one of its arguments is another type
// with the method the generated Interface asks for.
func (a *analysis) handsImpl(info *types.Info, ce *ast.CallExpr, impl types.Type) bool {
	if impl == nil {
		return true
	}
	for _, arg := range ce.Args {
		t := info.TypeOf(arg)
		if t == nil || types.Identical(t, impl) {
			continue
		}
		if _, isIface := t.Underlying().(*types.Interface); isIface {
			continue
		}
		if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, generatedKindMethod); obj != nil {
			if _, isFunc := obj.(*types.Func); isFunc {
				return false
			}
		}
	}
	return true
}

// depLoop is the dependency's worker and queue, cited in its source.
type depLoop struct {
	// add is the workqueue Add every enqueue ends in; get the worker's
	// Get; sync its call of the generated Reconcile; rateLimited and
	// after the re-adds of a failed key and of a key whose pass asked for
	// a delay.
	add, get, sync, rateLimited, after *Site
	// lost says why the loop is not cited ("" when it is).
	lost string
	// ctor is the tree's function that hands the generated reconciler to
	// the dependency's controller (the generated NewImpl), impl the
	// hand-written type handed to it for this controller.
	ctor *ssa.Function
	impl types.Type
}

// loopOf cites the worker and queue of the dependency's controller that
// runs a generated reconciler's sync function, from the knowledge entry
// of its constructor.
func (a *analysis) loopOf(f *found) depLoop {
	var runner *types.Func
	var k *LoopKnowledge
	var ctor *ssa.Function
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		a.allCalls(fd, func(c call) {
			if runner != nil || !c.known || c.fact.Role != RoleRunSync {
				return
			}
			for _, rt := range a.reconcilerTypes(fd, info, c.arg(c.fact.Arg)) {
				if a.methodFunc(rt, methodReconcile) == f.entry {
					runner, k = c.fn, c.fact.Loop
					if obj, ok := info.Defs[fd.Name].(*types.Func); ok {
						ctor = a.prog.Func(obj)
					}
				}
			}
		})
	}
	if runner == nil {
		return depLoop{lost: "not settled: the call that hands the generated reconciler to the dependency's controller was not found again"}
	}
	if k == nil {
		return depLoop{lost: "not settled: the knowledge table (internal/locate/knowledge.go) does not say where the worker and queue of " + cite.ObjectName(runner) + "'s controller are", ctor: ctor}
	}
	var dir, at string
	for _, p := range a.tree.All {
		if p.PkgPath == runner.Pkg().Path() && len(p.GoFiles) > 0 {
			dir = filepath.Dir(p.GoFiles[0])
			at = p.PkgPath
			if p.Module != nil {
				at = p.Module.Path + "@" + p.Module.Version
			}
		}
	}
	if dir == "" {
		return depLoop{lost: "not settled: the source of " + runner.Pkg().Path() + " is not loaded", ctor: ctor}
	}
	file := filepath.Join(dir, k.File)
	out := depLoop{ctor: ctor}
	var missing []string
	method := func(name string, calls map[string]**Site) {
		fd, fset := a.depFunc(file, func(fd *ast.FuncDecl, _ *token.FileSet) bool {
			return fd.Name.Name == name && fd.Recv != nil
		})
		if fd == nil {
			missing = append(missing, name)
			return
		}
		symbol := cite.FuncName(fd)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if p, ok := calls[sel.Sel.Name]; ok && *p == nil {
				s := Site{Site: a.cite.Line(file, fset.PositionFor(call.Lparen, false).Line, symbol)}
				*p = &s
			}
			return true
		})
		for name, p := range calls {
			if *p == nil {
				missing = append(missing, symbol+" calling "+name)
			}
		}
	}
	method(k.Enqueue, map[string]**Site{k.Add: &out.add})
	method(k.Worker, map[string]**Site{k.Get: &out.get, k.Sync: &out.sync})
	method(k.Errors, map[string]**Site{k.AddRateLimited: &out.rateLimited, k.AddAfter: &out.after})
	if len(missing) > 0 {
		a.warn(fmt.Sprintf("%s: the worker and queue of %s are not all cited: ctrlcmp looks for %s in %s, and does not find %s there at this version; the knowledge table (internal/locate/knowledge.go) needs an entry for it",
			at, cite.ObjectName(runner), strings.Join([]string{k.Worker, k.Errors, k.Enqueue}, ", "), k.File, strings.Join(missing, ", ")))
	}
	return out
}

// generatedStages answers the stage rows of a generated reconciler. The
// tree holds the watch, the read and the writes; the dependency's
// controller holds the queue and the worker. No anchors: the dependency's
// source cannot be patched in the tree.
func (a *analysis) generatedStages(p *pass) map[string]Row {
	kind := p.kind()
	kindName := "the primary type"
	if kind != nil {
		kindName = kind.Obj().Name()
	}
	regs := a.genRegistrations()
	loop := a.loopOf(p.f)
	if p.f.impl != nil {
		loop.impl = p.f.impl.Signature.Recv().Type()
	}
	st := map[string]Row{}

	var prim *genRegistration
	var primAdd genHandler
	for i, r := range regs {
		if r.typ == nil || kind == nil || !types.Identical(r.typ, kind) {
			continue
		}
		for _, h := range r.handlers {
			if h.event == eventAdd && prim == nil && len(a.enqueues(h, loop)) > 0 {
				prim, primAdd = &regs[i], h
			}
		}
	}
	if prim == nil {
		st[StageWatch] = none(fmt.Sprintf("not settled: no add handler registered on an informer of %s could be followed to an enqueue of this controller (AddEventHandler with HandleAll(impl.Enqueue), or a handler struct whose AddFunc enqueues, impl being the result of the generated constructor in the same function)", kindName))
		st[StageEnqueue] = none("no watch handler of " + kindName + " to follow to the workqueue")
	} else {
		reg := a.site(primAdd.at)
		reg.Name, reg.Primary = "registration", true
		call := a.site(prim.call.expr.Lparen)
		reg.Note = fmt.Sprintf("add handler of the %s informer: AddEventHandler at %s:%d", kindName, call.File, call.Line)
		watch := []Site{reg}
		if primAdd.enq != nil {
			h := a.depFuncSite(primAdd.enq)
			h.Name = "handler"
			watch = append(watch, h)
		} else if primAdd.fn != nil {
			h := a.funcSite(primAdd.fn)
			h.Name = "handler"
			watch = append(watch, h)
		}
		if primAdd.filter != nil {
			fs := a.site(primAdd.filter.Pos())
			fs.Note = "the filter: only the objects it accepts reach the handler"
			watch = append(watch, fs)
		}
		st[StageWatch] = Row{Sites: watch}

		var enq []Site
		if primAdd.enq != nil {
			s := a.site(primAdd.at)
			s.Note = "the key added on the watch path: " + enqueueSummary(primAdd.enq)
			enq = append(enq, s)
		}
		for _, c := range a.enqueueCalls(primAdd, loop) {
			s := a.site(c.expr.Lparen)
			s.Note = "the key added on the watch path: " + enqueueSummary(c.fn)
			enq = append(enq, s)
		}
		if len(enq) > 0 && loop.add != nil {
			s := *loop.add
			s.Note = "the dependency's controller adds the key to its workqueue"
			enq = append(enq, s)
		}
		st[StageEnqueue] = rowOf(enq, "the watch handler of "+kindName+" reaches no enqueue of the controller")
	}

	if loop.get == nil {
		st[StageDequeue] = none(orElse(loop.lost, "not settled: the dependency's worker was not found in its source (see the warnings)"))
	} else {
		deq := []Site{*loop.get}
		deq[0].Primary = true
		deq[0].Note = "the dependency's worker takes the key off its workqueue"
		for _, s := range []struct {
			at   *Site
			note string
		}{
			{loop.sync, "the worker runs the generated Reconcile with the key"},
			{loop.rateLimited, "a pass that returned an error (not a permanent one) is re-added rate-limited"},
			{loop.after, "a pass that returned NewRequeueAfter(d) is re-added after d"},
		} {
			if s.at != nil {
				c := *s.at
				c.Note = s.note
				deq = append(deq, c)
			}
		}
		st[StageDequeue] = Row{Sites: deq}
	}

	var read []Site
	if pos := p.reread().pos; pos.IsValid() {
		s := a.site(pos)
		s.Note = "the generated Reconcile reads the object through the lister, by the key's name"
		read = append(read, s)
	}
	st[StageRead] = rowOf(read, "no lister Get of "+kindName+" by the key in the generated Reconcile")

	never := p.unfinalized(a.generatedOf(p.f))
	var wcs []stageWrite
	for _, w := range a.stageWrites(p.reach, p.writes()) {
		if !never[w.call.in] {
			wcs = append(wcs, w)
		}
	}
	st[StageWrite] = a.writeStage(p, wcs)
	st[StageReentry] = a.genReentry(regs, wcs, loop)
	return st
}

// orElse returns s, or def when s is empty.
func orElse(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// enqueueSummary says what a dependency's enqueue adds to the queue.
func enqueueSummary(fn *types.Func) string {
	name := cite.ObjectName(fn)
	if f, ok := knowledge[funcKey(fn)]; ok && f.Summary != "" {
		return name + " " + f.Summary
	}
	return name
}

// depFuncSite cites a dependency's function at its declaration.
func (a *analysis) depFuncSite(fn *types.Func) Site {
	s := Site{Site: a.cite.At(fn.Pos(), cite.ObjectName(fn))}
	s.Note = enqueueSummary(fn)
	return s
}

// genReentry lists the handlers the generated reconciler's own writes
// fire again: each registration on an informer of a written type, for the
// event the write makes, when the handler enqueues.
func (a *analysis) genReentry(regs []genRegistration, ws []stageWrite, loop depLoop) Row {
	var named []Site
	why := map[string][]string{}
	index := map[string]int{}
	for _, w := range ws {
		event := informerEvent[w.Verb]
		t := writtenType(w.info, w.call)
		if event == "" || t == nil {
			continue
		}
		for _, r := range regs {
			if r.typ == nil || !types.Identical(r.typ, t) {
				continue
			}
			for _, h := range r.handlers {
				if h.event != event || len(a.enqueues(h, loop)) == 0 {
					continue
				}
				s := a.site(h.at)
				s.Name = r.typ.Obj().Name() + " " + event
				k := fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Name)
				if _, ok := index[k]; !ok {
					index[k] = len(named)
					named = append(named, s)
				}
				w := fmt.Sprintf("%s %s (%s:%d)", w.Verb, w.Target, w.File, w.Line)
				if !slices.Contains(why[k], w) {
					why[k] = append(why[k], w)
				}
			}
		}
	}
	for k, i := range index {
		named[i].Note = strings.Join(why[k], "; ") + " → " + named[i].Name + " handler"
	}
	sortSites(named)
	if len(named) > 0 && loop.add != nil {
		s := *loop.add
		s.Note = "the handler's enqueue adds the key to the dependency's workqueue"
		named = append(named, s)
	}
	return rowOf(named, "no informer the controller registers watches an object the generated reconciler writes")
}
