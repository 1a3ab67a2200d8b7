package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
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

// flowVal is one value the engine settles an expression to, in body b:
// the expression that makes it (a constant, a literal, an expression it
// does not follow), the zero value (a field a literal leaves out), one of
// b's parameters (the caller decides; path is what is selected below it),
// or where the trail ends (end, with why; path is then what was asked
// below the expression it ends at: the value is not that expression's).
type flowVal struct {
	b     *flowBody
	e     ast.Expr
	zero  bool
	param int
	path  []string
	// result is, when e is a call with several results whose callee is
	// not followed, the one of them the value is.
	result int
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
		return []flowVal{{b: b, e: e, param: -1, path: path, end: e.Pos(), why: "followed too far"}}
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
	if isNilExpr(info, e) || isNilExpr(info, stripConversions(info, e)) {
		// nil, or nil converted to a type ([]T(nil)): the zero value.
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
		if in, ok := q.fl.a.initOf(info, x); ok {
			return q.values(initBody(in), in.expr, path, depth+1)
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
	case *ast.StarExpr:
		// *p holds what p points to, as a selector through p reads it.
		return q.values(b, x.X, path, depth+1)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			// &T{…} points to the value it takes the address of.
			return q.values(b, x.X, path, depth+1)
		}
	case *ast.FuncLit:
		if len(path) > 0 && appliedArg(path[0]) >= 0 {
			return q.applied(b, x, appliedArg(path[0]), path[1:], depth+1)
		}
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
	return []flowVal{{b: b, e: e, param: -1, path: path, end: e.Pos(), why: "a value computed here"}}
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
	if path[0] == keyStep {
		// A map literal's keys.
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				out = append(out, q.values(b, kv.Key, path[1:], depth+1)...)
			}
		}
		if len(out) == 0 {
			return []flowVal{{b: b, zero: true, param: -1}}
		}
		return out
	}
	if path[0] == elem {
		if _, isStruct := deref(b.info.TypeOf(x)).Underlying().(*types.Struct); isStruct {
			// A struct has fields, not elements: the question went
			// astray before it came here.
			return []flowVal{{b: b, e: x, param: -1, path: path, end: x.Lbrace, why: "an element asked of a struct"}}
		}
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
		return []flowVal{{b: b, e: x, param: -1, path: path, end: x.Pos(), why: "not a variable"}}
	}
	if i := b.paramIndex(v); i >= 0 {
		return []flowVal{{b: b, e: x, param: i, path: path}}
	}
	if pb, i := q.fl.a.enclosingParam(b, v); pb != nil {
		// A closure's free variable that is a parameter of the function
		// declaring it: that function's callers decide.
		return []flowVal{{b: pb, e: x, param: i, path: path}}
	}
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		if in, ok := q.fl.a.initOf(b.info, x); ok {
			return q.values(initBody(in), in.expr, path, depth+1)
		}
		return []flowVal{{b: b, e: x, param: -1, path: path, end: x.Pos(), why: "a package variable"}}
	}
	l := b.local()
	if len(path) == 1 && path[0] == "Type" {
		if tested := l.changedUnder(v, x); tested != nil {
			return q.values(b, tested, nil, depth+1)
		}
	}
	var out []flowVal
	made := false
	object := isObject(v.Type())
	if object {
		// An API object variable may be read into (var obj T, or obj :=
		// &T{}, then r.Get(…, obj)): what its fields hold is then the
		// object's, whatever the body stores into them elsewhere.
		out = append(out, flowVal{b: b, e: x, param: -1, path: path, external: true, end: x.Pos(), why: "read from an object"})
		made = true
	}
	unseen := false
	for _, d := range l.defs[v] {
		if b.deferredUnseen(d.deferredIn, v, x.Pos()) {
			unseen = true
			continue
		}
		made = true
		switch {
		case d.ranged && d.rangeKey && isMap(b.info.TypeOf(d.expr)):
			// A map's key: the keys stored into the map ranged over.
			out = append(out, q.values(b, d.expr, append([]string{keyStep}, path...), depth+1)...)
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
		if b.deferredUnseen(st.deferredIn, v, x.Pos()) {
			unseen = true
			continue
		}
		if n := len(st.path); n <= len(path) && strings.Join(st.path, ".") == strings.Join(path[:n], ".") {
			made = true
			out = append(out, q.values(b, st.value, path[n:], depth+1)...)
		}
	}
	if !object {
		out = append(out, q.storedByCalls(b, v, path, depth)...)
		out = append(out, q.keysHanded(b, v, path, depth)...)
	}
	if !made && unseen && l.declared[v] && !l.addressed[v] {
		// var v T, assigned only by closures deferred past this read:
		// still its zero value here.
		out = append(out, flowVal{b: b, zero: true, param: -1})
		made = true
	}
	if !made {
		// Declared without a value and filled elsewhere (read from the
		// API server into it): what it holds is copied, not made here.
		out = append(out, flowVal{b: b, e: x, param: -1, path: path, external: true, end: x.Pos(), why: "read from elsewhere"})
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

// enclosingParam is, for a variable a closure of the tree uses that is a
// parameter of the function declaring the closure, that function's body
// and the parameter's index (the receiver first); nil otherwise.
func (a *analysis) enclosingParam(b *flowBody, v *types.Var) (*flowBody, int) {
	if b.lit == nil || b.dep {
		return nil, -1
	}
	fn, ok := b.info.Defs[b.decl.Name].(*types.Func)
	if !ok {
		return nil, -1
	}
	pb := a.ownBody(fn)
	if pb == nil {
		return nil, -1
	}
	if i := pb.paramIndex(v); i >= 0 {
		return pb, i
	}
	return nil, -1
}
