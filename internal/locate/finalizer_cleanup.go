package locate

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// cleanup is the deletion branch's cleanup: its sites, and the removals of
// the finalizer that it reaches.
type cleanup struct {
	sites   []Site
	removes []finOp
	// inline says the branch calls no function of the tree: its sites are
	// evidence, and the row has no answer.
	inline bool
	// unsettled says why the function run could not be decided (an
	// interface call with several implementations); sites are evidence.
	unsettled string
	// deletes says the function run deletes objects: the work the
	// finalizer holds the object for, its removal left to a later pass.
	deletes bool
	// deleting says the branch is taken only when the object is being
	// deleted: no finalizer can be added to it there.
	deleting bool
	// tied says why the removal is not settled: another deletion branch
	// as deep as this one drops the finalizer inline too.
	tied string
	// dropsOnly says the function run removes the finalizer and saves
	// the object, writing nothing else (release(ctx, obj), a helper for
	// every kind that saves the client.Object it is handed).
	dropsOnly bool
}

// cleanup finds the deletion branch (taken when DeletionTimestamp is set) and
// the function it runs. Of the deletion branches on the reconcile path, the
// first that leads to a removal of the finalizer (in the branch, or through
// a function it calls), or that is taken only when the object is being
// deleted and runs a function deleting objects (the children, whose going
// a later pass waits for before it removes the finalizer), is the one
// (of several such in one function, the one nested least deep: a branch
// under another test is a shortcut); else the first (a branch that only
// logs the deletion is not the cleanup when another one removes the
// finalizer). Of the branches that drop the finalizer inline, the one
// nested least deep (shallowest).
// A branch taken only when the object is being deleted comes before one
// that the object also takes when it is not (if err == nil || deleting &&
// …: the normal path, which tests the deletion again further in), and a
// branch on the deletion of an object of another kind is not the primary's.
// A function that opens by returning when the object is not being deleted
// is itself the one run on the deletion branch (deletionFuncCleanup).
func (a *analysis) cleanup(reach *callgraph.Reach, kind *types.Named, removes []finOp) *cleanup {
	var first, loose, chosen *cleanup
	var inline []nestedCleanup
	var records []Site // deletion branches that only record state
	for _, fn := range reach.Funcs() {
		b := body(fn)
		if b == nil {
			continue
		}
		info := a.infoAt(b.Pos())
		var decisive []nestedCleanup
		for _, d := range a.deletionBranches(info, b, kind) {
			if a.deletionOnOtherKind(info, d.cond, kind) {
				continue
			}
			c, removing, whole := a.deletionFuncCleanup(reach, fn, info, d, removes)
			if !whole {
				c, removing = a.cleanupOf(reach, fn, info, d, kind, removes)
			}
			c.deleting = d.onlyWhenDeleted
			if at, ok := a.recordsDeletion(b, d, c, removing); ok {
				records = append(records, at)
			}
			switch {
			case c.deletes && d.onlyWhenDeleted, removing && d.onlyWhenDeleted && !c.inline:
				decisive = append(decisive, nestedCleanup{c, fn, nesting(b, d.stmt)})
			case removing && d.onlyWhenDeleted:
				// The finalizer dropped inline: the cleanup unless a
				// branch that runs a function removes it, or deletes.
				inline = append(inline, nestedCleanup{c, fn, nesting(b, d.stmt)})
			case removing && loose == nil:
				loose = c
			case first == nil:
				first = c
			}
		}
		if decisive != nil && chosen == nil {
			// A branch nested under another test (if !ready { if
			// deleting { …; remove } }) is a shortcut: the one nested
			// least deep is the main deletion path. The rest of the
			// path is still read for branches that record the deletion.
			chosen = slices.MinFunc(decisive, func(x, y nestedCleanup) int { return x.depth - y.depth }).c
		}
	}
	switch {
	case chosen != nil && chosen.dropsOnly && records != nil:
		return a.recordedElsewhere(chosen, records)
	case chosen != nil:
		return chosen
	case inline != nil && records != nil:
		return a.recordedElsewhere(shallowest(inline), records)
	case inline != nil:
		return shallowest(inline)
	case loose != nil:
		return loose
	case first != nil:
		return first
	}
	return &cleanup{}
}

