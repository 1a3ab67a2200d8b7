package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// findRegistered finds the reconcilers a function registers with
// controller-runtime: a builder's For(&T{}) ... Complete(r), or
// controller.New(..., Options{Reconciler: r}) and its Watch(source.Kind(...)).
// Each registration is paired with the For, or the watches, of its own
// builder or controller value, however many a function registers. A call
// of the tree's own layer over these (liftedRoles) registers as they do;
// the layer's own call of the library, given its caller's reconciler,
// registers nothing itself. The reconciler is followed by the flow engine
// (below an options struct, through constructors and fields, to a
// function converted to reconcile.Func or an object reconciler a library
// adapter is handed). A registration that gives no controller is recorded
// as a miss, with where its reconciler's trail ends.
func (a *analysis) findRegistered(fd *ast.FuncDecl) []*found {
	info := a.infoAt(fd.Pos())
	a.liftedRoles()
	var fors, completes []call
	for _, c := range a.registrationCalls(fd) {
		switch c.fact.Role {
		case RoleRegisterFor, RoleEnqueueOwner, RoleRegisterWatch:
			fors = append(fors, c)
		case RoleRegisterComplete:
			completes = append(completes, c)
		}
	}
	var body *flowBody
	if obj, ok := info.Defs[fd.Name].(*types.Func); ok {
		body = a.ownBody(obj)
	}
	fl := &flowEngine{a: a}
	var out []*found
	for _, c := range completes {
		arg := registeredArg(info, c)
		var h held
		if body != nil && arg != nil {
			h = a.heldRegistered(fl, body, c, arg)
			if h.caller() && len(h.recvPaths) == 0 {
				// The reconciler is the caller's: each call of this
				// function registers it (liftedRoles). (A field of the
				// receiver is read here too: a method called through an
				// interface, or from outside the tree, has no call that
				// lifts it.) Should no call be followed, the trail ends
				// here.
				a.misses = append(a.misses, miss{at: a.site(c.expr.Lparen),
					why: fmt.Sprintf("the reconciler is a parameter of %s, which its callers hand it, and no call of it was followed", fd.Name.Name)})
				continue
			}
		}
		if c.fact.ArgIsOptions {
			// Read from the syntax of an options literal when the flow
			// engine found no reconciler (a wrapper's result).
			arg = optionsField(info, arg, optionsReconciler)
		}
		rts := h.types
		if len(rts) == 0 && len(h.funcs) == 0 && len(h.objects) == 0 && !a.runsFunc(info, arg) && c.fact.ArgPath == "" {
			// (A reconciler stored by options is only what they store.)
			rts = a.reconcilerTypes(fd, info, arg)
		}
		before := len(out)
		kinds := a.registeredKinds(fd, info, c, fors)
		watches := c.fact.ArgIsOptions
		if len(kinds) == 0 && !c.known {
			kinds, watches = a.layerKinds(fl, c, maxLiftRounds)
		}
		if len(kinds) == 0 && len(completes) == 1 {
			// The one registration of the function, on a builder or
			// controller held where the chain is not followed (handed
			// through a call): the function's own For, or its watches,
			// are its.
			kinds = registeredIn(info, fors)
		}
		var names []string
		var entries []*ssa.Function
		for _, rt := range rts {
			if entry := a.methodFunc(rt, methodReconcile); entry != nil {
				names, entries = append(names, instanceName(rt)), append(entries, entry)
			}
		}
		for _, fn := range h.funcs {
			names, entries = append(names, syncName(fn)), append(entries, fn)
		}
		for i, entry := range entries {
			f := &found{name: names[i], style: StyleControllerRuntime, entry: entry,
				registration: []Site{a.site(c.expr.Lparen)}}
			if len(kinds) == 1 && !watches {
				f.kind = kinds[0]
			} else {
				f.watched = kinds
			}
			f.keyParams = requestParams(entry)
			if fns, hops := a.fieldDelegates(entry); fns != nil {
				// One wrapper registered for several functions, one
				// controller each: its kind is what the function
				// reads (collapsed, when they read one kind).
				d := &fieldDelegate{wrapper: entry, hops: hops, all: fns, whole: f}
				for _, fn := range fns {
					runs := a.site(d.call().Pos())
					runs.Note = fmt.Sprintf("%s, the registered reconciler, runs it from a field", a.funcName(entry))
					df := &found{name: syncName(fn), style: StyleControllerRuntime, entry: fn, watched: kinds,
						registration: []Site{runs, a.site(c.expr.Lparen)}, delegate: d}
					df.keyParams = requestParams(fn)
					out = append(out, df)
				}
				continue
			}
			out = append(out, f)
		}
		for _, o := range h.objects {
			// The library reads the object by the request's key and
			// hands it to the object reconciler: the kind is the type
			// it reads.
			entry := a.methodFunc(o.t, methodReconcile)
			f := &found{name: o.t.Obj().Name(), style: StyleControllerRuntime, entry: entry,
				registration: []Site{a.site(c.expr.Lparen)}, kind: reconciledObject(entry),
				adapter: &adapterRead{call: a.site(o.adapter.expr.Lparen), read: a.adapterRead(o.adapter)}}
			f.keyParams = requestParams(entry)
			out = append(out, f)
		}
		if len(out) == before {
			var kind *types.Named
			if len(kinds) == 1 && !watches {
				kind = kinds[0]
			}
			a.miss(c, registeredArg(info, c), h.end, kind)
		}
	}
	return out
}

