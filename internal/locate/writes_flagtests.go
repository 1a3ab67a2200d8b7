package locate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A pass's early return may test a flag rather than live state itself:
// added := false; for _, f := range fs { if controllerutil.AddFinalizer(obj,
// f) { added = true } }; if !added { return nil }. The flag holds what the
// live test found, as changed = controllerutil.AddFinalizer(obj, f) ||
// changed does, whether it is set under the test or through a pointer a
// call is handed (setChanged(&changed, …)).

// flagReadsLive reports whether cond tests (or negates) a bool local of
// body that is set only to constants, in the body, under an if whose
// condition reads live state (readsLive), or by a call handed its address
// and arguments that do.
func (a *analysis) flagReadsLive(info *types.Info, body *ast.BlockStmt, kind *types.Named, cond ast.Expr) bool {
	for {
		u, ok := ast.Unparen(cond).(*ast.UnaryExpr)
		if !ok || u.Op != token.NOT {
			break
		}
		cond = u.X
	}
	id, ok := ast.Unparen(cond).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() || !types.Identical(v.Type().Underlying(), types.Typ[types.Bool]) {
		return false
	}
	live, constant := false, true
	var parents []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			parents = parents[:len(parents)-1]
			return true
		}
		parents = append(parents, n)
		switch x := n.(type) {
		case *ast.AssignStmt:
			for i, l := range x.Lhs {
				if lid, ok := ast.Unparen(l).(*ast.Ident); !ok || info.ObjectOf(lid) != v {
					continue
				}
				if len(x.Rhs) != len(x.Lhs) || info.Types[x.Rhs[i]].Value == nil {
					constant = false
					continue
				}
				live = live || a.underLiveTest(info, body, kind, parents)
			}
		case *ast.CallExpr:
			handed := false
			for _, arg := range x.Args {
				if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND {
					if aid, ok := ast.Unparen(u.X).(*ast.Ident); ok && info.ObjectOf(aid) == v {
						handed = true
					}
				}
			}
			if handed {
				for _, arg := range x.Args {
					live = live || a.readsLive(info, body, kind, arg, nil, map[*types.Var]bool{v: true})
				}
			}
		}
		return true
	})
	return constant && live
}

// underLiveTest reports whether the innermost node of parents stands in
// the body (not the else) of an if whose condition reads live state.
func (a *analysis) underLiveTest(info *types.Info, body *ast.BlockStmt, kind *types.Named, parents []ast.Node) bool {
	for i := len(parents) - 2; i >= 0; i-- {
		switch p := parents[i].(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if parents[i+1] == p.Body && a.readsLive(info, body, kind, p.Cond, nil, map[*types.Var]bool{}) {
				return true
			}
		}
	}
	return false
}
