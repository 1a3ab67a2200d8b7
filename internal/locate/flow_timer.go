package locate

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// The flow engine's question about func values: what does a function value
// call when it runs? A timer is handed one (time.AfterFunc), or runs the
// func values its caller calls once the timer's channel fires; the answer
// says whether that comes to the workqueue's Add (a delayed re-enqueue of
// the key) or where the trail ends. It is asked of the SSA form, where a
// method value, a closure's captured variable, a struct field set at
// construction and a parameter set by the callers are all values to follow
// to where they are made: a parameter to the arguments of its callers (the
// call graph's), a field to every store into it in the tree, a captured
// variable to the binding of the closure that captures it.

// funcOutcome is what a func value comes to: the calls or method values of
// the workqueue's adds it reaches, and where the trail ends without one.
type funcOutcome struct {
	queue []token.Pos
	ends  []funcEnd
}

// funcEnd is a place the trail of a func value ends: what is there, where.
type funcEnd struct {
	what string
	at   token.Pos
}

// add merges another outcome into o.
func (o *funcOutcome) add(p funcOutcome) {
	o.queue = append(o.queue, p.queue...)
	o.ends = append(o.ends, p.ends...)
}

// maxFuncFlowDepth and maxFuncFlowSteps bound one question.
const (
	maxFuncFlowDepth = 32
	maxFuncFlowSteps = 2000
)

// funcFlow is one question's state: its cycle guards and steps.
type funcFlow struct {
	a      *analysis
	seen   map[ssa.Value]bool
	seenFn map[*ssa.Function]bool
	steps  int
}

// newFuncFlow starts a question.
func (a *analysis) newFuncFlow() *funcFlow {
	return &funcFlow{a: a, seen: map[ssa.Value]bool{}, seenFn: map[*ssa.Function]bool{}}
}

// isQueueAdd reports whether fn is a workqueue method that takes a key
// (at once, rate-limited or after a delay).
func isQueueAdd(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	switch knowledge[funcKey(fn)].Role {
	case RoleQueueAdd, RoleQueueAddRateLimited, RoleQueueAddAfter, RoleQueueAddWithOpts:
		return true
	}
	return false
}

// calleeObj is the function a call names: the interface method invoked
// (the concrete one when the interface is made at the call), or the static
// callee's object, also when a function hands the func value back
// unchanged (via(f)(…)); nil for a closure or a func value.
func calleeObj(c *ssa.CallCommon) *types.Func {
	if c.IsInvoke() {
		if m := dispatched(c); m != nil {
			return m
		}
		return c.Method
	}
	var sc *ssa.Function
	switch v := passedThrough(c.Value).(type) {
	case *ssa.Function:
		sc = v
	case *ssa.MakeClosure:
		sc, _ = v.Fn.(*ssa.Function)
	}
	if sc != nil {
		fn, _ := sc.Object().(*types.Func)
		return fn
	}
	return nil
}

// callArgsSSA are a call's arguments lined up with the callee's
// parameters, the receiver first (an invoked interface's value included).
func callArgsSSA(c *ssa.CallCommon) []ssa.Value {
	if c.IsInvoke() {
		return append([]ssa.Value{c.Value}, c.Args...)
	}
	return c.Args
}

