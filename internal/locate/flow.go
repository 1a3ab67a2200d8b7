package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// The value-flow engine. The locators ask it two questions instead of
// walking syntax of their own: which values reach a sink (values: what an
// expression, or a field or element path below it, may hold), and which
// places a value reaches (sinks: where a local variable's value is stored).
//
// It reads function bodies as syntax with the type information recorded
// for them (flowBody): the tree's own functions, those holding type errors
// (no SSA is built from them, their sites are partial) and dependency
// bodies read on demand (bodies.go), through one interface. Calls are
// resolved through go/types and, for dynamic calls (interface methods,
// function values, generic instances), the SSA call graph (analysis.callees).
//
// It follows assignments, tuple results, struct fields (a keyed literal, a
// store into a field, an embedded field's path), slice elements (append, a
// slice literal, an index store, range), closures (their assignments are
// the enclosing body's; one called at once, assigned or deferred is a
// callee like any other), and calls: a call's result is the callee's
// returns, each parameter the callee's returns depend on replaced by the
// call's argument. A value it cannot follow further is a leaf that says
// where the trail ends, so that a row can answer "not settled … at" rather
// than a false none. A query carries its own cycle guard and keeps no memo,
// so its answer does not depend on which row or controller asked first.

// flowBody is a function body the engine reads: its declaration, the type
// information covering it, and its parameters (the receiver first).
type flowBody struct {
	decl *ast.FuncDecl
	// lit is the closure the body is, when it is one: decl is then the
	// declaration that holds it, whose variables it shares.
	lit    *ast.FuncLit
	info   *types.Info
	params []*types.Var
	// partial says the body holds type errors: what is found in it is
	// marked partial.
	partial bool
	// dep says the body is a dependency's, read on demand.
	dep bool
	// locals index the body's assignments, built on first use.
	locals *flowLocals
}

// valueDef is one assignment of a local variable: the expression, and the
// result index when it is a call with several results (-1 otherwise);
// ranged says the variable is the value of a range over expr, rangeKey its
// key.
type valueDef struct {
	expr     ast.Expr
	index    int
	ranged   bool
	rangeKey bool
}

// pathStore is a store below a variable: v.f.g = value (path f, g), or
// v[i] = value (an element step, "").
type pathStore struct {
	path  []string
	value ast.Expr
}

// flowLocals index one body's variables (closures included): their
// assignments, the stores below them, their uses, and what holds each
// expression that is stored (the composite literal it is an element of,
// the append it is added by, the left side it is assigned to).
type flowLocals struct {
	defs   map[*types.Var][]valueDef
	stores map[*types.Var][]pathStore
	uses   map[*types.Var][]*ast.Ident
	holder map[ast.Expr]ast.Expr
}

// elem is the path step of a slice, array or map element.
const elem = ""

// varOf is the variable an identifier names.
func varOf(info *types.Info, id *ast.Ident) *types.Var {
	if v, ok := info.Defs[id].(*types.Var); ok {
		return v
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}

// paramIndex is the index of a parameter of the body (the receiver
// first), or -1.
func (b *flowBody) paramIndex(v *types.Var) int {
	for i, p := range b.params {
		if p == v {
			return i
		}
	}
	return -1
}

// argParam is the index of the parameter (receiver excluded) that an
// expression of the body names, or -1: the argument of a call of the body
// that the expression's value comes from.
func (b *flowBody) argParam(e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return -1
	}
	v, _ := b.info.Uses[id].(*types.Var)
	i := b.paramIndex(v)
	if v == nil || i < 0 {
		return -1
	}
	if b.decl.Recv != nil {
		i--
	}
	return i
}

