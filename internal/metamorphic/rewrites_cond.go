package metamorphic

import (
	"go/ast"
	"go/token"

	"github.com/ctrlcmp/ctrlcmp/internal/desugar"
)

// innermostIfWhere is the innermost if holding the target's statement (or
// on its line), within its function, that keep accepts, and its index in
// the target's path.
func innermostIfWhere(t *target, keep func(*ast.IfStmt) bool) (*ast.IfStmt, int) {
	for i, n := range t.path {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return nil, -1
		case *ast.IfStmt:
			if keep(n) {
				return n, i
			}
		}
	}
	return nil, -1
}

// innermostIfInList is innermostIfWhere's if when it stands in a statement
// list (a block, a case or a select clause), not as an else if; nil
// otherwise.
func innermostIfInList(t *target, keep func(*ast.IfStmt) bool) *ast.IfStmt {
	ifs, i := innermostIfWhere(t, keep)
	if ifs == nil || i+1 >= len(t.path) {
		return ifs
	}
	switch t.path[i+1].(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		return ifs
	}
	return nil // an else if
}

// splitAnd nests the second test of the innermost if holding the line whose
// test is a conjunction and that has no else: `if a && b {…}` becomes
// `if a { if b {…} }`. The line's want comments stay on the first test's
// line, and the second's names the same keys in an also comment.
func splitAnd(r *rewriter, t *target) (*change, []string, string) {
	f := t.f
	var and *ast.BinaryExpr
	ifs, _ := innermostIfWhere(t, func(ifs *ast.IfStmt) bool {
		and, _ = ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		return ifs.Else == nil && and != nil && and.Op == token.LAND && f.writtenIf(ifs)
	})
	if ifs == nil {
		return nil, nil, "no if without an else testing a conjunction holds the line"
	}
	first := "if "
	if ifs.Init != nil {
		first += f.text(ifs.Init.Pos(), ifs.Init.End()) + "; "
	}
	first += f.text(and.X.Pos(), and.X.End()) + " {"
	second := "if " + f.text(and.Y.Pos(), and.Y.End()) + " {"
	rb := f.off(ifs.Body.Rbrace) + 1
	c := ch(f.rel, []edit{f.splitIfLine(ifs, first, second), {rb, rb, "\n}"}})
	return c, r.covered(f, f.off(ifs.Pos()), f.off(ifs.End())), ""
}

// negateIf swaps the branches of the innermost if with a plain else
// holding the line and negates its test: `if c {A} else {B}` becomes
// `if !c {B} else {A}` (`a != b` becomes `a == b`, `!c` becomes `c`).
func negateIf(r *rewriter, t *target) (*change, []string, string) {
	f := t.f
	ifs, _ := innermostIfWhere(t, func(ifs *ast.IfStmt) bool {
		_, plain := ifs.Else.(*ast.BlockStmt)
		return plain && f.writtenIf(ifs)
	})
	if ifs == nil {
		return nil, nil, "no if with a plain else holds the line"
	}
	els := ifs.Else.(*ast.BlockStmt)
	thenLo, thenHi := f.afterComment(f.off(ifs.Body.Lbrace)+1), f.off(ifs.Body.Rbrace)
	elseLo, elseHi := f.afterComment(f.off(els.Lbrace)+1), f.off(els.Rbrace)
	c := ch(f.rel, []edit{
		{f.off(ifs.Cond.Pos()), f.off(ifs.Cond.End()), negation(f, ifs.Cond)},
		{thenLo, thenHi, string(f.src[elseLo:elseHi])},
		{elseLo, elseHi, string(f.src[thenLo:thenHi])},
	})
	return c, r.covered(f, f.off(ifs.Pos()), f.off(ifs.End())), ""
}

// negation is the text of the test that holds where cond does not.
func negation(f *file, cond ast.Expr) string {
	flip := map[token.Token]token.Token{token.EQL: token.NEQ, token.NEQ: token.EQL, token.LSS: token.GEQ, token.GEQ: token.LSS, token.GTR: token.LEQ, token.LEQ: token.GTR}
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return f.text(e.X.Pos(), e.X.End())
		}
	case *ast.BinaryExpr:
		if op, ok := flip[e.Op]; ok {
			return f.text(e.X.Pos(), e.X.End()) + " " + op.String() + " " + f.text(e.Y.Pos(), e.Y.End())
		}
	case *ast.Ident, *ast.CallExpr, *ast.SelectorExpr:
		return "!" + f.text(cond.Pos(), cond.End())
	}
	return "!(" + f.text(cond.Pos(), cond.End()) + ")"
}

// condLocal holds the test of the innermost if in a statement list that
// has no init statement in a bool variable the if then tests: `if c {…}`
// becomes `metaCondN := c` and `if metaCondN {…}`. A test of an error
// against nil is left alone: code names a verdict it computes
// (needsUpdate := !equality.Semantic.DeepEqual(…)), not a failure.
func condLocal(r *rewriter, t *target) (*change, []string, string) {
	f := t.f
	head := innermostIfInList(t, func(ifs *ast.IfStmt) bool { return ifs.Init == nil })
	if head == nil {
		return nil, nil, "no if in a statement list without an init statement holds the line"
	}
	if !f.writtenIf(head) {
		return nil, nil, "the if is written as a switch"
	}
	if desugar.TestsError(f.pkg.TypesInfo, head.Cond) {
		return nil, nil, "the if tests an error"
	}
	name := r.name("Cond")
	e := f.splitIfLine(head, name+" := "+f.text(head.Cond.Pos(), head.Cond.End()), "if "+name+" {")
	return ch(f.rel, []edit{e}), r.covered(f, f.off(head.Pos()), f.off(head.End())), ""
}
