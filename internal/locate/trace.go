package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// Step is one link of a chain of evidence: the interval trace, the drift
// correction.
type Step struct {
	cite.Site
	// Step names the link: one of the Step… constants.
	Step string `json:"step"`
	Note string `json:"note,omitempty"`
}

// The links of a chain of evidence.
const (
	// The interval trace.
	StepReturn          = "return"
	StepJitter          = "jitter"
	StepJitterBody      = "jitter-body"
	StepGetter          = "getter"
	StepGetterBody      = "getter-body"
	StepSpecField       = "spec-field"
	StepCRDProperty     = "crd-property"
	StepControllerField = "controller-field"
	StepSet             = "set"
	StepConstant        = "constant"
	StepComputed        = "computed"
	// The drift correction.
	StepCompare        = "compare"
	StepApply          = "apply"
	StepLibraryCompare = "library-compare"
	StepLibraryApply   = "library-apply"
)

// tracer follows a duration back to what sets it.
type tracer struct {
	a    *analysis
	kind *types.Named
	// reach is the controller's reconcile path: a parameter is followed
	// only to the calls on it (a helper shared by several controllers is
	// called by each with its own object).
	reach *callgraph.Reach
	steps []Step
	seen  map[ast.Node]bool
}

// intervalTrace follows the duration of a requeue back to the field (and
// CRD property) that sets it, through getters and wrappers.
func (a *analysis) intervalTrace(kind *types.Named, reach *callgraph.Reach, fn *ssa.Function, ret ast.Node, duration ast.Expr) []Step {
	t := &tracer{a: a, kind: kind, reach: reach, seen: map[ast.Node]bool{}}
	t.add(a.site(ret.Pos()).Site, StepReturn, "the requeue: its duration is traced below")
	t.expr(fn, duration)
	return t.steps
}

func (t *tracer) add(s cite.Site, step, note string) {
	for _, prev := range t.steps {
		if prev.Step == step && prev.File == s.File && prev.Line == s.Line {
			return
		}
	}
	t.steps = append(t.steps, Step{Site: s, Step: step, Note: note})
}

// expr traces the value of e, an expression of fn.
func (t *tracer) expr(fn *ssa.Function, e ast.Expr) {
	if e == nil || t.seen[e] {
		return
	}
	t.seen[e] = true
	info := t.a.infoAt(e.Pos())
	if info == nil {
		return
	}
	// A conversion (time.Duration(n), a pointer's target) holds the value
	// converted: that is traced.
	e = stripConversions(info, e)
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		note := "a constant: no field of the object sets it"
		if k := constOf(info, e); k != nil {
			// Cite the declaration where a citation can be checked again:
			// in the tree or a module; a standard library constant is
			// cited where it is used.
			if s := t.a.objSite(k); !filepath.IsAbs(s.File) {
				t.add(s.Site, StepConstant, note)
				return
			}
			note = "the constant " + k.Pkg().Name() + "." + k.Name() + ": no field of the object sets it"
		}
		t.add(t.a.site(e.Pos()).Site, StepConstant, note)
		return
	}
	switch x := e.(type) {
	case *ast.CallExpr:
		t.call(fn, info, x)
	case *ast.SelectorExpr:
		t.selector(fn, info, x)
	case *ast.Ident:
		t.ident(fn, info, x)
	case *ast.CompositeLit:
		// A result built by a helper: its RequeueAfter.
		if _, after := resultFields(info, x); after != nil {
			t.expr(fn, after)
			return
		}
		t.add(t.a.site(e.Pos()).Site, StepComputed, "computed here; the trace ends")
	case *ast.BinaryExpr:
		// An interval computed from others (a field less the time since
		// the last run): each operand is traced.
		t.expr(fn, x.X)
		t.expr(fn, x.Y)
	case *ast.StarExpr:
		// The value a pointer points to (a flag's): the pointer is traced.
		t.expr(fn, x.X)
	case *ast.IndexExpr:
		t.index(info, x)
	default:
		t.add(t.a.site(e.Pos()).Site, StepComputed, "computed here; the trace ends")
	}
}

