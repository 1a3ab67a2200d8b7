package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// The Spec fields an interval comes from: their JSON path, where the
// tree sets them, and what the callers of a function hand a parameter.

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
			set := fieldSet{site: a.site(n.Pos()), value: value}
			if !inClosure(n.Pos()) {
				set.in = in
			} else {
				// Set in a closure: the value is read in the closure
				// (its free variables in the functions around it), the
				// innermost one holding the set.
				var inner *ast.FuncLit
				for _, l := range closures {
					if l.Pos() <= n.Pos() && n.Pos() < l.End() && (inner == nil || l.Pos() > inner.Pos()) {
						inner = l
					}
				}
				set.in = a.bySyntax[inner]
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
