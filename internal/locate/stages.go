package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
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

// AnchorRequeue anchors, with no row of its own (the requeue rows cite
// these sites), the worker's re-add of a key: AddRateLimited after a failed
// pass, AddAfter or Add after a pass that asks to come back.
const AnchorRequeue = "requeue"

// StageIDs lists the stage rows in the order one object meets them.
var StageIDs = []string{StageWatch, StageEnqueue, StageDequeue, StageRead, StageWrite, StageReentry}

// stages answers the stage rows of a client-go controller, and anchors each
// stage site for the log line package stages places there.
func (a *analysis) stages(p *pass) (map[string]Row, []StageAnchor) {
	f, reach, kind := p.f, p.reach, p.kind()
	regs := a.registrations()
	var anchors []StageAnchor
	st := map[string]Row{}
	var prim *registration
	var primAdd handlerFunc
	for _, r := range regs {
		if r.typ == nil || kind == nil || !types.Identical(r.typ, kind) {
			continue
		}
		for _, h := range r.handlers {
			if h.event == eventAdd && prim == nil {
				prim, primAdd = r, h
			}
		}
	}
	kindName := "the primary type"
	if kind != nil {
		kindName = kind.Obj().Name()
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
		var enq []Site
		for _, qc := range a.queueAdds(primAdd.fn) {
			s := a.site(qc.expr.Lparen)
			s.Note = "the key added on the watch path"
			enq = append(enq, s)
			anchors = append(anchors, a.callAnchor(StageEnqueue, qc))
		}
		st[StageEnqueue] = rowOf(enq, "the watch handler of "+kindName+" reaches no workqueue Add")
	}

	anchors = append(anchors, a.watchAnchors(regs)...)

	var deq []Site
	if f.worker != nil {
		// The worker's closures too: a Get wrapped in one it calls.
		for _, fn := range withClosures(f.worker) {
			for _, qc := range a.callsIn(fn) {
				if qc.known && qc.fact.Role == RoleQueueGet {
					deq = append(deq, a.site(qc.expr.Lparen))
					anchors = append(anchors, a.callAnchor(StageDequeue, qc))
				}
			}
		}
	}
	st[StageDequeue] = rowOf(deq, "no workqueue Get in the worker")

	var read []Site
	for _, fn := range reach.Funcs() {
		for _, rc := range a.callsIn(fn) {
			if pos := p.reread().pos; pos.IsValid() && rc.expr.Lparen == pos {
				read = append(read, a.site(rc.expr.Lparen))
				anchors = append(anchors, a.callAnchor(StageRead, rc))
			}
		}
	}
	st[StageRead] = rowOf(read, "no lister Get of "+kindName+" by the key in the sync")

	wcs := a.stageWrites(reach, p.writes())
	for _, w := range wcs {
		anchor := a.callAnchor(StageWrite, w.call)
		anchor.Verb, anchor.Target, anchor.Kind = w.Verb, w.Target, kind
		anchor.Unwatched = unwatched(regs, w)
		anchors = append(anchors, anchor)
	}
	st[StageWrite] = a.writeStage(p, wcs)
	st[StageReentry] = a.reentry(regs, wcs)
	anchors = append(anchors, a.requeueAnchors(f, reach)...)
	return st, anchors
}