// deletionBranch is a branch taken when DeletionTimestamp is set, the
// statement that takes it (an if, or a case clause of a switch with no
// tag) and the condition it tests.
type deletionBranch struct {
	branch ast.Node
	stmt   ast.Node
	cond   ast.Expr
	// onlyWhenDeleted says an object that is not being deleted never
	// takes the branch.
	onlyWhenDeleted bool
}

// fallThrough is the statements of a block that follow an if returning
// when the object is not being deleted (if obj.DeletionTimestamp.IsZero()
// { …; return }): the deletion branch the code falls through to.
type fallThrough struct{ from, to token.Pos }

// Pos is where the first statement after the if starts.
func (f fallThrough) Pos() token.Pos { return f.from }

// End is where the block's last statement ends.
func (f fallThrough) End() token.Pos { return f.to }

// clauseBody is the statements of a case clause: its branch, without the
// case expression that tests the deletion.
type clauseBody struct{ cc *ast.CaseClause }

// Pos is where the clause's body starts (after its colon).
func (c clauseBody) Pos() token.Pos { return c.cc.Colon + 1 }

// End is where the clause ends.
func (c clauseBody) End() token.Pos { return c.cc.End() }

// deletionBranches are the deletion branches of a body, in source order
// (not those inside another, nor inside closures): an if's branch taken
// when the object is being deleted, or the statements after an if that
// returns when it is not.
func (a *analysis) deletionBranches(info *types.Info, b *ast.BlockStmt, kind *types.Named) []deletionBranch {
	var out []deletionBranch
	var walk func(ast.Node)
	walk = func(root ast.Node) {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BlockStmt:
				for i, s := range n.List {
					walk(s)
					if ifs, ok := s.(*ast.IfStmt); ok && i+1 < len(n.List) && ifs.Else == nil && returns(ifs.Body) && a.deletionTest(info, ifs.Cond, kind) == -1 {
						out = append(out, deletionBranch{fallThrough{n.List[i+1].Pos(), n.List[len(n.List)-1].End()}, ifs, ifs.Cond, a.impliesDeletion(info, ifs.Cond, false, kind)})
						break
					}
				}
				return false
			case *ast.SwitchStmt:
				// switch { case deleting: … }: a clause whose one
				// expression tests the deletion is the branch taken
				// when it holds (the clauses before it failed, which
				// takes nothing from the deletion).
				if n.Tag != nil || n.Init != nil {
					return true
				}
				for _, s := range n.Body.List {
					cc, ok := s.(*ast.CaseClause)
					if !ok || len(cc.List) != 1 || a.deletionTest(info, cc.List[0], kind) != 1 {
						walk(s)
						continue
					}
					out = append(out, deletionBranch{clauseBody{cc}, cc, cc.List[0], a.impliesDeletion(info, cc.List[0], true, kind)})
				}
				return false
			case *ast.IfStmt:
				switch a.deletionTest(info, n.Cond, kind) {
				case 1:
					out = append(out, deletionBranch{n.Body, n, n.Cond, a.impliesDeletion(info, n.Cond, true, kind)})
					return false
				case -1:
					if n.Else != nil {
						out = append(out, deletionBranch{n.Else, n, n.Cond, a.impliesDeletion(info, n.Cond, false, kind)})
						return false
					}
				}
			}
			return true
		})
	}
	walk(b)
	return out
}

