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

// conditionTypes finds every condition type the controller sets on its own
// object, each cited at its constant with one set site: the types that flow
// into a condition set on the primary object in a function of the
// reconcile path (condflow.go), those holding type errors included (their
// sites are partial).
func (a *analysis) conditionTypes(kind *types.Named, reach *callgraph.Reach) Row {
	type setSite struct {
		site           Site
		truth, partial bool
	}
	decl := map[string]Site{}
	sets := map[string][]setSite{}
	seenSet := map[string]bool{}
	var names []string
	var lost []string   // where a type could not be followed
	var unsure []string // types set where the path may not run
	// foreign are where conditions copied from another kind's status are
	// stored: types that kind's controller sets, which settle no none.
	var foreign []string
	flow := a.condFlowFor(kind)
	bodies, spans := a.reachedSpans(reach)
	entries := a.entryBodies(reach)
	bound := &binding{f: flow, reach: reach, spans: spans, memo: map[objParam]bindState{}}
	// onPrimary reports whether an effect sets a condition on the primary
	// object on the reconcile path, and how the object is handed to it.
	onPrimary := func(b *flowBody, eff condEffect) (bindState, bool) {
		t := eff.typ
		if eff.target >= 0 || !t.settled() || t.copied || !spans.holds(b, eff.site) {
			return 0, false
		}
		h := handedPrimary
		if eff.via.v != nil {
			h = bound.toPrimary(eff.via)
		}
		// handedOther: handed another object by every caller on the
		// reconcile path.
		return h, h != handedOther
	}
	// mixed are the conditions whose type is a constant on some paths
	// and a value not followed on others, by origin: what they set is
	// not settled.
	mixed := map[string]bool{}
	for _, b := range bodies {
		for _, eff := range flow.summary(b).effects {
			if _, ok := onPrimary(b, eff); ok && !eff.typ.followed() && eff.typ.foreign == "" {
				mixed[eff.origin] = true
			}
		}
	}
	// keep records a followed type set at site.
	keep := func(t typeSource, site token.Pos) {
		name := t.value
		if _, ok := decl[name]; !ok {
			names = append(names, name)
			if t.k != nil {
				decl[name] = a.objSite(t.k)
			} else {
				s := a.site(site)
				s.Note = "a string literal: no constant declares this condition type"
				decl[name] = s
			}
		}
		key := fmt.Sprintf("%s@%d", name, site)
		if seenSet[key] {
			return
		}
		seenSet[key] = true
		sets[name] = append(sets[name], setSite{a.site(site), t.truth, t.partial})
	}
	lose := func(at string) {
		if !slices.Contains(lost, at) {
			lost = append(lost, at)
		}
	}
	for _, b := range bodies {
		if !entries[b] {
			continue
		}
		sum := flow.summary(b)
		for _, eff := range sum.effects {
			t := eff.typ
			if eff.target >= 0 || t.settled() || t.copied || t.param >= len(b.params) || !spans.holds(b, eff.site) {
				continue
			}
			// The entry's own parameter holds the type (a model the
			// worker hands it with the item): the types the entry
			// stores into that parameter are set; what it held before
			// the entry ran is not followed, so the trail ends there
			// too.
			for _, in := range sum.effects {
				if in.target != t.param || !in.typ.settled() || in.typ.copied || !spans.holds(b, in.site) {
					continue
				}
				if in.typ.followed() {
					keep(in.typ, in.site)
					continue
				}
				s := a.site(in.site)
				lose(fmt.Sprintf("%s:%d (%s)", s.File, s.Line, s.Func))
			}
			s := a.site(eff.site)
			lose(fmt.Sprintf("%s:%d (%s; its type is what the entry's parameter %s holds, which may hold conditions from before the entry ran)", s.File, s.Line, s.Func, b.params[t.param].Name()))
		}
	}
	for _, b := range bodies {
		for _, eff := range flow.summary(b).effects {
			t := eff.typ
			h, ok := onPrimary(b, eff)
			if !ok {
				continue
			}
			if t.followed() && mixed[eff.origin] {
				s := a.site(eff.site)
				at := fmt.Sprintf("%s:%d (%s, type %s on some paths, a value not followed on others)", s.File, s.Line, s.Func, t.value)
				if !slices.Contains(unsure, at) {
					unsure = append(unsure, at)
				}
				continue
			}
			if t.followed() && (h == handedMaybe || !spans.madeOnPath(b, eff.site)) {
				// In a closure whose maker the path never calls, or
				// handed the primary only from one: the call graph says
				// a function value may bring it here, not that this
				// one does.
				s := a.site(eff.site)
				at := fmt.Sprintf("%s:%d (%s, type %s, run only through a closure made off the reconcile path, which the call graph says a function value may run)", s.File, s.Line, s.Func, t.value)
				if !slices.Contains(unsure, at) {
					unsure = append(unsure, at)
				}
				continue
			}
			if t.foreign != "" {
				s := a.site(eff.site)
				at := fmt.Sprintf("%s:%d (%s, from a %s's status)", s.File, s.Line, s.Func, t.foreign)
				if !slices.Contains(foreign, at) {
					foreign = append(foreign, at)
				}
				continue
			}
			if !t.followed() {
				s := a.site(eff.site)
				at := fmt.Sprintf("%s:%d (%s)", s.File, s.Line, s.Func)
				if t.end.IsValid() {
					if e := a.site(t.end); e.File != s.File || e.Line != s.Line {
						at = fmt.Sprintf("%s:%d (%s; its type's trail ends at %s:%d, %s)", s.File, s.Line, s.Func, e.File, e.Line, t.why)
					} else if t.why != "" {
						at = fmt.Sprintf("%s:%d (%s; %s)", s.File, s.Line, s.Func, t.why)
					}
				}
				lose(at)
				continue
			}
			keep(t, eff.site)
		}
	}
	for _, at := range a.reflectiveConditions(kind, reach) {
		if !slices.Contains(unsure, at) {
			unsure = append(unsure, at)
		}
	}
	if len(names) == 0 && len(lost)+len(unsure) > 0 {
		if len(lost) == 0 {
			return none("not settled: a condition may be set on the primary object at " + listSites(unsure))
		}
		return none("not settled: a condition is set on the primary object at " + listSites(lost) + ", with a type that could not be followed to a constant")
	}
	if len(names) == 0 {
		if len(foreign) > 0 {
			return none("not settled: no condition type of the tree is set on the primary object, but conditions are copied onto it at " + listSites(foreign) + ": their types are whatever that kind's own controller sets")
		}
		if at, ok := a.appliedCondition(bodies, spans); ok {
			s := a.site(at)
			return none(fmt.Sprintf("not settled: a condition is built as an apply configuration at %s:%d (%s), which ctrlcmp does not follow to the object it is applied to", s.File, s.Line, s.Func))
		}
		if at, ok := a.wholeStatusStore(kind, bodies, spans); ok {
			s := a.site(at)
			return none(fmt.Sprintf("not settled: the status is assigned whole at %s:%d (%s) from a value whose conditions ctrlcmp does not follow to where they are made (a list a helper collects and merges in, say)", s.File, s.Line, s.Func))
		}
		if at, p, ok := heldParamCondition(kind, flow, bodies, spans); ok {
			s := a.site(at)
			return none(fmt.Sprintf("not settled: a condition is set at %s:%d (%s) on what the parameter %s holds, of a type the primary's status holds its conditions in, which ctrlcmp does not tie to the primary object (a status a helper reads afresh and hands to a callback, say)", s.File, s.Line, s.Func, p.Name()))
		}
		if at, ok := a.heldConditionStore(kind, bodies, spans); ok {
			s := a.site(at)
			return none(fmt.Sprintf("not settled: a condition is stored at %s:%d (%s) in a value of a type the primary's status holds its conditions in, which ctrlcmp does not tie to the primary object (a holder of a status copy, say)", s.File, s.Line, s.Func))
		}
		kindName := "the primary object"
		if kind != nil {
			kindName = "the " + kind.Obj().Name()
		}
		if kind != nil && holdsUnstructured(kind) {
			return none(fmt.Sprintf("not settled: %s keeps its content in an unstructured map (%s), where the conditions are set by methods writing the map, which ctrlcmp does not follow; no condition set through a typed Status.Conditions was found", kindName, typeUnstructured))
		}
		if calls := a.unresolvedHanding(reach.Funcs(), kind); len(calls) > 0 && statusHoldsConditions(kind) {
			return none("not settled: no status condition is set on the reconcile path as far as it is read, but the path hands " + kindName + " to calls the call graph resolves to no function, which are not followed: " + listSites(calls))
		}
		return noneAfter("no status condition is set on the primary object on the reconcile path",
			fmt.Sprintf("every store that reaches %s's Status.Conditions (a condition setter of the knowledge table, an append, an index store, a list assigned whole, a helper whose summary sets one) in %s on the reconcile path (%s), with the helpers and library bodies they call", kindName, countOf(len(bodies), "function"), bodyNames(bodies)))
	}
	var out []Site
	for _, name := range names {
		ss := sets[name]
		sort.SliceStable(ss, func(i, j int) bool {
			if ss[i].partial != ss[j].partial {
				return !ss[i].partial
			}
			if ss[i].site.File != ss[j].site.File {
				return ss[i].site.File < ss[j].site.File
			}
			return ss[i].site.Line < ss[j].site.Line
		})
		chosen := ss[0]
		for _, s := range ss {
			if s.truth && s.partial == chosen.partial {
				chosen = s
				break
			}
		}
		d := decl[name]
		d.Name = name
		set := chosen.site.Site
		d.Set = &set
		d.Partial = chosen.partial
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
	if len(lost) > 0 {
		note := "not settled beyond these: a condition is also set at " + listSites(lost) + ", with a type that could not be followed to a constant"
		out[0].Note = strings.TrimPrefix(out[0].Note+"; "+note, "; ")
	}
	if len(unsure) > 0 {
		note := "not settled beyond these: a condition may also be set at " + listSites(unsure)
		out[0].Note = strings.TrimPrefix(out[0].Note+"; "+note, "; ")
	}
	if calls := a.unfollowedCalls(reach); len(calls) > 0 {
		note := "not settled beyond these: functions on the reconcile path could not be analysed (type errors; see the warnings), and the calls they make are not followed: " + listSites(calls)
		out[0].Note = strings.TrimPrefix(out[0].Note+"; "+note, "; ")
	}
	if kind != nil && holdsUnstructured(kind) {
		note := "not settled beyond these: the " + kind.Obj().Name() + " keeps its content in an unstructured map, where conditions set by methods writing the map are not followed"
		out[0].Note = strings.TrimPrefix(out[0].Note+"; "+note, "; ")
	}
	return Row{Sites: out}
}

// appliedCondition is the first place on the reconcile path that makes a
// condition apply configuration (a condition whose Type is a pointer, as
// applyconfiguration-gen makes them), whose way to an object the
// condition flow does not follow.
func (a *analysis) appliedCondition(bodies []*flowBody, sp spans) (token.Pos, bool) {
	at := token.NoPos
	for _, b := range bodies {
		ast.Inspect(b.block(), func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || at.IsValid() {
				return !at.IsValid()
			}
			if applyCondition(b.info.TypeOf(c)) && sp.holds(b, c.Pos()) {
				at = c.Pos()
			}
			return true
		})
		if at.IsValid() {
			return at, true
		}
	}
	return at, false
}