// adapterRead cites, in the library's source at the version the tree
// requires, the read of the object by the request's key that an adapter
// making a reconciler of an object reconciler does (its knowledge entry
// names it); nil, with a warning, when it is not found there.
func (a *analysis) adapterRead(c call) *Site {
	k := c.fact.Adapter
	if k == nil || c.fn == nil || c.fn.Pkg() == nil {
		return nil
	}
	dir, module, version := a.depDir(c.fn.Pkg().Path())
	var out *Site
	if dir != "" {
		file := filepath.Join(dir, k.File)
		fd, fset := a.depFunc(file, func(fd *ast.FuncDecl, _ *token.FileSet) bool {
			return fd.Name.Name == k.Method && recvTypeName(fd) == k.Type
		})
		if fd != nil {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				ce, ok := n.(*ast.CallExpr)
				if !ok || out != nil {
					return out == nil
				}
				if sel, ok := ce.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == k.Read {
					out = &Site{Site: a.cite.Line(file, fset.PositionFor(ce.Pos(), false).Line, cite.FuncName(fd))}
				}
				return true
			})
		}
	}
	if out == nil {
		a.warn(fmt.Sprintf("%s@%s: the read of the object in %s is not cited: ctrlcmp knows it as the %s call in %s.%s in %s, and finds none there at this version; the knowledge table (internal/locate/knowledge.go) needs an entry for it",
			module, version, cite.ObjectName(c.fn), k.Read, k.Type, k.Method, k.File))
	}
	return out
}

// recvTypeName is the name of a method declaration's receiver type (T of
// T, *T, T[P] or *T[P]), or "".
func recvTypeName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) != 1 {
		return ""
	}
	e := fd.Recv.List[0].Type
	if st, ok := e.(*ast.StarExpr); ok {
		e = st.X
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = x.X
	case *ast.IndexListExpr:
		e = x.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// registeredArg is the expression a registration's reconciler is read
// from: the argument its fact names, or the receiver of a call of the
// tree's method that registers a field of its receiver.
func registeredArg(info *types.Info, c call) ast.Expr {
	if c.fact.RecvPath == "" {
		return c.arg(c.fact.Arg)
	}
	if sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			return sel.X
		}
	}
	return nil
}

// reconcilerPath is the path below a registration's argument that holds
// the reconciler: the receiver's field a lifted registration names, the
// Reconciler field of an options struct, or none.
func reconcilerPath(f Fact) []string {
	if f.RecvPath != "" {
		return strings.Split(f.RecvPath, ".")
	}
	if f.ArgPath != "" {
		return strings.Split(f.ArgPath, ".")
	}
	if f.ArgIsOptions {
		return []string{optionsReconciler}
	}
	return nil
}

// runsFunc reports whether a registered value is of a library type whose
// Reconcile calls the function the value was converted from
// (reconcile.Func): its entry is that function, never the registering
// method's receiver.
func (a *analysis) runsFunc(info *types.Info, arg ast.Expr) bool {
	if arg == nil {
		return false
	}
	t := info.TypeOf(arg)
	if t == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, methodReconcile)
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	f, known := knowledge[funcKey(fn)]
	return known && f.Role == RoleReconcileFunc
}