// cleanupOf reads one deletion branch of fn, on the path reach holds: its
// cleanup, and whether the branch leads to a removal of the finalizer.
func (a *analysis) cleanupOf(reach *callgraph.Reach, fn *ssa.Function, info *types.Info, d deletionBranch, kind *types.Named, removes []finOp) (*cleanup, bool) {
	branch := d.branch
	ifSite := a.site(d.stmt.Pos())
	ifSite.Note = "the branch taken when DeletionTimestamp is set"
	// Removals written in the branch itself.
	var inBranch []finOp
	for _, op := range removes {
		if enclosedIn(op.in, fn) && branch.Pos() <= op.pos && op.pos < branch.End() {
			inBranch = append(inBranch, op)
		}
	}
	// The cleanup is the first of the tree's functions the branch calls
	// with the primary object (the work done before the finalizer goes),
	// else the first that reaches a removal, else the first.
	var handed, withObj, reaching, first, lookup, later *call
	var working []call   // the calls of the work handed the primary object
	var workCalls []call // the calls of the work, handed the object or not
	var bestRemoves []finOp
	removedByHelper := false
	removals := a.removalsIn(fn, branch, kind, removes)
	// removalMade are the values the removal's helpers hand back (a
	// patch), which a call persisting the removal is handed.
	removalMade := map[ssa.Value]bool{}
	// A method of an interface the tree does not implement, handed the
	// object and handing back only an error: work, not a lookup.
	var external *call
	for _, c := range a.callsIn(fn) {
		c := c
		if c.expr.Pos() < branch.Pos() || c.expr.End() > branch.End() {
			continue
		}
		if external == nil && len(c.own) == 0 && !c.known && c.fn != nil && isInterfaceMethod(c.fn) && handsObject(info, c, kind) && onlyErrors(c.fn) {
			if after, _ := a.afterRemoval(fn, info, branch, c.expr.Pos(), removals); !after {
				external = &c
			}
		}
		if len(c.own) == 0 || c.known {
			continue
		}
		c.own = a.handedInReach(reach, fn, c.expr, c.own)
		after, onward := a.afterRemoval(fn, info, branch, c.expr.Pos(), removals)
		if h := a.handedFunc(info, c, removes); h != nil && !after {
			// A wrapper or runner handed the work as a function value
			// (wrap(r.reconcileDelete, msg)): the work is that function,
			// before any call handed the object.
			c.own = []*ssa.Function{h}
			if handed == nil {
				handed = &c
			}
		}
		if a.predicate(c, removes) {
			continue // a test (hasFinalizer(obj)), not the work
		}
		if a.removalOnly(c, removes) || a.persistsMade(fn, c, removalMade) {
			// The finalizer's removal moved into a helper or a
			// closure (or a patch built to remove it, and the call
			// that applies that patch): the branch removes it, but
			// that is not the work. Its removals count as the branch's
			// own.
			removedByHelper = true
			maps.Copy(removalMade, madeValues(fn, c.expr))
			sub := a.prog.Reachable(c.own...)
			for _, op := range removes {
				if sub.Has(op.in) && !slices.ContainsFunc(inBranch, func(o finOp) bool { return o.pos == op.pos }) {
					inBranch = append(inBranch, op)
				}
			}
			continue
		}
		if a.computesOnly(c) || a.buildsReceiver(c) || a.handedOn(c, removes) {
			continue // a value (the finalizer's name through a helper, a condition built for a setter, a logger for the object, a line logged), not the work
		}
		if a.notesOnly(c, removes) {
			continue // an Event recorded about the deletion, as a log line would say it: not the work
		}
		if a.savesOnly(c, kind, removes) {
			continue // the object saved (its status, a removal persisted): not the work
		}
		if a.lookup(c, removes) {
			// A read of what the cleanup works on (list the children),
			// not the work: the cleanup only when nothing else is called.
			if lookup == nil {
				lookup = &c
			}
			continue
		}
		if after {
			// Run once the finalizer is gone (or its removal failed):
			// not the work before it, but, when the removal succeeded,
			// what the finalizer may hold the object for if the branch
			// does nothing else.
			if later == nil && onward {
				later = &c
			}
			continue
		}
		if first == nil {
			first = &c
		}
		workCalls = append(workCalls, c)
		if passesKind(info, c, kind) {
			working = append(working, c)
			if withObj == nil {
				withObj = &c
			}
		}
		sub := a.prog.Reachable(c.own...)
		var reached []finOp
		for _, op := range removes {
			if sub.Has(op.in) {
				reached = append(reached, op)
			}
		}
		if reaching == nil && len(reached) > 0 {
			reaching = &c
		}
		bestRemoves = append(bestRemoves, reached...)
	}
	removing := len(inBranch) > 0 || reaching != nil || removedByHelper
	best := cmp.Or(handed, withObj, reaching, first, lookup)
	if external != nil && (best == nil || best != handed && external.expr.Pos() < best.expr.Pos()) {
		// The object handed, first, to an interface's method that no
		// function of the tree implements (a cloud provider's
		// EnsureLoadBalancerDeleted): the work is done there, in what
		// the program is given at run time.
		s := a.site(external.expr.Lparen)
		s.Primary = true
		s.Note = fmt.Sprintf("%s: a method of an interface that no function of the tree implements (but test doubles): the cleanup runs in the implementation the program is given", a.exprText(external.expr.Fun))
		return &cleanup{sites: []Site{s, ifSite}, removes: append(inBranch, bestRemoves...)}, len(inBranch) > 0 || reaching != nil || removedByHelper
	}
	if handed == nil && best == withObj && best != reaching && !a.reportsFailure(info, *best) {
		// The first call handed the object cannot fail (a monitor
		// stopped, a metric dropped): the finalizer holds the object for
		// the work whose failure the branch can see, the first later
		// call handed the object whose error is kept (not a removal).
		for i := range working {
			if a.reportsFailure(info, working[i]) && !a.reachesRemoval(working[i], removes) && !removesAt(working[i], removes) {
				best = &working[i]
				break
			}
		}
	}
	if handed == nil && withObj == nil && best != nil && best == first && best != reaching && !a.reportsFailure(info, *best) {
		// No call is handed the object, and the first cannot fail (a
		// metric dropped by the key): a later call whose failure the
		// branch sees may be the work, as may this one.
		for _, c := range workCalls[1:] {
			if a.reportsFailure(info, c) && !a.reachesRemoval(c, removes) && !removesAt(c, removes) {
				f, l := a.site(best.expr.Lparen), a.site(c.expr.Lparen)
				return &cleanup{sites: []Site{ifSite}, removes: append(inBranch, bestRemoves...),
					unsettled: fmt.Sprintf("the branch taken when DeletionTimestamp is set, at %s:%d, hands the object to no call; its first, %s at %s:%d, cannot fail, and %s at %s:%d, whose failure it returns, may be the work as well: which is the cleanup is not settled", ifSite.File, ifSite.Line, a.exprText(best.expr.Fun), f.File, f.Line, a.exprText(c.expr.Fun), l.File, l.Line)}, removing
			}
		}
	}
	if handed == nil && first != nil && first != best && len(first.own) == 1 && a.deletesObjects(first.own[0]) {
		// The branch's first call deletes objects (the children, by
		// their labels): the work done before the finalizer goes, ahead
		// of a later call handed the object (the finalizer forced off
		// past a timeout, say).
		best = first
	}
	if handed == nil && first != nil && best != nil && first != best && first.expr.Pos() < best.expr.Pos() && a.persistsRemoval(*best, kind, removes) {
		// The call handed the object only removes the finalizer and
		// saves the object, which is not the work: the work, if any, is
		// the branch's first call, before it.
		best = first
	}
	if best == nil && len(inBranch) == 0 && !removedByHelper && slices.ContainsFunc(removes, func(op finOp) bool { return op.whole }) {
		// A branch that neither works nor removes the finalizer, where
		// the finalizers are written whole from a computed list: a
		// function computing what to do (the finalizers to keep) for
		// its caller, whose use of the value is not read here.
		return &cleanup{sites: []Site{ifSite}, unsettled: fmt.Sprintf("the branch taken when DeletionTimestamp is set, at %s:%d, calls no function of the tree and removes no finalizer itself: what its caller does on deletion with the value it makes is not followed", ifSite.File, ifSite.Line)}, removing
	}
	if later != nil && (best == nil && removing || best != nil && best == reaching && best != handed && a.removingSave(*best, kind, removes)) {
		// The branch does no work before the finalizer goes, and some
		// once its removal is persisted (evicting what the controller
		// keeps of the object): the rule does not say which is the
		// cleanup.
		at := a.site(later.expr.Lparen)
		at.Note = "run once the finalizer's removal is persisted"
		sites, what := []Site{ifSite, at}, "none"
		if best != nil {
			s := a.funcSite(best.own[0])
			sites = append(sites, s)
			what = fmt.Sprintf("%s (%s:%d), which only removes the finalizer and saves the object", ownNames(best.own), s.File, s.Line)
		}
		return &cleanup{sites: sites, removes: append(inBranch, bestRemoves...), unsettled: fmt.Sprintf("the branch taken when DeletionTimestamp is set, at %s:%d, does no other work of the tree's before the finalizer goes, and runs %s at %s:%d once its removal is persisted: whether that is the cleanup the finalizer holds the object for, or %s, is not in the code", ifSite.File, ifSite.Line, ownNames(later.own), at.File, at.Line, what)}, removing
	}
	if best == nil && !removing {
		// The branch only leaves (if being deleted { return false }): it
		// neither works nor removes the finalizer.
		ifSite.Note = "the branch taken when DeletionTimestamp is set calls no function of the tree that does work (but to save the object) and removes no finalizer"
		return &cleanup{sites: []Site{ifSite}, inline: true}, removing
	}
	if site, n := a.amongSteps(reach, fn); site != nil && (best == nil || a.removingSave(*best, kind, removes) || a.persistsRemoval(*best, kind, removes)) {
		s := a.site(site.Pos())
		return &cleanup{sites: []Site{ifSite}, removes: inBranch, unsettled: fmt.Sprintf("the branch taken when DeletionTimestamp is set, at %s:%d, drops the finalizer inline in %s, which the dynamic call at %s:%d runs as one of %d functions of the tree (steps run in turn, say): the cleanup may be another of them, run before it", ifSite.File, ifSite.Line, ownNames([]*ssa.Function{fn}), s.File, s.Line, n)}, removing
	}
	if best == nil {
		ifSite.Note = "the branch taken when DeletionTimestamp is set calls no function of the tree that does work (but to save the object): the finalizer is dropped inline, with no cleanup function"
		return &cleanup{sites: []Site{ifSite}, removes: inBranch, inline: true}, removing
	}
	callSite := a.site(best.expr.Lparen)
	callSite.Note = "dispatch"
	if other, test := a.alternativeWork(branch, *best, working); test != nil {
		return &cleanup{sites: []Site{ifSite}, removes: append(inBranch, bestRemoves...),
			unsettled: a.alternativesWhy(*best, other, test)}, removing
	}
	impls := a.implementationsFor(best.own, kind)
	if len(impls) != 1 {
		if len(impls) == 0 {
			impls = best.own
		}
		var names []string
		for _, fn := range impls {
			s := a.funcSite(fn)
			names = append(names, fmt.Sprintf("%s (%s:%d)", fn.String(), s.File, s.Line))
		}
		return &cleanup{sites: []Site{ifSite, callSite}, removes: append(inBranch, bestRemoves...),
			unsettled: fmt.Sprintf("the deletion branch's call at %s:%d may run %s, and the primary type does not decide which", callSite.File, callSite.Line, strings.Join(names, " or "))}, removing
	}
	work := a.delegateEnd(impls[0])
	var dispatch []Site
	if d.onlyWhenDeleted {
		if to, test := a.deletionDispatch(work, kind); to != nil {
			// The work shared with the object's other passes takes its
			// own deletion branch first: on this branch, that is the
			// function run.
			s := a.site(test.Pos())
			s.Note = "the function called on the deletion branch tests the deletion again and hands the work on"
			dispatch = append(dispatch, s)
			work = a.delegateEnd(to)
		}
	}
	primary := a.funcSite(work)
	if why := a.alternativesWithin(work, kind); why != "" {
		// The branch's body moved into a function: its alternatives
		// are still alternatives there.
		return &cleanup{sites: []Site{ifSite, callSite}, removes: append(inBranch, bestRemoves...), unsettled: why}, removing
	}
	if names := a.paramDispatch(work); names != nil {
		primary.Note = "hands the work to its interface-typed parameter"
		return &cleanup{sites: append([]Site{ifSite, callSite, primary}, dispatch...), removes: append(inBranch, bestRemoves...),
			unsettled: fmt.Sprintf("the function run on the deletion branch, %s (%s:%d), only calls methods of an interface-typed parameter, which may run %s: which of them is the cleanup is chosen by its callers' values, not followed", work.String(), primary.File, primary.Line, strings.Join(names, ", "))}, removing
	}
	primary.Primary = true
	deletes := a.deletesObjects(work)
	if best != handed && best != reaching && !deletes && !handsObject(info, *best, kind) && !a.changesOwnState(work) && !(removing && a.keptFailure(info, *best)) {
		// Chosen only as the branch's first call: handed neither the
		// object nor the work, reaching no removal, deleting nothing and
		// changing none of the controller's own state (a cache, a
		// tracker). It may be the work (on an external system, by the
		// object's name) or only say that the object goes (a log line,
		// a metric).
		return &cleanup{sites: []Site{ifSite, callSite}, removes: append(inBranch, bestRemoves...),
			unsettled: fmt.Sprintf("the branch taken when DeletionTimestamp is set, at %s:%d, first calls %s (%s:%d), which is handed neither the object nor the work, reaches no removal of the finalizer, deletes nothing and changes none of the controller's own state: whether it is the cleanup or only notes the deletion is not settled", ifSite.File, ifSite.Line, work.String(), primary.File, primary.Line)}, removing
	}
	if best != handed && best != reaching && !deletes && !handsObject(info, *best, kind) && !a.changesOwnState(work) {
		primary.Note = "handed neither the object nor the work, it hands back only an error, which the branch keeps before the finalizer goes: the work the finalizer holds the object for (on another system, by the object's name)"
	}
	return &cleanup{sites: append([]Site{primary, ifSite, callSite}, dispatch...), removes: append(inBranch, bestRemoves...),
		deletes: deletes, dropsOnly: a.removingSave(*best, kind, removes) || a.persistsRemoval(*best, kind, removes) && a.callsNoWork(*best, removes, 0)}, removing
}

