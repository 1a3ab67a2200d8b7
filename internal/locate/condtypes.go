package locate

import (
	"go/ast"
	"go/types"
	"slices"
)

// conditionStruct reports whether t (or what it points to) is a condition:
// a struct with a string Type field and a Status field.
func conditionStruct(t types.Type) bool {
	typ, ok := conditionTypeField(t)
	return ok && isString(typ)
}

// applyCondition reports whether t (or what it points to) is a condition
// apply configuration: a struct with a Type field that points to a string
// and a Status field.
func applyCondition(t types.Type) bool {
	typ, ok := conditionTypeField(t)
	p, isPtr := typ.(*types.Pointer)
	return ok && isPtr && isString(p.Elem())
}

// conditionTypeField is the type of the Type field of t (or what it points
// to), when t is a struct with a Type and a Status field, its own or
// promoted from an embedded struct (a condition that embeds the state it
// shares with other kinds' conditions).
func conditionTypeField(t types.Type) (types.Type, bool) {
	if t == nil {
		return nil, false
	}
	t = deref(t)
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return nil, false
	}
	field := func(name string) *types.Var {
		obj, _, _ := types.LookupFieldOrMethod(t, false, nil, name)
		v, _ := obj.(*types.Var)
		if v == nil || !v.IsField() {
			return nil
		}
		return v
	}
	typ, status := field("Type"), field("Status")
	if typ == nil || status == nil {
		return nil, false
	}
	return typ.Type(), true
}

// isConditionSlice reports whether t is a slice of conditions (or a
// pointer to one).
func isConditionSlice(t types.Type) bool {
	if t == nil {
		return false
	}
	s, ok := deref(t).Underlying().(*types.Slice)
	return ok && conditionStruct(s.Elem())
}

// conditionsPath names the fields from t down to the shallowest
// conditions slice it holds (Status, Conditions), embedded fields left
// out as a selector leaves them out; nil when it holds none within four
// fields.
func conditionsPath(t types.Type) []string {
	type step struct {
		t    types.Type
		path []string
	}
	queue := []step{{t: t}}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if isConditionSlice(s.t) && len(s.path) > 0 {
			return s.path
		}
		st, ok := deref(s.t).Underlying().(*types.Struct)
		if !ok || len(s.path) >= 4 {
			continue
		}
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			path := s.path
			if !f.Embedded() {
				path = append(slices.Clip(path), f.Name())
			}
			queue = append(queue, step{t: f.Type(), path: path})
		}
	}
	return nil
}

// isConditionMap reports whether t is a map of conditions (or a pointer to
// one): a model that keeps one condition per type.
func isConditionMap(t types.Type) bool {
	if t == nil {
		return false
	}
	m, ok := deref(t).Underlying().(*types.Map)
	return ok && conditionStruct(m.Elem())
}

// isConditionTypeField reports whether sel reads the Type field of a
// condition.
func isConditionTypeField(info *types.Info, sel *ast.SelectorExpr) bool {
	s := info.Selections[sel]
	return s != nil && s.Kind() == types.FieldVal && sel.Sel.Name == "Type" && conditionStruct(s.Recv())
}

// takesConditions reports whether a function has a parameter (or
// receiver) through which it can set conditions: a conditions slice, a
// struct holding one, or an interface with a method handing one over.
func takesConditions(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return false
	}
	var ts []types.Type
	if sig.Recv() != nil {
		ts = append(ts, sig.Recv().Type())
	}
	for i := 0; i < sig.Params().Len(); i++ {
		ts = append(ts, sig.Params().At(i).Type())
	}
	for _, t := range ts {
		if holdsConditions(t, 0) {
			return true
		}
	}
	return false
}

// holdsConditions reports whether a value of type t reaches a conditions
// slice (or map): it is one, a struct (or pointer) with one within two fields, or
// an interface one of whose methods takes or returns one.
func holdsConditions(t types.Type, depth int) bool {
	if t == nil || depth > 2 {
		return false
	}
	if isConditionSlice(t) || isConditionMap(t) {
		return true
	}
	switch u := deref(t).Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsConditions(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	case *types.Interface:
		for i := 0; i < u.NumMethods(); i++ {
			sig := u.Method(i).Type().(*types.Signature)
			for _, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
				for j := 0; j < tup.Len(); j++ {
					if isConditionSlice(tup.At(j).Type()) {
						return true
					}
				}
			}
		}
	}
	return false
}

// holdsUnstructured reports whether an object type keeps its content in an
// unstructured map: it is unstructured.Unstructured, or embeds it (at any
// depth). Its status conditions are set through methods that write the map
// (a library's SetConditions), which no field's type shows.
func holdsUnstructured(t types.Type) bool {
	seen := map[types.Type]bool{}
	var holds func(t types.Type) bool
	holds = func(t types.Type) bool {
		t = deref(t)
		if seen[t] {
			return false
		}
		seen[t] = true
		if typeKey(t) == typeUnstructured {
			return true
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return false
		}
		for i := 0; i < st.NumFields(); i++ {
			if f := st.Field(i); f.Embedded() && holds(f.Type()) {
				return true
			}
		}
		return false
	}
	return holds(t)
}
