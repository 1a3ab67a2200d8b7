package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// The flow of condition types. A condition type is a constant that flows
// into the Type field of a condition (metav1.Condition, or a struct of the
// project's own with Type and Status) that ends in the primary object's
// .Status.Conditions. Each function is summarised once per primary type:
// the conditions it sets, on what (the primary object, or one of its
// parameters), with which type (a constant, or one of its parameters), and
// the conditions it returns. A call of a summarised function instantiates
// its summary with the call's arguments, so a type is followed through any
// number of constructors, setters, methods of a custom conditions type and
// library helpers (whose bodies are read on demand, bodies.go).
//
// The summaries are computed from the syntax and go/types, not from SSA:
// the same reading serves the tree's own functions, those holding type
// errors (no SSA is built from them) and dependency bodies read on demand
// (never type-checked with the tree).

// condBody is a function body the flow reads: its declaration, the type
// information covering it, and its parameters (the receiver first).
type condBody struct {
	decl   *ast.FuncDecl
	info   *types.Info
	params []*types.Var
	// partial says the body holds type errors: what is found in it is
	// marked partial.
	partial bool
	// dep says the body is a dependency's, read on demand: its parameters
	// are always followed to the caller.
	dep bool
}

// typeSource is where a condition's type comes from: a settled value (a
// constant k, or a literal when k is nil), or a parameter of the function
// (the type itself, or the Type field of a condition parameter, when cond
// is set).
type typeSource struct {
	value string
	k     *types.Const
	param int // >= 0: not settled here, the parameter's value decides
	cond  bool
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
type condEffect struct {
	target int
	typ    typeSource
	site   token.Pos
}

// condSummary is what a function does with conditions.
type condSummary struct {
	effects []condEffect
	// returns are the condition types the function's results hold, by
	// result index.
	returns map[int][]typeSource
}

// condFlow computes summaries for one primary type.
type condFlow struct {
	a    *analysis
	kind *types.Named
	sums map[*ast.FuncDecl]*condSummary
}

func (a *analysis) condFlowFor(kind *types.Named) *condFlow {
	if f, ok := a.condFlows[kind]; ok {
		return f
	}
	f := &condFlow{a: a, kind: kind, sums: map[*ast.FuncDecl]*condSummary{}}
	a.condFlows[kind] = f
	return f
}

// summary returns the summary of a body, computing it once; a recursive
// call sees an empty summary.
func (f *condFlow) summary(b *condBody) *condSummary {
	if s, ok := f.sums[b.decl]; ok {
		return s
	}
	s := &condSummary{returns: map[int][]typeSource{}}
	f.sums[b.decl] = s
	r := &condReader{f: f, b: b, defs: map[*types.Var][]valueDef{}, typeStores: map[*types.Var][]ast.Expr{}, writtenTo: map[*types.Var][]ast.Expr{}, guards: map[*types.Var][]typeGuard{}}
	r.index()
	r.read(s)
	return s
}

// valueDef is one assignment of a local variable: the expression, and the
// result index when it is a call with several results (-1 otherwise);
// ranged says the variable is a range over expr.
type valueDef struct {
	expr   ast.Expr
	index  int
	ranged bool
}

// condReader reads one body.
type condReader struct {
	f *condFlow
	b *condBody
	// defs are the assignments of each local variable; typeStores the
	// values stored in a condition variable's Type field; writtenTo the
	// places a variable is stored back into (obj.Status.Conditions = v).
	defs       map[*types.Var][]valueDef
	typeStores map[*types.Var][]ast.Expr
	writtenTo  map[*types.Var][]ast.Expr
	// guards are the tests v.Type == X of a condition variable, with the
	// block they guard: there v's type is X.
	guards map[*types.Var][]typeGuard
}

// typeGuard is a block entered only when a condition's Type equals value.
type typeGuard struct {
	value ast.Expr
	block *ast.BlockStmt
}

func (r *condReader) info() *types.Info { return r.b.info }

// varOf is the variable an identifier names.
func (r *condReader) varOf(id *ast.Ident) *types.Var {
	if v, ok := r.info().Defs[id].(*types.Var); ok {
		return v
	}
	v, _ := r.info().Uses[id].(*types.Var)
	return v
}

// index records the assignments of the body's variables.
func (r *condReader) index() {
	ast.Inspect(r.b.decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				var rhs ast.Expr
				idx := -1
				switch {
				case len(n.Lhs) == len(n.Rhs):
					rhs = n.Rhs[i]
				case len(n.Rhs) == 1:
					rhs, idx = n.Rhs[0], i
				}
				if rhs == nil || n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
					continue
				}
				r.assign(l, rhs, idx)
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if v := r.varOf(id); v != nil {
					switch {
					case len(n.Values) == len(n.Names):
						r.defs[v] = append(r.defs[v], valueDef{expr: n.Values[i], index: -1})
					case len(n.Values) == 1:
						r.defs[v] = append(r.defs[v], valueDef{expr: n.Values[0], index: i})
					}
				}
			}
		case *ast.IfStmt:
			r.guard(n)
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					if v := r.varOf(id); v != nil {
						r.defs[v] = append(r.defs[v], valueDef{expr: n.X, ranged: true})
					}
				}
			}
		}
		return true
	})
}

