package locate

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
)

// locator answers one row of the table for one controller, in the manner of
// a go/analysis Analyzer: it declares its row, and it reads what other
// locators found through the memoised getters of its pass, never through
// state another locator wrote.
type locator struct {
	Topic
	run func(*pass) Row
}

// locators are the table's rows, in table order. A row id leads to its
// line here and from there to the one function that answers it.
var locators = []locator{
	{Topic{RowEntry, "the reconcile entry point",
		"the Reconcile method, or the client-go sync function the worker hands keys to"}, entryRow},
	{Topic{RowReread, "where the object is re-read",
		"the Get of the primary object by the request's key"}, rereadRow},
	{Topic{RowFinalizerConst, "the finalizer constant",
		"the constant naming the controller's own finalizer"}, finalizerConstRow},
	{Topic{RowFinalizerAdd, "where the finalizer is added",
		"where the reconcile adds it to the primary object"}, finalizerAddRow},
	{Topic{RowFinalizerCleanup, "the finalizer's cleanup",
		"the function the deletion branch runs before the finalizer goes"}, finalizerCleanupRow},
	{Topic{RowFinalizerRemove, "where the finalizer is removed",
		"where the cleanup removes it"}, finalizerRemoveRow},
	{Topic{RowConditionTypes, "the status condition types",
		"each condition type set on the primary object, at its constant, with one set site"}, conditionTypesRow},
	{Topic{RowRequeueError, "the requeue on error",
		"the failure return (or AddRateLimited) that brings the object back"}, requeueErrorRow},
	{Topic{RowRequeueSuccess, "the requeue on success",
		"the return (or AddAfter) that brings a reconciled object back after an interval"}, requeueSuccessRow},
}

// Rows lists the row ids in the order the table shows them.
var Rows = func() []string {
	var ids []string
	for _, l := range locators {
		ids = append(ids, l.ID)
	}
	return ids
}()

// Locate finds every controller of a loaded tree and answers its rows. It
// also returns the warnings met on the way (a CRD file that is not YAML),
// with paths relative to the tree.
//
// A defect of ctrlcmp's own that panics while the controllers are found is
// returned as an error (never as "no controller found"); one that panics
// while a controller's rows are answered leaves that controller's rows not
// settled, saying so, and the others answered. A tree whose registrations
// or workers were seen but could not be followed to any controller gives
// an error that says so ("not settled", with where each trail ended). A
// cancelled ctx ends it before the next controller, with ctx's error.
func Locate(ctx context.Context, tree *load.Tree, prog *callgraph.Program, c *cite.Citer) (ctrls []Controller, warnings []string, err error) {
	a := newAnalysis(tree, prog, c)
	var found []*found
	if err := internalError(func() { found = a.findControllers() }); err != nil {
		return nil, a.warnings, fmt.Errorf("finding the controllers: %w", err)
	}
	if len(found) == 0 && len(a.misses) > 0 {
		return nil, a.warnings, a.notFound()
	}
	for _, f := range found {
		if f.entry == nil {
			continue
		}
		a.entries = append(a.entries, f.entry)
		if f.entry.Signature.Recv() != nil {
			a.entryRecvs = append(a.entryRecvs, deref(f.entry.Signature.Recv().Type()))
		}
	}
	var out []Controller
	for _, f := range found {
		if err := ctx.Err(); err != nil {
			return nil, a.warnings, err
		}
		var ctrl Controller
		if f.unsettled != "" {
			ctrl = failedController(f, errors.New(f.unsettled))
			ctrl.Stages = map[string]Row{}
			for _, id := range StageIDs {
				ctrl.Stages[id] = none("not settled: " + f.unsettled)
			}
			out = append(out, ctrl)
			continue
		}
		if err := internalError(func() { ctrl = a.controller(f) }); err != nil {
			ctrl = failedController(f, err)
			a.warn(fmt.Sprintf("%s: its rows are not settled: %v", f.name, err))
		}
		out = append(out, ctrl)
	}
	out = dropUnplaced(found, out)
	if len(out) == 0 && len(a.misses) > 0 {
		return nil, a.warnings, a.notFound()
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Name < out[j].Name
	})
	return out, a.warnings, nil
}

