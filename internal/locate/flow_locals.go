package locate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The engine's index of one body's variables: their assignments, the
// stores below them, their uses and what holds each stored expression.

// valueDef is one assignment of a local variable: the expression, and the
// result index when it is a call with several results (-1 otherwise);
// ranged says the variable is the value of a range over expr, rangeKey its
// key.
type valueDef struct {
	expr     ast.Expr
	index    int
	ranged   bool
	rangeKey bool
	// deferredIn is, when the assignment is made in a closure deferred at
	// once (defer func() { … }()), the function that defers it.
	deferredIn ast.Node
}

// pathStore is a store below a variable: v.f.g = value (path f, g), or
// v[i] = value (an element step, "").
type pathStore struct {
	path  []string
	value ast.Expr
	// deferredIn is as valueDef's.
	deferredIn ast.Node
}

// flowLocals index one body's variables (closures included): their
// assignments, the stores below them, their uses, and what holds each
// expression that is stored (the composite literal it is an element of,
// the append it is added by, the left side it is assigned to).
type flowLocals struct {
	defs   map[*types.Var][]valueDef
	stores map[*types.Var][]pathStore
	uses   map[*types.Var][]*ast.Ident
	holder map[ast.Expr]ast.Expr
	// funcs are the body's function literals; deferred the spans of those
	// deferred at once, with the function deferring each.
	funcs    []*ast.FuncLit
	deferred []deferredLit
	// declared are the variables declared without a value (var v T),
	// addressed those whose address is taken (&v).
	declared, addressed map[*types.Var]bool
	// typeTests are the tests v.Type == X of a condition variable, with
	// the block each guards: there v's type is X.
	typeTests map[*types.Var][]typeGuard
}

// elem is the path step of a slice, array or map element; keyStep that of
// a map's key.
const (
	elem    = ""
	keyStep = "\x00key"
)

// varOf is the variable an identifier names.
func varOf(info *types.Info, id *ast.Ident) *types.Var {
	if v, ok := info.Defs[id].(*types.Var); ok {
		return v
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}

// local returns the body's index of its variables.
func (b *flowBody) local() *flowLocals {
	if b.locals != nil {
		return b.locals
	}
	l := &flowLocals{defs: map[*types.Var][]valueDef{}, stores: map[*types.Var][]pathStore{},
		uses: map[*types.Var][]*ast.Ident{}, holder: map[ast.Expr]ast.Expr{},
		declared: map[*types.Var]bool{}, addressed: map[*types.Var]bool{}, typeTests: map[*types.Var][]typeGuard{}}
	b.locals = l
	info := b.info
	assign := func(lhs, rhs ast.Expr, idx int) {
		if idx < 0 {
			l.holder[ast.Unparen(rhs)] = lhs
			// x = T(v), x = &v: v's value is stored too.
			l.holder[stripConversions(info, rhs)] = lhs
		}
		switch x := ast.Unparen(lhs).(type) {
		case *ast.Ident:
			if v := varOf(info, x); v != nil {
				l.defs[v] = append(l.defs[v], valueDef{expr: rhs, index: idx, deferredIn: l.deferring(lhs.Pos())})
			}
		default:
			if v, path := storePath(info, lhs); v != nil && idx < 0 {
				l.stores[v] = append(l.stores[v], pathStore{path: path, value: rhs, deferredIn: l.deferring(lhs.Pos())})
				if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok && isMap(info.TypeOf(ix.X)) {
					// m[k] = v stores the key k too.
					keyPath := append(append([]string{}, path[:len(path)-1]...), keyStep)
					l.stores[v] = append(l.stores[v], pathStore{path: keyPath, value: ix.Index, deferredIn: l.deferring(lhs.Pos())})
				}
			}
		}
	}
	ast.Inspect(b.decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if v, ok := info.Uses[n].(*types.Var); ok {
				l.uses[v] = append(l.uses[v], n)
			}
		case *ast.FuncLit:
			l.funcs = append(l.funcs, n)
		case *ast.DeferStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				l.deferred = append(l.deferred, deferredLit{lit: lit, in: l.innermost(b.decl, n.Pos())})
			}
		case *ast.IfStmt:
			l.typeTest(info, n)
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
				if v := varOf(info, id); v != nil {
					l.addressed[v] = true
				}
			}
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
				break
			}
			for i, lhs := range n.Lhs {
				switch {
				case len(n.Lhs) == len(n.Rhs):
					assign(lhs, n.Rhs[i], -1)
				case len(n.Rhs) == 1:
					assign(lhs, n.Rhs[0], i)
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				if v := varOf(info, id); v != nil && len(n.Values) == 0 {
					l.declared[v] = true
				}
			}
			for i, id := range n.Names {
				switch {
				case len(n.Values) == len(n.Names):
					assign(id, n.Values[i], -1)
				case len(n.Values) == 1:
					assign(id, n.Values[0], i)
				}
			}
		case *ast.RangeStmt:
			for i, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					if v := varOf(info, id); v != nil {
						l.defs[v] = append(l.defs[v], valueDef{expr: n.X, ranged: true, rangeKey: i == 0})
					}
				}
			}
		case *ast.CompositeLit:
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				l.holder[stripAddr(el)] = n
			}
		case *ast.CallExpr:
			if isBuiltin(info, n.Fun, "append") {
				for _, arg := range n.Args {
					l.holder[stripAddr(arg)] = n
				}
			}
		}
		return true
	})
	return l
}

