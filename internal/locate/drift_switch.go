package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
)

// A state a comparison records: a local set to a constant in the branch
// of a comparison (podState = mustBeRecreated under if label != want),
// and a switch on it later whose clause for that constant writes (case
// mustBeRecreated: Delete, then Create). The write applies the difference
// the comparison found.

// stateSwitch is the drift a switch on a local state reads: for each of
// its clauses that writes, the comparisons whose branch sets the local to
// one of the clause's constants, and the clause's first write.
func (g driftGuards) stateSwitch(body *ast.BlockStmt, sw *ast.SwitchStmt) []Step {
	a, info := g.a, g.info
	id, ok := ast.Unparen(sw.Tag).(*ast.Ident)
	if sw.Tag == nil || !ok {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return nil
	}
	if b, isBasic := v.Type().Underlying().(*types.Basic); !isBasic || b.Info()&types.IsBoolean != 0 {
		return nil
	}
	line := strconv.Itoa(a.site(sw.Pos()).Line)
	var out []Step
	for _, st := range sw.Body.List {
		cc := st.(*ast.CaseClause)
		if len(cc.Body) == 0 {
			continue
		}
		w, desc := g.firstWrite(cc.Body[0].Pos(), cc.End())
		if w == nil {
			continue
		}
		clause := &ast.BlockStmt{List: cc.Body}
		var compared []*ast.IfStmt
		for _, ifs := range stateSets(info, body, v, cc.List) {
			if ifs.Pos() < sw.Pos() && a.compares(info, body, g.kind, ifs.Cond, clause, 0, nil) {
				compared = append(compared, ifs)
			}
		}
		if len(compared) == 0 {
			continue
		}
		for _, ifs := range compared {
			out = append(out, Step{Site: a.site(ifs.Pos()).Site, Step: StepCompare, Note: "compares and sets the state the switch at line " + line + " tests"})
		}
		out = append(out, a.applySteps(w, desc)...)
	}
	return out
}

// stateSets are the ifs whose branch (the innermost holding it) assigns
// the local v a constant equal to one of values.
func stateSets(info *types.Info, body *ast.BlockStmt, v *types.Var, values []ast.Expr) []*ast.IfStmt {
	parents := parentsIn(body)
	matches := func(rhs ast.Expr) bool {
		r := info.Types[ast.Unparen(rhs)].Value
		for _, e := range values {
			if c := info.Types[ast.Unparen(e)].Value; r != nil && c != nil && r.Kind() == c.Kind() && constant.Compare(r, token.EQL, c) {
				return true
			}
		}
		return false
	}
	var out []*ast.IfStmt
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) == v && matches(as.Rhs[i]) {
				if ifs := branchOf(parents, as); ifs != nil {
					out = append(out, ifs)
				}
			}
		}
		return true
	})
	return out
}