// layerKinds returns the types a registration made through the tree's own
// layer names, and whether they are watches (of a controller made by an
// options struct) rather than a For: a call of a function that hands its
// caller's reconciler on to the library registers what the library's call
// in it names (the layer's For, or the watches made on the controller it
// makes), through up to depth layers.
func (a *analysis) layerKinds(fl *flowEngine, c call, depth int) ([]*types.Named, bool) {
	if c.known || c.fn == nil || depth == 0 {
		return nil, false
	}
	fd := a.decls[c.fn.Origin()]
	b := a.ownBody(c.fn.Origin())
	if fd == nil || fd.Body == nil || b == nil {
		return nil, false
	}
	info := a.infoAt(fd.Pos())
	var fors, completes []call
	for _, rc := range a.registrationCalls(fd) {
		switch rc.fact.Role {
		case RoleRegisterFor, RoleEnqueueOwner, RoleRegisterWatch:
			fors = append(fors, rc)
		case RoleRegisterComplete:
			completes = append(completes, rc)
		}
	}
	for _, inner := range completes {
		// Only the layer's registration of the reconciler the call hands
		// it.
		h := a.heldRegistered(fl, b, inner, registeredArg(info, inner))
		params := h.params
		switch {
		case c.fact.ArgIsOptions:
			params = h.optionParams
		case c.fact.ArgPath != "":
			params = nil
			for _, p := range h.appliedParams {
				if p.path == c.fact.ArgPath {
					params = append(params, p.arg)
				}
			}
		}
		if !slices.Contains(params, c.fact.Arg) && (c.fact.RecvPath == "" || !slices.Contains(h.recvPaths, c.fact.RecvPath)) {
			continue
		}
		if kinds := a.registeredKinds(fd, info, inner, fors); len(kinds) > 0 {
			return kinds, inner.fact.ArgIsOptions
		}
		if kinds, watches := a.layerKinds(fl, inner, depth-1); len(kinds) > 0 {
			return kinds, watches
		}
	}
	return nil, false
}

// miss records a registration that gave no controller, the kind it names
// (nil when it names none or several), and where the trail of its
// reconciler ends.
func (a *analysis) miss(c call, arg ast.Expr, end *flowVal, kind *types.Named) {
	m := miss{at: a.site(c.expr.Lparen), kind: kind}
	switch {
	case arg == nil:
		m.why = "its reconciler argument is not one ctrlcmp reads"
	case end != nil:
		m.why = fmt.Sprintf("the reconciler's value is not followed past %s (%s)", fileLine(a.site(end.end)), end.why)
	default:
		m.why = fmt.Sprintf("the reconciler's value at %s is none of the tree's types with a Reconcile method", fileLine(a.site(arg.Pos())))
	}
	a.misses = append(a.misses, m)
}