// countOf says how many of a thing there are: "1 function", "3 functions".
func countOf(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// bodyNames names the functions of some bodies, up to six, saying how
// many more there are.
func bodyNames(bodies []*flowBody) string {
	var names []string
	for _, b := range bodies {
		names = append(names, cite.FuncName(b.decl))
	}
	const most = 6
	if len(names) > most {
		return fmt.Sprintf("%s and %d more", strings.Join(names[:most], ", "), len(names)-most)
	}
	return strings.Join(names, ", ")
}

// listSites joins up to three places, saying how many more there are.
func listSites(at []string) string {
	const most = 3
	if len(at) <= most {
		return strings.Join(at, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(at[:most], ", "), len(at)-most)
}

// reachedSpans are the bodies of the functions on the reconcile path, with
// the parts of each the reconcile path runs: the whole body when its function is reached, else only its
// reached closures (a closure handed on to code that runs it does not
// run the function that made it).
func (a *analysis) reachedSpans(reach *callgraph.Reach) ([]*flowBody, spans) {
	var out []*flowBody
	sp := spans{}
	for _, fn := range append(append([]*ssa.Function(nil), reach.Funcs()...), reach.Unanalysed...) {
		top := fn
		for top.Parent() != nil {
			top = top.Parent()
		}
		obj, ok := top.Object().(*types.Func)
		if !ok {
			continue
		}
		b := a.ownBody(obj.Origin())
		if b == nil {
			continue
		}
		if _, seen := sp[b]; !seen {
			out = append(out, b)
			sp[b] = nil
		}
		var n ast.Node = b.decl
		if lit, ok := fn.Syntax().(*ast.FuncLit); ok && fn != top {
			n = lit
		}
		sp[b] = append(sp[b], n)
	}
	return out, sp
}

// entryBodies are the bodies of the functions the reconcile path starts
// from.
func (a *analysis) entryBodies(reach *callgraph.Reach) map[*flowBody]bool {
	out := map[*flowBody]bool{}
	for _, fn := range reach.Funcs() {
		obj, ok := fn.Object().(*types.Func)
		if !ok || len(reach.Path(fn)) != 0 {
			continue
		}
		if b := a.ownBody(obj.Origin()); b != nil {
			out[b] = true
		}
	}
	return out
}

// spans are the parts of reached bodies that run on the reconcile path.
type spans map[*flowBody][]ast.Node

// madeOnPath reports whether pos lies in a part of b whose function is
// reached itself, not only through a closure it makes.
func (sp spans) madeOnPath(b *flowBody, pos token.Pos) bool {
	for _, n := range sp[b] {
		if _, lit := n.(*ast.FuncLit); !lit && n.Pos() <= pos && pos < n.End() {
			return true
		}
	}
	return false
}

// holds reports whether pos lies in a part of b that runs.
func (sp spans) holds(b *flowBody, pos token.Pos) bool {
	for _, n := range sp[b] {
		if n.Pos() <= pos && pos < n.End() {
			return true
		}
	}
	return false
}

// binding tells whether a parameter taken for the primary object by its
// type is handed the primary object on the reconcile path.
type binding struct {
	f     *condFlow
	reach *callgraph.Reach
	spans spans
	// memo holds each parameter's answer (handedUnknown while it is
	// worked out: a call back into it adds nothing).
	memo map[objParam]bindState
}

// bindState is what a parameter is handed on the reconcile path.
type bindState int

const (
	handedUnknown bindState = iota
	handedOther             // another object by every call
	handedMaybe             // the primary only by calls in closures the path may not run
	handedPrimary           // the primary by some call
)

// toPrimary tells whether some call on the reconcile path hands the
// parameter the primary object (or a parameter that is). A function no
// call on the path reaches (the entry, one handed to a library that runs
// it, one the call graph does not know) is taken to be handed it. Calls
// made in a closure whose maker the path never calls hand it only maybe.
func (bd *binding) toPrimary(p objParam) bindState {
	if h, ok := bd.memo[p]; ok {
		if h == handedUnknown {
			return handedOther
		}
		return h
	}
	bd.memo[p] = handedUnknown
	h := bd.bound(p)
	bd.memo[p] = h
	return h
}

func (bd *binding) bound(p objParam) bindState {
	a := bd.f.a
	fn := a.bySyntax[p.fn]
	if fn == nil {
		return handedPrimary
	}
	callee := a.flowBodyOf(fn)
	if _, ok := p.fn.(*ast.FuncLit); ok {
		callee = a.closureBody(fn)
	}
	if callee == nil {
		return handedPrimary
	}
	root, best := true, handedOther
	for _, e := range a.prog.CallsInto(fn) {
		if e.Site == nil || !bd.reach.Has(e.Caller.Func) {
			continue
		}
		holder := a.flowBodyOf(e.Caller.Func)
		caller := holder
		if _, ok := e.Caller.Func.Syntax().(*ast.FuncLit); ok {
			caller = a.closureBody(e.Caller.Func)
		}
		if caller == nil || holder == nil {
			continue
		}
		ce := callAt(caller, e.Site.Common().Pos())
		if ce == nil {
			continue
		}
		root = false
		args := a.callArgs(caller.info, ce, callee)
		i := callee.paramIndex(p.v)
		if i < 0 || i >= len(args) {
			return handedPrimary
		}
		if bd.f.freshUnwritten(caller, args[i], callee) {
			continue
		}
		h := handedOther
		to, ok := bd.f.reader(caller).target(args[i], 0, map[*types.Var]bool{})
		switch {
		case !ok:
		case to.t < 0 && to.via.v == nil:
			h = handedPrimary
		case to.t < 0:
			h = bd.toPrimary(to.via)
		case to.t < len(caller.params) && caller.params[to.t] != nil:
			var n ast.Node = caller.decl
			if caller.lit != nil {
				n = caller.lit
			}
			h = bd.toPrimary(objParam{v: caller.params[to.t], fn: n})
		}
		if h == handedPrimary && !bd.spans.madeOnPath(holder, ce.Lparen) {
			h = handedMaybe
		}
		if h == handedPrimary {
			return h
		}
		best = max(best, h)
	}
	if root {
		return handedPrimary
	}
	return best
}

// callAt is the call of a body whose left parenthesis is at pos (where
// the call graph places a call), or nil.
func callAt(b *flowBody, pos token.Pos) *ast.CallExpr {
	var out *ast.CallExpr
	ast.Inspect(b.block(), func(n ast.Node) bool {
		if out != nil {
			return false
		}
		if ce, ok := n.(*ast.CallExpr); ok && ce.Lparen == pos {
			out = ce
		}
		return true
	})
	return out
}

// lookupConst finds a package-level constant among the loaded packages.
func (a *analysis) lookupConst(pkgPath, name string) *types.Const {
	if p := a.tree.Types(pkgPath); p != nil {
		k, _ := p.Scope().Lookup(name).(*types.Const)
		return k
	}
	return nil
}