// local returns the body's index of its variables.
func (b *flowBody) local() *flowLocals {
	if b.locals != nil {
		return b.locals
	}
	l := &flowLocals{defs: map[*types.Var][]valueDef{}, stores: map[*types.Var][]pathStore{},
		uses: map[*types.Var][]*ast.Ident{}, holder: map[ast.Expr]ast.Expr{}}
	b.locals = l
	info := b.info
	assign := func(lhs, rhs ast.Expr, idx int) {
		if idx < 0 {
			l.holder[ast.Unparen(rhs)] = lhs
			// x = T(v), x = &v: v's value is stored too.
			l.holder[stripConversions(info, rhs)] = lhs
		}
		switch x := ast.Unparen(lhs).(type) {
		case *ast.Ident:
			if v := varOf(info, x); v != nil {
				l.defs[v] = append(l.defs[v], valueDef{expr: rhs, index: idx})
			}
		default:
			if v, path := storePath(info, lhs); v != nil && idx < 0 {
				l.stores[v] = append(l.stores[v], pathStore{path: path, value: rhs})
			}
		}
	}
	ast.Inspect(b.decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if v, ok := info.Uses[n].(*types.Var); ok {
				l.uses[v] = append(l.uses[v], n)
			}
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
				break
			}
			for i, lhs := range n.Lhs {
				switch {
				case len(n.Lhs) == len(n.Rhs):
					assign(lhs, n.Rhs[i], -1)
				case len(n.Rhs) == 1:
					assign(lhs, n.Rhs[0], i)
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				switch {
				case len(n.Values) == len(n.Names):
					assign(id, n.Values[i], -1)
				case len(n.Values) == 1:
					assign(id, n.Values[0], i)
				}
			}
		case *ast.RangeStmt:
			for i, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					if v := varOf(info, id); v != nil {
						l.defs[v] = append(l.defs[v], valueDef{expr: n.X, ranged: true, rangeKey: i == 0})
					}
				}
			}
		case *ast.CompositeLit:
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				l.holder[stripAddr(el)] = n
			}
		case *ast.CallExpr:
			if isBuiltin(info, n.Fun, "append") {
				for _, arg := range n.Args {
					l.holder[stripAddr(arg)] = n
				}
			}
		}
		return true
	})
	return l
}

// stripAddr removes parentheses and a & around e.
func stripAddr(e ast.Expr) ast.Expr {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		return ast.Unparen(u.X)
	}
	return e
}

// isBuiltin reports whether fun names the builtin function name, by its
// object (a shadowing declaration is not it).
func isBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// storePath splits the left side of a store below a variable into the
// variable and the path (v.f.g, v[i], (*v).f); nil when it stores below
// something else.
func storePath(info *types.Info, lhs ast.Expr) (*types.Var, []string) {
	var path []string
	e := ast.Unparen(lhs)
	for {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			steps := fieldSteps(info, x)
			if steps == nil {
				return nil, nil
			}
			path = append(steps, path...)
			e = ast.Unparen(x.X)
			continue
		case *ast.IndexExpr:
			path = append([]string{elem}, path...)
			e = ast.Unparen(x.X)
			continue
		case *ast.StarExpr:
			e = ast.Unparen(x.X)
			continue
		case *ast.Ident:
			return varOf(info, x), path
		}
		return nil, nil
	}
}

// fieldSteps is the path a field selector takes, through the embedded
// fields it is promoted through; nil when x selects no field.
func fieldSteps(info *types.Info, x *ast.SelectorExpr) []string {
	sel := info.Selections[x]
	if sel == nil || sel.Kind() != types.FieldVal {
		return nil
	}
	var steps []string
	t := sel.Recv()
	for _, i := range sel.Index() {
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return nil
		}
		f := st.Field(i)
		steps = append(steps, f.Name())
		t = f.Type()
	}
	return steps
}

// flowVal is one value the engine settles an expression to, in body b:
// the expression that makes it (a constant, a literal, an expression it
// does not follow), the zero value (a field a literal leaves out), one of
// b's parameters (the caller decides; path is what is selected below it),
// or where the trail ends (end, with why).
type flowVal struct {
	b     *flowBody
	e     ast.Expr
	zero  bool
	param int
	path  []string
	// external says the value is read from an object the body did not
	// make (a variable declared without a value and filled elsewhere, an
	// API object's field): copied, not made.
	external bool
	end      token.Pos
	why      string
}

