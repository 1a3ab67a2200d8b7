package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// fixedString reports whether e names a package-level variable of the tree
// that holds a string constant it is never written after: declared with a
// constant initialiser (var Ready ConditionType = "Ready", as some APIs
// declare their condition types), and never assigned, nor its address
// taken, anywhere in the tree's own code. Its value is then the
// initialiser's.
func (a *analysis) fixedString(info *types.Info, e ast.Expr) (string, *types.Var, bool) {
	v := varNamed(info, e)
	if v == nil {
		return "", nil, false
	}
	init, fixed := a.fixedVarValues()[v]
	if !fixed || init.value.Kind() != constant.String {
		return "", nil, false
	}
	return constant.StringVal(init.value), v, true
}

// varNamed is the variable an identifier, or a qualified one (pkg.V, or
// a field's selector), names, or nil.
func varNamed(info *types.Info, e ast.Expr) *types.Var {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}

// fixedInit is the constant initialiser of a package-level variable nothing
// writes after it: its value, and the expression in the declaration.
type fixedInit struct {
	value constant.Value
	expr  ast.Expr
	// formatted says the initialiser formats constants (fmt.Sprintf of
	// constants), not a constant expression itself.
	formatted bool
}

// fixedVarValues indexes, on first use, the tree's package-level variables
// declared with a constant initialiser and never written after it (a
// default interval tests override, a condition type declared as a
// variable): each holds its initialiser. Those never written whose
// initialiser is no constant are indexed apart (initOf).
func (a *analysis) fixedVarValues() map[*types.Var]fixedInit {
	if a.fixedVars != nil {
		return a.fixedVars
	}
	a.fixedVars = map[*types.Var]fixedInit{}
	var computed []varInit
	for _, f := range a.files {
		for _, d := range f.file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, name := range vs.Names {
					v, isVar := f.info.Defs[name].(*types.Var)
					tv := f.info.Types[vs.Values[i]]
					switch {
					case isVar && tv.Value != nil:
						a.fixedVars[v] = fixedInit{value: tv.Value, expr: vs.Values[i]}
					case isVar:
						computed = append(computed, varInit{v, vs.Values[i], f.info})
					}
				}
			}
		}
	}
	written := map[*types.Var]bool{}
	for _, f := range a.files {
		eachWrite(f.file, func(e ast.Expr, _ *ast.UnaryExpr) {
			// x = …, and x.f = …, x[i] = …, *x = … write x too.
			for e != nil {
				switch x := ast.Unparen(e).(type) {
				case *ast.Ident:
					if v, ok := f.info.Uses[x].(*types.Var); ok {
						written[v] = true
					}
					e = nil
				case *ast.SelectorExpr:
					if v, ok := f.info.Uses[x.Sel].(*types.Var); ok {
						written[v] = true
					}
					e = x.X
				case *ast.IndexExpr:
					e = x.X
				case *ast.StarExpr:
					e = x.X
				default:
					e = nil
				}
			}
		})
	}
	for v := range written {
		delete(a.fixedVars, v)
	}
	a.initVars = map[*types.Var]varInit{}
	for _, in := range computed {
		if !written[in.v] && !sharesState(in.v.Type()) {
			a.initVars[in.v] = in
		}
	}
	a.foldFormatted(computed, written)
	return a.fixedVars
}

// initOf is the initialiser of the package-level variable e names, when
// it is declared with one that is not a constant, its type shares no state
// (sharesState) and nothing of the tree writes it after (var requeueSoon = controller.NewRequeueAfter(d), var
// okResult = ctrl.Result{RequeueAfter: d}): every read of it holds that
// value.
func (a *analysis) initOf(info *types.Info, e ast.Expr) (varInit, bool) {
	v := varNamed(info, e)
	if v == nil {
		return varInit{}, false
	}
	a.fixedVarValues()
	in, ok := a.initVars[v]
	return in, ok
}

// sharesState reports whether a value of type t reaches state that can
// change without an assignment to the variable holding it: a map, a
// slice, a channel or a pointer, which code handed the value can fill.
func sharesState(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Map, *types.Slice, *types.Chan, *types.Pointer:
		return true
	}
	return false
}

// initBody is the body the flow engine reads an initialiser in: the
// package's initialisation, with no statements and no parameters of its
// own.
func initBody(in varInit) *flowBody {
	return &flowBody{decl: &ast.FuncDecl{Name: ast.NewIdent("var " + in.v.Name()), Type: &ast.FuncType{}, Body: &ast.BlockStmt{}}, info: in.info}
}

// eachWrite visits each expression a file (or any node) writes: an
// assignment's left side, the key and value a range assigns, an
// increment's operand, and an operand whose address is taken, handed with
// the & expression taking it.
func eachWrite(file ast.Node, visit func(target ast.Expr, addr *ast.UnaryExpr)) {
	ast.Inspect(file, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range x.Lhs {
				visit(lhs, nil)
			}
		case *ast.RangeStmt:
			if x.Tok == token.ASSIGN {
				visit(x.Key, nil)
				visit(x.Value, nil)
			}
		case *ast.IncDecStmt:
			visit(x.X, nil)
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				visit(x.X, x)
			}
		}
		return true
	})
}