// registeredKinds returns the types a registration names: for a builder's
// Complete, the For of its own builder (the last one before it, when one
// builder value is given several); for a controller made by an options
// struct, the types of the source.Kind watches made on the value it
// returns, in source order (which of them is the primary is the type the
// reconcile reads by the request's key).
func (a *analysis) registeredKinds(fd *ast.FuncDecl, info *types.Info, c call, fors []call) []*types.Named {
	roots := map[any]bool{}
	if sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr); ok && info.Selections[sel] != nil {
		roots = builderGroup(info, fd.Body, builderRoot(info, sel.X))
	} else {
		vars := map[*types.Var]bool{}
		assignedFrom(info, fd.Body, c.expr, true, vars)
		fieldsAssigned(info, fd.Body, c.expr, vars)
		for v := range vars {
			for r := range builderGroup(info, fd.Body, v) {
				roots[r] = true
			}
		}
	}
	var kinds, owners []*types.Named
	var last token.Pos // the builder's For nearest before its Complete
	for _, fc := range fors {
		n, ok := deref(info.TypeOf(fc.arg(fc.fact.Arg))).(*types.Named)
		if !ok {
			continue
		}
		if fc.expr == c.expr {
			// One call of the tree's own helper that is given both the
			// object and the reconciler (liftedRoles).
			last = fc.expr.Lparen
			kinds = []*types.Named{n}
			continue
		}
		if fc.fact.Role == RoleEnqueueOwner {
			// A watch enqueueing the owner of what it watches (a
			// builder's Watches, a source.Kind's handler): the owner's
			// type is a candidate when the builder has no For.
			if w := a.watchOf(fc); w != nil && roots[builderRoot(info, w)] && !slices.Contains(owners, n) {
				owners = append(owners, n)
			}
			continue
		}
		if fc.fact.Role == RoleRegisterWatch {
			// A builder's watch whose handler queues the watched
			// object's own key (WatchesMetadata(&Node{},
			// &handler.EnqueueRequestForObject{})): its type is a
			// candidate when the builder has no For, as an owner's is.
			sel, isSel := ast.Unparen(fc.expr.Fun).(*ast.SelectorExpr)
			if isSel && roots[builderRoot(info, sel.X)] && typeKey(originType(info.TypeOf(fc.arg(fc.fact.Arg+1)))) == typeEnqueueForObject && !slices.Contains(owners, n) {
				owners = append(owners, n)
			}
			continue
		}
		if sel, isSel := ast.Unparen(fc.expr.Fun).(*ast.SelectorExpr); isSel && info.Selections[sel] != nil {
			if roots[builderRoot(info, sel.X)] && fc.expr.Lparen < c.expr.Lparen && fc.expr.Lparen > last {
				last = fc.expr.Lparen
				kinds = []*types.Named{n}
			}
			continue
		}
		// source.Kind: an argument of a method call (Watch) on the value
		// the registration returned; when its handler enqueues the owner,
		// the owner's type is the one watched.
		w := a.watchOf(fc)
		if w == nil || !roots[builderRoot(info, w)] {
			continue
		}
		if h, ok := ast.Unparen(fc.arg(2)).(*ast.CallExpr); ok {
			if hc := a.makeCall(info, h, nil); hc.known && hc.fact.Role == RoleEnqueueOwner {
				n, ok = deref(info.TypeOf(hc.arg(hc.fact.Arg))).(*types.Named)
			}
		}
		if ok && !slices.Contains(kinds, n) {
			kinds = append(kinds, n)
		}
	}
	if last == 0 {
		for _, n := range owners {
			if !slices.Contains(kinds, n) {
				kinds = append(kinds, n)
			}
		}
	}
	return kinds
}

// registeredIn returns the types the For and source.Kind calls of a
// function name, in source order.
func registeredIn(info *types.Info, fors []call) []*types.Named {
	var kinds []*types.Named
	for _, fc := range fors {
		if fc.fact.Role != RoleRegisterFor {
			continue
		}
		if n, ok := deref(info.TypeOf(fc.arg(fc.fact.Arg))).(*types.Named); ok && !slices.Contains(kinds, n) {
			kinds = append(kinds, n)
		}
	}
	return kinds
}

// reconcilerTypes returns the tree's types that may be the reconciler passed
// to Complete: the argument's own type when concrete, else the concrete types
// assigned to the variable it names, else the registering method's receiver.
func (a *analysis) reconcilerTypes(fd *ast.FuncDecl, info *types.Info, arg ast.Expr) []*types.Named {
	if arg == nil {
		return nil
	}
	out := a.ownTypesOf(fd, info, arg)
	if len(out) == 0 && fd.Recv != nil {
		if obj, ok := info.Defs[fd.Name].(*types.Func); ok {
			out = a.ownNamed(out, obj.Type().(*types.Signature).Recv().Type())
		}
	}
	if len(out) == 0 {
		// A reconciler handed to a library's wrapper (a rate limiter, a
		// conflict filter: Complete(wrap(name, r, …))): the wrapper's
		// Reconcile calls the one it holds, which is the tree's entry.
		return a.wrappedReconcilers(fd, info, arg, wrapDepth)
	}
	var withReconcile []*types.Named
	for _, n := range out {
		if a.methodFunc(n, methodReconcile) != nil {
			withReconcile = append(withReconcile, n)
		}
	}
	return withReconcile
}