// settledString is the string constant a value is, when it is one.
func (v flowVal) settledString() (string, bool) {
	if v.e == nil || v.b == nil {
		return "", false
	}
	tv, ok := v.b.info.Types[v.e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// ended reports whether the value is where the trail ends.
func (v flowVal) ended() bool { return v.end.IsValid() }

// flowEngine answers value-flow questions over the analysis' bodies.
type flowEngine struct {
	a *analysis
	// follow says whether a dependency function is read for its returns
	// (nil: never).
	follow func(*types.Func) bool
}

// maxFlowDepth bounds the steps one query follows a value through.
const maxFlowDepth = 16

// maxFlowSteps bounds the steps of one query, so that a value assigned in
// many places through many helpers costs a bounded time; past it, the
// trail ends.
const maxFlowSteps = 4096

// query is one question's state: the steps taken, and the cycle guard.
type query struct {
	fl    *flowEngine
	seen  map[string]bool
	steps int
}

// values lists what e (in b), or the path below it, may hold.
func (fl *flowEngine) values(b *flowBody, e ast.Expr, path ...string) []flowVal {
	q := &query{fl: fl, seen: map[string]bool{}}
	return q.values(b, e, path, 0)
}

// values is one step of a query: what e, or the path below it, may hold.
func (q *query) values(b *flowBody, e ast.Expr, path []string, depth int) []flowVal {
	if e == nil {
		return []flowVal{{b: b, zero: true, param: -1}}
	}
	q.steps++
	if depth > maxFlowDepth || q.steps > maxFlowSteps {
		return []flowVal{{b: b, e: e, param: -1, end: e.Pos(), why: "followed too far"}}
	}
	key := posKey(q.fl.a, b, e, path)
	if q.seen[key] {
		return nil
	}
	q.seen[key] = true
	defer delete(q.seen, key)
	info := b.info
	if tv, ok := info.Types[e]; ok && tv.Value != nil && len(path) == 0 {
		return []flowVal{{b: b, e: e, param: -1}}
	}
	if isNilExpr(info, e) {
		return []flowVal{{b: b, zero: true, param: -1}}
	}
	switch x := stripConversions(info, e).(type) {
	case *ast.CompositeLit:
		return q.literal(b, x, path, depth)
	case *ast.Ident:
		return q.ident(b, x, path, depth)
	case *ast.SelectorExpr:
		if steps := fieldSteps(info, x); steps != nil {
			return q.values(b, x.X, append(steps, path...), depth+1)
		}
		if tv, ok := info.Types[x]; ok && tv.Value != nil && len(path) == 0 {
			return []flowVal{{b: b, e: x, param: -1}}
		}
	case *ast.IndexExpr:
		if t := info.TypeOf(x.X); t != nil {
			switch deref(t).Underlying().(type) {
			case *types.Slice, *types.Array, *types.Map:
				return q.values(b, x.X, append([]string{elem}, path...), depth+1)
			}
		}
	case *ast.SliceExpr:
		// x[i:j] holds x's elements.
		return q.values(b, x.X, path, depth+1)
	case *ast.CallExpr:
		if isBuiltin(info, x.Fun, "make") || isBuiltin(info, x.Fun, "new") {
			// A new value: empty, its fields zero.
			return []flowVal{{b: b, zero: true, param: -1}}
		}
		if isBuiltin(info, x.Fun, "append") && len(x.Args) > 0 && len(path) > 0 && path[0] == elem {
			out := q.values(b, x.Args[0], path, depth+1)
			for i, arg := range x.Args[1:] {
				if x.Ellipsis.IsValid() && i == len(x.Args)-2 {
					out = append(out, q.values(b, arg, path, depth+1)...)
					continue
				}
				out = append(out, q.values(b, arg, path[1:], depth+1)...)
			}
			return out
		}
		return q.results(b, x, 0, path, depth+1)
	}
	if len(path) == 0 {
		return []flowVal{{b: b, e: e, param: -1}}
	}
	return []flowVal{{b: b, e: e, param: -1, end: e.Pos(), why: "a value computed here"}}
}

// posKey identifies one step of a query: an expression of a body and the
// path below it.
func posKey(a *analysis, b *flowBody, e ast.Expr, path []string) string {
	return a.tree.Fset.Position(e.Pos()).String() + "|" + a.tree.Fset.Position(e.End()).String() + "|" + strings.Join(path, ".") + "|" + b.decl.Name.Name
}

// isNilExpr reports whether e is the untyped nil.
func isNilExpr(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[ast.Unparen(e)]
	return ok && tv.IsNil()
}

// literal selects the path below a composite literal.
func (q *query) literal(b *flowBody, x *ast.CompositeLit, path []string, depth int) []flowVal {
	if len(path) == 0 {
		return []flowVal{{b: b, e: x, param: -1}}
	}
	var out []flowVal
	if path[0] == elem {
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			out = append(out, q.values(b, el, path[1:], depth+1)...)
		}
		return out
	}
	found := false
	for _, el := range x.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == path[0] {
			found = true
			out = append(out, q.values(b, kv.Value, path[1:], depth+1)...)
		}
	}
	if !found && len(x.Elts) > 0 {
		if _, keyed := x.Elts[0].(*ast.KeyValueExpr); !keyed {
			// A literal with positional fields: the field's position.
			if st, ok := deref(b.info.TypeOf(x)).Underlying().(*types.Struct); ok {
				for i := 0; i < st.NumFields() && i < len(x.Elts); i++ {
					if st.Field(i).Name() == path[0] {
						return q.values(b, x.Elts[i], path[1:], depth+1)
					}
				}
			}
		}
	}
	if !found {
		// An embedded struct's literal holds promoted fields.
		for _, el := range x.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			id, ok := kv.Key.(*ast.Ident)
			if !ok {
				continue
			}
			if v, ok := b.info.Uses[id].(*types.Var); ok && v.Embedded() && hasField(v.Type(), path[0]) {
				found = true
				out = append(out, q.values(b, kv.Value, path, depth+1)...)
			}
		}
	}
	if !found {
		out = append(out, flowVal{b: b, zero: true, param: -1})
	}
	return out
}

