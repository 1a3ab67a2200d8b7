package locate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// The flow of condition types. A condition type is a constant that flows
// into the Type field of a condition (metav1.Condition, or a struct of the
// project's own with Type and Status) that ends in the primary object's
// .Status.Conditions. Each function is summarised once per primary type:
// the conditions it sets, on what (the primary object, or one of its
// parameters), with which type (a constant, or what one of its parameters
// holds). A call of a summarised function instantiates its summary with the
// call's arguments, so a type is followed through any number of setters,
// methods of a custom conditions type and library helpers (whose bodies
// are read on demand, bodies.go). What a type or a condition value holds
// (a constructor's result, a list's elements, an options struct's field)
// is asked of the value-flow engine (flow.go), over the same bodies: the
// tree's own functions, those holding type errors and dependency bodies.

// typeSource is where a condition's type comes from: a settled value (a
// constant k, a package variable k fixed at its constant initialiser, or a
// literal when k is nil), or a parameter of the function
// (param >= 0; path is what is selected below it: the Type field of a
// condition parameter, a field of an options struct, an element of a
// list).
type typeSource struct {
	value string
	k     types.Object
	param int
	path  []string
	truth bool
	// statusParam is the parameter holding the condition's Status, when
	// one does (-1 otherwise): the caller's argument says whether it is
	// True.
	statusParam int
	// partial says a body with type errors was read on the way.
	partial bool
	// copied says the condition is one already in a list, copied (kept
	// by a removal, or taken from another object): it sets no new type.
	copied bool
	// foreign names, for a type copied from the conditions of an object
	// of another kind (a child's), that kind: the types are what its own
	// controller sets, not followed.
	foreign string
	// end is where the trail of an unfollowed type ends, when known, and
	// why it ends there.
	end token.Pos
	why string
}

func (t typeSource) settled() bool { return t.param < 0 }

// unfollowed is the source of a type the flow could not follow;
// copiedCondition that of a condition copied from a list.
var (
	unfollowed      = typeSource{param: -1, statusParam: -1}
	copiedCondition = typeSource{param: -1, statusParam: -1, copied: true}
)

// followed reports whether a settled source names a type.
func (t typeSource) followed() bool { return t.value != "" }

// condEffect is one condition set by a function: on the primary object
// (target < 0) or on the object, status or conditions its parameter
// target is handed; at site, the setter (or the call that leads to it).
// An object taken for the primary because of its type alone (a parameter
// of the primary's type, or of an interface any object satisfies) says
// which parameter it is (via): the callers decide whether it is handed
// the primary object or another one.
type condEffect struct {
	target int
	via    objParam
	typ    typeSource
	site   token.Pos
	// origin names the condition the effect sets: the store that sets
	// it, through the calls that lead there. Effects of one origin are
	// the values one condition's type may have.
	origin string
}

// objParam is a parameter that holds an object taken for the primary by
// its type: v, declared by fn (a function declaration or a closure); the
// zero value when the object is not a parameter.
type objParam struct {
	v  *types.Var
	fn ast.Node
}

// condTarget is where a setter's target leads: the primary object (t < 0,
// through the parameter via when it is one), or a parameter t.
type condTarget struct {
	t   int
	via objParam
	// off says the target is known to be another conditions list of
	// the primary object than its status conditions (with ok false).
	off bool
}

// condSummary is what a function does with conditions.
type condSummary struct {
	effects []condEffect
}

// condFlow computes summaries for one primary type. The summaries of
// functions that call each other in a cycle are computed together, to a
// fixpoint (sccs).
type condFlow struct {
	a    *analysis
	kind *types.Named
	fl   *flowEngine
	sums map[*ast.FuncDecl]*condSummary
	// stack are the bodies being summarised, low the lowest stack index
	// each reaches through a call back into the stack (Tarjan's), and
	// members the bodies of a cycle, by the body at its root; cyclic
	// marks a body called back while on the stack.
	stack   []*flowBody
	low     map[*ast.FuncDecl]int
	members map[*ast.FuncDecl][]*flowBody
	cyclic  map[*ast.FuncDecl]bool
	// writes says whether a function, or one it reaches, writes to the
	// API server (freshUnwritten).
	writes map[*ssa.Function]bool
	// condPath names the fields from the primary type down to its
	// status conditions (Status, Conditions): the shallowest conditions
	// slice it holds; nil when it holds none.
	condPath []string
}

