package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// The five stages of a client-go controller (spec/rows.md), and the paths by
// which the controller's own writes bring an object back.
const (
	StageWatch   = "stage-watch"
	StageEnqueue = "stage-enqueue"
	StageDequeue = "stage-dequeue"
	StageRead    = "stage-read"
	StageWrite   = "stage-write"
	StageReentry = "re-entry"
)

// StageIDs lists the stage rows in the order one object meets them.
var StageIDs = []string{StageWatch, StageEnqueue, StageDequeue, StageRead, StageWrite, StageReentry}

// StageTag is the tag a stage's log line carries: STAGE/watch … STAGE/write.
func StageTag(stage string) string {
	return "STAGE/" + strings.TrimPrefix(stage, "stage-")
}

// Instrumentation is what `stages --patch` adds to a controller: one probe
// per stage site still to be logged, and why a site could not be.
type Instrumentation struct {
	Probes []Probe
	// Skipped says, for each stage site that gets no probe, why.
	Skipped []string
	// Unavailable, when not empty, says why nothing can be instrumented.
	Unavailable string
}

// Probe is one log statement to insert in a source file.
type Probe struct {
	Stage string
	// File is the absolute path of the file; Offset the byte offset of the
	// start of the line the statement is inserted before.
	File   string
	Offset int
	// Code is the statement, without indentation.
	Code string
	// ImportAs, when not empty, is the name the file must import ImportPath
	// (klog) under for Code to build.
	ImportAs, ImportPath string
}

// registration is one informer event handler registration.
type registration struct {
	call call
	// typ is the type the informer watches (nil when unknown).
	typ      *types.Named
	handlers []handlerFunc
}

// handlerFunc is one function-valued field of a registered handler.
type handlerFunc struct {
	event string // add, update, delete
	field *ast.KeyValueExpr
	fn    *ssa.Function
	lit   *ast.FuncLit
}

// withStages adds the stage rows and the probes of a client-go controller.
func (a *analysis) withStages(f *found, reach *callgraph.Reach, writes []Write, c Controller) Controller {
	if f.style != StyleClientGo {
		return c
	}
	regs := a.registrations()
	ins := &Instrumentation{}
	if a.lookupPackage(klogPath) == nil {
		ins.Unavailable = fmt.Sprintf("the module does not depend on %s, which the probes log with; run `go get %s` in it and patch again", klogPath, klogPath)
	}
	st := map[string]Row{}
	var prim *registration
	var primAdd handlerFunc
	for _, r := range regs {
		if r.typ == nil || f.kind == nil || !types.Identical(r.typ, f.kind) {
			continue
		}
		for _, h := range r.handlers {
			if h.event == "add" && prim == nil {
				prim, primAdd = r, h
			}
		}
	}
	kindName := "the primary type"
	if f.kind != nil {
		kindName = f.kind.Obj().Name()
	}
	if prim == nil {
		st[StageWatch] = none(fmt.Sprintf("no AddFunc is registered on an informer of %s (AddEventHandler with a ResourceEventHandlerFuncs literal)", kindName))
		st[StageEnqueue] = none("no watch handler of " + kindName + " to follow to the workqueue")
	} else {
		reg := a.site(primAdd.field.Pos())
		reg.Name, reg.Primary = "registration", true
		call := a.site(prim.call.expr.Lparen)
		reg.Note = fmt.Sprintf("AddFunc of the %s informer: AddEventHandler at %s:%d", kindName, call.File, call.Line)
		h := a.handlerSite(primAdd)
		h.Name = "handler"
		st[StageWatch] = Row{Sites: []Site{reg, h}}
		a.probeWatch(ins, primAdd)
		var enq []Site
		for _, qc := range a.queueAdds(primAdd.fn) {
			s := a.site(qc.expr.Lparen)
			s.Note = "the key added on the watch path"
			enq = append(enq, s)
			a.probeEnqueue(ins, qc)
		}
		st[StageEnqueue] = rowOf(enq, "the watch handler of "+kindName+" reaches no workqueue Add")
	}

	var deq []Site
	if f.worker != nil {
		for _, qc := range a.callsIn(f.worker) {
			if qc.known && qc.fact.Role == RoleQueueGet {
				deq = append(deq, a.site(qc.expr.Lparen))
				a.probeDequeue(ins, qc)
			}
		}
	}
	st[StageDequeue] = rowOf(deq, "no workqueue Get in the worker")

	var read []Site
	for _, fn := range reach.Funcs() {
		for _, rc := range a.callsIn(fn) {
			if f.rereadPos.IsValid() && rc.expr.Lparen == f.rereadPos {
				read = append(read, a.site(rc.expr.Lparen))
				a.probeRead(ins, rc)
			}
		}
	}
	st[StageRead] = rowOf(read, "no lister Get of "+kindName+" by the key in the sync")

	wcs := a.stageWrites(reach, writes)
	var ws []Site
	for _, w := range wcs {
		s := Site{Site: w.Site, Name: w.Verb + " " + w.Target}
		s.Note = "on some passes"
		if w.Always {
			s.Note = "on every pass"
		}
		if len(w.Path) > 0 {
			s.Note += "; reached through " + strings.Join(w.Path, " → ")
		}
		ws = append(ws, s)
		a.probeWrite(ins, w, f.kind)
	}
	seen := map[string]bool{}
	for _, w := range wcs {
		for _, e := range reach.Path(w.call.in) {
			s := a.site(e.Site.Pos())
			if k := fmt.Sprintf("%s:%d", s.File, s.Line); !seen[k] {
				seen[k] = true
				s.Note = "the sync calls the helper that writes"
				ws = append(ws, s)
			}
		}
	}
	if len(ws) > 0 {
		for _, sink := range a.callsOf(RoleEventSink) {
			sink.Note = "recorded events reach the API server asynchronously through this sink"
			ws = append(ws, sink)
		}
	}
	st[StageWrite] = rowOf(ws, "the sync makes no write to the API server")
	st[StageReentry] = a.reentry(regs, wcs)
	c.Stages = st
	if ins.Unavailable != "" {
		ins.Probes = nil
	}
	sortProbes(ins.Probes)
	c.Instrument = ins
	return c
}

