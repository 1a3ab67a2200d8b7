// Package desugar rewrites, in place, the syntax of a tree's own packages
// into fewer forms that mean the same, keeping every position and all the
// type information the checker recorded, so that each reader of the syntax
// (the SSA builder and every locator) meets one form: a tagless switch
// (`switch { case c1: … default: … }`) becomes the if-else chain it means
// (`if c1 {…} else …`), and a test held in a bool variable only the next
// if reads (`ok := c; if ok {…}`) becomes that if's own test (`if c {…}`).
// A test written as a case, or named, is then read as the test an if
// holds: a comparison, a deletion branch, an early end.
package desugar

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// Files rewrites every tagless switch of the files that an if-else chain
// can stand for, and every test held in a variable for the if after it
// (heldTests), with the type information info recorded for the files. A
// switch keeps its form when a branch of it would mean something else in
// an if: a labelled switch, a case listing several tests, a fallthrough, a
// break that ends the switch, or a default clause that is not the last.
func Files(files []*ast.File, info *types.Info) {
	heldTests(files, info)
	for _, f := range files {
		astutil.Apply(f, nil, func(c *astutil.Cursor) bool {
			sw, ok := c.Node().(*ast.SwitchStmt)
			if !ok {
				return true
			}
			if _, labelled := c.Parent().(*ast.LabeledStmt); labelled {
				return true
			}
			if chain := ifChain(sw); chain != nil {
				c.Replace(chain)
			}
			return true
		})
	}
}

// ifChain is the if-else chain a tagless switch means, or nil when it
// means something an if cannot say. Each if starts at its case keyword
// (the first at the switch keyword when the switch has an init statement,
// which the first if takes), and each branch's block spans its clause's
// statements, from the colon, with no closing brace.
func ifChain(sw *ast.SwitchStmt) *ast.IfStmt {
	if sw.Tag != nil {
		return nil
	}
	clauses := sw.Body.List
	var head, last *ast.IfStmt
	for i, st := range clauses {
		cc := st.(*ast.CaseClause)
		if len(cc.List) > 1 || fallsThrough(cc) || BreaksOut(cc.Body) {
			return nil
		}
		if cc.List == nil {
			if i != len(clauses)-1 || last == nil {
				return nil
			}
			last.Else = block(cc)
			break
		}
		ifs := &ast.IfStmt{If: cc.Case, Cond: cc.List[0], Body: block(cc)}
		if head == nil {
			head = ifs
			if sw.Init != nil {
				head.If, head.Init = sw.Switch, sw.Init
			}
		} else {
			last.Else = ifs
		}
		last = ifs
	}
	return head
}

// block is the block a case clause's statements make: from its colon,
// with no closing brace (it ends where its last statement does, as
// ast.BlockStmt.End says of a block without one).
func block(cc *ast.CaseClause) *ast.BlockStmt {
	return &ast.BlockStmt{Lbrace: cc.Colon, List: cc.Body}
}

// fallsThrough says whether a clause ends in a fallthrough.
func fallsThrough(cc *ast.CaseClause) bool {
	if n := len(cc.Body); n > 0 {
		b, ok := cc.Body[n-1].(*ast.BranchStmt)
		return ok && b.Tok == token.FALLTHROUGH
	}
	return false
}

// BreaksOut says whether the statements hold an unlabelled break that is
// not inside a loop, switch or select of their own: one that ends the
// switch they stand in, and would end something else in an if.
func BreaksOut(list []ast.Stmt) bool {
	found := false
	for _, st := range list {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				return false
			case *ast.BranchStmt:
				if n.Tok == token.BREAK && n.Label == nil {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// heldTests rewrites `v := c` followed at once by `if v {…}`, where v is a
// bool variable nothing else reads or writes, into `if c {…}`: the if
// starts where the assignment did, c stands where v did, and the
// assignment is gone. v may be the test's first operand rather than all
// of it (if !v, if v && x, if !v || x): c is still evaluated first, where
// it was, with nothing between, so the if means what the two statements
// did. A variable read again later, one the test reads after another
// operand (if x && v: c would run only when x holds), an if with an init
// statement, or a variable holding a test of an error against nil
// (present := err == nil: a verdict the code names, read as such) keeps
// its form.
func heldTests(files []*ast.File, info *types.Info) {
	if info == nil {
		return
	}
	mentions := map[types.Object]int{}
	for _, obj := range info.Uses {
		mentions[obj]++
	}
	fold := func(list []ast.Stmt) []ast.Stmt {
		for i := 1; i < len(list); i++ {
			ifs, ok := list[i].(*ast.IfStmt)
			if !ok || ifs.Init != nil {
				continue
			}
			id, at := firstOperand(&ifs.Cond)
			if id == nil {
				continue
			}
			as, ok := list[i-1].(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				continue
			}
			lhs, ok := as.Lhs[0].(*ast.Ident)
			v, _ := info.Defs[lhs].(*types.Var)
			if !ok || v == nil || info.Uses[id] != v || mentions[v] != 1 {
				continue
			}
			if b, ok := v.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsBoolean == 0 {
				continue
			}
			if TestsError(info, as.Rhs[0]) {
				continue
			}
			ifs.If, *at = as.Pos(), as.Rhs[0]
			list = append(list[:i-1], list[i:]...)
			i--
		}
		return list
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BlockStmt:
				n.List = fold(n.List)
			case *ast.CaseClause:
				n.Body = fold(n.Body)
			case *ast.CommClause:
				n.Body = fold(n.Body)
			}
			return true
		})
	}
}

// firstOperand is the identifier a test evaluates first, when it is one
// (the test itself, or the first operand through !, parentheses and the
// left side of && and ||), with the place that holds it; nil otherwise.
func firstOperand(test *ast.Expr) (*ast.Ident, *ast.Expr) {
	for at := test; ; {
		switch e := (*at).(type) {
		case *ast.Ident:
			return e, at
		case *ast.ParenExpr:
			at = &e.X
		case *ast.UnaryExpr:
			if e.Op != token.NOT {
				return nil, nil
			}
			at = &e.X
		case *ast.BinaryExpr:
			if e.Op != token.LAND && e.Op != token.LOR {
				return nil, nil
			}
			at = &e.X
		default:
			return nil, nil
		}
	}
}

// TestsError reports whether an expression compares a value of type error.
func TestsError(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
			for _, side := range []ast.Expr{b.X, b.Y} {
				if t := info.TypeOf(side); t != nil && types.Identical(t, types.Universe.Lookup("error").Type()) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
