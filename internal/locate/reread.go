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

// readBody is the body of a function as the re-read reads it: its SSA
// function's, or, for a function left out of SSA because of type errors,
// its declaration's (partial: read with the types the checker recorded).
func (a *analysis) readBody(fn *ssa.Function) (*ast.BlockStmt, bool) {
	if b := body(fn); b != nil {
		return b, false
	}
	if obj, ok := fn.Object().(*types.Func); ok && a.prog.Unanalysed[obj] {
		if fd := a.decls[obj]; fd != nil && fd.Body != nil {
			return fd.Body, true
		}
	}
	return nil, false
}

// readCalls are the calls of a function as the re-read reads them, and
// whether they were read from a body holding type errors.
func (a *analysis) readCalls(fn *ssa.Function) ([]call, bool) {
	b, partial := a.readBody(fn)
	if !partial {
		return a.callsIn(fn), false
	}
	info := a.infoAt(b.Pos())
	var cs []call
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			cs = append(cs, a.makeCall(info, n, fn))
		}
		return true
	})
	return cs, true
}

// reread finds the Get of the primary object by the request's key: a
// client.Reader Get, a lister Get(name) or a clientset Get(ctx, name, opts).
// The primary is the type the registration names (For), else the one of
// the watched types that the entry reads by the key, else the type it
// reads by the key. When the entry reads by the key only another type than
// the registration's For, the row is not settled and says both.
func (a *analysis) reread(f *found, reach *callgraph.Reach) (res reread) {
	if ad := f.adapter; ad != nil {
		// The library reads the object and hands it to the entry.
		if ad.read == nil {
			return reread{kind: f.kind, row: none(fmt.Sprintf("not settled: the library's reconciler made at %s reads the object by the request's key in its own source, where ctrlcmp does not find the read at this version", fileLine(ad.call)))}
		}
		s := *ad.read
		s.Primary = true
		s.Note = fmt.Sprintf("the library's reconciler made at %s reads the object by the request's key and hands it to %s", fileLine(ad.call), a.funcName(f.entry))
		call := ad.call
		call.Note = "the call that makes the library's reconciler of " + a.funcName(f.entry)
		return reread{kind: f.kind, row: Row{Sites: []Site{s, call}}}
	}
	var byKey []reread // every read by the key, in reach order
	defer func() { res = a.alternativeReads(a.unorderedReads(res, byKey, reach), byKey) }()
	var unsettled *Site // the first call handed the key whose body is not read
	var unsettledName string
	var otherKey *Site // the first Get of the primary's kind by another key
	searched := 0
	// The functions left out of SSA because of type errors are read from
	// their syntax, with the types recorded: a lister Get in a body holding
	// an unrelated error still names the primary.
	fns := slices.Clone(reach.Funcs())
	for _, fn := range reach.Unanalysed {
		if !slices.Contains(fns, fn) {
			fns = append(fns, fn)
		}
	}
	keys := a.keyFixpoint(f, fns, reach)
	rank := map[token.Pos]readPlace{}
	elsewise := map[token.Pos]bool{} // the reads whose key names another object
	for _, fn := range fns {
		info := a.infoAt(posOf(fn))
		if info == nil {
			continue
		}
		searched++
		vars := a.keyVars(f, fn, reach, keys)
		calls, partial := a.readCalls(fn)
		for _, c := range calls {
			key, obj := a.readShape(info, c)
			if key == nil && unsettled == nil && a.unreadCandidate(info, c, vars, append([]*types.Named{f.kind}, f.watched...)) {
				s := a.site(c.expr.Lparen)
				unsettled = &s
				unsettledName = "a function value"
				if c.fn != nil {
					unsettledName = cite.ObjectName(c.fn)
				}
			}
			if key != nil && !mentions(info, key, vars) && otherKey == nil && (a.readsKind(fn, obj, append([]*types.Named{f.kind}, f.watched...)) || a.readHandedKind(fn, c, append([]*types.Named{f.kind}, f.watched...), reach)) {
				s := a.site(c.expr.Lparen)
				otherKey = &s
			}
			if key == nil || !mentions(info, key, vars) {
				continue
			}
			read := deref(a.instanceType(fn, obj))
			place := a.placeOfRead(fns, reach, fn, c.expr.Lparen)
			rank[c.expr.Lparen] = place
			elsewise[c.expr.Lparen] = namedElsewise(info, key, vars)
			s := a.site(c.expr.Lparen)
			s.Primary = true
			s.Partial = partial
			sites := []Site{s}
			if place.run != nil {
				run := a.site(place.run.Pos())
				run.Note = "the call of " + a.funcName(place.run.Callee.Func) + ", whose returned function makes the read"
				sites = append(sites, run)
			}
			if iface, ok := abstractType(read); ok {
				// Read as an interface or a type parameter: the kind
				// is the registration's, when it fits (below).
				byKey = append(byKey, reread{row: Row{Sites: sites}, pos: c.expr.Lparen, fn: fn, through: &s, throughType: iface})
				continue
			}
			n, ok := types.Unalias(read).(*types.Named)
			if !ok {
				continue
			}
			if holdsUnstructured(n) {
				// Read unstructured, then converted: the object is
				// the typed one it is converted to.
				if typed, at := a.convertedKind(info, fn, c); typed != nil {
					n = typed
					s.Note = fmt.Sprintf("read as %s and converted to %s at %s", shortType(read), typed.Obj().Name(), fileLine(a.site(at)))
				}
			}
			byKey = append(byKey, reread{row: Row{Sites: sites}, kind: n, pos: c.expr.Lparen, fn: fn})
		}
	}
	sort.SliceStable(byKey, func(i, j int) bool {
		if ei, ej := elsewise[byKey[i].pos], elsewise[byKey[j].pos]; ei != ej {
			return ej // a read by the request's name first
		}
		pi, pj := rank[byKey[i].pos], rank[byKey[j].pos]
		if pi.before(pj) || pj.before(pi) {
			return pi.before(pj)
		}
		return byKey[i].pos < byKey[j].pos
	})
	pick := func(kinds []*types.Named) (reread, bool) {
		for _, r := range byKey {
			for _, k := range kinds {
				if r.kind != nil && types.Identical(r.kind, k) {
					return r, true
				}
			}
		}
		// A read of the metadata only (PartialObjectMetadata, its
		// kind set at run time) reads the one kind registered; the
		// searches follow the type read (pass.kind).
		for _, r := range byKey {
			if r.kind != nil && typeKey(r.kind) == typePartialObjectMetadata && len(kinds) == 1 {
				r.row.Sites = slices.Clone(r.row.Sites)
				r.row.Sites[0].Note = strings.TrimPrefix(r.row.Sites[0].Note+"; read as metadata only (PartialObjectMetadata): the kind is the registration's, "+kinds[0].Obj().Name(), "; ")
				return r, true
			}
		}
		return reread{}, false
	}
	// concrete drops the reads of the object as an interface: the kind
	// cannot be told from them.
	var concrete []reread
	for _, r := range byKey {
		if r.kind != nil {
			concrete = append(concrete, r)
		}
	}
	switch {
	case f.kind != nil:
		if r, ok := pick([]*types.Named{f.kind}); ok {
			return r
		}
		if r, ok := throughInterface(byKey, f.kind); ok && len(concrete) == 0 {
			r.kind = f.kind
			r.row.Sites[0].Note = fmt.Sprintf("the entry reads the object by the request's key as %s; its kind is the registration's, %s at %s",
				shortType(r.throughType), f.kind.Obj().Name(), fileLine(f.registration[0]))
			return r
		}
		if len(concrete) > 0 {
			other := concrete[0]
			return reread{row: none(fmt.Sprintf("not settled: the entry reads a %s by the request's key at %s, but the registration names %s at %s; no Get of a %s by the key is reachable from the entry",
				other.kind.Obj().Name(), fileLine(other.row.Sites[0]), f.kind.Obj().Name(), fileLine(f.registration[0]), f.kind.Obj().Name()))}
		}
	case len(f.watched) > 0:
		if r, ok := pick(f.watched); ok {
			return r
		}
		if len(concrete) > 0 {
			r := concrete[0]
			r.row.Sites[0].Note = fmt.Sprintf("the registration at %s watches %s, not the %s read by the request's key", fileLine(f.registration[0]), kindNames(f.watched), r.kind.Obj().Name())
			return r
		}
	case len(concrete) > 0:
		return concrete[0]
	}
	if len(byKey) > 0 {
		// Read by the key only as an interface the registration's kind
		// (if any) does not fit: the read is cited, its kind is not
		// settled.
		r := byKey[0]
		r.row.Sites[0].Note = fmt.Sprintf("the entry reads the object by the request's key only as %s, which does not tell its kind", shortType(r.throughType))
		return r
	}
	if unsettled != nil {
		return reread{row: none(fmt.Sprintf("not settled: the request's key and an object are handed to %s at %s, whose body is not read: it may read the primary object; no other Get by the key is reachable from the entry",
			unsettledName, fileLine(*unsettled)))}
	}
	if r, ok := a.listRead(f, fns, func(fn *ssa.Function) map[*types.Var]bool { return a.keyVars(f, fn, reach, keys) }); ok {
		return r
	}
	if otherKey != nil {
		return reread{row: none(fmt.Sprintf("not settled: the object's kind may be read at %s, by a key ctrlcmp does not trace to the request's, which may still name the request's object (a name from a list that holds it, a key built from the object handed in); no Get by the request's key is reachable from the entry", fileLine(*otherKey)))}
	}
	searchedWhat := fmt.Sprintf("reads by the request's key (client Get, lister Get, clientset Get, the tree's read helpers) in the %d functions reached from the entry", searched)
	if f.events {
		return reread{kind: a.eventKind(f, fns, reach, keys), row: noneAfter(fmt.Sprintf("the queue's items are events that carry the object, handed to %s; nothing on the reconcile path fetches it again by its key", a.funcName(f.entry)), searchedWhat)}
	}
	return reread{row: noneAfter("no Get of the primary object by the request's key is reachable from the entry", searchedWhat)}
}