func (a *analysis) condFlowFor(kind *types.Named) *condFlow {
	if f, ok := a.condFlows[kind]; ok {
		return f
	}
	f := &condFlow{a: a, kind: kind, fl: &flowEngine{a: a, follow: takesConditions},
		sums: map[*ast.FuncDecl]*condSummary{}, low: map[*ast.FuncDecl]int{}, members: map[*ast.FuncDecl][]*flowBody{},
		cyclic: map[*ast.FuncDecl]bool{}, writes: map[*ssa.Function]bool{}}
	if kind != nil {
		f.condPath = conditionsPath(kind)
		if st, _, _ := types.LookupFieldOrMethod(kind, true, kind.Obj().Pkg(), statusField); st != nil {
			if v, ok := st.(*types.Var); ok && v.IsField() {
				// The status' conditions come before any other field's.
				if in := conditionsPath(v.Type()); in != nil {
					f.condPath = append([]string{statusField}, in...)
				}
			}
		}
	}
	a.condFlows[kind] = f
	return f
}

// maxFixpoint bounds the rounds a cycle's summaries are recomputed in; the
// effects only grow, and each is kept once, so they settle sooner.
const maxFixpoint = 8

// summary returns the summary of a body. A body called back while it is
// being summarised (recursion) is part of a cycle: once the cycle's root
// is done, every member is read again until no summary grows, so no member
// keeps the partial summary the first reading saw.
func (f *condFlow) summary(b *flowBody) *condSummary {
	if s, ok := f.sums[b.decl]; ok {
		for i, on := range f.stack {
			if on.decl == b.decl {
				top := f.stack[len(f.stack)-1].decl
				f.low[top] = min(f.low[top], i)
				f.cyclic[b.decl] = true
			}
		}
		return s
	}
	s := &condSummary{}
	f.sums[b.decl] = s
	idx := len(f.stack)
	f.stack = append(f.stack, b)
	f.low[b.decl] = idx
	f.read(b, s)
	f.stack = f.stack[:idx]
	if low := f.low[b.decl]; low < idx {
		// Part of a cycle rooted lower on the stack: hand it to the root.
		root := f.stack[low].decl
		f.members[root] = append(append(f.members[root], f.members[b.decl]...), b)
		delete(f.members, b.decl)
		parent := f.stack[idx-1].decl
		f.low[parent] = min(f.low[parent], low)
		return s
	}
	if ms := f.members[b.decl]; len(ms) > 0 || f.cyclic[b.decl] {
		all := append([]*flowBody{b}, ms...)
		for round := 0; round < maxFixpoint; round++ {
			grew := false
			for _, m := range all {
				// Read again against the last round's summaries, then
				// update in place (callers hold the summary).
				fresh := &condSummary{}
				f.read(m, fresh)
				ms := f.sums[m.decl]
				grew = grew || len(fresh.effects) != len(ms.effects)
				ms.effects = fresh.effects
			}
			if !grew {
				break
			}
		}
		delete(f.members, b.decl)
		delete(f.cyclic, b.decl)
	}
	return s
}

// read computes a body's summary.
func (f *condFlow) read(b *flowBody, s *condSummary) {
	r := f.reader(b)
	r.read(s)
}

// reader makes the reader of one body, its index built.
func (f *condFlow) reader(b *flowBody) *condReader {
	r := &condReader{f: f, b: b, litParams: map[*types.Var]*ast.FuncLit{}}
	r.index()
	return r
}

// condReader reads one body.
type condReader struct {
	f *condFlow
	b *flowBody
	// litParams are the parameters of the body's closures, by the
	// closure that declares each.
	litParams map[*types.Var]*ast.FuncLit
}