// stageWrite is a write of the sync with its call.
type stageWrite struct {
	Write
	call call
	info *types.Info
}

// stageWrites pairs the writes the sync makes with their calls.
func (a *analysis) stageWrites(reach *callgraph.Reach, writes []Write) []stageWrite {
	var out []stageWrite
	for i, wc := range a.writeCalls(reach) {
		out = append(out, stageWrite{Write: writes[i], call: wc.call, info: wc.info})
	}
	return out
}

// registrations finds every informer event handler the tree registers.
func (a *analysis) registrations() []*registration {
	var out []*registration
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		fn := a.bySyntax[fd]
		a.allCalls(fd, func(c call) {
			if !c.known || c.fact.Role != RoleAddHandler {
				return
			}
			r := &registration{call: c}
			a.handlerFuncs(info, c.arg(c.fact.Arg), &r.handlers)
			if ci := callInstr(fn, c.expr.Lparen); ci != nil {
				// The informer is the receiver: the invoked interface value,
				// or a concrete method's first argument.
				if ci.Common().IsInvoke() {
					r.typ = a.informerType(ci.Common().Value, 0)
				} else if len(ci.Common().Args) > 0 {
					r.typ = a.informerType(ci.Common().Args[0], 0)
				}
			}
			out = append(out, r)
		})
	}
	return out
}

// handlerFuncs reads the functions of a handler struct literal.
func (a *analysis) handlerFuncs(info *types.Info, e ast.Expr, out *[]handlerFunc) {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return
	}
	owner := info.TypeOf(lit)
	keyedFields(info, lit, func(v *types.Var, kv *ast.KeyValueExpr) {
		switch ev := handlerFields[fieldKey(v, owner)]; ev {
		case "":
		case "handler":
			a.handlerFuncs(info, kv.Value, out)
		default:
			h := handlerFunc{event: ev, field: kv}
			switch x := ast.Unparen(kv.Value).(type) {
			case *ast.FuncLit:
				h.lit, h.fn = x, a.bySyntax[x]
			case *ast.SelectorExpr:
				h.fn = a.ownFunc(info.Uses[x.Sel])
			case *ast.Ident:
				h.fn = a.ownFunc(info.Uses[x])
			}
			if h.fn != nil {
				*out = append(*out, h)
			}
		}
	})
}