// namedElsewise reports whether a key written out as a literal
// (client.ObjectKey{Namespace: ns, Name: lockName}) names its object by a
// name the request's key does not give: an object of the request's
// namespace, which is the primary only when it is of the kind registered
// (a controller of one ConfigMap a namespace), so such reads come after
// the others.
func namedElsewise(info *types.Info, key ast.Expr, vars map[*types.Var]bool) bool {
	lit, ok := ast.Unparen(key).(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Name" {
				return !mentions(info, kv.Value, vars)
			}
		}
	}
	return false
}

// unorderedReads leaves the re-read not settled when the read chosen and
// another read by the key of the same type are made in functions that one
// call may run, each through another of its callees (a pipeline calling
// its stages through an interface, from a slice filled at run time): which
// of them reads first is not in the code. The kind, the read and where the
// object is handled as an interface are kept for the other rows.
func (a *analysis) unorderedReads(res reread, byKey []reread, reach *callgraph.Reach) reread {
	if _, ok := res.row.Primary(); !ok || !res.pos.IsValid() {
		return res
	}
	i := slices.IndexFunc(byKey, func(r reread) bool { return r.pos == res.pos })
	if i < 0 || byKey[i].fn == nil {
		return res
	}
	first := byKey[i]
	p1 := reach.Path(first.fn)
	for _, other := range byKey {
		if other.fn == nil || other.fn == first.fn || (other.kind == nil) != (first.kind == nil) ||
			first.kind != nil && !types.Identical(first.kind, other.kind) {
			continue
		}
		p2 := reach.Path(other.fn)
		for j := 0; j < len(p1) && j < len(p2); j++ {
			e1, e2 := p1[j], p2[j]
			if e1 == e2 {
				continue
			}
			if e1.Site == nil || e1.Site != e2.Site || e1.Callee == e2.Callee {
				break
			}
			out := res
			out.row = none(fmt.Sprintf("not settled: the request's key is read at %s (%s) and at %s (%s), functions that the call at %s runs one or the other of (it may run %s): the code does not say which reads first",
				fileLine(first.row.Sites[0]), a.funcName(e1.Callee.Func), fileLine(other.row.Sites[0]), a.funcName(e2.Callee.Func),
				fileLine(a.site(e1.Site.Pos())), a.calleeNames(e1.Site.Pos())))
			return out
		}
	}
	return res
}