// dropUnplaced leaves out the controllers found by their Reconcile method
// alone whose kind the re-read does not settle, or that another controller
// has: a wrapper delegating to reconcilers registered elsewhere, or a
// second reconciler of a kind whose registered one is the controller. A
// registration whose reconciler was not followed (missed) gives way to any
// controller located with its kind, and is not reported when it is all
// there is (the tree then gets the not-found error, which lists it).
func dropUnplaced(found []*found, ctrls []Controller) []Controller {
	registered, located := map[string]bool{}, map[string]bool{}
	for i, f := range found {
		if !f.unregistered && !f.missed {
			registered[ctrls[i].Kind] = true
		}
		if !f.missed {
			located[ctrls[i].Kind] = true
		}
	}
	var out []Controller
	missed := 0
	for i, f := range found {
		if f.unregistered && (ctrls[i].Kind == "" || registered[ctrls[i].Kind]) || f.missed && located[ctrls[i].Kind] {
			continue
		}
		if f.missed {
			missed++
		}
		out = append(out, ctrls[i])
	}
	if missed == len(out) {
		return nil
	}
	return out
}

// ownModule prefixes the names of ctrlcmp's own functions.
const ownModule = "github.com/ctrlcmp/ctrlcmp/"

// internalError runs do and returns the panic it ends with, if any, as an
// error naming where it happened: a defect of ctrlcmp's, to report.
func internalError(do func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			// Where: the first frame of ctrlcmp's own code, else the
			// first outside the runtime.
			where := "an unknown place"
			pcs := make([]uintptr, 64)
			frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
			for {
				fr, more := frames.Next()
				if strings.HasPrefix(fr.Function, ownModule) {
					where = fmt.Sprintf("%s:%d", filepath.Base(fr.File), fr.Line)
					break
				}
				if where == "an unknown place" && !strings.HasPrefix(fr.Function, "runtime.") {
					where = fmt.Sprintf("%s:%d", filepath.Base(fr.File), fr.Line)
				}
				if !more {
					break
				}
			}
			err = fmt.Errorf("internal error in ctrlcmp (%v, at %s); please report it with the tree", r, where)
		}
	}()
	do()
	return nil
}

// failedController is a found controller whose analysis failed: every row
// not settled, with the reason.
func failedController(f *found, err error) Controller {
	rows := map[string]Row{}
	for _, l := range locators {
		rows[l.ID] = none("not settled: " + err.Error())
	}
	kind := ""
	if f.kind != nil {
		kind = f.kind.Obj().Name()
	}
	return Controller{Name: f.name, Kind: kind, Style: f.style, Rows: rows, Writes: []Write{}, Drift: []Step{}, Unsettled: err.Error()}
}

// controller runs every locator on one found controller, then writes the
// answers under the table (writes, traces, drift) and, for a client-go
// controller or a generated reconciler, its stages.
func (a *analysis) controller(f *found) Controller {
	p := &pass{a: a, f: f, reach: a.reachOf(f)}
	rows := map[string]Row{}
	for _, l := range locators {
		rows[l.ID] = l.run(p)
	}
	if f.style == StyleGenerated {
		p.generatedRows(rows)
	}
	unanalysed := append(append([]*ssa.Function(nil), p.reach.Unanalysed...), f.unanalysed...)
	unsettled(rows, unanalysed)
	handledThrough(rows, p.reread())
	finalizerAgreement(rows)
	at, inst, shared := p.a.sharedInstanceCall(f.entry)
	sharedWhy := ""
	if shared {
		sharedWhy = fmt.Sprintf("not settled: the reconcile path runs %s, an instance of a generic function whose call at %s runs, in other instances, functions this path does not reach; the searches read calls by their syntax, which the instances share, and do not tell them apart", p.a.funcName(inst), fileLine(at))
		unsettleRows(rows, instanceRows, sharedWhy)
	}
	a.fieldRequeues(f, rows)
	kindName := ""
	if k := p.kind(); k != nil {
		kindName = k.Obj().Name()
		if typeKey(k) == typePartialObjectMetadata {
			if named := registeredKind(f); named != nil {
				kindName = named.Obj().Name()
			}
		}
	} else {
		kindUnknown(rows, f, p.kindFreeRows())
	}
	ctrl := Controller{Name: f.name, Kind: kindName, Style: f.style, Rows: rows, Writes: p.writes()}
	if slices.Contains(unanalysed, f.entry) {
		// The entry's body does not type-check: what one pass writes,
		// and where drift is compared, are read from its syntax only.
		ctrl.Unsettled = fmt.Sprintf("%s, the entry, could not be analysed (type errors; see the warnings): what it writes and compares is not followed", a.funcName(f.entry))
	}
	if shared {
		// Which writes run on every pass is read the same way.
		ctrl.Writes = slices.Clone(ctrl.Writes)
		for i := range ctrl.Writes {
			ctrl.Writes[i].Always = false
			ctrl.Writes[i].Note = strings.TrimPrefix(ctrl.Writes[i].Note+"; "+sharedWhy, "; ")
		}
	}
	// The traces start at a requeue the rows settled (fieldRequeues).
	traced := func(id string) bool {
		return !shared && (f.delegate == nil && f.strategies == nil || !strings.HasPrefix(rows[id].None, "not settled"))
	}
	if s := p.requeues().success; s != nil && traced(RowRequeueSuccess) {
		ctrl.IntervalTrace = a.intervalTrace(p.kind(), p.reach, s.in, s.at, s.duration)
		if s.note != "" {
			ctrl.IntervalTrace[0].Note = joinNotes(ctrl.IntervalTrace[0].Note, s.note)
		}
	}
	if r := p.requeues().retry; r != nil && traced(RowRequeueError) {
		ctrl.RetryTrace = a.intervalTrace(p.kind(), p.reach, r.in, r.at, r.duration)
	}
	ctrl.Drift = a.drift(p.reach, p.kind(), a.objectVars(p.reach, p.reread()))
	if f.style == StyleGenerated {
		ctrl.Drift = p.generatedDrift(ctrl.Drift)
	}
	ctrl.Drift = append(ctrl.Drift, a.unreadDrift(unanalysed, p.reach)...)
	if len(ctrl.Drift) == 0 {
		ctrl.Drift = a.driftUnproven(p.reach, p.kind(), rows)
	}
	if ctrl.Drift == nil {
		ctrl.Drift = []Step{}
	}
	switch f.style {
	case StyleClientGo:
		ctrl.Stages, ctrl.Anchors = a.stages(p)
		unsettled(ctrl.Stages, unanalysed)
	case StyleGenerated:
		ctrl.Stages = a.generatedStages(p)
		unsettled(ctrl.Stages, unanalysed)
	}
	return ctrl
}

