package metamorphic

import (
	"fmt"
	"go/ast"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/desugar"
)

// ifSwitch rewrites the innermost if chain around the line as a tagless
// switch: `if c1 {…} else if c2 {…} else {…}` becomes
// `switch { case c1: … case c2: … default: … }`, the if's init statement
// the switch's. A chain whose bodies break out of a loop around it keeps
// its if: in a switch the break would end the switch instead.
func ifSwitch(r *rewriter, t *target) (*change, []string, string) {
	head := innermostIf(t)
	if head == nil {
		return nil, nil, "no if holds the line"
	}
	f := t.f
	for ifs := head; ifs != nil; ifs, _ = ifs.Else.(*ast.IfStmt) {
		if !f.writtenIf(ifs) {
			return nil, nil, "the if chain is written as a switch"
		}
	}
	cond := f.text(head.Cond.Pos(), head.Cond.End())
	es := []edit{{f.off(head.If), f.off(head.Body.Lbrace) + 1, "switch {\ncase " + cond + ":"}}
	if head.Init != nil {
		es[0] = f.splitIfLine(head, "switch "+f.text(head.Init.Pos(), head.Init.End())+"; {", "case "+cond+":")
	}
	for ifs := head; ; {
		if desugar.BreaksOut(ifs.Body.List) {
			return nil, nil, "a branch breaks out of a loop around the if"
		}
		switch e := ifs.Else.(type) {
		case nil:
			return ch(f.rel, es), r.covered(f, f.off(head.Pos()), f.off(ifs.End())), ""
		case *ast.BlockStmt:
			if desugar.BreaksOut(e.List) {
				return nil, nil, "a branch breaks out of a loop around the if"
			}
			es = append(es, edit{f.off(ifs.Body.Rbrace), f.off(e.Lbrace) + 1, "default:"})
			return ch(f.rel, es), r.covered(f, f.off(head.Pos()), f.off(e.End())), ""
		case *ast.IfStmt:
			if e.Init != nil {
				return nil, nil, "an else if has an init statement"
			}
			es = append(es, edit{f.off(ifs.Body.Rbrace), f.off(e.Body.Lbrace) + 1, "case " + f.text(e.Cond.Pos(), e.Cond.End()) + ":"})
			ifs = e
		}
	}
}

// initSplit moves the init statement of the innermost if holding the line
// that has one to a statement of its own before the if: `if err :=
// f(); err != nil {` becomes `err := f()` and `if err != nil {`.
func initSplit(r *rewriter, t *target) (*change, []string, string) {
	head := innermostIfInList(t, func(ifs *ast.IfStmt) bool { return ifs.Init != nil })
	if head == nil {
		return nil, nil, "no if in a statement list with an init statement holds the line"
	}
	f := t.f
	if !f.writtenIf(head) {
		return nil, nil, "the if is written as a switch"
	}
	e := f.splitIfLine(head, f.text(head.Init.Pos(), head.Init.End()), "if "+f.text(head.Cond.Pos(), head.Cond.End())+" {")
	return ch(f.rel, []edit{e}), r.covered(f, f.off(head.Pos()), f.off(head.End())), ""
}

// splitIfLine is the edit that writes the line of an if, up to its opening
// brace, as two (first, then second: its init statement, then its test;
// or its first test, then its second). The line was one site: its want
// comments stay on the first line, and the second names the same keys in
// an also comment, so that either line is the site.
func (f *file) splitIfLine(ifs *ast.IfStmt, first, second string) edit {
	lbrace := f.off(ifs.Body.Lbrace) + 1
	end := f.afterComment(lbrace)
	tail, wants := stripWants(string(f.src[lbrace:end]))
	if len(wants) == 0 {
		return edit{f.off(ifs.If), lbrace, first + "\n" + second}
	}
	at := fmt.Sprintf("%s:%d", f.rel, f.line(ifs.If))
	also := alsoCommentOf(at, strings.Join(wants, " "), func(string) bool { return true })
	return edit{f.off(ifs.If), end, first + " " + strings.Join(wants, " ") + "\n" + second + also + tail}
}

// ch is a change made of edits to one file.
func ch(rel string, es []edit) *change {
	c := newChange()
	c.edits[rel] = es
	return c
}

// innermostIf is the head of the innermost if chain holding the target's
// statement (or on its line) within its function.
func innermostIf(t *target) *ast.IfStmt {
	n, i := innermostIfWhere(t, func(*ast.IfStmt) bool { return true })
	for j := i + 1; n != nil && j < len(t.path); j++ {
		up, ok := t.path[j].(*ast.IfStmt)
		if !ok || up.Else != ast.Stmt(n) {
			break
		}
		n = up
	}
	return n
}

// writtenIf says whether an if of the loaded syntax is written as one in
// the source: the loader reads a tagless switch as the if chain it means
// (package desugar), whose text a rewrite of an if cannot edit.
func (f *file) writtenIf(ifs *ast.IfStmt) bool {
	return strings.HasPrefix(string(f.src[f.off(ifs.If):]), "if") && f.src[f.off(ifs.Body.Lbrace)] == '{'
}