// ownFunc returns the SSA function of an own function object.
func (a *analysis) ownFunc(obj types.Object) *ssa.Function {
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	sf := a.prog.Func(fn.Origin())
	if sf == nil || !a.prog.Own[sf] {
		return nil
	}
	return sf
}

// callInstr finds the call at pos in fn or the closures it holds.
func callInstr(fn *ssa.Function, pos token.Pos) ssa.CallInstruction {
	if fn == nil {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ci, ok := instr.(ssa.CallInstruction); ok && ci.Common().Pos() == pos {
				return ci
			}
		}
	}
	for _, anon := range fn.AnonFuncs {
		if ci := callInstr(anon, pos); ci != nil {
			return ci
		}
	}
	return nil
}

// informerType follows an informer value back to what says the type it
// watches: a generated informer (its Lister's List returns []*T), or a
// shared informer made with an example object of type *T.
func (a *analysis) informerType(v ssa.Value, depth int) *types.Named {
	if v == nil || depth > 8 {
		return nil
	}
	if t := listedType(v.Type()); t != nil {
		return t
	}
	switch x := v.(type) {
	case *ssa.Call:
		if x.Call.IsInvoke() {
			return a.informerType(x.Call.Value, depth+1)
		}
		if callee := x.Call.StaticCallee(); callee != nil {
			if obj, ok := callee.Object().(*types.Func); ok {
				if fact, known := knowledge[funcKey(obj)]; known && fact.Role == RoleNewInformer && fact.Arg < len(x.Call.Args) {
					return exampleType(x.Call.Args[fact.Arg])
				}
			}
			return a.returned(callee, 0, depth)
		}
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok {
			if callee := call.Call.StaticCallee(); callee != nil {
				return a.returned(callee, x.Index, depth)
			}
		}
	case *ssa.Parameter:
		fn := x.Parent()
		idx := -1
		for i, p := range fn.Params {
			if p == x {
				idx = i
			}
		}
		node := a.prog.Graph.Nodes[fn]
		if node == nil || idx < 0 {
			return nil
		}
		for _, e := range node.In {
			common := e.Site.Common()
			args := common.Args
			if common.IsInvoke() {
				args = append([]ssa.Value{common.Value}, args...)
			}
			if idx < len(args) {
				if t := a.informerType(args[idx], depth+1); t != nil {
					return t
				}
			}
		}
	case *ssa.Phi:
		for _, e := range x.Edges {
			if t := a.informerType(e, depth+1); t != nil {
				return t
			}
		}
	case *ssa.ChangeInterface:
		return a.informerType(x.X, depth+1)
	case *ssa.MakeInterface:
		return a.informerType(x.X, depth+1)
	}
	return nil
}

// returned follows result i of an own function's returns.
func (a *analysis) returned(fn *ssa.Function, i, depth int) *types.Named {
	if !a.prog.Own[fn] {
		return nil
	}
	for _, b := range fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && i < len(r.Results) {
			if t := a.informerType(r.Results[i], depth+1); t != nil {
				return t
			}
		}
	}
	return nil
}

// exampleType is the object type of an informer's example object.
func exampleType(v ssa.Value) *types.Named {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	if isObjectPointer(v.Type()) {
		n, _ := deref(v.Type()).(*types.Named)
		return n
	}
	return nil
}

// listedType is T when t has a Lister method whose result lists []*T: the
// shape of generated informers, client-go's own included.
func listedType(t types.Type) *types.Named {
	lister := methodResult(t, "Lister", 0)
	if lister == nil {
		return nil
	}
	list := methodResult(lister, "List", 0)
	if list == nil {
		return nil
	}
	sl, ok := list.Underlying().(*types.Slice)
	if !ok || !isObjectPointer(sl.Elem()) {
		return nil
	}
	n, _ := deref(sl.Elem()).(*types.Named)
	return n
}

// methodResult is the type of result i of t's method name, or nil.
func methodResult(t types.Type, name string, i int) types.Type {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if i >= sig.Results().Len() {
		return nil
	}
	return sig.Results().At(i).Type()
}

// handlerSite cites a handler: the func line of a named function, or the
// literal.
func (a *analysis) handlerSite(h handlerFunc) Site {
	if h.lit != nil {
		return a.site(h.lit.Pos())
	}
	return a.funcSite(h.fn)
}