// unsettled marks the rows without an answer as not settled when functions
// on the reconcile path (or the worker) could not be analysed: no row they
// might answer can be said to have no answer.
func unsettled(rows map[string]Row, unanalysed []*ssa.Function) {
	if len(unanalysed) == 0 {
		return
	}
	var names []string
	for _, fn := range unanalysed {
		names = append(names, cite.ObjectName(fn.Object().(*types.Func)))
	}
	for id, r := range rows {
		if _, ok := r.Primary(); !ok {
			r.None = fmt.Sprintf("not settled: %s, on the reconcile path, could not be analysed (type errors; see the warnings) and may hold the answer; without it: %s", strings.Join(names, ", "), r.None)
			rows[id] = r
		}
	}
}

// kindRows are the rows whose search looks for the primary kind's own
// operations (its finalizers, its status conditions).
var kindRows = []string{RowFinalizerConst, RowFinalizerAdd, RowFinalizerCleanup, RowFinalizerRemove, RowConditionTypes}

// handledThrough marks the kind rows without an answer as not settled when
// the entry reads the primary object as an interface or a type parameter:
// what is done to it there goes through the interface's methods, which
// those searches do not see as the kind's operations.
func handledThrough(rows map[string]Row, r reread) {
	if r.through == nil {
		return
	}
	for _, id := range kindRows {
		row, ok := rows[id]
		if _, has := row.Primary(); !ok || has || strings.HasPrefix(row.None, "not settled") {
			continue
		}
		row.None = fmt.Sprintf("not settled: the primary object is handled as %s at %s, through which the search cannot see what is done to it; without it: %s",
			shortType(r.throughType), fileLine(*r.through), row.None)
		rows[id] = row
	}
}

// registeredKind is the one kind a registration names (its For, or its
// one watch), or nil.
func registeredKind(f *found) *types.Named {
	if f.kind != nil {
		return f.kind
	}
	if len(f.watched) == 1 {
		return f.watched[0]
	}
	return nil
}

