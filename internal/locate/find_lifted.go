package locate

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A tree may register its reconcilers through its own layer over the
// library's: a builder of its own whose For and Build hand their arguments
// on to the library's, a setup helper taking the reconciler and the object,
// a wrapper type whose Reconcile calls the reconciler it holds in a field.
// The registration the library sees is then made once, in the layer, with
// values the layer's callers give. The flow engine follows the registered
// value back to the layer's parameters; a call of the layer then registers
// as the library's call would, with the argument at that parameter
// (liftedRoles), and a wrapper stands for the reconciler it delegates to
// (heldReconcilers).

// maxLiftRounds bounds how many layers deep a registration is lifted (a
// helper calling a helper calling the library).
const maxLiftRounds = 4

// maxWrapDepth bounds how many wrappers deep a reconciler is unwrapped.
const maxWrapDepth = 4

// liftedRoles returns the registration roles of the tree's own functions
// that hand a parameter on to a registration: a call of such a function
// is a For (Arg: the object) or a Complete (Arg: the reconciler) of its
// own. Computed once.
func (a *analysis) liftedRoles() map[*types.Func][]Fact {
	if a.lifted != nil {
		return a.lifted
	}
	a.lifted = map[*types.Func][]Fact{}
	fl := &flowEngine{a: a}
	for round := 0; round < maxLiftRounds; round++ {
		changed := false
		for _, fd := range a.ownFuncs() {
			obj, ok := a.infoAt(fd.Pos()).Defs[fd.Name].(*types.Func)
			b := a.ownBody(obj)
			if !ok || b == nil {
				continue
			}
			for _, c := range a.registrationCalls(fd) {
				arg := registeredArg(b.info, c)
				if arg == nil {
					continue
				}
				var facts []Fact
				switch c.fact.Role {
				case RoleRegisterComplete:
					h := a.heldRegistered(fl, b, c, arg)
					for _, p := range h.params {
						facts = append(facts, Fact{Role: c.fact.Role, Obj: -1, Key: -1, Arg: p})
					}
					for _, p := range h.optionParams {
						facts = append(facts, Fact{Role: c.fact.Role, Obj: -1, Key: -1, Arg: p, ArgIsOptions: true})
					}
					for _, p := range h.recvPaths {
						facts = append(facts, Fact{Role: c.fact.Role, Obj: -1, Key: -1, Arg: -1, RecvPath: p})
					}
					for _, p := range h.appliedParams {
						facts = append(facts, Fact{Role: c.fact.Role, Obj: -1, Key: -1, Arg: p.arg, ArgPath: p.path})
					}
				case RoleRegisterFor:
					for _, p := range layerParams(b, fl.values(b, arg)) {
						facts = append(facts, Fact{Role: c.fact.Role, Obj: -1, Key: -1, Arg: p})
					}
				}
				for _, f := range facts {
					if !slices.Contains(a.lifted[obj], f) {
						a.lifted[obj] = append(a.lifted[obj], f)
						changed = true
					}
				}
			}
		}
		if !changed {
			break
		}
	}
	return a.lifted
}

// registrationCalls are a declaration's calls that register a controller
// part: the library's For and Complete (and their kin), and the calls of
// the tree's own functions that hand their arguments on to them, once for
// each role such a call has.
func (a *analysis) registrationCalls(fd *ast.FuncDecl) []call {
	var out []call
	a.allCalls(fd, func(c call) {
		switch {
		case c.known:
			if c.fact.Role == RoleRegisterFor || c.fact.Role == RoleRegisterComplete || c.fact.Role == RoleEnqueueOwner || c.fact.Role == RoleRegisterWatch {
				out = append(out, c)
			}
		case c.fn != nil && a.lifted != nil:
			var facts []Fact
			for _, fn := range liftedCallees(c) {
				for _, f := range a.lifted[fn] {
					if !slices.Contains(facts, f) {
						facts = append(facts, f)
					}
				}
			}
			for _, f := range facts {
				lc := c
				lc.fact = f
				out = append(out, lc)
			}
		}
	})
	return out
}

