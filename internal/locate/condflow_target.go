package locate

import (
	"go/ast"
	"go/types"
	"slices"
)

// maxDepth bounds the steps a target is followed through locals.
const maxDepth = 8

// target resolves where a setter's target leads: the primary object (-1,
// with the parameter it is handed through when it is one), a parameter
// (its index), or elsewhere (false: another object, or a value the flow
// cannot follow).
func (r *condReader) target(e ast.Expr, depth int, seen map[*types.Var]bool) (condTarget, bool) {
	if depth > maxDepth || e == nil {
		return condTarget{}, false
	}
	info := r.info()
	e = stripConversions(info, e)
	// fields are the fields selected on the way down, innermost first;
	// known is false once an accessor or a holder hides them.
	var fields []string
	known := true
	for {
		if r.isKind(info.TypeOf(e)) {
			if known && !r.f.onConditionsPath(fields) {
				// Another conditions list of the object (one an older
				// API version keeps): not its status conditions.
				return condTarget{off: true}, false
			}
			return condTarget{t: -1, via: r.paramOf(e)}, true
		}
		switch x := e.(type) {
		case *ast.SelectorExpr:
			sel := info.Selections[x]
			if sel == nil {
				return condTarget{}, false
			}
			if v, ok := sel.Obj().(*types.Var); ok && sel.Kind() == types.FieldVal && !v.Embedded() {
				fields = append(fields, v.Name())
			}
			e = stripConversions(info, x.X)
			continue
		case *ast.CallExpr:
			// An accessor of the object's conditions: ref.Conditions().
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && info.Selections[sel] != nil && info.Selections[sel].Kind() == types.MethodVal {
				recv := info.TypeOf(sel.X)
				if fs, ok := r.f.accessorFields(sel.Sel.Name); ok && (r.isKind(recv) || types.IsInterface(recv)) {
					// The primary type's accessor: the fields it returns.
					fields = append(fields, fs...)
				} else if r.f.onPathType(recv) && r.f.offConditionsPath(info.TypeOf(x)) {
					// A method of the object or of a part of it on the
					// way to its conditions (its Status) handing back
					// structs its status conditions do not lie in (an
					// entry of another list it keeps, with conditions
					// of its own).
					return condTarget{off: true}, false
				} else {
					known = false
				}
				e = stripConversions(info, sel.X)
				continue
			}
			// A helper returning what it is handed (a field of an options
			// struct, a tuple's value): where the engine says it leads.
			return r.flowTarget(e, depth, seen)
		case *ast.IndexExpr:
			e = stripConversions(info, x.X)
			continue
		case *ast.StarExpr:
			// (*list)[i] = c, through the pointer a method is handed.
			e = stripConversions(info, x.X)
			continue
		case *ast.CompositeLit:
			// A value stored into a literal (a status in an object
			// sent by apply) goes where the literal goes.
			h := r.b.holderOf(x)
			if (h == nil || listOfHolders(info.TypeOf(x))) && depth < maxDepth {
				// A list literal handed to a helper that ranges over
				// it, straight or inside what it is handed (an
				// options struct's field): its elements are the
				// targets.
				for _, el := range x.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						el = kv.Value
					}
					if to, ok := r.target(el, depth+1, seen); ok {
						return to, true
					}
				}
			}
			if h == nil || depth > maxDepth {
				return condTarget{}, false
			}
			depth++
			known = false
			e = stripConversions(info, h)
			continue
		}
		break
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return condTarget{}, false
	}
	v := varOf(info, id)
	if v == nil {
		return condTarget{}, false
	}
	if known && len(fields) > 0 && types.IsInterface(v.Type()) && !r.f.onConditionsPath(fields) {
		// Fields of an interface value come from the primary type's
		// accessor: another of its conditions lists.
		return condTarget{off: true}, false
	}
	if i := r.b.paramIndex(v); i >= 0 {
		if known && !r.f.continuesPath(v.Type(), fields) {
			// A parameter of a type on the way to the status
			// conditions (the status handed in) whose fields here
			// lead elsewhere (its OperatorActions, entries shaped
			// like conditions): not the status conditions.
			return condTarget{off: true}, false
		}
		if !r.b.dep && (r.mayBeKind(v.Type()) || isPointer(v.Type()) && r.isKindStatus(v.Type()) && r.handsBack(v)) {
			// A helper taking any object (conditions.Setter,
			// client.Object), or a pointer to a status of the
			// primary's type that it hands back (a status patch): on
			// this reconcile path it is handed the primary object or
			// its status, unless its callers say otherwise.
			return condTarget{t: -1, via: r.paramOf(id)}, true
		}
		return condTarget{t: i}, true
	}
	if r.isKindStatus(v.Type()) && r.handsBack(v) && (!known || r.f.onConditionsPath(append(fields, statusField))) {
		// A status of the primary's own type the function hands back,
		// as a named result or a local it returns (a status patch its
		// caller applies to the object): its conditions are the
		// object's.
		return condTarget{t: -1}, true
	}
	if seen[v] {
		return condTarget{}, false
	}
	seen[v] = true
	param := -1
	off := false
	for _, d := range r.b.local().defs[v] {
		if d.ranged {
			// An element of a list: one kept in a part of the object
			// off the way to its conditions (an entry with conditions
			// of its own) is not them.
			if !d.rangeKey {
				to, _ := r.target(d.expr, depth+1, seen)
				off = off || to.off
			}
			continue
		}
		to, ok := r.target(d.expr, depth+1, seen)
		if ok {
			if to.t < 0 {
				return to, true
			}
			param = to.t
		}
		off = off || to.off
	}
	for _, w := range r.b.sinks(v) {
		if to, ok := r.target(w, depth+1, seen); ok {
			if to.t < 0 {
				return to, true
			}
			param = to.t
		}
	}
	if param >= 0 {
		return condTarget{t: param}, true
	}
	if off {
		// Read from another conditions list of the object.
		return condTarget{off: true}, false
	}
	if !r.b.dep && r.mayBeKind(v.Type()) {
		return condTarget{t: -1, via: r.paramOf(id)}, true
	}
	// A local the syntax above does not lead from (a tuple's second
	// value, the element of a range over a parameter): the engine's
	// values for it.
	return r.flowTarget(id, depth, seen)
}