// guard records an if statement testing a condition variable's type:
// if v.Type == X (or X == v.Type, one operand of an &&).
func (r *condReader) guard(n *ast.IfStmt) {
	var tests []ast.Expr
	var split func(e ast.Expr)
	split = func(e ast.Expr) {
		if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LAND {
			split(b.X)
			split(b.Y)
			return
		}
		tests = append(tests, e)
	}
	split(n.Cond)
	for _, t := range tests {
		b, ok := ast.Unparen(t).(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL {
			continue
		}
		for _, side := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			sel, ok := ast.Unparen(side[0]).(*ast.SelectorExpr)
			if !ok || !isConditionTypeField(r.info(), sel) {
				continue
			}
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
				if v := r.varOf(id); v != nil {
					r.guards[v] = append(r.guards[v], typeGuard{value: side[1], block: n.Body})
				}
			}
		}
	}
}

// assign records one assignment lhs = rhs.
func (r *condReader) assign(lhs, rhs ast.Expr, idx int) {
	switch l := ast.Unparen(lhs).(type) {
	case *ast.Ident:
		if v := r.varOf(l); v != nil {
			r.defs[v] = append(r.defs[v], valueDef{expr: rhs, index: idx})
		}
	case *ast.SelectorExpr:
		// c.Type = X on a condition variable.
		if id, ok := ast.Unparen(l.X).(*ast.Ident); ok && isConditionTypeField(r.info(), l) {
			if v := r.varOf(id); v != nil {
				r.typeStores[v] = append(r.typeStores[v], rhs)
			}
		}
	}
	// obj.Status.Conditions = v: v is stored back into what lhs names.
	if id, ok := stripConversions(r.info(), rhs).(*ast.Ident); ok && idx < 0 {
		if v := r.varOf(id); v != nil {
			r.writtenTo[v] = append(r.writtenTo[v], lhs)
		}
	}
}

// read finds the body's condition effects and returns. A closure's calls
// and stores are read with the body that makes it; its returns are its own.
func (r *condReader) read(s *condSummary) {
	var open []ast.Node // the nodes being visited, outermost first
	closures := 0       // how many of them are function literals
	ast.Inspect(r.b.decl.Body, func(n ast.Node) bool {
		if n == nil {
			if _, lit := open[len(open)-1].(*ast.FuncLit); lit {
				closures--
			}
			open = open[:len(open)-1]
			return true
		}
		open = append(open, n)
		switch n := n.(type) {
		case *ast.FuncLit:
			closures++
		case *ast.CallExpr:
			r.readCall(s, n)
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i := range n.Lhs {
					r.readStore(s, n.Lhs[i], n.Rhs[i])
				}
			}
		case *ast.ReturnStmt:
			if closures > 0 {
				break
			}
			for i, e := range n.Results {
				if len(n.Results) == 1 && isCall(e) && r.resultCount() > 1 {
					break
				}
				if conditionStruct(r.info().TypeOf(e)) {
					s.returns[i] = append(s.returns[i], r.cond(e, 0)...)
				}
			}
		}
		return true
	})
}

func (r *condReader) resultCount() int {
	if r.b.decl.Type.Results == nil {
		return 0
	}
	return r.b.decl.Type.Results.NumFields()
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
			srcs = r.cond(c.arg(c.fact.Arg), 0)
		default:
			srcs = r.typeOf(c.arg(c.fact.Arg), 0)
			for i := range srcs {
				srcs[i].truth = srcs[i].truth || c.fact.True
			}
		}
		r.effect(s, c.arg(c.fact.Obj), srcs, e.Lparen)
		return
	}
	for _, callee := range r.callees(c) {
		sum := r.f.summary(callee)
		args := callArgs(r.info(), e, callee)
		for _, eff := range sum.effects {
			if eff.target < 0 || eff.target >= len(args) {
				continue
			}
			r.effect(s, args[eff.target], r.instantiate(eff.typ, args, callee.partial, 0), e.Lparen)
		}
	}
}