// index traces a value read from a map: a config map's data under a
// constant key is a setting of the controller's configuration, and the
// trace ends there naming the key; another map's element is not followed.
func (t *tracer) index(info *types.Info, x *ast.IndexExpr) {
	site := t.a.site(x.Pos()).Site
	if sel, ok := ast.Unparen(x.X).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal && fieldKey(s.Obj().(*types.Var), s.Recv()) == configMapData {
			if key, ok := stringValue(info, x.Index); ok {
				t.add(site, StepComputed, fmt.Sprintf("read from the key %q of a config map's data: a setting of the controller's configuration, not of the object; the trace ends", key))
				return
			}
			t.add(site, StepComputed, "not settled: read from a config map's data under a key not followed to a constant; the trace ends")
			return
		}
	}
	t.add(site, StepComputed, "not settled: an element of a map, not followed; the trace ends")
}

func (t *tracer) call(fn *ssa.Function, info *types.Info, x *ast.CallExpr) {
	t.callResult(fn, info, x, 0)
}

// callResult traces the result at index of a call: a library's jitter
// wrapper (a single result), or the matching result of each return of
// the tree's function called.
func (t *tracer) callResult(fn *ssa.Function, info *types.Info, x *ast.CallExpr, index int) {
	c := t.a.makeCall(info, x, fn)
	c.own = t.ofKind(c.own)
	switch {
	case c.known && c.fact.Role == RoleJitter && index == 0:
		s := t.a.objSite(c.fn).Site
		s.Func = cite.ObjectName(c.fn)
		t.add(s, StepJitter, c.fact.Summary)
		t.libraryReturns(c.fn, StepJitterBody)
		t.expr(fn, c.arg(c.fact.Arg))
	case len(c.own) == 1 && body(c.own[0]) != nil:
		callee := c.own[0]
		results := callee.Signature.Results().Len()
		t.add(t.a.funcSite(callee).Site, StepGetter, "")
		ast.Inspect(body(callee), func(n ast.Node) bool {
			switch r := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				switch {
				case len(r.Results) == results && index < results:
					t.add(t.a.site(r.Pos()).Site, StepGetterBody, "")
					t.expr(callee, r.Results[index])
				case len(r.Results) == 1 && results > 1 && isCall(r.Results[0]) && !t.seen[r.Results[0]]:
					// return f(…), f giving the results: its result (once:
					// a function returning its own call).
					t.seen[r.Results[0]] = true
					t.add(t.a.site(r.Pos()).Site, StepGetterBody, "")
					t.callResult(callee, t.a.infoAt(r.Pos()), ast.Unparen(r.Results[0]).(*ast.CallExpr), index)
				}
			}
			return true
		})
	case len(c.own) > 1:
		t.add(t.a.site(x.Lparen).Site, StepComputed, fmt.Sprintf("not settled: the call may run %d functions of the tree; the trace ends", len(c.own)))
	default:
		name := "a function"
		if c.fn != nil {
			name = cite.ObjectName(c.fn)
		}
		if b := "min"; isBuiltin(info, x.Fun, b) || isBuiltin(info, x.Fun, "max") {
			// The least (greatest) of several durations: each is traced.
			if !isBuiltin(info, x.Fun, b) {
				b = "max"
			}
			t.add(t.a.site(x.Lparen).Site, StepComputed, "the "+b+" of its arguments, each traced below")
			for _, arg := range x.Args {
				t.expr(fn, arg)
			}
			return
		}
		if len(x.Args) == 0 || c.fn == nil {
			t.add(t.a.site(x.Lparen).Site, StepComputed, "computed by "+name+"; the trace ends")
			return
		}
		// A library's function computes the duration from its arguments
		// (a parser of a field's text, a minimum of two): they are traced.
		t.add(t.a.site(x.Lparen).Site, StepComputed, "computed by "+name+" from its arguments, traced below")
		for _, arg := range x.Args {
			if at := info.TypeOf(arg); at != nil && !isContext(at) {
				t.expr(fn, arg)
			}
		}
	}
}