// value follows a func value to what it calls when it runs.
func (fl *funcFlow) value(v ssa.Value, depth int) funcOutcome {
	fl.steps++
	if depth > maxFuncFlowDepth || fl.steps > maxFuncFlowSteps {
		return fl.end("a func value followed too far", v.Pos())
	}
	if fl.seen[v] {
		return funcOutcome{}
	}
	fl.seen[v] = true
	switch x := v.(type) {
	case *ssa.MakeClosure:
		if fn, ok := x.Fn.(*ssa.Function); ok {
			return fl.function(fn, x.Pos(), depth+1)
		}
	case *ssa.Function:
		return fl.function(x, x.Pos(), depth+1)
	case *ssa.ChangeType:
		return fl.value(x.X, depth+1)
	case *ssa.Convert:
		return fl.value(x.X, depth+1)
	case *ssa.MakeInterface:
		return fl.value(x.X, depth+1)
	case *ssa.TypeAssert:
		return fl.value(x.X, depth+1)
	case *ssa.Phi:
		var o funcOutcome
		for _, e := range x.Edges {
			o.add(fl.value(e, depth+1))
		}
		return o
	case *ssa.Parameter:
		return fl.param(x, depth+1)
	case *ssa.FreeVar:
		var o funcOutcome
		for _, b := range closureBindings(x) {
			o.add(fl.value(b, depth+1))
		}
		return o
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return fl.stored(x.X, depth+1)
		}
	case *ssa.Field:
		if st, ok := deref(x.X.Type()).Underlying().(*types.Struct); ok && x.Field < st.NumFields() {
			return fl.fieldStores(st.Field(x.Field), x.Pos(), depth+1)
		}
	case *ssa.Const:
		if x.IsNil() {
			return funcOutcome{}
		}
	}
	return fl.end("a func value", v.Pos())
}

// end is an outcome that ends the trail at pos.
func (fl *funcFlow) end(what string, pos token.Pos) funcOutcome {
	return funcOutcome{ends: []funcEnd{{what: what, at: pos}}}
}

// function says what a function made into a value at pos calls: a method
// value of the workqueue's add is the add; a body is read.
func (fl *funcFlow) function(fn *ssa.Function, pos token.Pos, depth int) funcOutcome {
	obj, _ := fn.Object().(*types.Func)
	if isQueueAdd(obj) {
		return funcOutcome{queue: []token.Pos{pos}}
	}
	if fn.Synthetic != "" && obj != nil {
		// A method value's wrapper: read the method it wraps.
		if sf := fl.a.prog.Func(obj.Origin()); sf != nil && sf != fn {
			fn = sf
		}
	}
	if len(fn.Blocks) == 0 || !fl.own(fn) {
		name := fn.String()
		if obj != nil {
			name = obj.FullName()
		}
		return fl.end(name, pos)
	}
	return fl.body(fn, depth)
}

// own reports whether fn is (an instance of) the tree's own code, or a
// closure in it.
func (fl *funcFlow) own(fn *ssa.Function) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fl.a.prog.Own[fn] {
		return true
	}
	if o := fn.Origin(); o != nil {
		return fl.a.prog.Own[o]
	}
	return false
}

// body says what an own function calls that takes the key back: the
// workqueue's adds it calls, and what the func values it calls come to;
// the own functions it calls are read in turn.
func (fl *funcFlow) body(fn *ssa.Function, depth int) funcOutcome {
	if fl.seenFn[fn] {
		return funcOutcome{}
	}
	fl.seenFn[fn] = true
	var o funcOutcome
	for _, b := range fn.Blocks {
		for _, ins := range b.Instrs {
			ci, ok := ins.(ssa.CallInstruction)
			if !ok {
				continue
			}
			o.add(fl.call(fn, ci, depth))
		}
	}
	return o
}

// call says what one call of an own body comes to.
func (fl *funcFlow) call(fn *ssa.Function, ci ssa.CallInstruction, depth int) funcOutcome {
	c := ci.Common()
	if isQueueAdd(calleeObj(c)) {
		return funcOutcome{queue: []token.Pos{ci.Pos()}}
	}
	if depth > maxFuncFlowDepth {
		return funcOutcome{}
	}
	if sc := c.StaticCallee(); sc != nil {
		if len(sc.Blocks) > 0 && fl.own(sc) {
			return fl.body(sc, depth+1)
		}
		return funcOutcome{}
	}
	if c.IsInvoke() {
		var o funcOutcome
		for _, e := range fl.a.prog.CallsFrom(fn) {
			if e.Site == ci && len(e.Callee.Func.Blocks) > 0 && fl.own(e.Callee.Func) {
				o.add(fl.body(e.Callee.Func, depth+1))
			}
		}
		return o
	}
	if _, ok := c.Value.(*ssa.Builtin); ok {
		return funcOutcome{}
	}
	// A call of a func value: follow the value.
	return fl.value(c.Value, depth+1)
}