// enclosedIn reports whether inner is fn or a closure written inside it (a
// removal in a closure the branch calls is written in the branch).
func enclosedIn(inner, fn *ssa.Function) bool {
	for ; inner != nil; inner = inner.Parent() {
		if inner == fn {
			return true
		}
	}
	return false
}

// soleCall is the call a block is made of: its one statement returns the
// call's result first, or is the call.
func soleCall(blk *ast.BlockStmt) *ast.CallExpr {
	if len(blk.List) != 1 {
		return nil
	}
	var e ast.Expr
	switch s := blk.List[0].(type) {
	case *ast.ReturnStmt:
		if len(s.Results) > 0 {
			e = s.Results[0]
		}
	case *ast.ExprStmt:
		e = s.X
	}
	c, _ := ast.Unparen(e).(*ast.CallExpr)
	return c
}

// noDeletionBranch is the cleanup row's reason when no deletion branch is
// found.
const noDeletionBranch = "no branch taken when DeletionTimestamp is set is reachable from the entry"

// finalizerCleanupRow cites the function the deletion branch runs.
func finalizerCleanupRow(p *pass) Row {
	if ops := p.finalizers(); ops.absent() {
		// No finalizer, but the primary object's deletion branch may
		// still run a function: that function is the cleanup.
		if c := p.a.unguardedCleanup(p.reach, p.kind()); c != nil {
			if c.unsettled != "" {
				return Row{Sites: c.sites, None: "not settled: " + ops.noFinalizer + ", but " + c.unsettled}
			}
			return rowOf(c.sites, "")
		}
		return ops.none(ops.noFinalizer + "; no branch on DeletionTimestamp needs a cleanup")
	}
	c := p.cleanup()
	if c.inline && len(c.removes) == 0 {
		if op, ok := p.removalElsewhere(c); ok {
			// No deletion branch leads to the removal, made in a
			// function of its own: the finalizer goes on a path
			// DeletionTimestamp does not choose (a phase, a policy),
			// and which function there is its cleanup is not told by
			// the deletion.
			s := p.a.site(op.pos)
			return Row{Sites: c.sites, None: fmt.Sprintf("not settled: %s (%s:%d), and none leads to the removal of the finalizer at %s:%d (%s): the path to it is chosen by something else than DeletionTimestamp",
				c.sites[0].Note, c.sites[0].File, c.sites[0].Line, s.File, s.Line, p.a.funcName(op.in))}
		}
	}
	if c.inline {
		return Row{Sites: c.sites, None: "no cleanup function: " + c.sites[0].Note}
	}
	if c.unsettled != "" {
		return Row{Sites: c.sites, None: "not settled: " + c.unsettled}
	}
	if len(c.sites) == 0 {
		return noneAfter(noDeletionBranch,
			fmt.Sprintf("every if on DeletionTimestamp (!IsZero(), != nil, GetDeletionTimestamp() != nil, and their negations with an else) in the %d functions reachable from the entry", len(p.reach.Funcs())))
	}
	return rowOf(c.sites, "")
}

// removalElsewhere is a removal of the finalizer made in a function other
// than the entry and the one holding the deletion branch c cites (a
// function the pass calls to do the work the finalizer holds the object
// for, then let it go); ok is false when every removal is made in one of
// those two, inline.
func (p *pass) removalElsewhere(c *cleanup) (finOp, bool) {
	for _, op := range p.finalizers().removes {
		if op.in != p.f.entry && p.a.funcName(op.in) != c.sites[0].Func {
			return op, true
		}
	}
	return finOp{}, false
}

// ownNames names the tree's functions a call may run.
func ownNames(fns []*ssa.Function) string {
	var names []string
	for _, fn := range fns {
		names = append(names, fn.String())
	}
	return strings.Join(names, " or ")
}