// typeGuard is a block entered only when a condition's Type equals value.
type typeGuard struct {
	value ast.Expr
	block *ast.BlockStmt
}

// typeTest records an if statement testing a condition variable's type:
// if v.Type == X (or X == v.Type, one operand of an &&).
func (l *flowLocals) typeTest(info *types.Info, n *ast.IfStmt) {
	for _, t := range conjuncts(n.Cond) {
		b, ok := ast.Unparen(t).(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL {
			continue
		}
		for _, side := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			sel, ok := ast.Unparen(side[0]).(*ast.SelectorExpr)
			if !ok || !isConditionTypeField(info, sel) {
				continue
			}
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
				if v := varOf(info, id); v != nil {
					l.typeTests[v] = append(l.typeTests[v], typeGuard{value: side[1], block: n.Body})
				}
			}
		}
	}
}

// changedUnder is the value a test of its type gives the condition
// variable v read at id, when the block that test guards stores into v:
// a condition copied from a list, changed there and kept, has the type
// tested (`if c.Type == Healthy { c.Status = True; conds = append(conds,
// c) }`), wherever it goes from there (a helper it is handed). Nil when
// no such test guards id; a copy kept unchanged sets no type, and is
// what it was copied from.
func (l *flowLocals) changedUnder(v *types.Var, id *ast.Ident) ast.Expr {
	for _, g := range l.typeTests[v] {
		if id.Pos() < g.block.Pos() || id.End() > g.block.End() {
			continue
		}
		for _, st := range l.stores[v] {
			if g.block.Pos() <= st.value.Pos() && st.value.End() <= g.block.End() {
				return g.value
			}
		}
	}
	return nil
}

// stripAddr removes parentheses and a & around e.
func stripAddr(e ast.Expr) ast.Expr {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		return ast.Unparen(u.X)
	}
	return e
}

// isBuiltin reports whether fun names the builtin function name, by its
// object (a shadowing declaration is not it).
func isBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// storePath splits the left side of a store below a variable into the
// variable and the path (v.f.g, v[i], (*v).f); nil when it stores below
// something else.
func storePath(info *types.Info, lhs ast.Expr) (*types.Var, []string) {
	var path []string
	e := ast.Unparen(lhs)
	for {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			steps := fieldSteps(info, x)
			if steps == nil {
				return nil, nil
			}
			path = append(steps, path...)
			e = ast.Unparen(x.X)
			continue
		case *ast.IndexExpr:
			path = append([]string{elem}, path...)
			e = ast.Unparen(x.X)
			continue
		case *ast.StarExpr:
			e = ast.Unparen(x.X)
			continue
		case *ast.Ident:
			return varOf(info, x), path
		}
		return nil, nil
	}
}

// fieldSteps is the path a field selector takes, through the embedded
// fields it is promoted through; nil when x selects no field.
func fieldSteps(info *types.Info, x *ast.SelectorExpr) []string {
	sel := info.Selections[x]
	if sel == nil || sel.Kind() != types.FieldVal {
		return nil
	}
	var steps []string
	t := sel.Recv()
	for _, i := range sel.Index() {
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return nil
		}
		f := st.Field(i)
		steps = append(steps, f.Name())
		t = f.Type()
	}
	return steps
}

// sinks are the places a variable's value is stored in body b: each
// expression that holds one of its uses (a composite literal it is an
// element or field of, an append that adds it, the left side of an
// assignment it is the value of).
func (b *flowBody) sinks(v *types.Var) []ast.Expr {
	l := b.local()
	var out []ast.Expr
	for _, u := range l.uses[v] {
		if h, ok := l.holder[ast.Expr(u)]; ok {
			out = append(out, h)
		}
	}
	return out
}

// holderOf is what holds a stored expression (see sinks), or nil.
func (b *flowBody) holderOf(e ast.Expr) ast.Expr {
	return b.local().holder[e]
}

// addressHanded is the first call in body b handed the address of the
// local variable v as an argument (updateRequeueAfter(&result, d)), or
// nil: the stores such a call makes into v are not the body's own.
func addressHanded(b *flowBody, v *types.Var) *ast.CallExpr {
	if v == nil || !b.local().addressed[v] {
		return nil
	}
	var found *ast.CallExpr
	ast.Inspect(b.decl.Body, func(n ast.Node) bool {
		ce, ok := n.(*ast.CallExpr)
		if !ok || found != nil || isBuiltin(b.info, ce.Fun, "append") {
			return found == nil
		}
		for _, arg := range ce.Args {
			if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND {
				if id, ok := ast.Unparen(u.X).(*ast.Ident); ok && varOf(b.info, id) == v {
					found = ce
				}
			}
		}
		return found == nil
	})
	return found
}

// isMap reports whether t is a map, or a pointer to one.
func isMap(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := deref(t).Underlying().(*types.Map)
	return ok
}