// finalizerAgreement keeps the finalizer rows from contradicting each
// other. A finalizer whose constant or removal is not settled leaves no row
// saying there is none (a constant or removal cited with no addition is a
// finalizer this controller never adds: a legacy one it lets go, which
// the add row's none states); and a
// removal of the finalizer (cited or not settled) with no deletion branch
// leading to it leaves the cleanup not settled: the test that chooses the
// removal is made where the search does not look (an event handler), not
// nowhere.
func finalizerAgreement(rows map[string]Row) {
	var seen []string
	for _, id := range []string{RowFinalizerConst, RowFinalizerRemove} {
		if r := rows[id]; len(r.Sites) == 0 && strings.HasPrefix(r.None, "not settled") {
			seen = append(seen, fmt.Sprintf("the %s row is not settled", id))
		}
	}
	if len(seen) > 0 {
		for _, id := range []string{RowFinalizerConst, RowFinalizerAdd, RowFinalizerRemove, RowFinalizerCleanup} {
			if r := rows[id]; len(r.Sites) == 0 && strings.HasPrefix(r.None, "no finalizer") {
				r.None = fmt.Sprintf("not settled: a finalizer is seen (%s), so the search that found none here is not complete; without it: %s", seen[0], r.None)
				rows[id] = r
			}
		}
		// A cleanup cited as what the deletion branch runs with no
		// finalizer rests on that search too: a finalizer's cleanup may
		// be another function of the branch.
		if r := rows[RowFinalizerCleanup]; r.None == "" && len(r.Sites) > 0 && r.Sites[0].Note == noFinalizerGuards {
			for i := range r.Sites {
				r.Sites[i].Primary = false
			}
			r.None = fmt.Sprintf("not settled: %s, so whether a finalizer guards the deletion branch is not known; without one, its cleanup is %s (%s)", seen[0], r.Sites[0].Func, fileLine(r.Sites[0]))
			rows[RowFinalizerCleanup] = r
		}
	}
	cleanup, remove := rows[RowFinalizerCleanup], rows[RowFinalizerRemove]
	_, removed := remove.Primary()
	if len(cleanup.Sites) == 0 && strings.HasPrefix(cleanup.None, noDeletionBranch) && (removed || strings.HasPrefix(remove.None, "not settled")) {
		cleanup.None = "not settled: the finalizer is removed (the finalizer-remove row), but " + cleanup.None + ": the test that chooses the removal is made where the search does not look (an event handler, a helper the entry does not reach)"
		rows[RowFinalizerCleanup] = cleanup
	}
}

// kindUnknown marks the kind rows as not settled when the controller's
// kind is not known (no registration names it, nothing is read by the
// key): a search for the primary object's finalizers or conditions cannot
// be complete without the primary, and what it finds may be another
// object's; but not a none that holds for every kind (free: nothing on
// the path names a finalizer, or a condition). For a queue of events
// the re-read is not settled too: the item carries the object, and a read
// by the carried object's name is not followed.
func kindUnknown(rows map[string]Row, f *found, free map[string]bool) {
	ids := slices.DeleteFunc(slices.Clone(kindRows), func(id string) bool {
		// Proven for every kind: nothing on the path names it.
		r := rows[id]
		if !free[id] || r.None == "" || len(r.Sites) > 0 || strings.HasPrefix(r.None, "not settled") {
			return false
		}
		r.None += "; the controller's kind is not known, but nothing on the reconcile path names one, whatever the kind"
		rows[id] = r
		return true
	})
	if f.events {
		ids = append(ids, RowReread)
	}
	unsettleRows(rows, ids, "not settled: the controller's kind is not known (no registration names it and nothing is read by the key), so the search for the primary object's own operations is not complete")
}

// unsettleRows marks rows not settled for a reason (one starting "not
// settled: "), keeping what they found as sites that are no longer
// primary: what was found may be another object's, or another
// instance's.
func unsettleRows(rows map[string]Row, ids []string, why string) {
	for _, id := range ids {
		row, ok := rows[id]
		if !ok || strings.HasPrefix(row.None, "not settled") {
			continue
		}
		if _, has := row.Primary(); has {
			row.Sites = slices.Clone(row.Sites)
			var at []string
			for i := range row.Sites {
				row.Sites[i].Primary = false
				at = append(at, fileLine(row.Sites[i]))
			}
			row.None = why + "; found without it: " + listSites(at)
		} else {
			row.None = why + "; without it: " + row.None
		}
		rows[id] = row
	}
}

// pass is one controller under analysis. Its getters compute, once, what
// several locators and answers share.
type pass struct {
	a     *analysis
	f     *found
	reach *callgraph.Reach

	rereadDone bool
	rereadRes  reread
	finOps     *finalizerOps
	cleanupRes *cleanup
	requeueRes *requeues
	writesRes  []Write
}

// reread is the Get of the primary object by the request's key.
type reread struct {
	row Row
	// kind is the type read; pos the call.
	kind *types.Named
	pos  token.Pos
	// fn is the function that makes the read.
	fn *ssa.Function
	// through is the read, when the entry reads the object as an
	// interface or a type parameter (throughType): the locators that
	// search for the kind's own operations cannot see them there.
	through     *Site
	throughType types.Type
}