// queueAdds lists the workqueue adds reachable from a handler.
func (a *analysis) queueAdds(fn *ssa.Function) []call {
	var out []call
	for _, g := range a.prog.Reachable(fn).Funcs() {
		for _, c := range a.callsIn(g) {
			if c.known && (c.fact.Role == RoleQueueAdd || c.fact.Role == RoleQueueAddRateLimited || c.fact.Role == RoleQueueAddAfter) {
				out = append(out, c)
			}
		}
	}
	return out
}

// writtenType is the object type a write of the sync writes, when its shape
// says: the object it is given, or what its client's Get returns.
func writtenType(info *types.Info, c call) *types.Named {
	if c.known {
		n, _ := deref(info.TypeOf(c.arg(c.fact.Obj))).(*types.Named)
		if n != nil && types.IsInterface(n) {
			return nil
		}
		return n
	}
	sig, ok := info.TypeOf(c.expr.Fun).(*types.Signature)
	if !ok {
		return nil
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if t := sig.Params().At(i).Type(); isObjectPointer(t) {
			n, _ := deref(t).(*types.Named)
			return n
		}
	}
	if sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr); ok {
		if got := methodResult(info.TypeOf(sel.X), "Get", 0); got != nil && isObjectPointer(got) {
			n, _ := deref(got).(*types.Named)
			return n
		}
	}
	return nil
}

// informerEvent is the informer event a write's verb makes.
var informerEvent = map[string]string{"create": "add", "update": "update", "patch": "update", "apply": "update", "delete": "delete"}

// reentry lists the handlers the sync's own writes fire again: each
// registration on an informer of a written type, for the event the write
// makes, with the calls from the handler to the workqueue as supporting
// sites.
func (a *analysis) reentry(regs []*registration, ws []stageWrite) Row {
	type hit struct {
		site   Site
		h      handlerFunc
		writes []string
	}
	hits := map[string]*hit{}
	var order []string
	add := func(r *registration, event, why string) {
		for _, h := range r.handlers {
			if h.event != event {
				continue
			}
			s := a.reentrySite(h)
			k := fmt.Sprintf("%s:%d", s.File, s.Line)
			if hits[k] == nil {
				s.Name = r.typ.Obj().Name() + " " + event
				hits[k] = &hit{site: s, h: h}
				order = append(order, k)
			}
			if !contains(hits[k].writes, why) {
				hits[k].writes = append(hits[k].writes, why)
			}
		}
	}
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
			add(r, event, fmt.Sprintf("%s %s (%s:%d)", w.Verb, w.Target, w.File, w.Line))
			if w.Verb == "create" {
				add(r, "delete", fmt.Sprintf("deleting the %s it creates at %s:%d (by hand, or by garbage collection) brings the owner back, and the next pass creates it again", t.Obj().Name(), w.File, w.Line))
			}
		}
	}
	var named, support []Site
	seen := map[string]bool{}
	for _, k := range order {
		h := hits[k]
		h.site.Note = strings.Join(h.writes, "; ") + " → " + h.site.Name + " handler"
		named = append(named, h.site)
		seen[k] = true
		for _, qc := range a.queueAdds(h.h.fn) {
			reach := a.prog.Reachable(h.h.fn)
			for _, e := range reach.Path(qc.in) {
				s := a.site(e.Site.Pos())
				if k := fmt.Sprintf("%s:%d", s.File, s.Line); !seen[k] {
					seen[k] = true
					s.Note = "on the way from the " + h.site.Name + " handler to the workqueue"
					support = append(support, s)
				}
			}
			s := a.site(qc.expr.Lparen)
			if k := fmt.Sprintf("%s:%d", s.File, s.Line); !seen[k] {
				seen[k] = true
				s.Note = "the " + h.site.Name + " handler enqueues here"
				support = append(support, s)
			}
		}
	}
	sortSites(named)
	sortSites(support)
	return rowOf(append(named, support...), "no informer the controller registers watches an object its sync writes")
}

// reentrySite cites a re-entry handler: the field of a named function, or in
// a literal the call that hands the object on to the workqueue.
func (a *analysis) reentrySite(h handlerFunc) Site {
	if h.lit == nil {
		return a.site(h.field.Pos())
	}
	for _, c := range a.callsIn(h.fn) {
		for _, o := range c.own {
			if len(a.queueAdds(o)) > 0 {
				return a.site(c.expr.Lparen)
			}
		}
	}
	return a.site(h.lit.Pos())
}