// calleeNames names the tree's functions the call at pos may run.
func (a *analysis) calleeNames(pos token.Pos) string {
	fns := map[*ssa.Function]bool{}
	for _, fn := range a.callees[pos] {
		fns[fn] = true
	}
	return funcNames(fns)
}

// abstractType reports whether a read object's type is an interface or a
// type parameter (its kind is not in the read), and names it.
func abstractType(t types.Type) (types.Type, bool) {
	switch x := types.Unalias(t).(type) {
	case *types.TypeParam:
		return x, true
	case *types.Named:
		if types.IsInterface(x) {
			return x, true
		}
	}
	return nil, false
}

// shortType names a type with package names, not paths.
func shortType(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// throughInterface returns the first read of the object as an interface or
// type parameter that kind (a pointer to it) satisfies.
func throughInterface(byKey []reread, kind *types.Named) (reread, bool) {
	for _, r := range byKey {
		if r.throughType == nil {
			continue
		}
		iface, ok := r.throughType.Underlying().(*types.Interface)
		if !ok {
			continue
		}
		if types.Implements(types.NewPointer(kind), iface) || types.Implements(kind, iface) {
			return r, true
		}
	}
	return reread{}, false
}

// unreadCandidate reports whether a call that is no read the re-read knows
// may still read the primary object by the key: it is handed the key, it
// runs a function whose body is not read (a dependency's function outside
// the knowledge table, or a function value the call graph cannot resolve),
// and an object pointer goes in or comes out (or an interface one of the
// registration's kinds satisfies goes in). A write of a generated typed
// client (known by the options it takes) is no such call: the object it
// hands back is the one it wrote, not a read by the key.
func (a *analysis) unreadCandidate(info *types.Info, c call, vars map[*types.Var]bool, kinds []*types.Named) bool {
	if c.known || len(c.own) > 0 || c.fn != nil && a.decls[c.fn.Origin()] != nil {
		return false
	}
	if _, writes := a.writeOf(info, c); writes {
		return false
	}
	if tv, ok := info.Types[c.expr.Fun]; ok && tv.IsType() {
		return false // a conversion
	}
	keyed, object := false, objectResult(info, c) != nil
	for _, arg := range c.expr.Args {
		keyed = keyed || mentions(info, arg, vars)
		object = object || IsObjectPointer(info.TypeOf(arg)) || satisfiedBy(info.TypeOf(arg), kinds)
	}
	return keyed && object
}

// satisfiedBy reports whether t is a non-empty interface (or a type
// parameter constrained by one) that one of kinds satisfies: an object
// handed on as an interface may be the primary.
func satisfiedBy(t types.Type, kinds []*types.Named) bool {
	if t == nil || !types.IsInterface(t) {
		return false
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return false
	}
	for _, k := range kinds {
		if k != nil && (types.Implements(types.NewPointer(k), iface) || types.Implements(k, iface)) {
			return true
		}
	}
	return false
}

// readHandedKind reports whether a read's object is an interface (a
// fetcher's Fetch(o client.Object) reading by a key it makes from o's name
// and a namespace it was built with) that may hold one of kinds: a value
// of the kind is handed to it, through the parameters of the functions
// reached, or where it comes from is not followed. A read of such an
// object by a key not followed is no proof the object is not re-read.
func (a *analysis) readHandedKind(fn *ssa.Function, c call, kinds []*types.Named, reach *callgraph.Reach) bool {
	if fn == nil || !c.known || c.fact.Role != RoleRead || c.fact.Obj < 0 {
		return false
	}
	sc := ssaCallAt(fn, c.expr.Lparen)
	if sc == nil {
		return false
	}
	i := c.fact.Obj
	if sc.Call.IsInvoke() || sc.Call.Signature().Recv() != nil {
		i++ // callArgsSSA puts the receiver first
	}
	args := callArgsSSA(&sc.Call)
	if i >= len(args) {
		return false
	}
	return a.mayHoldKind(args[i], kinds, reach, 0)
}

// mayHoldKind reports whether v, an object handed on, may be of one of
// kinds: it is made of the kind, or is an interface one of them
// satisfies whose value comes from a parameter some reached caller hands
// such a value, or from somewhere not followed.
func (a *analysis) mayHoldKind(v ssa.Value, kinds []*types.Named, reach *callgraph.Reach, depth int) bool {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
			continue
		case *ssa.ChangeInterface:
			v = x.X
			continue
		}
		break
	}
	if n, ok := types.Unalias(deref(v.Type())).(*types.Named); ok && !types.IsInterface(n) {
		return slices.ContainsFunc(kinds, func(k *types.Named) bool { return k != nil && types.Identical(n, k) })
	}
	if !satisfiedBy(v.Type(), kinds) {
		return false
	}
	p, ok := v.(*ssa.Parameter)
	if !ok || depth >= 4 {
		return true // where it comes from is not followed
	}
	g := p.Parent()
	at := slices.Index(g.Params, p)
	for _, e := range a.prog.CallsInto(g) {
		if e.Site == nil || !reach.Has(e.Caller.Func) {
			continue
		}
		if args := callArgsSSA(e.Site.Common()); at < len(args) && a.mayHoldKind(args[at], kinds, reach, depth+1) {
			return true
		}
	}
	return false
}