func (r *condReader) info() *types.Info { return r.b.info }

// index records the parameters of the body's closures.
func (r *condReader) index() {
	ast.Inspect(r.b.decl.Body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			for _, id := range paramIdents(lit.Type) {
				if v, ok := r.info().Defs[id].(*types.Var); ok {
					r.litParams[v] = lit
				}
			}
		}
		return true
	})
}

// read finds the body's condition effects: its calls and stores, those of
// its closures included.
func (r *condReader) read(s *condSummary) {
	ast.Inspect(r.b.decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			r.readCall(s, n)
		case *ast.CompositeLit:
			r.readStatusLit(s, n)
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i := range n.Lhs {
					r.readStore(s, n.Lhs[i], n.Rhs[i])
				}
			}
		}
		return true
	})
}

// readCall records what a call sets: a library setter of the knowledge
// table, or a function whose summary sets conditions on its parameters.
func (r *condReader) readCall(s *condSummary, e *ast.CallExpr) {
	c := r.f.a.makeCall(r.info(), e, nil)
	if c.known {
		if c.fact.Role != RoleConditionSet {
			return
		}
		var srcs []typeSource
		switch {
		case c.fact.Implied != "":
			pkgPath, name := splitQualified(c.fact.Implied)
			if k := r.f.a.lookupConst(pkgPath, name); k != nil {
				srcs = []typeSource{{value: constant.StringVal(k.Val()), k: k, param: -1, truth: c.fact.True, statusParam: -1}}
			}
		case c.fact.ArgIsCondition:
			srcs = r.cond(c.arg(c.fact.Arg))
		default:
			srcs = r.typeOf(c.arg(c.fact.Arg))
			for i := range srcs {
				srcs[i].truth = srcs[i].truth || c.fact.True
			}
		}
		r.effect(s, c.arg(c.fact.Obj), srcs, e.Lparen)
		return
	}
	callees := r.f.fl.callees(r.b, e)
	if len(callees) == 0 {
		r.unread(s, e, c)
	}
	for _, callee := range callees {
		sum := r.f.summary(callee)
		args := r.f.a.callArgs(r.info(), e, callee)
		for _, eff := range sum.effects {
			if callee.lit != nil && eff.via.fn != callee.lit {
				// A closure's effects are read with the body that
				// holds it; only those on its own parameters depend
				// on this call.
				continue
			}
			switch {
			case eff.target < 0 && eff.via.v != nil:
				// Set on what the caller hands the parameter: the
				// primary object, or another one.
				i := callee.paramIndex(eff.via.v)
				if i < 0 || i >= len(args) || r.f.freshUnwritten(r.b, args[i], callee) {
					continue
				}
				to, ok := r.target(args[i], 0, map[*types.Var]bool{})
				if !ok || to.t < 0 && eff.typ.settled() {
					// Another object; or the primary with a type the
					// callee settles, counted where it is set.
					continue
				}
				r.recordAt(s, to, r.instantiate(eff.typ, args, callee.partial, variadicAt(callee, e, args)), e.Lparen, through(e.Lparen, eff))
			case eff.target < 0 && !eff.typ.settled():
				// Set on the primary object with a type the caller
				// hands over.
				r.recordAt(s, condTarget{t: -1}, r.instantiate(eff.typ, args, callee.partial, variadicAt(callee, e, args)), e.Lparen, through(e.Lparen, eff))
			case eff.target >= 0 && eff.target < len(args) && callee.lit == nil:
				if r.f.otherKind(callee, eff.target) {
					// Set on an object of another kind: never the
					// primary, whatever the call hands over.
					continue
				}
				r.effectOf(s, args[eff.target], r.instantiate(eff.typ, args, callee.partial, variadicAt(callee, e, args)), e.Lparen, through(e.Lparen, eff))
			}
		}
	}
}