// hasField reports whether a struct type (or what it points to) has a
// field of that name.
func hasField(t types.Type, name string) bool {
	st, ok := deref(t).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == name {
			return true
		}
	}
	return false
}

// ident follows a variable: a parameter is the caller's; a local, its
// assignments and the stores below it that the path selects.
func (q *query) ident(b *flowBody, x *ast.Ident, path []string, depth int) []flowVal {
	v := varOf(b.info, x)
	if v == nil {
		return []flowVal{{b: b, e: x, param: -1, end: x.Pos(), why: "not a variable"}}
	}
	if i := b.paramIndex(v); i >= 0 {
		return []flowVal{{b: b, e: x, param: i, path: path}}
	}
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return []flowVal{{b: b, e: x, param: -1, end: x.Pos(), why: "a package variable"}}
	}
	l := b.local()
	var out []flowVal
	made := false
	object := isObject(v.Type())
	if object {
		// An API object variable may be read into (var obj T, or obj :=
		// &T{}, then r.Get(…, obj)): what its fields hold is then the
		// object's, whatever the body stores into them elsewhere.
		out = append(out, flowVal{b: b, e: x, param: -1, external: true, end: x.Pos(), why: "read from an object"})
		made = true
	}
	for _, d := range l.defs[v] {
		made = true
		switch {
		case d.ranged && d.rangeKey:
			out = append(out, flowVal{b: b, e: d.expr, param: -1, end: d.expr.Pos(), why: "a range key"})
		case d.ranged:
			out = append(out, q.values(b, d.expr, append([]string{elem}, path...), depth+1)...)
		case d.index >= 0:
			if ce, ok := ast.Unparen(d.expr).(*ast.CallExpr); ok {
				out = append(out, q.results(b, ce, d.index, path, depth+1)...)
			} else {
				// v, ok := m[k] or x.(T): the first is the value.
				if d.index == 0 {
					out = append(out, q.values(b, d.expr, path, depth+1)...)
				}
			}
		default:
			out = append(out, q.values(b, d.expr, path, depth+1)...)
		}
	}
	for _, st := range l.stores[v] {
		if object {
			break
		}
		if n := len(st.path); n <= len(path) && strings.Join(st.path, ".") == strings.Join(path[:n], ".") {
			made = true
			out = append(out, q.values(b, st.value, path[n:], depth+1)...)
		}
	}
	if !made {
		// Declared without a value and filled elsewhere (read from the
		// API server into it): what it holds is copied, not made here.
		out = append(out, flowVal{b: b, e: x, param: -1, external: true, end: x.Pos(), why: "read from elsewhere"})
	}
	return out
}