// fileLine is a site as file:line.
func fileLine(s Site) string { return fmt.Sprintf("%s:%d", s.File, s.Line) }

// eventKind is the type of the object an event-queue controller's items
// carry: the object pointer type the item (or a field of it) is asserted to
// first on the reconcile path, else the type of an object pointer parameter
// of the entry or field of one.
func (a *analysis) eventKind(f *found, fns []*ssa.Function, reach *callgraph.Reach, keys *keyState) *types.Named {
	var kind *types.Named
	for _, fn := range fns {
		b, _ := a.readBody(fn)
		if b == nil || kind != nil {
			continue
		}
		info, vars := a.infoAt(b.Pos()), a.keyVars(f, fn, reach, keys)
		ast.Inspect(b, func(n ast.Node) bool {
			if _, lit := n.(*ast.FuncLit); lit {
				return false
			}
			if ta, ok := n.(*ast.TypeAssertExpr); ok && kind == nil && ta.Type != nil && mentions(info, ta.X, vars) {
				kind = carriedKind(info.TypeOf(ta.Type))
			}
			return kind == nil
		})
	}
	params := f.entry.Signature.Params()
	for i := 0; i < params.Len() && kind == nil; i++ {
		if !f.keyParams[params.At(i)] {
			continue
		}
		kind = carriedKind(params.At(i).Type())
	}
	return kind
}