// unread records, for a call handed the primary object (or what holds
// its conditions) whose function could set conditions on it but whose
// body the flow cannot read (a dependency's package that does not load,
// an interface method no own type implements), a condition set there
// with a type not followed: the types found elsewhere are not the whole
// list. A generated typed client's write is no such call.
func (r *condReader) unread(s *condSummary, e *ast.CallExpr, c call) {
	if c.fn == nil || !takesConditions(c.fn) || r.f.a.fileOwn(c.fn.Pos()) && !isInterfaceMethod(c.fn) {
		return
	}
	if sig, ok := r.info().TypeOf(e.Fun).(*types.Signature); ok && !c.known {
		if _, writes := clientsetVerb(sig); writes {
			// A generated typed client's write (UpdateStatus(ctx,
			// obj, metav1.UpdateOptions{})): it sends the conditions
			// it is handed, and sets none.
			return
		}
	}
	args := e.Args
	if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && r.info().Selections[sel] != nil {
		args = append([]ast.Expr{sel.X}, args...)
	}
	for _, arg := range args {
		if !holdsConditions(r.info().TypeOf(arg), 0) {
			continue
		}
		if to, ok := r.target(arg, 0, map[*types.Var]bool{}); ok && to.t < 0 {
			src := unfollowed
			src.end, src.why = e.Lparen, fmt.Sprintf("handed to %s, whose body is not read", c.fn.Name())
			r.recordAt(s, to, []typeSource{src}, e.Lparen, fmt.Sprint(e.Lparen))
			return
		}
	}
}

// otherKind reports whether parameter i of a callee holds an object of a
// concrete kind other than the primary's. What the callee sets on it is
// never set on the primary object, whatever the call hands the parameter:
// a call on a type parameter or an interface that the primary's type
// satisfies (a generic helper's obj.Mark(…), whose one declaration serves
// every instantiation) may dispatch to that kind's method only for an
// object of that kind.
func (f *condFlow) otherKind(callee *flowBody, i int) bool {
	if f.kind == nil || i >= len(callee.params) || callee.params[i] == nil {
		return false
	}
	n, ok := deref(callee.params[i].Type()).(*types.Named)
	return ok && IsObjectPointer(types.NewPointer(n)) && !types.Identical(n, f.kind)
}

// readStore records a condition stored straight into a conditions slice:
// x.Conditions = append(x.Conditions, Condition{Type: T}), a slice
// literal, x.Conditions[i] = c, or a list made elsewhere (a local list, a
// helper's result) whose elements the engine follows to where they are
// made.
func (r *condReader) readStore(s *condSummary, lhs, rhs ast.Expr) {
	info := r.info()
	if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok && (isConditionSlice(info.TypeOf(ix.X)) || isConditionMap(info.TypeOf(ix.X))) {
		r.effect(s, ix.X, r.cond(rhs), lhs.Pos())
		return
	}
	if !isConditionSlice(info.TypeOf(lhs)) {
		return
	}
	if _, local := ast.Unparen(lhs).(*ast.Ident); local && len(r.listedElems(rhs)) == 0 {
		// A list read into a variable sets nothing; a store of the
		// variable into an object does.
		return
	}
	if srcs, _ := r.storedList(rhs); len(srcs) > 0 {
		r.effect(s, lhs, srcs, rhs.Pos())
	}
}

// listedElems are the elements a list expression names where it stands:
// those of a slice literal, or those an append adds.
func (r *condReader) listedElems(rhs ast.Expr) []ast.Expr {
	switch x := stripConversions(r.info(), rhs).(type) {
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && x.Ellipsis == token.NoPos {
			if b, ok := r.info().Uses[id].(*types.Builtin); ok && b.Name() == "append" && len(x.Args) > 1 {
				return x.Args[1:]
			}
		}
	case *ast.CompositeLit:
		return x.Elts
	}
	return nil
}