// liftedCallees are the tree's functions a call runs whose registration
// roles it takes: its callee, or for a call of an interface method the
// implementations the call graph gives it.
func liftedCallees(c call) []*types.Func {
	if !isInterfaceMethod(c.fn) {
		return []*types.Func{c.fn.Origin()}
	}
	var out []*types.Func
	for _, sf := range c.own {
		if fn, ok := sf.Object().(*types.Func); ok {
			out = append(out, fn.Origin())
		}
	}
	return out
}

// layerParams returns the parameters of b (receiver excluded, by index
// in a call's arguments) that values come from, when they are declared as
// an interface or a type parameter: what the layer's callers hand it
// decides. A parameter of a concrete type is the value itself.
func layerParams(b *flowBody, vals []flowVal) []int {
	var out []int
	for _, v := range vals {
		if v.param < 0 || v.b != b || len(v.path) > 0 || v.param >= len(b.params) {
			continue
		}
		p := b.params[v.param]
		if p == nil || !types.IsInterface(p.Type()) {
			continue
		}
		i := v.param
		if b.lit == nil && b.decl.Recv != nil {
			if i == 0 {
				continue // the receiver: the layer itself
			}
			i--
		}
		if !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

// held is what a registered reconciler value holds: the tree's reconciler
// types, the functions converted to a reconciler (reconcile.Func), and the
// parameters of the registering body it comes from (see layerParams).
type held struct {
	types []*types.Named
	funcs []*ssa.Function
	// objects are the object reconcilers a library adapter makes a
	// reconciler of (reconcile.AsReconciler).
	objects []adapted
	// params are the parameters the reconciler itself comes from;
	// optionParams those of an options struct whose reconciler field it
	// is (the value was followed below the struct, to a parameter holding
	// all of it).
	params, optionParams []int
	// recvPaths are the paths below the registering method's receiver
	// it comes from (a field the method's callers set).
	recvPaths []string
	// appliedParams are the parameters holding the options whose stores
	// it comes from (flow_applied.go), with the path below them.
	appliedParams []argPath
	// end is where the first trail the engine could not follow ends, and
	// why (the reason a registration gave no controller).
	end *flowVal
}

// argPath is a path below a call's argument (receiver excluded), its
// steps joined by dots.
type argPath struct {
	arg  int
	path string
}

// caller reports whether the registration's reconciler is its caller's
// (a parameter): each call of the registering function registers it.
func (h held) caller() bool {
	return len(h.types) == 0 && len(h.funcs) == 0 && len(h.objects) == 0 && (len(h.params) > 0 || len(h.optionParams) > 0 || len(h.recvPaths) > 0 || len(h.appliedParams) > 0)
}

// heldReconcilers follows a registered reconciler value (or the path below
// it: an options struct's reconciler field) with the flow engine: to the
// tree's concrete types whose Reconcile takes a request, to the functions
// converted to a reconciler, through the wrappers that delegate to a
// reconciler held in a field (the field's value is then the reconciler),
// and to the registering body's parameters.
func (a *analysis) heldReconcilers(fl *flowEngine, b *flowBody, e ast.Expr, path []string, depth int) held {
	var out held
	for _, v := range fl.values(b, e, path...) {
		if v.param >= 0 && v.b == b && len(path) > 0 && slices.Equal(v.path, path) {
			// The whole options struct is a parameter: its callers'.
			for _, p := range optionParams(b, v) {
				if !slices.Contains(out.optionParams, p) {
					out.optionParams = append(out.optionParams, p)
				}
			}
			continue
		}
		if v.param >= 0 && v.b == b && hasAppliedStep(v.path) {
			// Stored by the options a parameter holds: the callers'.
			for _, p := range optionParams(b, v) {
				if ap := (argPath{p, strings.Join(v.path, ".")}); !slices.Contains(out.appliedParams, ap) {
					out.appliedParams = append(out.appliedParams, ap)
				}
			}
			continue
		}
		if p := recvPath(b, v); p != "" {
			// A field of the receiver: its callers set it.
			if !slices.Contains(out.recvPaths, p) {
				out.recvPaths = append(out.recvPaths, p)
			}
			if out.end == nil {
				end := v
				end.end, end.why = v.e.Pos(), "a field of the receiver, which the method's callers set"
				out.end = &end
			}
			continue
		}
		if v.param >= 0 {
			ps := layerParams(b, []flowVal{v})
			for _, p := range ps {
				if !slices.Contains(out.params, p) {
					out.params = append(out.params, p)
				}
			}
			if len(ps) > 0 || !concreteParam(v) {
				if len(ps) == 0 && out.end == nil {
					end := v
					end.end, end.why = v.e.Pos(), "a parameter's field, which the callers set"
					out.end = &end
				}
				continue
			}
			// A parameter of a concrete type (the receiver): the value
			// is of its type.
		}
		if objs, ok := a.adaptedObjects(fl, v); ok {
			for _, o := range objs {
				if !slices.ContainsFunc(out.objects, func(x adapted) bool { return x.t == o.t }) {
					out.objects = append(out.objects, o)
				}
			}
			if len(objs) == 0 && out.end == nil {
				end := v
				end.end, end.why = v.e.Pos(), "the object reconciler the library's adapter is handed is none of the tree's types with a Reconcile(ctx, obj)"
				out.end = &end
			}
			continue
		}
		if wrapped := a.endedWrapper(v); len(wrapped) > 0 {
			// A library's wrapper the trail ends at: the reconciler it
			// is handed.
			for _, n := range wrapped {
				if !slices.Contains(out.types, n) {
					out.types = append(out.types, n)
				}
			}
			continue
		}
		if v.ended() && out.end == nil {
			end := v
			out.end = &end
		}
		if v.e == nil || v.b == nil {
			continue
		}
		if fn := a.funcValue(v.b.info, stripConversions(v.b.info, v.e)); fn != nil {
			// A function converted to a reconciler (reconcile.Func): its
			// Reconcile calls the function.
			if takesRequest(fn) && !slices.Contains(out.funcs, fn) {
				out.funcs = append(out.funcs, fn)
			}
			continue
		}
		for _, n := range a.ownNamed(nil, v.b.info.TypeOf(v.e)) {
			fn := a.methodFunc(n, methodReconcile)
			if fn == nil || !takesRequest(fn) {
				continue
			}
			if f := a.delegateField(n); f != nil && depth > 0 {
				inner := a.heldReconcilers(fl, v.b, v.e, f, depth-1)
				if len(inner.types) > 0 || len(inner.funcs) > 0 || len(inner.params) > 0 {
					for _, t := range inner.types {
						if !slices.Contains(out.types, t) {
							out.types = append(out.types, t)
						}
					}
					for _, fn := range inner.funcs {
						if !slices.Contains(out.funcs, fn) {
							out.funcs = append(out.funcs, fn)
						}
					}
					if v.b == b {
						for _, p := range inner.params {
							if !slices.Contains(out.params, p) {
								out.params = append(out.params, p)
							}
						}
					}
					continue
				}
			}
			if !slices.Contains(out.types, n) {
				out.types = append(out.types, n)
			}
		}
	}
	return out
}

// endedWrapper is, for a value whose trail ends at a call the engine does
// not follow (a library's wrapper: errors.WithSilentRequeueOnConflict(r)),
// the tree's reconciler types the call is handed (wrappedReconcilers).
func (a *analysis) endedWrapper(v flowVal) []*types.Named {
	if !v.ended() || v.b == nil || v.e == nil {
		return nil
	}
	if _, ok := ast.Unparen(v.e).(*ast.CallExpr); !ok {
		return nil
	}
	return a.wrappedReconcilers(v.b.decl, v.b.info, v.e, wrapDepth)
}

// adapted is an object reconciler that a library adapter makes a
// reconciler of: its type, and the adapter's call.
type adapted struct {
	t       *types.Named
	adapter call
}

// adaptedObjects follows a value that is the result of a library adapter
// making a reconciler of an object reconciler (reconcile.AsReconciler) to
// the tree's types it is handed whose Reconcile takes the object; ok says
// the value is such a result.
func (a *analysis) adaptedObjects(fl *flowEngine, v flowVal) ([]adapted, bool) {
	if v.b == nil || v.e == nil {
		return nil, false
	}
	ce, isCall := ast.Unparen(v.e).(*ast.CallExpr)
	if !isCall {
		return nil, false
	}
	c := a.makeCall(v.b.info, ce, nil)
	if !c.known || c.fact.Role != RoleObjectReconciler || c.arg(c.fact.Arg) == nil {
		return nil, false
	}
	var out []adapted
	for _, w := range fl.values(v.b, c.arg(c.fact.Arg)) {
		if w.e == nil || w.b == nil {
			continue
		}
		for _, n := range a.ownNamed(nil, w.b.info.TypeOf(w.e)) {
			if fn := a.methodFunc(n, methodReconcile); fn != nil && reconciledObject(fn) != nil {
				out = append(out, adapted{t: n, adapter: c})
			}
		}
	}
	return out, true
}

// reconciledObject is the API object type a Reconcile(ctx, obj) takes, or nil.
func reconciledObject(fn *ssa.Function) *types.Named {
	params := fn.Signature.Params()
	if params.Len() != 2 || typeKey(params.At(0).Type()) != typeContext || !IsObjectPointer(params.At(1).Type()) {
		return nil
	}
	n, _ := deref(params.At(1).Type()).(*types.Named)
	return n
}

// recvPath is the dot-separated path below the receiver of a method that
// a value is read from, or "" (not a field of the receiver, or an element
// of one).
func recvPath(b *flowBody, v flowVal) string {
	if v.param != 0 || v.b != b || b.lit != nil || b.decl.Recv == nil || len(v.path) == 0 || slices.Contains(v.path, elem) {
		return ""
	}
	return strings.Join(v.path, ".")
}

// concreteParam reports whether a value is a whole parameter of a concrete
// type: the value is of that type, whatever the callers hand.
func concreteParam(v flowVal) bool {
	if len(v.path) > 0 || v.param >= len(v.b.params) {
		return false
	}
	p := v.b.params[v.param]
	return p != nil && !types.IsInterface(p.Type())
}

// optionParams is the parameter (receiver excluded, by index in a call's
// arguments) that a value followed below an options struct comes from,
// when the struct is the parameter whole.
func optionParams(b *flowBody, v flowVal) []int {
	if v.param >= len(b.params) || b.params[v.param] == nil {
		return nil
	}
	i := v.param
	if b.lit == nil && b.decl.Recv != nil {
		if i == 0 {
			return nil
		}
		i--
	}
	return []int{i}
}

// delegateField is the field path of a reconciler type whose Reconcile
// hands the request on to the Reconcile of a reconciler it holds in a field
// of an interface type (a wrapper that rate-limits, traces or filters):
// that field; nil when it holds none.
func (a *analysis) delegateField(t *types.Named) []string {
	entry := a.methodFunc(t, methodReconcile)
	if entry == nil {
		return nil
	}
	b := a.flowBodyOf(entry)
	if b == nil || b.lit != nil || len(b.params) == 0 || b.decl.Recv == nil {
		return nil
	}
	req := requestParams(entry)
	var field []string
	ast.Inspect(b.decl.Body, func(n ast.Node) bool {
		ce, ok := n.(*ast.CallExpr)
		if !ok || field != nil {
			return field == nil
		}
		sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != methodReconcile {
			return true
		}
		if s := b.info.Selections[sel]; s == nil || s.Kind() != types.MethodVal || !types.IsInterface(s.Recv()) {
			return true
		}
		v, path := storePath(b.info, sel.X)
		if v == nil || v != b.params[0] || len(path) == 0 {
			return true
		}
		for _, arg := range ce.Args {
			if mentions(b.info, arg, req) {
				field = path
				return false
			}
		}
		return true
	})
	return field
}