// isObject reports whether t is an API object or a pointer to one.
func isObject(t types.Type) bool {
	if IsObjectPointer(t) {
		return true
	}
	_, ptr := types.Unalias(t).(*types.Pointer)
	return !ptr && IsObjectPointer(types.NewPointer(t))
}

// results follows result index of a call into the returns of the bodies it
// may run, each parameter they depend on replaced by the call's argument.
func (q *query) results(b *flowBody, ce *ast.CallExpr, index int, path []string, depth int) []flowVal {
	callees := q.fl.callees(b, ce)
	if len(callees) == 0 {
		return []flowVal{{b: b, e: ce, param: -1, end: ce.Lparen, why: "the result of a call that is not followed"}}
	}
	var out []flowVal
	for _, cb := range callees {
		args := callArgs(b.info, ce, cb)
		for _, r := range cb.returnValues(index) {
			var vals []flowVal
			if ce, ok := ast.Unparen(r.e).(*ast.CallExpr); ok && r.index >= 0 {
				vals = q.results(cb, ce, r.index, path, depth+1)
			} else if r.index < 0 {
				vals = q.values(cb, r.e, path, depth+1)
			}
			for _, v := range vals {
				if v.param < 0 || v.b != cb {
					out = append(out, v)
					continue
				}
				if v.param >= len(args) {
					out = append(out, flowVal{b: b, e: ce, param: -1, end: ce.Lparen, why: "a parameter the call does not line up"})
					continue
				}
				out = append(out, q.values(b, args[v.param], v.path, depth+1)...)
			}
		}
	}
	return out
}

// retValue is one value a body's returns give a result: an expression,
// or result index of a call returned whole (return f(), f giving several
// results; index >= 0).
type retValue struct {
	e     ast.Expr
	index int
}

// returnValues are the values the body's returns give result index: a
// named result's (a bare return), or the value returned.
func (b *flowBody) returnValues(index int) []retValue {
	var out []retValue
	named := b.namedResults()
	n := 0
	if ft := b.funcType(); ft.Results != nil {
		n = ft.Results.NumFields()
	}
	returnsOf(b.block(), func(r *ast.ReturnStmt) {
		switch {
		case len(r.Results) == 0 && index < len(named):
			out = append(out, retValue{named[index], -1})
		case len(r.Results) == 1 && n > 1:
			out = append(out, retValue{r.Results[0], index})
		case index < len(r.Results):
			out = append(out, retValue{r.Results[index], -1})
		}
	})
	return out
}

// namedResults are the names of the body's results.
func (b *flowBody) namedResults() []*ast.Ident {
	var out []*ast.Ident
	ft := b.funcType()
	if ft.Results == nil {
		return nil
	}
	for _, f := range ft.Results.List {
		out = append(out, f.Names...)
	}
	return out
}

// funcType is the body's signature: the closure's, or the declaration's.
func (b *flowBody) funcType() *ast.FuncType {
	if b.lit != nil {
		return b.lit.Type
	}
	return b.decl.Type
}