// readStore records a condition stored straight into a conditions slice:
// x.Conditions = append(x.Conditions, Condition{Type: T}), a slice
// literal, or x.Conditions[i] = c.
func (r *condReader) readStore(s *condSummary, lhs, rhs ast.Expr) {
	info := r.info()
	if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok && isConditionSlice(info.TypeOf(ix.X)) {
		r.effect(s, ix.X, r.cond(rhs, 0), lhs.Pos())
		return
	}
	if !isConditionSlice(info.TypeOf(lhs)) {
		return
	}
	var elems []ast.Expr
	switch x := stripConversions(info, rhs).(type) {
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && x.Ellipsis == token.NoPos {
			if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "append" && len(x.Args) > 1 {
				elems = x.Args[1:]
			}
		}
	case *ast.CompositeLit:
		elems = x.Elts
	}
	if len(elems) == 0 {
		// The list is replaced by one made elsewhere: what it holds is
		// set where it is made.
		return
	}
	var srcs []typeSource
	for _, el := range elems {
		srcs = append(srcs, r.cond(el, 0)...)
	}
	r.effect(s, lhs, srcs, rhs.Pos())
}

// effect records the settled types (and those a parameter decides) set on
// target, when target is the primary object or a parameter.
//
// A condition whose type cannot be followed to a constant (copied from
// another condition, computed, or handed to a body that cannot be read)
// is recorded with an unfollowed type, so that the row can say where the
// trail ends.
func (r *condReader) effect(s *condSummary, target ast.Expr, srcs []typeSource, site token.Pos) {
	if target == nil {
		return
	}
	t, ok := r.target(target, 0, map[*types.Var]bool{})
	if !ok {
		return
	}
	if len(srcs) == 0 {
		srcs = []typeSource{unfollowed}
	}
	for _, ty := range srcs {
		ty.partial = ty.partial || r.b.partial
		s.effects = append(s.effects, condEffect{target: t, typ: ty, site: site})
	}
}

// maxDepth bounds the steps a value is followed through locals and calls.
const maxDepth = 8

// target resolves where a setter's target leads: the primary object (-1),
// a parameter (its index), or elsewhere (false: another object, or a value
// the flow cannot follow).
func (r *condReader) target(e ast.Expr, depth int, seen map[*types.Var]bool) (int, bool) {
	if depth > maxDepth || e == nil {
		return 0, false
	}
	info := r.info()
	e = stripConversions(info, e)
	for {
		if r.isKind(info.TypeOf(e)) {
			return -1, true
		}
		switch x := e.(type) {
		case *ast.SelectorExpr:
			sel := info.Selections[x]
			if sel == nil {
				return 0, false
			}
			e = stripConversions(info, x.X)
			continue
		case *ast.CallExpr:
			// An accessor of the object's conditions: ref.Conditions().
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && info.Selections[sel] != nil && info.Selections[sel].Kind() == types.MethodVal {
				e = stripConversions(info, sel.X)
				continue
			}
			return 0, false
		case *ast.IndexExpr:
			e = stripConversions(info, x.X)
			continue
		}
		break
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return 0, false
	}
	v := r.varOf(id)
	if v == nil {
		return 0, false
	}
	if i := r.paramIndex(v); i >= 0 {
		if !r.b.dep && types.IsInterface(v.Type()) {
			// A helper taking any object (conditions.Setter,
			// client.Object): on this reconcile path it is handed the
			// primary object.
			return -1, true
		}
		return i, true
	}
	if seen[v] {
		return 0, false
	}
	seen[v] = true
	param := -1
	for _, d := range r.defs[v] {
		if d.ranged {
			continue
		}
		if t, ok := r.target(d.expr, depth+1, seen); ok {
			if t < 0 {
				return -1, true
			}
			param = t
		}
	}
	for _, w := range r.writtenTo[v] {
		if t, ok := r.target(w, depth+1, seen); ok {
			if t < 0 {
				return -1, true
			}
			param = t
		}
	}
	if param >= 0 {
		return param, true
	}
	if !r.b.dep && types.IsInterface(v.Type()) {
		return -1, true
	}
	return 0, false
}

// isKind reports whether t is the primary type (or a pointer to it); with
// no primary type known, every object is taken for it.
func (r *condReader) isKind(t types.Type) bool {
	if t == nil {
		return false
	}
	n, ok := deref(t).(*types.Named)
	if r.f.kind == nil {
		return ok && IsObjectPointer(types.NewPointer(n))
	}
	return ok && types.Identical(n, r.f.kind)
}

// paramIndex is the index of a parameter of the body (the receiver
// first), or -1.
func (r *condReader) paramIndex(v *types.Var) int {
	for i, p := range r.b.params {
		if p == v {
			return i
		}
	}
	return -1
}
