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
)

// found is a controller before its rows are located.
type found struct {
	name  string
	style string
	// kind is the primary type, when the registration names it (pass.kind
	// falls back on the type re-read).
	kind *types.Named
	// watched are the types a registration without a For watches (the
	// primary among them is the one the reconcile reads by the request's
	// key).
	watched []*types.Named
	// entry is the reconcile entry: Reconcile, or the client-go sync function.
	entry *ssa.Function
	// worker is the client-go function that dequeues keys (nil otherwise,
	// or when it was left out because of type errors).
	worker *ssa.Function
	// depWorker is, for a sync function a dependency's worker runs
	// (find_depworkers.go), that worker's call of it.
	depWorker token.Pos
	// handing is, for a sync function handed to a shared worker, the call
	// that hands it (runWorker(name, c.queue, c.sync)).
	handing *ast.CallExpr
	// unanalysed are the functions beyond the reconcile path that the
	// rows depend on (the worker's declaration) and that were left out
	// because of type errors.
	unanalysed []*ssa.Function
	// keyParams are the entry's parameters that carry the request's key.
	keyParams map[*types.Var]bool
	// registration cites where the controller is wired up.
	registration []Site
	// handoff is, for a worker that reads the object by the key itself
	// (it is then the entry), where it hands the object to the work.
	handoff token.Pos
	// events says the queue's items are events that carry the object, not
	// keys (a FIFO popped with a process function, a channel of events).
	events bool
	// adapter is, for an object reconciler a library adapter makes a
	// reconciler of, where the library reads the object.
	adapter *adapterRead
	// impl is, for a generated reconciler, the hand-written ReconcileKind
	// it runs (one generated reconciler may be handed several types, a
	// controller each).
	impl *ssa.Function
	// delegate is, for a function a registered wrapper runs from a field,
	// one of several (find_delegates.go), the wrapper and its call.
	delegate *fieldDelegate
	// strategies is, for a wrapper whose functions run from a field read
	// no kinds of their own, that call: which of them a pass runs is
	// chosen at construction.
	strategies *fieldDelegate
	// unregistered says no registration or worker led to the entry: a
	// Reconcile method found by its signature alone.
	unregistered bool
	// unsettled says why the controller's entry is not known (a sync
	// function handed to a shared worker that ctrlcmp could not follow):
	// entry is then nil and every row is not settled.
	unsettled string
	// missed says the controller is a registration naming its kind whose
	// reconciler was not followed (unsettled says why): it gives way to a
	// controller located with the same kind.
	missed bool
}

// adapterRead is the read of the object by the request's key that a
// library adapter does before it calls the object reconciler: the
// adapter's call in the tree, and the read in the library's source (nil
// when it is not found there).
type adapterRead struct {
	call Site
	read *Site
}

// miss is a registration or a worker that gave no controller: where it is,
// and why the trail ended there (a gap of ctrlcmp's, said as such when no
// controller is found at all), with the one kind the registration names,
// when it names one.
type miss struct {
	at   Site
	why  string
	kind *types.Named
}

// timedRequeue is a requeue after a duration: where it is asked for, and
// the duration.
type timedRequeue struct {
	in       *ssa.Function
	at       ast.Node
	duration ast.Expr
	// note, when set, says why the trace starts at this requeue though
	// the row did not settle it (waits that rank alike, all traced to
	// the same fields).
	note string
}

// ownFuncs lists the tree's function declarations with bodies in a stable
// order (computed once: every controller's locators walk it).
func (a *analysis) ownFuncs() []*ast.FuncDecl {
	if a.funcDecls == nil {
		for _, fd := range a.decls {
			if fd.Body != nil {
				a.funcDecls = append(a.funcDecls, fd)
			}
		}
		sort.Slice(a.funcDecls, func(i, j int) bool { return a.funcDecls[i].Pos() < a.funcDecls[j].Pos() })
	}
	return a.funcDecls
}

// allCalls visits every call in a declaration, closures included. The calls
// of a declaration are resolved once, however many locators ask.
func (a *analysis) allCalls(fd *ast.FuncDecl, visit func(call)) {
	cs, ok := a.declCalls[fd]
	if !ok {
		info := a.infoAt(fd.Pos())
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if e, ok := n.(*ast.CallExpr); ok {
				cs = append(cs, a.makeCall(info, e, nil))
			}
			return true
		})
		a.declCalls[fd] = cs
	}
	for _, c := range cs {
		visit(c)
	}
}