// block is the body's statements.
func (b *flowBody) block() *ast.BlockStmt {
	if b.lit != nil {
		return b.lit.Body
	}
	return b.decl.Body
}

// closureBody is the body of an own closure, read with the declaration
// that holds it (its variables are that declaration's); nil when it has
// none.
func (a *analysis) closureBody(sf *ssa.Function) *flowBody {
	lit, ok := sf.Syntax().(*ast.FuncLit)
	parent := a.flowBodyOf(sf)
	if !ok || parent == nil {
		return nil
	}
	var params []*types.Var
	for _, f := range lit.Type.Params.List {
		if len(f.Names) == 0 {
			params = append(params, nil)
		}
		for _, id := range f.Names {
			v, _ := parent.info.Defs[id].(*types.Var)
			params = append(params, v)
		}
	}
	return &flowBody{decl: parent.decl, lit: lit, info: parent.info, params: params, partial: parent.partial, dep: parent.dep, locals: parent.local()}
}

// flowBodyOf is the body the engine reads for an own function: its
// declaration's (a closure is read with the function that makes it).
func (a *analysis) flowBodyOf(fn *ssa.Function) *flowBody {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return nil
	}
	return a.ownBody(obj.Origin())
}

// returnsOf visits the returns of a body, not those of its closures.
func returnsOf(body *ast.BlockStmt, visit func(*ast.ReturnStmt)) {
	if body == nil {
		return
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch r := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			visit(r)
		}
		return true
	})
}

// callees are the bodies a call may run: the tree's own functions (the
// static callee, or those the call graph gives a dynamic call), or a
// dependency's function the engine is told to read. A library function of
// the knowledge table is never entered.
func (fl *flowEngine) callees(b *flowBody, ce *ast.CallExpr) []*flowBody {
	c := fl.a.makeCall(b.info, ce, nil)
	if c.known {
		return nil
	}
	if c.fn != nil && !isInterfaceMethod(c.fn) {
		if ob := fl.a.ownBody(c.fn.Origin()); ob != nil {
			return []*flowBody{ob}
		}
		if fl.a.fileOwn(c.fn.Pos()) {
			return nil
		}
		if fl.follow != nil && fl.follow(c.fn) {
			if db := fl.a.depBody(c.fn.Origin()); db != nil {
				return []*flowBody{db}
			}
		}
		return nil
	}
	var out []*flowBody
	for _, sf := range c.own {
		if _, lit := sf.Syntax().(*ast.FuncLit); lit {
			if cb := fl.a.closureBody(sf); cb != nil {
				out = append(out, cb)
			}
			continue
		}
		if obj, ok := sf.Object().(*types.Func); ok {
			if ob := fl.a.ownBody(obj.Origin()); ob != nil {
				out = append(out, ob)
			}
		}
	}
	return out
}

// isInterfaceMethod reports whether fn is a method of an interface: a
// call of it runs what the call graph says.
func isInterfaceMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

// sinks are the places a variable's value is stored in body b: each
// expression that holds one of its uses (a composite literal it is an
// element or field of, an append that adds it, the left side of an
// assignment it is the value of).
func (b *flowBody) sinks(v *types.Var) []ast.Expr {
	l := b.local()
	var out []ast.Expr
	for _, u := range l.uses[v] {
		if h, ok := l.holder[ast.Expr(u)]; ok {
			out = append(out, h)
		}
	}
	return out
}

// holderOf is what holds a stored expression (see sinks), or nil.
func (b *flowBody) holderOf(e ast.Expr) ast.Expr {
	return b.local().holder[e]
}

// callArgs lines a call's arguments up with a callee's parameters: the
// receiver of a method call first.
func callArgs(info *types.Info, e *ast.CallExpr, callee *flowBody) []ast.Expr {
	hasRecv := callee.lit == nil && callee.decl.Recv != nil
	if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && hasRecv {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			return append([]ast.Expr{sel.X}, e.Args...)
		}
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			return e.Args
		}
		return nil
	}
	if hasRecv {
		return nil
	}
	return e.Args
}