// storedList is what storing the list rhs sets: the conditions of the
// elements it names, or, for a list made elsewhere, those of its elements
// that are not copied from a list (the object's own, kept, set nothing).
// nothing says the list sets none for certain: an empty literal, or one
// whose elements are all copied.
func (r *condReader) storedList(rhs ast.Expr) (srcs []typeSource, nothing bool) {
	if elems := r.listedElems(rhs); len(elems) > 0 {
		for _, el := range elems {
			srcs = append(srcs, r.cond(el)...)
		}
		return srcs, false
	}
	if _, lit := stripConversions(r.info(), rhs).(*ast.CompositeLit); lit {
		return nil, true
	}
	for _, t := range r.condElems(rhs) {
		if t.copied {
			nothing = true
			continue
		}
		srcs = append(srcs, t)
	}
	return srcs, nothing && len(srcs) == 0
}

// readStatusLit records the conditions a literal of the primary kind's own
// Status type is made with (&FooStatus{Conditions: list}): a status made
// afresh and handed on (patched by the object's name, returned to a caller
// that stores it) holds the object's conditions, as a named result of that
// type does (target). Where the literal is stored, its holder says whose
// they are. A list the flow cannot follow to its elements (not empty, not
// all copied) leaves the types unfollowed: the row then says the trail
// ends at the literal rather than that no condition is set.
func (r *condReader) readStatusLit(s *condSummary, lit *ast.CompositeLit) {
	info := r.info()
	if !r.isKindStatus(info.TypeOf(lit)) {
		return
	}
	to, ok := r.target(lit, 0, map[*types.Var]bool{})
	if !ok {
		to = condTarget{t: -1}
	}
	for _, el := range lit.Elts {
		kv, isKV := el.(*ast.KeyValueExpr)
		if !isKV || !isConditionSlice(info.TypeOf(kv.Value)) {
			continue
		}
		srcs, nothing := r.storedList(kv.Value)
		if nothing {
			continue
		}
		r.recordAt(s, to, srcs, kv.Value.Pos(), fmt.Sprint(kv.Value.Pos()))
	}
}

// effect records the settled types (and those a parameter decides) set on
// target, when target is the primary object or a parameter.
//
// A condition whose type cannot be followed to a constant (copied from
// another condition, computed, or handed to a body that cannot be read)
// is recorded with an unfollowed type, so that the row can say where the
// trail ends.
func (r *condReader) effect(s *condSummary, target ast.Expr, srcs []typeSource, site token.Pos) {
	r.effectOf(s, target, srcs, site, fmt.Sprint(site))
}

// effectOf is effect for a condition of the given origin.
func (r *condReader) effectOf(s *condSummary, target ast.Expr, srcs []typeSource, site token.Pos, origin string) {
	if target == nil {
		return
	}
	to, ok := r.target(target, 0, map[*types.Var]bool{})
	if !ok {
		return
	}
	r.recordAt(s, to, srcs, site, origin)
}

// through is the origin of a callee's effect seen at the call at site.
func through(site token.Pos, eff condEffect) string {
	return fmt.Sprint(site, "/", eff.origin)
}

// recordAt records the types set on a resolved target at site, for a
// condition of the given origin.
func (r *condReader) recordAt(s *condSummary, to condTarget, srcs []typeSource, site token.Pos, origin string) {
	if len(srcs) == 0 {
		srcs = []typeSource{unfollowed}
	}
	for _, ty := range srcs {
		ty.partial = ty.partial || r.b.partial
		eff := condEffect{target: to.t, via: to.via, typ: ty, site: site, origin: origin}
		if !slices.ContainsFunc(s.effects, func(o condEffect) bool { return sameEffect(o, eff) }) {
			s.effects = append(s.effects, eff)
		}
	}
}

// sameEffect reports whether two effects set the same type source on the
// same target at the same site.
func sameEffect(a, b condEffect) bool {
	return a.target == b.target && a.via == b.via && a.site == b.site && a.origin == b.origin && a.typ.value == b.typ.value && a.typ.k == b.typ.k &&
		a.typ.param == b.typ.param && slices.Equal(a.typ.path, b.typ.path) && a.typ.truth == b.typ.truth &&
		a.typ.statusParam == b.typ.statusParam && a.typ.partial == b.typ.partial && a.typ.copied == b.typ.copied && a.typ.foreign == b.typ.foreign &&
		a.typ.end == b.typ.end
}
