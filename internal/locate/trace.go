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
	// StepUnread cites a function on the reconcile path that could not be
	// analysed: the drift answer is not settled there.
	StepUnread = "unread"
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
	for i, prev := range t.steps {
		if prev.Step == step && prev.File == s.File && prev.Line == s.Line {
			// One step per line, but a trail that ends unsettled on a
			// line already cited says so there.
			if strings.Contains(note, "not settled") && !strings.Contains(prev.Note, "not settled") {
				t.steps[i].Note = joinNotes(prev.Note, note)
			}
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
		if sh, ok := t.a.shapes[typeKey(info.TypeOf(x))]; ok {
			// A result of the tree's own type a worker reads.
			if _, after := sh.fields(info, x); after != nil {
				t.expr(fn, after)
				return
			}
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
	case c.known && (c.fact.Role == RoleJitter || c.fact.Role == RoleJitterResult) && index == 0:
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
				if len(r.Results) == results && index < results {
					t.add(t.a.site(r.Pos()).Site, StepGetterBody, "")
					t.expr(callee, r.Results[index])
				} else if ce, ok := tupleCall(r, results); ok && !t.seen[r] {
					// return f(…): the matching result of f's returns.
					t.seen[r] = true
					t.add(t.a.site(r.Pos()).Site, StepGetterBody, "")
					t.callResult(callee, t.a.infoAt(r.Pos()), ce, index)
				} else if names := namedResults(callee); len(r.Results) == 0 && index < len(names) && !t.seen[r] {
					// A bare return hands back the named result: what
					// is assigned to it before, each assignment the
					// getter's body.
					t.seen[r] = true
					cinfo := t.a.infoAt(r.Pos())
					if v, ok := cinfo.Defs[names[index]].(*types.Var); ok {
						for _, e := range assignmentsTo(cinfo, body(callee), v) {
							if e.Pos() < r.Pos() {
								t.add(t.a.site(e.Pos()).Site, StepGetterBody, "")
							}
						}
						t.variable(callee, cinfo, v, r)
					}
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
		recv := valueReceiver(info, x)
		if recv == nil {
			recv = t.madeReceiver(fn, info, x)
		}
		var bound []boundReceiver
		if recv == nil && c.fn != nil && isMethodValueCall(info, x, c.fn) {
			bound = t.boundReceivers(fn, x.Fun)
		}
		if len(x.Args) == 0 && recv == nil && len(bound) == 0 || c.fn == nil {
			t.add(t.a.site(x.Lparen).Site, StepComputed, "computed by "+name+"; the trace ends")
			return
		}
		// A library's function computes the duration from its arguments
		// (a parser of a field's text, a minimum of two), and a library
		// method from its receiver too (next.Sub(now), the time a
		// schedule parsed from a field gives): they are traced. The
		// receiver of a method value handed on (via(next.Sub)(now)) is
		// where the value was made.
		from := "its arguments"
		switch {
		case recv != nil || len(bound) > 0:
			from = "its receiver and arguments"
		case isMethodValueCall(info, x, c.fn):
			from = "its arguments; not settled: the receiver the method value was bound to is not followed"
		}
		t.add(t.a.site(x.Lparen).Site, StepComputed, "computed by "+name+" from "+from+", traced below")
		if recv != nil {
			t.expr(fn, recv)
		}
		for _, r := range bound {
			t.expr(r.in, r.expr)
		}
		for _, arg := range x.Args {
			if at := info.TypeOf(arg); at != nil && !isContext(at) {
				t.expr(fn, arg)
			}
		}
	}
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
		if v, ok := info.Uses[x.Sel].(*types.Var); ok && sel == nil {
			if _, fixed := t.a.fixedVarValues()[v]; fixed {
				t.ident(fn, info, x.Sel) // another package's fixed variable
				return
			}
			if _, unwritten := t.a.initOf(info, x); unwritten {
				t.ident(fn, info, x.Sel) // another package's unwritten variable
				return
			}
		}
		t.add(t.a.site(x.Pos()).Site, StepComputed, "computed here; the trace ends")
		return
	}
	field := sel.Obj().(*types.Var)
	tags, rooted := t.specPath(info, x)
	if _, own := t.a.fileAt(field.Pos()); !own && !(rooted && t.kindAPI(field)) {
		// A library wrapper's field (metav1.Duration.Duration): the value is
		// the holder's. A field of the primary type's own API package is
		// the object's, even in a dependency (a Job's TTL in k8s.io/api).
		t.expr(fn, x.X)
		return
	}
	if rooted && tags[0] == "status" {
		// Observed state (the time of the last run): it computes the
		// duration, no setting of the object's does.
		t.add(t.a.site(x.Pos()).Site, StepComputed, "read from the object's "+strings.Join(tags, ".")+": observed state, not a setting")
		return
	}
	if rooted {
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

// kindAPI reports whether a field is declared in the package of the
// primary type: its spec's and status's, not a wrapper's of another
// package (metav1.Duration's Duration).
func (t *tracer) kindAPI(field *types.Var) bool {
	return t.kind != nil && field.Pkg() != nil && t.kind.Obj().Pkg() != nil && field.Pkg().Path() == t.kind.Obj().Pkg().Path()
}

func (t *tracer) ident(fn *ssa.Function, info *types.Info, x *ast.Ident) {
	v, ok := info.Uses[x].(*types.Var)
	if init, fixed := t.a.fixedVarValues()[v]; ok && fixed {
		// A package variable the tree never writes after its constant
		// initialiser (a default a test may override) holds it.
		t.add(t.a.objSite(v).Site, StepConstant, fmt.Sprintf("a package variable the tree never writes after its constant initialiser %s: no field of the object sets it", types.ExprString(init.expr)))
		return
	}
	if in, unwritten := t.a.initOf(info, x); unwritten {
		// A package variable the tree never writes after its
		// initialiser (var steady = ctrl.Result{RequeueAfter: d}): the
		// initialiser is traced.
		t.expr(fn, in.expr)
		return
	}
	if fv, isFlag := t.a.flagVarsIndex()[v]; ok && isFlag {
		// A variable a command-line flag sets, and nothing else writes: a
		// setting of the controller's, not of the object.
		what := "a command-line flag"
		if fv.name != "" {
			what += " (--" + fv.name
			if fv.def != nil {
				what += ", default " + types.ExprString(fv.def)
			}
			what += ")"
		}
		t.add(t.a.site(fv.call.Pos()).Site, StepComputed, "set by "+what+", registered here and written nowhere else: a setting of the controller's, not of the object; the trace ends")
		return
	}
	// A closure's free variable is assigned in the function that makes
	// the closure: its values are read there.
	for ok && fn.Parent() != nil && !declaredIn(fn.Syntax(), v) {
		fn = fn.Parent()
	}
	b := body(fn)
	if !ok || b == nil {
		t.add(t.a.site(x.Pos()).Site, StepComputed, "computed here; the trace ends")
		return
	}
	t.variable(fn, info, v, x)
}

// variable traces what a variable of fn holds where at reads it: the
// values assigned to it before, in fn's body or, for a variable a closure
// captures, in the body of the function that declares it; what callers
// pass for a parameter.
func (t *tracer) variable(fn *ssa.Function, info *types.Info, v *types.Var, at ast.Node) {
	b := body(fn)
	if b == nil {
		t.add(t.a.site(at.Pos()).Site, StepComputed, "computed here; the trace ends")
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
		if rs, ok := n.(*ast.RangeStmt); ok && rs.Value != nil && rs.Pos() < at.Pos() {
			// for _, v := range s: an element of s.
			if id, ok := rs.Value.(*ast.Ident); ok && info.Defs[id] == v {
				ranged = append(ranged, rs.X)
			}
		}
		values = append(values, declaredWith(info, n, v, at)...)
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Pos() > at.Pos() {
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
		t.elements(fn, r)
	}
	if len(tuples)+len(ranged) > 0 && len(values) == 0 {
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
		if p := fn.Parent(); p != nil && (v.Pos() < b.Pos() || v.Pos() >= b.End()) && !isParamOf(fn, v) {
			// A variable the closure captures: assigned in the function
			// around it, before the closure.
			t.variable(p, info, v, at)
			return
		}
		t.add(t.a.site(at.Pos()).Site, StepComputed, "not settled: a parameter or a value computed elsewhere, whose callers were not found; the trace ends")
		return
	}
	if stored := storedIntervals(info, b, v, at); len(stored) > 0 {
		// A result variable whose interval is stored after it is made
		// (result.RequeueAfter = d): the stores, and the values that
		// set one themselves.
		values = slices.DeleteFunc(append(stored, values...), func(e ast.Expr) bool {
			lit, ok := ast.Unparen(e).(*ast.CompositeLit)
			if !ok {
				return false
			}
			_, after := resultFields(info, lit)
			return after == nil
		})
	}
	for _, v := range values {
		t.expr(fn, v)
	}
}

// declaredIn reports whether a variable is declared inside a function's
// syntax (a parameter, a local, or one of a closure in it), not captured
// from outside.
func declaredIn(n ast.Node, v *types.Var) bool {
	return n != nil && n.Pos() <= v.Pos() && v.Pos() < n.End()
}

// tupleCall is the call a return of a function of several results hands
// back whole (return f(…)).
func tupleCall(r *ast.ReturnStmt, results int) (*ast.CallExpr, bool) {
	if len(r.Results) != 1 || results < 2 {
		return nil, false
	}
	ce, ok := ast.Unparen(r.Results[0]).(*ast.CallExpr)
	return ce, ok
}

// elements traces the elements of a slice or array of fn: those of its
// literal, those an append adds, those of a variable's every value (what
// each call passes, for a parameter).
func (t *tracer) elements(fn *ssa.Function, e ast.Expr) {
	if e == nil || t.seen[e] {
		return
	}
	t.seen[e] = true
	info := t.a.infoAt(e.Pos())
	b := body(fn)
	if info == nil || b == nil {
		return
	}
	unsettled := func() {
		t.add(t.a.site(e.Pos()).Site, StepComputed, "not settled: the elements of a slice, not followed; the trace ends")
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			t.expr(fn, el)
		}
	case *ast.CallExpr:
		if !isBuiltin(info, x.Fun, "append") || len(x.Args) == 0 {
			unsettled()
			return
		}
		t.elements(fn, x.Args[0])
		for _, arg := range x.Args[1:] {
			if x.Ellipsis.IsValid() {
				t.elements(fn, arg)
			} else {
				t.expr(fn, arg)
			}
		}
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok {
			unsettled()
			return
		}
		var values []ast.Expr
		ast.Inspect(b, func(n ast.Node) bool {
			if _, lit := n.(*ast.FuncLit); lit {
				return false
			}
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Pos() > x.Pos() || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && (info.Defs[id] == v || info.Uses[id] == v) {
					values = append(values, as.Rhs[i])
				}
			}
			return true
		})
		if len(values) == 0 {
			args := t.a.argumentsFor(t.reach, fn, v)
			if len(args) == 0 {
				unsettled()
			}
			for _, arg := range args {
				t.elements(arg.in, arg.expr)
			}
			return
		}
		for _, v := range values {
			t.elements(fn, v)
		}
	default:
		unsettled()
	}
}

// isParamOf reports whether v is a parameter of fn.
func isParamOf(fn *ssa.Function, v *types.Var) bool {
	params := fn.Signature.Params()
	for i := 0; i < params.Len(); i++ {
		if params.At(i) == v {
			return true
		}
	}
	return false
}