// ofKind narrows the functions a dynamic call may run (a getter called
// through an interface) to the methods of the primary type, when some
// are.
func (t *tracer) ofKind(own []*ssa.Function) []*ssa.Function {
	if len(own) < 2 || t.kind == nil {
		return own
	}
	var out []*ssa.Function
	for _, f := range own {
		if r := f.Signature.Recv(); r != nil {
			if n, ok := deref(r.Type()).(*types.Named); ok && types.Identical(n.Origin(), t.kind.Origin()) {
				out = append(out, f)
			}
		}
	}
	if len(out) == 0 {
		return own
	}
	return out
}

// isContext reports whether t is context.Context.
func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// libraryReturns cites the returns of a dependency's function, read from
// its source (its body was not type-checked).
func (t *tracer) libraryReturns(obj *types.Func, step string) {
	pos := t.a.tree.Fset.PositionFor(obj.Pos(), false)
	fd, fset := t.a.depFunc(pos.Filename, func(fd *ast.FuncDecl, fset *token.FileSet) bool {
		return fset.PositionFor(fd.Name.Pos(), false).Line == pos.Line
	})
	if fd == nil {
		return
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch r := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			t.add(t.a.cite.Line(pos.Filename, fset.PositionFor(r.Pos(), false).Line, cite.ObjectName(obj)), step, "")
		}
		return true
	})
}

// selector traces a field read: a Spec field of the primary object (then
// its CRD property), a field of the controller (then where it is set), or a
// wrapper's field (metav1.Duration's Duration) to its holder.
func (t *tracer) selector(fn *ssa.Function, info *types.Info, x *ast.SelectorExpr) {
	sel := info.Selections[x]
	if sel == nil || sel.Kind() != types.FieldVal {
		if c := constOf(info, x); c != nil {
			t.add(t.a.objSite(c).Site, StepConstant, "a constant: no field of the object sets it")
			return
		}
		t.add(t.a.site(x.Pos()).Site, StepComputed, "computed here; the trace ends")
		return
	}
	field := sel.Obj().(*types.Var)
	if _, own := t.a.fileAt(field.Pos()); !own {
		// A library wrapper's field (metav1.Duration.Duration): the value is
		// the holder's.
		t.expr(fn, x.X)
		return
	}
	if tags, ok := t.specPath(info, x); ok && tags[0] == "status" {
		// Observed state (the time of the last run): it computes the
		// duration, no setting of the object's does.
		t.add(t.a.site(x.Pos()).Site, StepComputed, "read from the object's "+strings.Join(tags, ".")+": observed state, not a setting")
		return
	}
	if tags, ok := t.specPath(info, x); ok {
		s := t.a.objSite(field)
		s.Func = "(struct field)"
		t.add(s.Site, StepSpecField, "json path "+strings.Join(tags, "."))
		if crd, ok := t.a.crdProperty(t.kind, field, tags); ok {
			t.add(crd.Site, StepCRDProperty, crd.Note)
		}
		return
	}
	s := t.a.objSite(field)
	s.Func = "(struct field)"
	t.add(s.Site, StepControllerField, "a field of a type of the tree (the controller, its configuration), not of the object: the trace continues where it is set")
	for _, set := range t.a.fieldSets(field) {
		t.add(set.site.Site, StepSet, "")
		if set.in != nil {
			t.expr(set.in, set.value)
		}
	}
	for _, h := range t.a.fieldHandedAddr(field) {
		t.add(h.site, StepComputed, h.note)
	}
}

// handedAddr is where a field's address is handed to a call, which may set
// the field through it.
type handedAddr struct {
	site cite.Site
	note string
}

// fieldHandedAddr lists the calls the tree hands a field's address to
// (a config parser's configmap.AsDuration("period", &c.Period)): the field
// may be set there, through the pointer, which the trace does not follow;
// the note names the call and the constant strings it is given (the key).
func (a *analysis) fieldHandedAddr(field *types.Var) []handedAddr {
	var out []handedAddr
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			ce, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			for _, arg := range ce.Args {
				u, ok := ast.Unparen(arg).(*ast.UnaryExpr)
				if !ok || u.Op != token.AND {
					continue
				}
				sel, ok := ast.Unparen(u.X).(*ast.SelectorExpr)
				if !ok || info.Uses[sel.Sel] != field {
					continue
				}
				var keys []string
				for _, other := range ce.Args {
					if k, ok := stringValue(info, other); ok {
						keys = append(keys, strconv.Quote(k))
					}
				}
				note := "not settled: the field's address is handed to this call, which may set it through the pointer; the trace does not follow it"
				if len(keys) > 0 {
					note += " (given " + strings.Join(keys, ", ") + ")"
				}
				out = append(out, handedAddr{site: a.site(ce.Lparen).Site, note: note})
			}
			return true
		})
	}
	return out
}