// param follows a parameter to the arguments its callers pass.
func (fl *funcFlow) param(p *ssa.Parameter, depth int) funcOutcome {
	fn := p.Parent()
	i := -1
	for j, q := range fn.Params {
		if q == p {
			i = j
		}
	}
	var o funcOutcome
	callers := 0
	for _, e := range fl.a.prog.CallsInto(fn) {
		args := callArgsSSA(e.Site.Common())
		if i < 0 || i >= len(args) {
			continue
		}
		callers++
		o.add(fl.value(args[i], depth+1))
	}
	if callers == 0 {
		return fl.end(fmt.Sprintf("parameter %s of %s, whose callers are not known", p.Name(), fn.Name()), p.Pos())
	}
	return o
}

// closureBindings are the values a closure's captured variable is bound
// to where the closure is made.
func closureBindings(fv *ssa.FreeVar) []ssa.Value {
	fn := fv.Parent()
	i := -1
	for j, f := range fn.FreeVars {
		if f == fv {
			i = j
		}
	}
	parent := fn.Parent()
	if i < 0 || parent == nil {
		return nil
	}
	var out []ssa.Value
	for _, b := range parent.Blocks {
		for _, ins := range b.Instrs {
			if mc, ok := ins.(*ssa.MakeClosure); ok && mc.Fn == fn && i < len(mc.Bindings) {
				out = append(out, mc.Bindings[i])
			}
		}
	}
	return out
}

// stored follows what is loaded from an address: the stores into a local
// (captured or not), or into a struct field anywhere in the tree.
func (fl *funcFlow) stored(addr ssa.Value, depth int) funcOutcome {
	switch x := addr.(type) {
	case *ssa.FreeVar:
		var o funcOutcome
		for _, b := range closureBindings(x) {
			o.add(fl.stored(b, depth+1))
		}
		return o
	case *ssa.Alloc:
		var o funcOutcome
		for _, r := range *x.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == x {
				o.add(fl.value(st.Val, depth+1))
			}
		}
		return o
	case *ssa.FieldAddr:
		if st, ok := deref(x.X.Type()).Underlying().(*types.Struct); ok && x.Field < st.NumFields() {
			return fl.fieldStores(st.Field(x.Field), x.Pos(), depth+1)
		}
	}
	return fl.end("a func value read from memory", addr.Pos())
}

// fieldStores follows a struct field to every value the tree's own code
// stores into it (a literal's field included).
func (fl *funcFlow) fieldStores(field *types.Var, pos token.Pos, depth int) funcOutcome {
	field = field.Origin()
	var vals []ssa.Value
	for fn := range fl.a.prog.Own {
		fl.storesIn(fn, field, &vals)
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i].Pos() < vals[j].Pos() })
	if len(vals) == 0 {
		return fl.end(fmt.Sprintf("field %s, which the tree never sets", field.Name()), pos)
	}
	var o funcOutcome
	for _, v := range vals {
		o.add(fl.value(v, depth+1))
	}
	return o
}

// storesIn collects the stores into field in fn (its closures are own
// functions of their own).
func (fl *funcFlow) storesIn(fn *ssa.Function, field *types.Var, vals *[]ssa.Value) {
	for _, b := range fn.Blocks {
		for _, ins := range b.Instrs {
			st, ok := ins.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			if s, ok := deref(fa.X.Type()).Underlying().(*types.Struct); ok && fa.Field < s.NumFields() && s.Field(fa.Field).Origin() == field {
				*vals = append(*vals, st.Val)
			}
		}
	}
}