// lookupPackage finds a loaded package by path.
func (a *analysis) lookupPackage(path string) *types.Package {
	for _, p := range a.tree.All {
		if p.PkgPath == path && p.Types != nil {
			return p.Types
		}
	}
	return nil
}

// The probes.

// probeWatch logs at the top of the primary type's add handler.
func (a *analysis) probeWatch(ins *Instrumentation, h handlerFunc) {
	var ft *ast.FuncType
	var b *ast.BlockStmt
	name := "func literal"
	if h.lit != nil {
		ft, b = h.lit.Type, h.lit.Body
	} else if fd, ok := h.fn.Syntax().(*ast.FuncDecl); ok {
		ft, b, name = fd.Type, fd.Body, fd.Name.Name
	}
	if b == nil {
		return
	}
	fi, ok := a.fileAt(b.Pos())
	if !ok {
		return
	}
	if len(b.List) > 0 && hasTag(b.List[0], StageWatch) {
		return
	}
	fset := a.tree.Fset
	if len(b.List) > 0 && fset.Position(b.List[0].Pos()).Line == fset.Position(b.Lbrace).Line {
		ins.Skipped = append(ins.Skipped, fmt.Sprintf("%s: the handler's body starts on its func line; add the %s line by hand", a.pos(b.Lbrace), StageTag(StageWatch)))
		return
	}
	at := b.Pos() + 1
	lg := a.logger(fi, at)
	kv := fmt.Sprintf("%q, %q", "handler", name)
	params := paramIdents(ft)
	code := lg.call(StageWatch, kv)
	if len(params) > 0 && params[0].Name != "_" {
		p := params[0]
		if v, ok := fi.info.Defs[p].(*types.Var); ok && lg.implementsKMetadata(v.Type()) {
			code = lg.call(StageWatch, kv+fmt.Sprintf(", %q, %s.KObj(%s)", "object", lg.klog, p.Name))
		} else {
			code = fmt.Sprintf("if m, ok := %s.(%s.KMetadata); ok {\n%s\n}", p.Name, lg.klog, lg.call(StageWatch, kv+fmt.Sprintf(", %q, %s.KObj(m)", "object", lg.klog)))
		}
	}
	a.addProbe(ins, StageWatch, lineAfter(fset, b.Lbrace), code, lg)
}

// probeEnqueue logs the key after a workqueue add.
func (a *analysis) probeEnqueue(ins *Instrumentation, c call) {
	a.probeAfter(ins, StageEnqueue, c, func(fi fileInfo, lg logger, _ *ast.AssignStmt) string {
		kv := ""
		if k := c.arg(c.fact.Key); k != nil && pure(k) {
			kv = fmt.Sprintf("%q, %s", "key", types.ExprString(k))
		}
		return lg.call(StageEnqueue, kv)
	})
}

// probeDequeue logs the key and the queue's length after the worker's Get.
func (a *analysis) probeDequeue(ins *Instrumentation, c call) {
	a.probeAfter(ins, StageDequeue, c, func(fi fileInfo, lg logger, as *ast.AssignStmt) string {
		var kvs []string
		if as != nil && len(as.Lhs) > 0 {
			if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
				kvs = append(kvs, fmt.Sprintf("%q, %s", "key", id.Name))
			}
		}
		if sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr); ok && pure(sel.X) && methodResult(fi.info.TypeOf(sel.X), "Len", 0) != nil {
			kvs = append(kvs, fmt.Sprintf("%q, %s.Len()", "queueLen", types.ExprString(sel.X)))
		}
		return lg.call(StageDequeue, strings.Join(kvs, ", "))
	})
}

// probeRead logs the object's resourceVersion after the sync's lister Get.
func (a *analysis) probeRead(ins *Instrumentation, c call) {
	a.probeAfter(ins, StageRead, c, func(fi fileInfo, lg logger, as *ast.AssignStmt) string {
		if as != nil && len(as.Lhs) > 0 && len(as.Rhs) == 1 {
			if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" && isObjectPointer(fi.info.TypeOf(id)) {
				return fmt.Sprintf("if %s != nil {\n%s\n}", id.Name, lg.call(StageRead,
					fmt.Sprintf("%q, %s.KObj(%s), %q, %s.ResourceVersion", "object", lg.klog, id.Name, "resourceVersion", id.Name)))
			}
		}
		return lg.call(StageRead, "")
	})
}