func (t *tracer) ident(fn *ssa.Function, info *types.Info, x *ast.Ident) {
	v, ok := info.Uses[x].(*types.Var)
	// A variable a closure captures is traced in the function declaring
	// it (a parameter of the enclosing closure: its callers').
	for ok && fn.Parent() != nil && fn.Syntax() != nil && (v.Pos() < fn.Syntax().Pos() || v.Pos() >= fn.Syntax().End()) {
		fn = fn.Parent()
	}
	b := body(fn)
	if !ok || b == nil {
		t.add(t.a.site(x.Pos()).Site, StepComputed, "computed here; the trace ends")
		return
	}
	// Every assignment to the variable before its use: a default and the
	// field that overrides it are both sources.
	// A variable assigned one result of a call of several (ok, d :=
	// interval()) is traced into that result.
	type tupleResult struct {
		call  *ast.CallExpr
		index int
	}
	var values []ast.Expr
	var tuples []tupleResult
	var ranged []ast.Expr
	ast.Inspect(b, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if rs, ok := n.(*ast.RangeStmt); ok && rs.Pos() < x.Pos() {
			// for _, d := range ds: the elements of ds.
			if id, ok := rs.Value.(*ast.Ident); ok && rs.Tok == token.DEFINE && info.Defs[id] == v {
				ranged = append(ranged, rs.X)
			}
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Pos() > x.Pos() {
			return true
		}
		call, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || info.Defs[id] != v && info.Uses[id] != v {
				continue
			}
			_, isIndex := ast.Unparen(as.Rhs[0]).(*ast.IndexExpr)
			switch {
			case len(as.Lhs) == len(as.Rhs):
				values = append(values, as.Rhs[i])
			case len(as.Rhs) == 1 && isCall:
				tuples = append(tuples, tupleResult{call, i})
			case len(as.Rhs) == 1 && isIndex && i == 0:
				// v, ok := m[k]: the element read.
				values = append(values, as.Rhs[0])
			}
		}
		return true
	})
	for _, r := range tuples {
		t.callResult(fn, info, r.call, r.index)
	}
	for _, r := range ranged {
		t.elements(fn, info, r)
	}
	if len(ranged) > 0 && len(values) == 0 {
		return
	}
	if len(tuples) > 0 && len(values) == 0 {
		return
	}
	if len(values) == 0 {
		if args := t.a.argumentsFor(t.reach, fn, v); len(args) > 0 {
			// A parameter: what each call of the function passes.
			for _, arg := range args {
				t.expr(arg.in, arg.expr)
			}
			return
		}
		t.add(t.a.site(x.Pos()).Site, StepComputed, "not settled: a parameter or a value computed elsewhere, whose callers were not found; the trace ends")
		return
	}
	for _, v := range values {
		t.expr(fn, v)
	}
}

// elements traces the elements of a slice ranged over: those of a slice
// literal, and for a parameter, those of what each call passes.
func (t *tracer) elements(fn *ssa.Function, info *types.Info, e ast.Expr) {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			t.expr(fn, el)
		}
		return
	case *ast.Ident:
		if v, ok := info.Uses[x].(*types.Var); ok {
			if args := t.a.argumentsFor(t.reach, fn, v); len(args) > 0 {
				for _, arg := range args {
					t.elements(arg.in, t.a.infoAt(arg.expr.Pos()), arg.expr)
				}
				return
			}
		}
	}
	t.add(t.a.site(e.Pos()).Site, StepComputed, "not settled: the elements of a slice computed here; the trace ends")
}