// writeStage cites each write of the sync, whether it happens on every
// pass, the calls of the helpers that make them, and the sink recorded
// events go through.
func (a *analysis) writeStage(p *pass, wcs []stageWrite) Row {
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
	}
	seen := map[string]bool{}
	for _, w := range wcs {
		for _, e := range p.reach.Path(w.call.in) {
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
	return rowOf(ws, "the sync makes no write to the API server")
}

// watchAnchors anchors a watch line in every handler registered on an
// informer that reaches a workqueue: each names its informer's kind and its
// event, so that the log says which informer fired.
func (a *analysis) watchAnchors(regs []*registration) []StageAnchor {
	var out []StageAnchor
	for _, r := range regs {
		for _, h := range r.handlers {
			if len(a.queueAdds(h.fn)) == 0 {
				continue
			}
			an := a.watchAnchor(h)
			if r.typ != nil {
				an.Informer = r.typ.Obj().Name()
			}
			out = append(out, an)
		}
	}
	return out
}

// requeueAnchors anchors a requeue line at each re-add of a key in the
// worker (AddRateLimited after a failure, AddAfter or Add after a pass that
// asks to come back) and each AddRateLimited or AddAfter in the sync.
func (a *analysis) requeueAnchors(f *found, reach *callgraph.Reach) []StageAnchor {
	var out []StageAnchor
	seen := map[token.Pos]bool{}
	scan := func(fn *ssa.Function, inWorker bool) {
		for _, c := range a.callsIn(fn) {
			if !c.known || seen[c.expr.Lparen] {
				continue
			}
			var how string
			switch c.fact.Role {
			case RoleQueueAddRateLimited:
				how = RequeueRateLimited
			case RoleQueueAddAfter:
				how = RequeueAfter
			case RoleQueueAdd:
				if !inWorker {
					continue
				}
				how = RequeueNow
			default:
				continue
			}
			seen[c.expr.Lparen] = true
			an := a.callAnchor(AnchorRequeue, c)
			an.Requeue = how
			if how == RequeueAfter {
				an.Delay = c.arg(c.fact.Arg)
			}
			out = append(out, an)
		}
	}
	if f.worker != nil {
		for _, fn := range withClosures(f.worker) {
			scan(fn, true)
		}
	}
	for _, fn := range reach.Funcs() {
		scan(fn, false)
	}
	return out
}

// The requeues of a requeue anchor.
const (
	RequeueRateLimited = "rate-limited"
	RequeueAfter       = "after"
	RequeueNow         = "now"
)

// unwatched says no informer the tree registers watches what a write
// writes: an event record (unless Events are watched), or a kind no
// registration's informer lists. Unknown types are not unwatched.
func unwatched(regs []*registration, w stageWrite) bool {
	if w.Verb == VerbRecord {
		for _, r := range regs {
			if r.typ != nil && r.typ.Obj().Name() == eventKind {
				return false
			}
		}
		return true
	}
	t := writtenType(w.info, w.call)
	if t == nil {
		return false
	}
	for _, r := range regs {
		if r.typ != nil && types.Identical(r.typ, t) {
			return false
		}
	}
	return true
}

// eventKind is the kind recorded events are written as.
const eventKind = "Event"

// StageAnchor is a stage site as a log line is placed at it: the call where
// the stage acts (for the watch, the handler), with the syntax and types of
// the file around it. Package stages writes the probes from it.
type StageAnchor struct {
	Stage string
	// Call is the call where the stage acts; nil for the watch.
	Call *ast.CallExpr
	// Key is the key argument of an enqueue, when the table knows it.
	Key ast.Expr
	// HandlerField is a watch's registration field (AddFunc: …), where a
	// line can wrap the handler: a named function (c.enqueueFoo) may be
	// called from elsewhere too, so its line goes there. HandlerType and
	// HandlerBody are the handler when it is a literal, where the line can
	// go at the top. HandlerName names the handler ("func literal" for a
	// literal).
	HandlerType  *ast.FuncType
	HandlerBody  *ast.BlockStmt
	HandlerField *ast.KeyValueExpr
	HandlerName  string
	// Informer is the kind the watch's informer watches ("" when
	// unknown), and Event the handler's event: add, update or delete.
	Informer, Event string
	// Requeue says how a requeue anchor puts the key back
	// (RequeueRateLimited, RequeueAfter, RequeueNow), with its Delay.
	Requeue string
	Delay   ast.Expr
	// Unwatched marks a write no informer of the tree watches: it never
	// brings the object back.
	Unwatched bool
	// Verb and Target say what a write does; Kind is the primary type.
	Verb, Target string
	Kind         *types.Named
	// Fset, File, Info and Pkg are the syntax and types the anchor is in.
	Fset *token.FileSet
	File *ast.File
	Info *types.Info
	Pkg  *types.Package
}

// callAnchor anchors a stage at a call.
func (a *analysis) callAnchor(stage string, c call) StageAnchor {
	fi, _ := a.fileAt(c.expr.Pos())
	return StageAnchor{Stage: stage, Call: c.expr, Key: c.arg(c.fact.Key),
		Fset: a.tree.Fset, File: fi.file, Info: fi.info, Pkg: fi.pkg}
}

// watchAnchor anchors the watch stage in a handler: at the top of a
// literal, or around a named function at its registration.
func (a *analysis) watchAnchor(h handlerFunc) StageAnchor {
	an := StageAnchor{Stage: StageWatch, HandlerName: "func literal", Event: h.event, HandlerField: h.field}
	if h.lit != nil {
		an.HandlerType, an.HandlerBody = h.lit.Type, h.lit.Body
	} else {
		an.HandlerName = h.fn.Name()
	}
	fi, _ := a.fileAt(h.field.Pos())
	an.Fset, an.File, an.Info, an.Pkg = a.tree.Fset, fi.file, fi.info, fi.pkg
	return an
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

// The probes.