// probeWrite logs the verb and target after a write, with the primary
// object and the error when they are at hand.
func (a *analysis) probeWrite(ins *Instrumentation, w stageWrite, kind *types.Named) {
	a.probeAfter(ins, StageWrite, w.call, func(fi fileInfo, lg logger, as *ast.AssignStmt) string {
		kvs := []string{fmt.Sprintf("%q, %q", "verb", w.Verb), fmt.Sprintf("%q, %q", "target", w.Target)}
		if v := lg.varOf(func(t types.Type) bool {
			n, ok := deref(t).(*types.Named)
			return ok && kind != nil && types.Identical(n, kind) && isObjectPointer(t)
		}); v != "" {
			kvs = append(kvs, fmt.Sprintf("%q, %s.KObj(%s)", "object", lg.klog, v))
		}
		if as != nil {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" && isErrorType(fi.info.TypeOf(id)) {
					kvs = append(kvs, fmt.Sprintf("%q, %s", "err", id.Name))
				}
			}
		}
		return lg.call(StageWrite, strings.Join(kvs, ", "))
	})
}

// probeAfter inserts a probe after the statement holding a call (before it,
// when the statement leaves the function: a return, a defer, a go). code
// makes the probe's statement; it receives the statement when it is the assignment of the call's results.
func (a *analysis) probeAfter(ins *Instrumentation, stage string, c call, code func(fileInfo, logger, *ast.AssignStmt) string) {
	fi, ok := a.fileAt(c.expr.Pos())
	if !ok {
		return
	}
	path := a.path(c.expr.Pos(), c.expr.End())
	var stmt ast.Stmt
	var list []ast.Stmt
	var open, close token.Pos
	for i, n := range path {
		s, ok := n.(ast.Stmt)
		if !ok || i+1 >= len(path) {
			continue
		}
		switch p := path[i+1].(type) {
		case *ast.BlockStmt:
			stmt, list, open, close = s, p.List, p.Lbrace, p.Rbrace
		case *ast.CaseClause:
			stmt, list, open = s, p.Body, p.Colon
		case *ast.CommClause:
			stmt, list, open = s, p.Body, p.Colon
		}
		if stmt != nil {
			break
		}
	}
	if stmt == nil {
		return
	}
	fset := a.tree.Fset
	idx := -1
	for i, s := range list {
		if s == stmt {
			idx = i
		}
	}
	before := false
	switch stmt.(type) {
	case *ast.ReturnStmt, *ast.DeferStmt, *ast.GoStmt, *ast.BranchStmt:
		before = true
	}
	var offset int
	var at token.Pos
	if before {
		if idx > 0 && hasTag(list[idx-1], stage) {
			return
		}
		if fset.Position(open).Line == fset.Position(stmt.Pos()).Line {
			ins.Skipped = append(ins.Skipped, fmt.Sprintf("%s: the statement shares its line with the block's start; add the %s line by hand", a.pos(stmt.Pos()), StageTag(stage)))
			return
		}
		offset, at = fset.Position(stmt.Pos()).Offset-fset.Position(stmt.Pos()).Column+1, stmt.Pos()
	} else {
		if idx+1 < len(list) && hasTag(list[idx+1], stage) {
			return
		}
		if close.IsValid() && fset.Position(close).Line == fset.Position(stmt.End()).Line {
			ins.Skipped = append(ins.Skipped, fmt.Sprintf("%s: the statement shares its line with the block's end; add the %s line by hand", a.pos(stmt.Pos()), StageTag(stage)))
			return
		}
		offset, at = lineAfter(fset, stmt.End()-1), stmt.End()
	}
	lg := a.logger(fi, at)
	as, _ := stmt.(*ast.AssignStmt)
	if as != nil && !(len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == c.expr) {
		as = nil
	}
	if before {
		as = nil
	}
	a.addProbe(ins, stage, offset, code(fi, lg, as), lg)
}

func (a *analysis) addProbe(ins *Instrumentation, stage string, offset int, code string, lg logger) {
	p := Probe{Stage: stage, File: lg.file, Offset: offset, Code: code}
	if lg.needImport {
		p.ImportAs, p.ImportPath = lg.klog, klogPath
	}
	ins.Probes = append(ins.Probes, p)
}