// specPath returns the json path of a selector rooted at the primary object
// (spec.interval), when it is one.
func (t *tracer) specPath(info *types.Info, x *ast.SelectorExpr) ([]string, bool) {
	var tags []string
	var e ast.Expr = x
	for {
		s, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			break
		}
		sel := info.Selections[s]
		if sel == nil || sel.Kind() != types.FieldVal {
			return nil, false
		}
		tags = append([]string{jsonName(sel)}, tags...)
		if n, ok := deref(info.TypeOf(s.X)).(*types.Named); ok && t.kind != nil && types.Identical(n, t.kind) {
			return tags, true
		}
		e = s.X
	}
	return nil, false
}

// jsonName is the json name of the field a selection reads.
func jsonName(sel *types.Selection) string {
	field := sel.Obj().(*types.Var)
	// A field promoted from an embedded (inlined) struct: walk the
	// embedding path to the struct that declares it.
	t := sel.Recv()
	idx := sel.Index()
	for i, n := range idx {
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok {
			break
		}
		if i == len(idx)-1 {
			tag := reflect.StructTag(st.Tag(n)).Get("json")
			if name, _, _ := strings.Cut(tag, ","); name != "" {
				return name
			}
			break
		}
		t = st.Field(n).Type()
	}
	return field.Name()
}

// fieldSet is where the tree sets a field: the site, the value set, and
// the function the value is an expression of (nil inside a closure, whose
// variables are not the declaration's).
type fieldSet struct {
	site  Site
	value ast.Expr
	in    *ssa.Function
}

// fieldSets finds where the tree sets a field: composite literal keys and
// assignments.
func (a *analysis) fieldSets(field *types.Var) []fieldSet {
	var out []fieldSet
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		in := a.bySyntax[fd]
		var closures []*ast.FuncLit
		inClosure := func(pos token.Pos) bool {
			return slices.ContainsFunc(closures, func(l *ast.FuncLit) bool { return l.Pos() <= pos && pos < l.End() })
		}
		add := func(n ast.Node, value ast.Expr) {
			set := fieldSet{site: a.site(n.Pos()), value: value, in: in}
			if inClosure(n.Pos()) {
				// The innermost closure holding the set, whose
				// parameters and captures the value is traced through.
				set.in = nil
				for _, l := range closures {
					if l.Pos() <= n.Pos() && n.Pos() < l.End() && a.bySyntax[l] != nil {
						set.in = a.bySyntax[l]
					}
				}
			}
			out = append(out, set)
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				closures = append(closures, n)
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && info.Uses[id] == field {
					add(n, n.Value)
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if s, ok := l.(*ast.SelectorExpr); ok && info.Uses[s.Sel] == field {
						var value ast.Expr
						if len(n.Lhs) == len(n.Rhs) {
							value = n.Rhs[i]
						}
						add(n, value)
					}
				}
			}
			return true
		})
	}
	return out
}

// argument is a value a call passes for a parameter, in the calling function.
type argument struct {
	in   *ssa.Function
	expr ast.Expr
}

// argumentsFor lists what the calls of fn on the reconcile path (dynamic
// calls the call graph resolves included: a closure stored in a field) pass
// for its parameter v; for a function off that path (a constructor that
// sets a field of the controller), what every call of it passes.
func (a *analysis) argumentsFor(reach *callgraph.Reach, fn *ssa.Function, v *types.Var) []argument {
	index := -1
	params := fn.Signature.Params()
	for i := 0; i < params.Len(); i++ {
		if params.At(i) == v {
			index = i
		}
	}
	if index < 0 {
		return nil
	}
	callers := reach.Funcs()
	if !reach.Has(fn) {
		callers = nil
		for _, e := range a.prog.CallsInto(fn) {
			if !slices.Contains(callers, e.Caller.Func) {
				callers = append(callers, e.Caller.Func)
			}
		}
	}
	var out []argument
	for _, caller := range callers {
		for _, c := range a.callsIn(caller) {
			if slices.Contains(c.own, fn) && c.arg(index) != nil {
				out = append(out, argument{in: caller, expr: c.arg(index)})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].expr.Pos() < out[j].expr.Pos() })
	return out
}