// flowTarget resolves a target through the value-flow engine: the values
// e may hold in this body, each followed as a target in turn.
func (r *condReader) flowTarget(e ast.Expr, depth int, seen map[*types.Var]bool) (condTarget, bool) {
	if depth >= maxDepth {
		return condTarget{}, false
	}
	vals := r.f.fl.values(r.b, e)
	if listOfHolders(r.info().TypeOf(e)) {
		// A list of references to what holds conditions, made in a
		// helper and handed back (a tuple's value): its elements, each
		// followed to this body where it is what the call is handed.
		vals = append(vals, r.f.fl.values(r.b, e, elem)...)
	}
	param := -1
	for _, v := range vals {
		if v.b != r.b || v.e == nil || v.e == e {
			continue
		}
		if to, ok := r.target(v.e, depth+1, seen); ok {
			if to.t < 0 {
				return to, true
			}
			param = to.t
		}
	}
	if param >= 0 {
		return condTarget{t: param}, true
	}
	return condTarget{}, false
}

// onConditionsPath reports whether fields, selected from the primary
// object innermost first, stay on the path to its status conditions: a
// part of it (the object, its Status), the conditions themselves, or
// what lies within them. A primary type holding no conditions list
// leaves every path open.
func (f *condFlow) onConditionsPath(fields []string) bool {
	for i, j := len(fields)-1, 0; i >= 0 && j < len(f.condPath); i, j = i-1, j+1 {
		if fields[i] != f.condPath[j] {
			return false
		}
	}
	return true
}

// continuesPath reports whether fields (innermost first), selected from a
// value of type t, go on down the path to the primary's status conditions
// from where t lies on it; true when t is not a type of that path, or no
// field is selected.
func (f *condFlow) continuesPath(t types.Type, fields []string) bool {
	if f.kind == nil || len(fields) == 0 {
		return true
	}
	var cur types.Type = f.kind
	for j := 0; j <= len(f.condPath); j++ {
		if j > 0 && types.Identical(deref(cur), deref(t)) {
			rest := f.condPath[j:]
			for i, k := len(fields)-1, 0; i >= 0 && k < len(rest); i, k = i-1, k+1 {
				if fields[i] != rest[k] {
					return false
				}
			}
			return true
		}
		if j == len(f.condPath) {
			break
		}
		field, _, _ := types.LookupFieldOrMethod(cur, true, f.kind.Obj().Pkg(), f.condPath[j])
		v, ok := field.(*types.Var)
		if !ok || !v.IsField() {
			break
		}
		cur = v.Type()
	}
	return true
}