// carriedKind is the type of the object a queue's item of type t carries:
// t itself when it is an object pointer, else the one type of the object
// pointers a struct item holds in its fields (an event with the object
// before and after a change); nil when it holds none, or objects of
// several types.
func carriedKind(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	if IsObjectPointer(t) {
		k, _ := deref(t).(*types.Named)
		return k
	}
	st, ok := deref(t).Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var kind *types.Named
	for i := 0; i < st.NumFields(); i++ {
		ft := st.Field(i).Type()
		if !IsObjectPointer(ft) {
			continue
		}
		k, _ := deref(ft).(*types.Named)
		if k == nil || kind != nil && !types.Identical(k, kind) {
			return nil
		}
		kind = k
	}
	return kind
}

// kindNames lists the names of types, comma-separated.
func kindNames(ts []*types.Named) string {
	var names []string
	for _, t := range ts {
		names = append(names, t.Obj().Name())
	}
	return strings.Join(names, ", ")
}

// instanceType is t as an instance of a generic function sees it: a type
// parameter of the generic declaration becomes the instance's type
// argument.
func (a *analysis) instanceType(fn *ssa.Function, t types.Type) types.Type {
	tp, ok := types.Unalias(t).(*types.TypeParam)
	for fn.Parent() != nil {
		fn = fn.Parent() // a closure sees its function's type arguments
	}
	if !ok || fn.Origin() == nil {
		return t
	}
	params, args := fn.Origin().TypeParams(), fn.TypeArgs()
	for i := 0; i < params.Len() && i < len(args); i++ {
		if params.At(i) == tp {
			return args[i]
		}
	}
	return t
}

// readsKind reports whether the object a read fills (obj, of fn) is of one
// of kinds.
func (a *analysis) readsKind(fn *ssa.Function, obj types.Type, kinds []*types.Named) bool {
	if obj == nil {
		return false
	}
	n, ok := types.Unalias(deref(a.instanceType(fn, obj))).(*types.Named)
	if !ok {
		return false
	}
	for _, k := range kinds {
		if k != nil && types.Identical(n, k) {
			return true
		}
	}
	return false
}