// ownTypesOf returns the tree's own concrete types an expression holds: its
// type, or for a variable the types of the values the function assigns it.
func (a *analysis) ownTypesOf(fd *ast.FuncDecl, info *types.Info, e ast.Expr) []*types.Named {
	out := a.constructedTypes(a.ownNamed(nil, info.TypeOf(e)), e)
	if len(out) > 0 {
		return out
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v, ok := info.Uses[id].(*types.Var); ok {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
					for i, l := range as.Lhs {
						if lid, ok := l.(*ast.Ident); ok && (info.Uses[lid] == v || info.Defs[lid] == v) {
							out = a.ownNamed(out, info.TypeOf(as.Rhs[i]))
							out = a.constructedTypes(out, as.Rhs[i])
						}
					}
				}
				return true
			})
		}
	}
	return out
}

// ownNamed appends t's named type to out when the tree declares it and it
// is concrete, once.
func (a *analysis) ownNamed(out []*types.Named, t types.Type) []*types.Named {
	if t == nil {
		return out
	}
	if n, ok := deref(t).(*types.Named); ok && !types.IsInterface(n) {
		if _, own := a.fileAt(n.Obj().Pos()); own && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// wrapDepth bounds how many wrappers deep a registered reconciler is looked
// for.
const wrapDepth = 3

// wrappedReconcilers returns the tree's reconciler types handed, as
// arguments, to the calls that build a registered reconciler the tree does
// not declare, up to depth wrappers deep: only types whose Reconcile takes
// a reconcile.Request, as the wrapper's own does.
func (a *analysis) wrappedReconcilers(fd *ast.FuncDecl, info *types.Info, arg ast.Expr, depth int) []*types.Named {
	call, ok := ast.Unparen(arg).(*ast.CallExpr)
	if !ok || depth == 0 || info.Types[call.Fun].IsType() {
		return nil
	}
	var out []*types.Named
	for _, inner := range call.Args {
		found := a.ownTypesOf(fd, info, inner)
		if len(found) == 0 {
			found = a.wrappedReconcilers(fd, info, inner, depth-1)
		}
		for _, n := range found {
			if fn := a.methodFunc(n, methodReconcile); fn != nil && takesRequest(fn) && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// takesRequest reports whether a Reconcile method takes a
// reconcile.Request.
func takesRequest(f *ssa.Function) bool {
	params := f.Signature.Params()
	for i := 0; i < params.Len(); i++ {
		if typeKey(params.At(i).Type()) == typeRequest {
			return true
		}
	}
	return false
}

// methodFunc returns the own SSA function of a method of *T or T: one
// analysed, or one left out because of its type errors (an entry whose rows
// are then not settled).
func (a *analysis) methodFunc(t *types.Named, name string) *ssa.Function {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, t.Obj().Pkg(), name)
	fn, ok := obj.(*types.Func)
	if !ok {
		return nil
	}
	if sf := a.leftOut(fn); sf != nil {
		return sf
	}
	var sf *ssa.Function
	if t.TypeArgs().Len() > 0 {
		// A method of an instantiated generic type: its instance, whose
		// calls through the type's parameters reach that instance's
		// implementations only.
		if sel := a.prog.SSA.MethodSets.MethodSet(types.NewPointer(t)).Lookup(fn.Pkg(), name); sel != nil {
			sf = a.prog.SSA.MethodValue(sel)
		}
	}
	if sf == nil {
		sf = a.prog.Func(fn)
	}
	if sf == nil || !a.prog.Own[sf] {
		return nil
	}
	return sf
}

// leftOut returns the SSA function of an own function whose body was left
// out of the analysis because it holds type errors, or nil.
func (a *analysis) leftOut(fn *types.Func) *ssa.Function {
	if fn == nil || !a.prog.Unanalysed[fn.Origin()] {
		return nil
	}
	return a.prog.Func(fn.Origin())
}

// requestParams returns the Reconcile parameters of type reconcile.Request
// (or its typed form), falling back to every non-context parameter.
func requestParams(f *ssa.Function) map[*types.Var]bool {
	vars := map[*types.Var]bool{}
	sig := f.Signature
	for i := 0; i < sig.Params().Len(); i++ {
		v := sig.Params().At(i)
		if typeKey(v.Type()) == typeRequest {
			vars[v] = true
		}
	}
	if len(vars) == 0 {
		for i := 0; i < sig.Params().Len(); i++ {
			v := sig.Params().At(i)
			if typeKey(v.Type()) != typeContext {
				vars[v] = true
			}
		}
	}
	return vars
}
