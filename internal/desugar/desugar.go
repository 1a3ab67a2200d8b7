// Package desugar rewrites, in place, the syntax of a tree's own packages
// into fewer forms that mean the same, keeping every position and all the
// type information the checker recorded, so that each reader of the syntax
// (the SSA builder and every locator) meets one form: a tagless switch
// (`switch { case c1: … default: … }`) becomes the if-else chain it means
// (`if c1 {…} else …`). A test written as a case is then read as the test
// an if holds: a comparison, a deletion branch, an early end.
package desugar

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/ast/astutil"
)

// Files rewrites every tagless switch of the files that an if-else chain
// can stand for. A switch keeps its form when a branch of it would mean
// something else in an if: a labelled switch, a case listing several
// tests, a fallthrough, a break that ends the switch, or a default clause
// that is not the last.
func Files(files []*ast.File) {
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
