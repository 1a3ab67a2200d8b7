package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// The differences a comparison records, and which way a comparison reads:
// a slice of the changes found, tested by its length, and a test that
// holds when the two states are equal.

// flagOf is the local variable a guard tests as the record of the
// comparisons made before it: a bool (if updated), or a slice whose
// length it tests (if len(changes) > 0, or len(changes) alone); nil
// otherwise.
func flagOf(info *types.Info, body *ast.BlockStmt, guard ast.Expr) *types.Var {
	switch g := ast.Unparen(guard).(type) {
	case *ast.Ident:
		return localBool(info, g)
	case *ast.CallExpr:
		return lenOfLocal(info, body, g)
	case *ast.BinaryExpr:
		switch {
		case isConst(info, g.Y):
			return lenOfLocal(info, body, g.X)
		case isConst(info, g.X):
			return lenOfLocal(info, body, g.Y)
		}
	}
	return nil
}

// lenOfLocal is the local slice variable v of len(v), or of a function
// literal called there that returns it; nil otherwise.
func lenOfLocal(info *types.Info, body *ast.BlockStmt, e ast.Expr) *types.Var {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if lit := calledLiteral(info, body, call); lit != nil {
		var v *types.Var
		for i, r := range literalResults(lit) {
			w := lenOfLocal(info, nil, r)
			if w == nil || i > 0 && w != v {
				return nil
			}
			v = w
		}
		return v
	}
	if len(call.Args) != 1 || !isBuiltin(info, call.Fun, "len") {
		return nil
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return nil
	}
	if _, slice := v.Type().Underlying().(*types.Slice); !slice {
		return nil
	}
	return v
}

// appendsTo reports whether e is append(v, …): a difference recorded in
// the slice v; or a function literal of body called there (at once, or
// through the variable it is assigned to) that returns it.
func appendsTo(info *types.Info, body *ast.BlockStmt, v *types.Var, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	if lit := calledLiteral(info, body, call); lit != nil {
		results := literalResults(lit)
		for _, r := range results {
			if !appendsTo(info, body, v, r) {
				return false
			}
		}
		return len(results) > 0
	}
	if len(call.Args) == 0 || !isBuiltin(info, call.Fun, "append") {
		return false
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	return ok && info.Uses[id] == v
}

// calledLiteral is the function literal a call runs: written where it
// stands, or the one body assigns to the local variable called; nil
// otherwise.
func calledLiteral(info *types.Info, body *ast.BlockStmt, call *ast.CallExpr) *ast.FuncLit {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.FuncLit:
		return fun
	case *ast.Ident:
		v, ok := info.Uses[fun].(*types.Var)
		if !ok || v.IsField() || body == nil {
			return nil
		}
		if rhs := assignmentsTo(info, body, v); len(rhs) == 1 {
			lit, _ := ast.Unparen(rhs[0]).(*ast.FuncLit)
			return lit
		}
	}
	return nil
}

// literalResults are the first results of a function literal's returns.
func literalResults(lit *ast.FuncLit) []ast.Expr {
	var out []ast.Expr
	returnsOf(lit.Body, func(r *ast.ReturnStmt) {
		if len(r.Results) > 0 {
			out = append(out, r.Results[0])
		}
	})
	return out
}

// leavesWhenEqual reports whether an if's branch is taken when the two
// states it compares are equal and leaves (a return, whatever it hands
// back, or a continue): the difference is then applied after it, on the
// path where they differ (inSync := live.X == want.X; if inSync { return
// …, validate(obj) }; …; Update(live)), also through a predicate of the
// tree's own (leavePolarity: if inSync(live, want) { return … }).
func (a *analysis) leavesWhenEqual(info *types.Info, body *ast.BlockStmt, ifs *ast.IfStmt) bool {
	list := ifs.Body.List
	if len(list) == 0 {
		return false
	}
	switch last := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
	case *ast.BranchStmt:
		if last.Tok != token.CONTINUE || last.Label != nil {
			return false
		}
	default:
		return false
	}
	return a.leavePolarity(info, body, ifs.Cond, 0) > 0
}

// polarity says which way a condition reads: 1 when it holds as two
// values are equal (a == b between values that are not constants, a deep
// comparison, no change recorded: len(changes) == 0), -1 when it holds as
// they differ (!=, a flag set to true where a difference is found), 0
// when that is not known (a test of a value against a constant, a
// predicate of the tree's own). A local bool reads as what it is assigned
// (inSync := live.X == want.X), and a function literal called as what it
// returns, to depth 2.
func (a *analysis) polarity(info *types.Info, body *ast.BlockStmt, e ast.Expr, depth int) int {
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return -a.polarity(info, body, x.X, depth)
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND, token.LOR:
			l, r := a.polarity(info, body, x.X, depth), a.polarity(info, body, x.Y, depth)
			if l == r && !(x.Op == token.LOR && l > 0) {
				return l // all equal, or some (each) differing
			}
		case token.EQL, token.NEQ, token.GTR:
			if flagOf(info, body, x) != nil {
				return lenPolarity(info, x)
			}
			if x.Op == token.GTR {
				return 0
			}
			for _, side := range []ast.Expr{x.X, x.Y} {
				if isConst(info, side) || isNil(info, side) {
					return 0
				}
			}
			if x.Op == token.EQL {
				return 1
			}
			return -1
		}
	case *ast.CallExpr:
		if lit := calledLiteral(info, body, x); lit != nil && depth < 2 {
			// A function literal reads as what it returns, each
			// return the same way.
			p := 0
			for i, r := range literalResults(lit) {
				if q := a.polarity(info, body, r, depth+1); i == 0 || q == p {
					p = q
				} else {
					return 0
				}
			}
			return p
		}
		if c := a.makeCall(info, x, nil); c.known && c.fact.Role == RoleCompare {
			return 1
		}
	case *ast.Ident:
		v := localBool(info, x)
		if v == nil || depth >= 2 {
			return 0
		}
		rhs := assignmentsTo(info, body, v)
		if len(rhs) == 1 && !isConst(info, rhs[0]) {
			return a.polarity(info, body, rhs[0], depth+1)
		}
		return flagPolarity(info, rhs)
	}
	return 0
}

// lenPolarity reads a test of the length of the changes recorded against
// zero: none recorded (== 0) holds when the states are equal, some (!= 0,
// > 0) when they differ.
func lenPolarity(info *types.Info, x *ast.BinaryExpr) int {
	zero := x.Y
	if isConst(info, x.X) {
		zero = x.X
	}
	if tv := info.Types[ast.Unparen(zero)]; tv.Value == nil || constant.Sign(tv.Value) != 0 {
		return 0
	}
	switch x.Op {
	case token.EQL:
		return 1
	case token.NEQ:
		return -1
	case token.GTR:
		if zero == x.Y {
			return -1
		}
	}
	return 0
}

// flagPolarity reads a bool flag from the constants it is assigned: false
// first (its declaration) and true ever after (where a difference is
// found) holds when the states differ.
func flagPolarity(info *types.Info, rhs []ast.Expr) int {
	if len(rhs) < 2 {
		return 0
	}
	for i, r := range rhs {
		tv := info.Types[ast.Unparen(r)]
		if tv.Value == nil || tv.Value.Kind() != constant.Bool || constant.BoolVal(tv.Value) != (i > 0) {
			return 0
		}
	}
	return -1
}