// accessorFields are the fields a method of the primary type returns
// from its receiver (GetConditions returning o.Status.Conditions),
// innermost first, when every return that selects from the receiver
// selects the same fields.
func (f *condFlow) accessorFields(name string) ([]string, bool) {
	if f.kind == nil {
		return nil, false
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(f.kind), true, f.kind.Obj().Pkg(), name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil, false
	}
	b := f.a.ownBody(fn)
	if b == nil {
		b = f.a.depBody(fn)
	}
	if b == nil || len(b.params) == 0 {
		return nil, false
	}
	var out []string
	found, same := false, true
	ast.Inspect(b.block(), func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if _, lit := n.(*ast.FuncLit); lit || !ok || len(ret.Results) != 1 {
			return !lit
		}
		var fs []string
		e := ast.Unparen(ret.Results[0])
		for {
			sel, ok := e.(*ast.SelectorExpr)
			if !ok {
				break
			}
			if v, ok := b.info.Uses[sel.Sel].(*types.Var); ok && v.IsField() && !v.Embedded() {
				fs = append(fs, v.Name())
			}
			e = ast.Unparen(sel.X)
		}
		if id, ok := e.(*ast.Ident); !ok || varOf(b.info, id) != b.params[0] || len(fs) == 0 {
			return false
		}
		if found && !slices.Equal(out, fs) {
			same = false
		}
		out, found = fs, true
		return false
	})
	return out, found && same
}

// paramOf is the parameter an object expression selects from (obj,
// &obj.Status, obj.Status.Conditions), when the parameter is of the
// primary's type or an interface: one of the body's, or of one of its
// closures; the zero value otherwise.
func (r *condReader) paramOf(e ast.Expr) objParam {
	info := r.info()
	for {
		switch x := stripConversions(info, e).(type) {
		case *ast.SelectorExpr:
			if s := info.Selections[x]; s == nil || s.Kind() != types.FieldVal {
				return objParam{}
			}
			e = x.X
			continue
		case *ast.Ident:
			v := varOf(info, x)
			if v == nil || !r.isKind(v.Type()) && !types.IsInterface(v.Type()) {
				// Not an object taken for the primary by its type (a
				// struct that holds one is followed no further).
				return objParam{}
			}
			if r.b.paramIndex(v) >= 0 {
				if r.b.lit != nil {
					return objParam{v: v, fn: r.b.lit}
				}
				return objParam{v: v, fn: r.b.decl}
			}
			if lit := r.litParams[v]; lit != nil {
				return objParam{v: v, fn: lit}
			}
		}
		return objParam{}
	}
}

// mayBeKind reports whether t is an interface the primary object, or a
// part of it on the way to its conditions (its Status), may be held in:
// one such a type (or a pointer to it) implements, or any interface when
// no primary type is known. A clientset or a lister held in an interface
// (a kubernetes.Interface a helper is handed, the receiver a client call
// is made on) holds none of them.
func (r *condReader) mayBeKind(t types.Type) bool {
	if t == nil || !types.IsInterface(t) {
		return false
	}
	if r.f.kind == nil {
		return true
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return true
	}
	var cur types.Type = r.f.kind
	for i := 0; ; i++ {
		if types.Implements(cur, iface) || types.Implements(types.NewPointer(cur), iface) {
			return true
		}
		if i >= len(r.f.condPath) {
			return false
		}
		f, _, _ := types.LookupFieldOrMethod(cur, true, r.f.kind.Obj().Pkg(), r.f.condPath[i])
		v, isVar := f.(*types.Var)
		if !isVar || !v.IsField() {
			return false
		}
		cur = deref(v.Type())
	}
}

// isKind reports whether t is the primary type (or a pointer to it, or a
// wrapper embedding it); with no primary type known, every object is
// taken for it.
func (r *condReader) isKind(t types.Type) bool {
	if t == nil {
		return false
	}
	n, ok := deref(t).(*types.Named)
	if r.f.kind == nil {
		return ok && IsObjectPointer(types.NewPointer(n))
	}
	// A type of the tree's that embeds the primary type (a wrapper,
	// type Cluster struct{ *v1.Cluster }) holds the object's Status as its
	// own: c.Status.Conditions is the object's.
	return ok && embedsKind(n, r.f.kind, 0)
}

// isKindStatus reports whether t is (a pointer to) the named type of the
// primary kind's Status field, when the tree declares one.
func (r *condReader) isKindStatus(t types.Type) bool {
	return isStatusOf(r.f.kind, t)
}

// isStatusOf reports whether t, or what it points to, is the type of
// kind's Status field.
func isStatusOf(kind *types.Named, t types.Type) bool {
	n, ok := deref(t).(*types.Named)
	if t == nil || !ok || kind == nil {
		return false
	}
	f, _, _ := types.LookupFieldOrMethod(kind, true, kind.Obj().Pkg(), statusField)
	v, isVar := f.(*types.Var)
	if !isVar || !v.IsField() {
		return false
	}
	status, named := types.Unalias(v.Type()).(*types.Named)
	return named && types.Identical(n, status)
}