// lineAfter is the offset of the start of the line after the one holding pos.
func lineAfter(fset *token.FileSet, pos token.Pos) int {
	tf := fset.File(pos)
	line := tf.Line(pos)
	if line >= tf.LineCount() {
		return tf.Size()
	}
	return tf.Offset(tf.LineStart(line + 1))
}

// pos formats a position as a citation.
func (a *analysis) pos(p token.Pos) string {
	s := a.site(p)
	return fmt.Sprintf("%s:%d", s.File, s.Line)
}

// pure reports whether evaluating e twice is harmless: it calls nothing.
func pure(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if _, call := n.(*ast.CallExpr); call {
			ok = false
		}
		return ok
	})
	return ok
}

// hasTag reports whether a statement already logs a stage's tag.
func hasTag(n ast.Node, stage string) bool {
	tag := StageTag(stage)
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil && s == tag {
				found = true
			}
		}
		return !found
	})
	return found
}

// logger is how a probe logs at one place: through a logr.Logger in scope,
// klog.FromContext of a context in scope, or klog's structured functions.
type logger struct {
	file       string
	klog       string // the name klog is (or will be) imported under
	needImport bool
	recv       string // expression of the logger ("" for klog.InfoS)
	scope      *types.Scope
	at         token.Pos
	kmeta      *types.Interface
}

func (a *analysis) logger(fi fileInfo, at token.Pos) logger {
	lg := logger{file: a.tree.Fset.File(at).Name(), at: at}
	if kp := a.lookupPackage(klogPath); kp != nil {
		if tn, ok := kp.Scope().Lookup("KMetadata").(*types.TypeName); ok {
			lg.kmeta, _ = tn.Type().Underlying().(*types.Interface)
		}
	}
	lg.klog, lg.needImport = klogName(fi)
	lg.scope = fi.pkg.Scope().Innermost(at)
	if v := lg.varOf(func(t types.Type) bool { return typeKey(t) == typeLogger }); v != "" {
		lg.recv = v
	} else if v := lg.varOf(func(t types.Type) bool { return typeKey(t) == "context.Context" }); v != "" {
		lg.recv = lg.klog + ".FromContext(" + v + ")"
	}
	return lg
}

// varOf names a variable visible at the probe whose type satisfies ok,
// nearest scope first.
func (lg logger) varOf(ok func(types.Type) bool) string {
	for s := lg.scope; s != nil && s != types.Universe; s = s.Parent() {
		for _, name := range s.Names() {
			v, isVar := s.Lookup(name).(*types.Var)
			if !isVar || name == "_" || !ok(v.Type()) {
				continue
			}
			if _, found := lg.scope.LookupParent(name, lg.at); found != v {
				continue
			}
			return name
		}
	}
	return ""
}

// call is the logging statement of a stage with its key/value pairs.
func (lg logger) call(stage, kv string) string {
	args := strconv.Quote(StageTag(stage))
	if kv != "" {
		args += ", " + kv
	}
	if lg.recv != "" {
		return lg.recv + ".Info(" + args + ")"
	}
	return lg.klog + ".InfoS(" + args + ")"
}

// implementsKMetadata says klog.KObj takes a value of type t as it is.
func (lg logger) implementsKMetadata(t types.Type) bool {
	return lg.kmeta != nil && types.Implements(t, lg.kmeta)
}

// klogName is the name a file imports klog under, or the name to import it
// under when it does not.
func klogName(fi fileInfo) (string, bool) {
	for _, imp := range fi.file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == klogPath {
			if imp.Name == nil {
				return "klog", false
			}
			if imp.Name.Name != "_" && imp.Name.Name != "." {
				return imp.Name.Name, false
			}
		}
	}
	taken := map[string]bool{}
	for _, imp := range fi.file.Imports {
		if pn := fi.info.PkgNameOf(imp); pn != nil {
			taken[pn.Name()] = true
		}
	}
	for _, name := range []string{"klog", "klogv2"} {
		if !taken[name] && fi.pkg.Scope().Lookup(name) == nil {
			return name, true
		}
	}
	return "klogv2stage", true
}

// sortProbes orders probes by file and offset.
func sortProbes(ps []Probe) {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].File != ps[j].File {
			return ps[i].File < ps[j].File
		}
		return ps[i].Offset < ps[j].Offset
	})
}