// findControllers finds every controller-runtime reconciler registered with a
// manager, every client-go worker/sync pair and every generated reconciler.
func (a *analysis) findControllers() []*found {
	var out []*found
	seen := map[*ssa.Function]bool{}
	// One reconciler type registered for several kinds is a controller
	// per kind.
	type entryKind struct {
		entry *ssa.Function
		kind  *types.Named
	}
	seenKind := map[entryKind]bool{}
	var inLibrary []miss
	for _, fd := range a.ownFuncs() {
		inLibrary = append(inLibrary, a.libraryRegistrations(fd)...)
		for _, f := range a.findRegistered(fd) {
			if k := (entryKind{f.entry, f.kind}); !seenKind[k] {
				seenKind[k] = true
				seen[f.entry] = true
				out = append(out, f)
			}
		}
		for _, f := range append(append(a.findWorkers(fd), a.findEventWorkers(fd)...), a.findDepWorkers(fd)...) {
			if f.entry == nil {
				out = append(out, f)
				continue
			}
			if !seen[f.entry] {
				seen[f.entry] = true
				out = append(out, f)
			}
		}
		out = a.addGenerated(fd, out, seen)
	}
	out = a.ownKinds(out)
	out = slices.DeleteFunc(out, func(f *found) bool {
		// A function a wrapper runs from a field that is registered
		// itself too is that registration's controller.
		return f.delegate != nil && slices.ContainsFunc(out, func(o *found) bool { return o.delegate == nil && o.entry == f.entry })
	})
	nameByEntry(out)
	if len(a.misses) > 0 {
		// A registration whose reconciler ctrlcmp could not follow:
		// the reconcilers no trail led to may be what it runs.
		out = append(out, a.unregisteredReconcilers(out)...)
		out = append(out, missedKinds(out, a.misses)...)
	}
	// A library's registration runs the library's reconciler, no
	// reconciler of the tree's.
	return append(out, missedKinds(out, inLibrary)...)
}

// missedKinds are the registrations that name one kind and whose
// reconciler was not followed, when some controllers were found: each is a
// controller of that kind whose every row is not settled, saying where the
// trail ended, unless a found controller has the kind.
func missedKinds(out []*found, misses []miss) []*found {
	var more []*found
	for _, m := range misses {
		hasKind := func(f *found) bool { return f.kind != nil && types.Identical(f.kind, m.kind) }
		if m.kind == nil || slices.ContainsFunc(out, hasKind) || slices.ContainsFunc(more, hasKind) {
			continue
		}
		more = append(more, &found{name: m.kind.Obj().Name(), style: StyleControllerRuntime, kind: m.kind, missed: true,
			registration: []Site{m.at},
			unsettled:    fmt.Sprintf("the registration at %s watches %s, but its reconciler was not followed: %s", fileLine(m.at), m.kind.Obj().Name(), m.why)})
	}
	return more
}

// nameByEntry tells apart the controllers that share a name because one
// type runs several workers (a sync and a status sync): when their entries
// are methods of different names, each is named after its entry too,
// Type.Method. (Reconcilers of one type name in several packages keep
// their name: their entries are all Reconcile.)
func nameByEntry(ctrls []*found) {
	entries := map[string]map[string]int{}
	for _, f := range ctrls {
		if f.entry == nil {
			continue
		}
		if entries[f.name] == nil {
			entries[f.name] = map[string]int{}
		}
		entries[f.name][f.entry.Name()]++
	}
	for _, f := range ctrls {
		if f.entry == nil {
			continue
		}
		byEntry := entries[f.name]
		if len(byEntry) > 1 && byEntry[f.entry.Name()] == 1 && f.entry.Signature.Recv() != nil {
			f.name += "." + f.entry.Name()
		}
	}
}

// posOf is the position a site of an SSA function starts at.
func posOf(f *ssa.Function) token.Pos {
	if f.Syntax() != nil {
		return f.Syntax().Pos()
	}
	return f.Pos()
}

// maxMisses bounds the registrations a not-found error lists.
const maxMisses = 5

// notFound is the error for a tree where registrations or workers were
// seen but none could be followed to a controller: a gap of ctrlcmp's,
// said with where each trail ended, not a claim that there is none.
func (a *analysis) notFound() error {
	var parts []string
	for i, m := range a.misses {
		if i == maxMisses {
			parts = append(parts, fmt.Sprintf("and %d more", len(a.misses)-maxMisses))
			break
		}
		parts = append(parts, fmt.Sprintf("at %s, %s", fileLine(m.at), m.why))
	}
	return fmt.Errorf("not settled: no controller could be followed from the %d registration or worker site(s) ctrlcmp saw: %s; the tree has controllers of a style ctrlcmp knows, so this is a gap of ctrlcmp's, not proof that there is none",
		len(a.misses), strings.Join(parts, "; "))
}