// handsBack reports whether the function read (not a closure in it)
// hands v back: v is a named result, or a return statement's result.
func (r *condReader) handsBack(v *types.Var) bool {
	if r.b.decl == nil || r.b.lit != nil {
		return false
	}
	if res := r.b.decl.Type.Results; res != nil {
		for _, field := range res.List {
			for _, name := range field.Names {
				if r.info().Defs[name] == v {
					return true
				}
			}
		}
	}
	found := false
	returnsOf(r.b.decl.Body, func(ret *ast.ReturnStmt) {
		for _, e := range ret.Results {
			if id, ok := ast.Unparen(e).(*ast.Ident); ok && r.info().Uses[id] == v {
				found = true
			}
		}
	})
	return found
}

// freshUnwritten reports whether arg is an object made on the spot (a
// composite literal handed straight to the call) that the callee never
// writes to the API server: whatever the callee sets on it is set on an
// object nobody reads, not on the primary. One the callee may write (a
// status sent by server-side apply) stays a candidate.
func (f *condFlow) freshUnwritten(b *flowBody, arg ast.Expr, callee *flowBody) bool {
	lit, ok := stripConversions(b.info, arg).(*ast.CompositeLit)
	if !ok || !isObject(b.info.TypeOf(lit)) || b.holderOf(lit) != nil {
		return false
	}
	var node ast.Node = callee.decl
	if callee.lit != nil {
		node = callee.lit
	}
	fn := f.a.bySyntax[node]
	if fn == nil {
		return false
	}
	if w, ok := f.writes[fn]; ok {
		return !w
	}
	w := false
	for _, g := range f.a.prog.Reachable(fn).Funcs() {
		for _, c := range f.a.callsIn(g) {
			if c.known && (c.fact.Role == RoleWrite || c.fact.Role == RoleApply) {
				w = true
			}
		}
	}
	f.writes[fn] = w
	return !w
}

// offConditionsPath reports whether t, or the values it points to or
// holds as a list or map, is a struct type that none of the fields from
// the primary type down to its status conditions has (embedded ones
// included), nor the conditions themselves: a value of it holds no part of
// the way to those conditions.
func (f *condFlow) offConditionsPath(t types.Type) bool {
	for t != nil && !f.onPathType(t) {
		switch u := types.Unalias(t).Underlying().(type) {
		case *types.Pointer:
			t = u.Elem()
		case *types.Slice:
			t = u.Elem()
		case *types.Array:
			t = u.Elem()
		case *types.Map:
			t = u.Elem()
		case *types.Struct:
			_, named := types.Unalias(t).(*types.Named)
			return named
		default:
			return false
		}
	}
	return false
}

// onPathType reports whether t, or what it points to, is one of the types
// from the primary type down to its status conditions.
func (f *condFlow) onPathType(t types.Type) bool {
	if t == nil || f.kind == nil || f.condPath == nil {
		return false
	}
	for _, on := range f.pathTypes() {
		if types.Identical(deref(on), deref(t)) {
			return true
		}
	}
	return false
}

// pathTypes are the types from the primary type down to its status
// conditions: the primary type, each field's (embedded ones on the way
// included) and the conditions' element type.
func (f *condFlow) pathTypes() []types.Type {
	out := []types.Type{f.kind}
	var cur types.Type = f.kind
	for _, name := range f.condPath {
		field, index, _ := types.LookupFieldOrMethod(cur, true, f.kind.Obj().Pkg(), name)
		v, ok := field.(*types.Var)
		if !ok || !v.IsField() {
			return out
		}
		// The embedded structs the field is promoted through.
		st := cur
		for _, i := range index[:len(index)-1] {
			s, isStruct := deref(st).Underlying().(*types.Struct)
			if !isStruct {
				break
			}
			st = s.Field(i).Type()
			out = append(out, st)
		}
		cur = v.Type()
		out = append(out, cur)
	}
	if s, ok := deref(cur).Underlying().(*types.Slice); ok {
		out = append(out, s.Elem())
	}
	return out
}

// listOfHolders reports whether t is a slice or an array of references
// (pointers, interfaces) to values holding conditions: what is set through
// an element is set where it points.
func listOfHolders(t types.Type) bool {
	if t == nil {
		return false
	}
	var el types.Type
	switch u := t.Underlying().(type) {
	case *types.Slice:
		el = u.Elem()
	case *types.Array:
		el = u.Elem()
	default:
		return false
	}
	switch el.Underlying().(type) {
	case *types.Pointer, *types.Interface:
		return holdsConditions(el, 0)
	}
	return false
}