// requeues are a controller's requeue rows and the timed requeues whose
// durations the traces follow.
type requeues struct {
	onError, onSuccess Row
	// success and retry are the requeues after success and after a
	// failure, when they wait a duration.
	success, retry *timedRequeue
	// successReturns are a reconciler's returns that requeue after success.
	successReturns []token.Pos
}

func (p *pass) reread() reread {
	if !p.rereadDone {
		p.rereadDone = true
		p.rereadRes = p.a.reread(p.f, p.reach)
	}
	return p.rereadRes
}

// kind is the primary type: the one the registration's For names, else the
// one the entry re-reads (among the watched types, when the registration
// watches several), else the one type watched.
func (p *pass) kind() *types.Named {
	if k := p.reread().kind; k != nil && typeKey(k) == typePartialObjectMetadata {
		// The object is held as its metadata: the searches follow
		// that type (its name is the registration's, kindName).
		return k
	}
	if p.f.kind != nil {
		return p.f.kind
	}
	if k := p.reread().kind; k != nil {
		return k
	}
	if len(p.f.watched) == 1 {
		return p.f.watched[0]
	}
	return nil
}

func (p *pass) finalizers() *finalizerOps {
	if p.finOps == nil {
		p.finOps = p.a.finalizerOps(p.reach.Funcs(), p.kind())
	}
	return p.finOps
}

func (p *pass) cleanup() *cleanup {
	if p.cleanupRes == nil {
		p.cleanupRes = p.a.cleanup(p.reach, p.kind(), p.finalizers().removes)
	}
	return p.cleanupRes
}

func (p *pass) requeues() *requeues {
	if p.requeueRes == nil {
		switch {
		case p.f.style == StyleClientGo && p.f.worker == nil && p.f.depWorker.IsValid():
			p.requeueRes = p.a.depWorkerRequeues(p.f, p.kind())
		case p.f.style == StyleClientGo:
			p.requeueRes = p.a.queueRequeues(p.f, p.reach, p.kind(), p.reread())
		case p.f.style == StyleGenerated:
			p.requeueRes = p.a.generatedRequeues(p.f)
		default:
			p.requeueRes = p.a.resultRequeues(p.f, p.reach, p.kind())
			p.a.dispatchedAway(p.requeueRes, p.f.entry, p.reach, p.reread().fn)
		}
	}
	return p.requeueRes
}

// writes are every write the reconcile can make, each marked when a pass
// that succeeds always makes it.
func (p *pass) writes() []Write {
	if p.writesRes == nil {
		normal, open := p.a.normalReturns(p.f, p.kind(), p.reach, p.requeues().successReturns, p.reread().pos)
		p.writesRes = p.a.writes(p.f, p.kind(), p.reach, normal, open)
		if p.writesRes == nil {
			p.writesRes = []Write{}
		}
	}
	return p.writesRes
}

// entryRow cites the entry, then where the controller is wired up.
func entryRow(p *pass) Row {
	entry := p.a.funcSite(p.f.entry)
	entry.Primary = true
	if p.f.unregistered {
		entry.Note = "a Reconcile method taking a reconcile.Request; no registration or worker that ctrlcmp follows leads to it, so where the controller is wired up is not cited"
	}
	return Row{Sites: append([]Site{entry}, p.f.registration...)}
}

func rereadRow(p *pass) Row { return p.reread().row }

// conditionTypesRow answers the condition types. A controller of another
// style than the generated one may keep its object's conditions in a
// Knative duck status, set through the kind's condition set
// (set.Manage(status).MarkTrue(t), in the kind's own methods): when no
// condition reaches the primary's conditions list any other way, those
// the condition managers set are the answer, as for a generated
// reconciler, and a type they could not follow leaves the row not
// settled rather than none.
func conditionTypesRow(p *pass) Row {
	row := p.a.conditionTypes(p.kind(), p.reach)
	if len(row.Sites) > 0 || strings.HasPrefix(row.None, "not settled") {
		return row
	}
	// A manager's call seen on the reconcile path, not the kind's methods
	// merely being out of sight in a dependency, is what changes the answer.
	if managed := p.managedConditions(); len(managed.Sites) > 0 || strings.Contains(managed.None, "through a condition set at ") {
		return managed
	}
	return row
}

func requeueErrorRow(p *pass) Row { return p.requeues().onError }

func requeueSuccessRow(p *pass) Row { return p.requeues().onSuccess }
