package metamorphic

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/packages"

	"github.com/ctrlcmp/ctrlcmp/internal/wants"
)

// Rewrite is one meaning-preserving refactoring, applied to the statement
// (or declaration) on each want line it can rewrite.
type Rewrite struct {
	// Name is the matrix column.
	Name string
	// Doc says what the rewrite does.
	Doc   string
	apply func(r *rewriter, t *target) (*change, []string, string)
}

// Rewrites are the refactorings of the matrix, in its column order.
var Rewrites = []Rewrite{
	{"extract-branch", "the if or else branch holding the line (or the branch of the if on it) becomes a helper the branch returns through", extractBranch},
	{"tuple", "the line's value is returned by a helper as the second value of a tuple, unpacked into a variable the statement uses", tuple},
	{"options", "the line's value passes through a field of an options struct that a helper reads", options},
	{"slice-range", "the line's call or assignment moves into a helper that ranges over a slice holding its value", sliceRange},
	{"closure-call", "the line's first call is wrapped in a function literal called at once", closureCall},
	{"closure-assign", "the line's first call is wrapped in a function literal assigned to a variable, called where the call was", closureAssign},
	{"closure-defer", "the line's call, just before a return of constant values, is deferred in a function literal", closureDefer},
	{"move-package", "the function holding the line moves to another package of the module (a method's receiver fields become parameters)", movePackage},
	{"interface", "the line's method call goes through a one-method interface", viaInterface},
	{"generic", "the line's call goes through a generic identity function of the callee", viaGeneric},
	{"named-results", "the function holding the line gets named results, each return assigning them and returning bare", namedResults},
	{"delegate-early", "the function's first `if err != nil {…}` becomes `if err == nil { return rest(…) } else {…}`, the rest of the body a helper", delegateEarly},
}

// rewriter applies rewrites to one fixture, naming the helpers it adds.
type rewriter struct {
	fx *Fixture
	n  int
	// moved are the functions moved to another package by the rewrites
	// kept so far, pending the one being tried.
	moved, pending []*ast.FuncDecl
}

// keep records that the rewrite just tried is kept.
func (r *rewriter) keep() {
	r.moved = append(r.moved, r.pending...)
	r.pending = nil
}

// movedAt says whether pos lies in a function already moved.
func (r *rewriter) movedAt(pos token.Pos) bool {
	for _, fd := range r.moved {
		if fd.Pos() <= pos && pos < fd.End() {
			return true
		}
	}
	return false
}

func (r *rewriter) name(prefix string) string {
	r.n++
	return fmt.Sprintf("meta%s%d", prefix, r.n)
}

// covered lists the want lines of f whose line starts between the start
// of the line holding offset lo and offset hi.
func (r *rewriter) covered(f *file, lo, hi int) []string {
	first := f.tok.Line(f.tok.Pos(lo))
	var out []string
	for l := range r.fx.targets[f.rel] {
		if l >= first && f.off(f.tok.LineStart(l)) <= hi {
			out = append(out, fmt.Sprintf("%s:%d", f.rel, l))
		}
	}
	sort.Strings(out)
	return out
}

// enclosing is the innermost function (declaration or literal) around the
// target, and its type.
func enclosing(t *target) (ast.Node, *ast.FuncType) {
	for _, n := range t.path {
		switch n := n.(type) {
		case *ast.FuncLit:
			return n, n.Type
		case *ast.FuncDecl:
			return n, n.Type
		}
	}
	return nil, nil
}

func generic(fn ast.Node) bool {
	fd, ok := fn.(*ast.FuncDecl)
	if !ok {
		return false
	}
	if fd.Type.TypeParams != nil && len(fd.Type.TypeParams.List) > 0 {
		return true
	}
	if fd.Recv != nil && len(fd.Recv.List) > 0 {
		switch fd.Recv.List[0].Type.(type) {
		case *ast.IndexExpr, *ast.IndexListExpr:
			return true
		case *ast.StarExpr:
			switch fd.Recv.List[0].Type.(*ast.StarExpr).X.(type) {
			case *ast.IndexExpr, *ast.IndexListExpr:
				return true
			}
		}
	}
	return false
}

// helper writes a function from statements of fn: the parameters they
// read, and the edits writing the uses of those passed by address.
func (r *rewriter) helper(t *target, fn ast.Node, ft *ast.FuncType, name string, stmts []ast.Stmt, byValue bool) (decl, args string, why string) {
	f := t.f
	nodes := make([]ast.Node, len(stmts))
	for i, s := range stmts {
		nodes[i] = s
	}
	if why := leaves(nodes); why != "" {
		return "", "", why
	}
	results, _ := f.resultText(ft)
	if results != "" && bareReturn(nodes) {
		return "", "", "it returns bare, through named results"
	}
	ps, why := f.freeVars(fn, nodes, nil, byValue)
	if why != "" {
		return "", "", why
	}
	if f.usesResults(ft, ps) {
		return "", "", "it uses a named result"
	}
	params, args := signature(ps)
	lo, hi := f.off(stmts[0].Pos()), f.stmtEnd(stmts[len(stmts)-1])
	body := f.splice(lo, hi, f.useEdits(ps))
	return fmt.Sprintf("func %s(%s) %s {\n%s\n}", name, params, results, body), args, ""
}

// call returns the call of a helper: its value returned when the function
// has results, else the call and a bare return.
func call(ft *ast.FuncType, name, args string) string {
	if ft.Results != nil && len(ft.Results.List) > 0 {
		return fmt.Sprintf("return %s(%s)", name, args)
	}
	return fmt.Sprintf("%s(%s)\nreturn", name, args)
}

func extractBranch(r *rewriter, t *target) (*change, []string, string) {
	fn, ft := enclosing(t)
	if t.stmt == nil || fn == nil {
		return nil, nil, "not a statement in a function"
	}
	if generic(fn) {
		return nil, nil, "a generic function"
	}
	var blocks []*ast.BlockStmt
	if ifs, ok := t.stmt.(*ast.IfStmt); ok {
		blocks = append(blocks, ifs.Body)
	}
	for i, n := range t.path {
		if n == fn {
			break
		}
		if b, ok := n.(*ast.BlockStmt); ok && i+1 < len(t.path) {
			if ifs, ok := t.path[i+1].(*ast.IfStmt); ok && (ifs.Body == b || ifs.Else == b) {
				blocks = append(blocks, b)
			}
		}
	}
	why := "no if or else branch holds it"
	for _, b := range blocks {
		if !terminates(b.List) {
			why = "its branch does not end in a return"
			continue
		}
		name := r.name("Branch")
		decl, args, w := r.helper(t, fn, ft, name, b.List, false)
		if w != "" {
			why = w
			continue
		}
		c := newChange()
		lo, hi := t.f.afterComment(t.f.off(b.Lbrace)+1), t.f.off(b.Rbrace)
		c.edits[t.f.rel] = []edit{{lo, hi, "\n" + call(ft, name, args) + "\n"}}
		c.appends[t.f.rel] = []string{decl}
		return c, append(r.covered(t.f, lo, hi), t.at), ""
	}
	return nil, nil, why
}

// valueExpr is the value a line's statement is about: its first composite
// literal starting on the line, else a return's first result that is not
// an error or nil, the value assigned, or a call's last plain argument.
func valueExpr(t *target) ast.Expr {
	if t.stmt == nil {
		return nil
	}
	info := t.f.pkg.TypesInfo
	var lit ast.Expr
	ast.Inspect(t.stmt, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.BlockStmt:
			return false
		case *ast.CompositeLit:
			if lit == nil && t.f.line(n.Pos()) == t.line && n.Type != nil {
				lit = n
			}
		}
		return lit == nil
	})
	if lit != nil {
		return lit
	}
	plain := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		if !ok || tv.IsNil() || tv.Type == nil || types.Identical(tv.Type, types.Universe.Lookup("error").Type()) {
			return false
		}
		_, tuple := tv.Type.(*types.Tuple)
		return !tuple
	}
	switch s := t.stmt.(type) {
	case *ast.ReturnStmt:
		for _, e := range s.Results {
			if plain(e) {
				return e
			}
		}
	case *ast.AssignStmt:
		if s.Tok == token.ASSIGN && len(s.Lhs) == 1 && len(s.Rhs) == 1 && plain(s.Rhs[0]) {
			return s.Rhs[0]
		}
	case *ast.ExprStmt:
		if c, ok := s.X.(*ast.CallExpr); ok {
			for i := len(c.Args) - 1; i >= 0; i-- {
				switch c.Args[i].(type) {
				case *ast.Ident, *ast.SelectorExpr, *ast.BasicLit:
					if plain(c.Args[i]) {
						return c.Args[i]
					}
				}
			}
		}
	}
	return nil
}

// firstCall is the first call starting on the line, outside function
// literals, that keep accepts.
func firstCall(t *target, keep func(*ast.CallExpr) bool) *ast.CallExpr {
	if t.stmt == nil {
		return nil
	}
	var found *ast.CallExpr
	ast.Inspect(t.stmt, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.BlockStmt:
			return false
		case *ast.CallExpr:
			if found == nil && t.f.line(n.Pos()) == t.line && keep(n) {
				found = n
			}
		}
		return found == nil
	})
	return found
}

// inBlock says whether the target's statement stands in a statement list
// (so that a statement can go before it).
func inBlock(t *target) bool {
	if len(t.path) < 2 {
		return false
	}
	switch t.path[1].(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		return true
	}
	return false
}

// hoistable says why e cannot be evaluated just before the target's
// statement, or "".
func hoistable(t *target, e ast.Expr) string {
	switch t.stmt.(type) {
	case *ast.ReturnStmt, *ast.ExprStmt, *ast.AssignStmt, *ast.IfStmt:
	default:
		return "its statement is not a return, call, assignment or if"
	}
	if !inBlock(t) {
		return "its statement is not in a block"
	}
	if ifs, ok := t.stmt.(*ast.IfStmt); ok && e.Pos() >= ifs.Body.Pos() {
		return "the value is inside the if's body"
	}
	var why string
	ast.Inspect(t.stmt, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.LAND || b.Op == token.LOR) && e.Pos() >= b.Y.Pos() && e.End() <= b.Y.End() {
			why = "the value is evaluated only on a condition"
		}
		return why == ""
	})
	if why != "" {
		return why
	}
	info := t.f.pkg.TypesInfo
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && v.Pos() >= t.stmt.Pos() && v.Pos() < t.stmt.End() && (v.Pos() < e.Pos() || v.Pos() >= e.End()) {
				why = id.Name + " is declared by the statement itself"
			}
		}
		return why == ""
	})
	return why
}

// replaceIn returns the target statement's text with e replaced by repl,
// the want comments inside e kept on repl's line, and e's text stripped of
// them.
func replaceIn(t *target, e ast.Node, repl string) (stmt, expr string) {
	f := t.f
	lo, hi := f.off(t.stmt.Pos()), f.stmtEnd(t.stmt)
	pre := string(f.src[lo:f.off(e.Pos())])
	post := string(f.src[f.off(e.End()):hi])
	expr, comments := stripWants(f.text(e.Pos(), e.End()))
	return keepWants(pre+repl+post, len(pre), comments), expr
}

func tuple(r *rewriter, t *target) (*change, []string, string) {
	fn, _ := enclosing(t)
	e := valueExpr(t)
	if e == nil || fn == nil {
		return nil, nil, "no value on the line"
	}
	if why := hoistable(t, e); why != "" {
		return nil, nil, why
	}
	typ, ok := t.f.typeText(t.f.pkg.TypesInfo.TypeOf(e))
	if !ok {
		return nil, nil, "the value's type cannot be named in its file"
	}
	ps, why := t.f.freeVars(fn, []ast.Node{e}, nil, false)
	if why != "" {
		return nil, nil, why
	}
	params, args := signature(ps)
	name, v := r.name("Tuple"), r.name("V")
	stmt, _ := replaceIn(t, e, v)
	lo, hi := t.f.off(e.Pos()), t.f.off(e.End())
	expr, _ := stripWants(t.f.splice(lo, hi, t.f.useEdits(ps)))
	c := newChange()
	c.edits[t.f.rel] = []edit{{t.f.off(t.stmt.Pos()), t.f.stmtEnd(t.stmt), fmt.Sprintf("_, %s := %s(%s)\n%s", v, name, args, stmt)}}
	c.appends[t.f.rel] = []string{fmt.Sprintf("func %s(%s) (bool, %s) {\nreturn true, %s\n}", name, params, typ, expr)}
	return c, []string{t.at}, ""
}

func options(r *rewriter, t *target) (*change, []string, string) {
	e := valueExpr(t)
	if e == nil {
		return nil, nil, "no value on the line"
	}
	typ, ok := t.f.typeText(t.f.pkg.TypesInfo.TypeOf(e))
	if !ok {
		return nil, nil, "the value's type cannot be named in its file"
	}
	opts, use := r.name("Options"), r.name("Use")
	c := newChange()
	c.edits[t.f.rel] = []edit{{t.f.off(e.Pos()), t.f.off(e.Pos()), fmt.Sprintf("%s(%s{V: ", use, opts)}, {t.f.off(e.End()), t.f.off(e.End()), "})"}}
	c.appends[t.f.rel] = []string{fmt.Sprintf("type %s struct {\nV %s\n}\n\nfunc %s(o %s) %s {\nreturn o.V\n}", opts, typ, use, opts, typ)}
	return c, []string{t.at}, ""
}

func sliceRange(r *rewriter, t *target) (*change, []string, string) {
	fn, _ := enclosing(t)
	e := valueExpr(t)
	if e == nil || fn == nil {
		return nil, nil, "no value on the line"
	}
	switch s := t.stmt.(type) {
	case *ast.ExprStmt:
	case *ast.AssignStmt:
		if s.Tok != token.ASSIGN {
			return nil, nil, "the assignment declares"
		}
	default:
		return nil, nil, "not a call or an assignment"
	}
	if !inBlock(t) {
		return nil, nil, "its statement is not in a block"
	}
	typ, ok := t.f.typeText(t.f.pkg.TypesInfo.TypeOf(e))
	if !ok {
		return nil, nil, "the value's type cannot be named in its file"
	}
	ps, why := t.f.freeVars(fn, []ast.Node{t.stmt}, e, false)
	if why != "" {
		return nil, nil, why
	}
	params, args := signature(ps)
	if params != "" {
		params, args = ", "+params, ", "+args
	}
	name, it := r.name("Each"), r.name("It")
	lo, hi := t.f.off(t.stmt.Pos()), t.f.stmtEnd(t.stmt)
	es := append(t.f.useEdits(ps), edit{t.f.off(e.Pos()), t.f.off(e.End()), it})
	body := t.f.splice(lo, hi, es)
	expr, comments := stripWants(t.f.text(e.Pos(), e.End()))
	body = keepWants(body, strings.Index(body, it), comments)
	c := newChange()
	// The value stays at the call, which is the line's site too (a
	// condition's set site is where its type is given).
	c.edits[t.f.rel] = []edit{{lo, hi, withAlso(fmt.Sprintf("%s([]%s{%s}%s)", name, typ, expr, args), t)}}
	c.appends[t.f.rel] = []string{fmt.Sprintf("func %s(items []%s%s) {\nfor _, %s := range items {\n%s\n}\n}", name, typ, params, it, body)}
	return c, []string{t.at}, ""
}

// alsoMark begins a comment naming the keys of a want line whose site
// the rewrite also put on the comment's line: either line is the site.
const alsoMark = "// also "

// alsoComment is the also comment for the want keys of the target's line,
// or "".
func alsoComment(t *target) string {
	start := t.f.off(t.f.tok.LineStart(t.line))
	var keys []string
	for _, w := range wants.Line(t.at, string(t.f.src[start:t.f.eol(start)])) {
		if w.None {
			continue
		}
		k := w.Key
		if w.Ctrl != "" {
			k = w.Ctrl + "/" + k
		}
		keys = append(keys, strconv.Quote(k))
	}
	if len(keys) == 0 {
		return ""
	}
	return " " + alsoMark + strings.Join(keys, " ")
}

// withAlso puts the also comment of the target's keys at the end of the
// first line of text (the line a site on it is cited at), unless text
// holds a comment already.
func withAlso(text string, t *target) string {
	also := alsoComment(t)
	if also == "" || strings.Contains(text, "//") {
		return text
	}
	return keepWants(text, 0, []string{strings.TrimSpace(also)})
}

// closure is a function literal returning the value of call.
func closure(t *target, c *ast.CallExpr, text string) (string, string) {
	if strings.Contains(text, "//") {
		text += "\n" // a line comment ends the literal's line
	}
	tv := t.f.pkg.TypesInfo.TypeOf(c)
	if tup, ok := tv.(*types.Tuple); ok {
		if tup.Len() == 0 {
			return "func() { " + text + " }", ""
		}
		var parts []string
		for v := range tup.Variables() {
			s, ok := t.f.typeText(v.Type())
			if !ok {
				return "", "a result's type cannot be named in its file"
			}
			parts = append(parts, s)
		}
		return fmt.Sprintf("func() (%s) { return %s }", strings.Join(parts, ", "), text), ""
	}
	s, ok := t.f.typeText(tv)
	if !ok {
		return "", "the result's type cannot be named in its file"
	}
	return fmt.Sprintf("func() %s { return %s }", s, text), ""
}

// notDeferred accepts a call that is not the call of a defer or go
// statement (whose arguments are evaluated where they stand).
func notDeferred(t *target) func(*ast.CallExpr) bool {
	return func(c *ast.CallExpr) bool {
		switch s := t.stmt.(type) {
		case *ast.DeferStmt:
			return s.Call != c
		case *ast.GoStmt:
			return s.Call != c
		}
		return true
	}
}

func closureCall(_ *rewriter, t *target) (*change, []string, string) {
	c := firstCall(t, notDeferred(t))
	if c == nil {
		return nil, nil, "no call on the line"
	}
	lit, why := closure(t, c, t.f.text(c.Pos(), c.End()))
	if why != "" {
		return nil, nil, why
	}
	ch := newChange()
	ch.edits[t.f.rel] = []edit{{t.f.off(c.Pos()), t.f.off(c.End()), lit + "()"}}
	return ch, []string{t.at}, ""
}

func closureAssign(r *rewriter, t *target) (*change, []string, string) {
	c := firstCall(t, notDeferred(t))
	if c == nil {
		return nil, nil, "no call on the line"
	}
	if !inBlock(t) {
		return nil, nil, "its statement is not in a block"
	}
	name := r.name("Fn")
	stmt, text := replaceIn(t, c, name+"()")
	lit, why := closure(t, c, text)
	if why != "" {
		return nil, nil, why
	}
	// The call now stands in the literal: its line is the line's site
	// too.
	also := withAlso(name+" := "+lit, t)
	ch := newChange()
	ch.edits[t.f.rel] = []edit{{t.f.off(t.stmt.Pos()), t.f.stmtEnd(t.stmt), fmt.Sprintf("%s\n%s", also, stmt)}}
	return ch, []string{t.at}, ""
}

func closureDefer(_ *rewriter, t *target) (*change, []string, string) {
	s, ok := t.stmt.(*ast.ExprStmt)
	if !ok {
		return nil, nil, "not a call statement"
	}
	fn, _ := enclosing(t)
	fd, ok := fn.(*ast.FuncDecl)
	if !ok || len(t.path) < 2 || t.path[1] != fd.Body {
		return nil, nil, "not in a function's outermost block"
	}
	list := fd.Body.List
	i := 0
	for i < len(list) && list[i] != ast.Stmt(s) {
		i++
	}
	if i+2 != len(list) {
		return nil, nil, "not just before the function's last statement"
	}
	ret, ok := list[i+1].(*ast.ReturnStmt)
	if !ok {
		return nil, nil, "not followed by a return"
	}
	info := t.f.pkg.TypesInfo
	why := ""
	for _, e := range ret.Results {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if tv, ok := info.Types[n.Fun]; !ok || !tv.IsType() {
					why = "the return calls a function"
				}
			case *ast.Ident:
				if v, ok := info.Uses[n].(*types.Var); ok && !v.IsField() && v.Pos() >= fd.Pos() && v.Pos() < fd.End() {
					why = "the return reads a variable"
				}
			}
			return why == ""
		})
	}
	if why != "" {
		return nil, nil, why
	}
	if fd.Type.Results != nil {
		for _, fl := range fd.Type.Results.List {
			if len(fl.Names) > 0 {
				return nil, nil, "the function has named results"
			}
		}
	}
	ch := newChange()
	end := t.f.stmtEnd(s)
	ch.edits[t.f.rel] = []edit{{t.f.off(s.Pos()), end, "defer func() { " + string(t.f.src[t.f.off(s.Pos()):end]) + "\n}()"}}
	return ch, []string{t.at}, ""
}

func viaInterface(r *rewriter, t *target) (*change, []string, string) {
	info := t.f.pkg.TypesInfo
	c := firstCall(t, func(c *ast.CallExpr) bool {
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		s := info.Selections[sel]
		return s != nil && s.Kind() == types.MethodVal && (s.Obj().Exported() || s.Obj().Pkg() == t.f.pkg.Types)
	})
	if c == nil {
		return nil, nil, "no method call on the line"
	}
	sel := c.Fun.(*ast.SelectorExpr)
	s := info.Selections[sel]
	sig, ok := t.f.typeText(s.Type())
	if !ok {
		return nil, nil, "the method's signature cannot be named in its file"
	}
	recv := "(" + t.f.text(sel.X.Pos(), sel.X.End()) + ")"
	if types.NewMethodSet(info.TypeOf(sel.X)).Lookup(s.Obj().Pkg(), s.Obj().Name()) == nil {
		if !info.Types[sel.X].Addressable() {
			return nil, nil, "the method needs a pointer the receiver cannot give"
		}
		recv = "(&" + recv + ")"
	}
	name := r.name("Iface")
	ch := newChange()
	ch.edits[t.f.rel] = []edit{{t.f.off(sel.Pos()), t.f.off(sel.End()), fmt.Sprintf("%s%s.%s", name, recv, sel.Sel.Name)}}
	ch.appends[t.f.rel] = []string{fmt.Sprintf("type %s interface {\n%s%s\n}", name, sel.Sel.Name, strings.TrimPrefix(sig, "func"))}
	return ch, []string{t.at}, ""
}

func viaGeneric(r *rewriter, t *target) (*change, []string, string) {
	info := t.f.pkg.TypesInfo
	c := firstCall(t, func(c *ast.CallExpr) bool {
		tv, ok := info.Types[c.Fun]
		if !ok || tv.IsType() || tv.IsBuiltin() {
			return false
		}
		if _, ok := tv.Type.(*types.Signature); !ok {
			return false
		}
		fun := c.Fun
		if sel, ok := fun.(*ast.SelectorExpr); ok {
			fun = sel.Sel
		}
		if id, ok := fun.(*ast.Ident); ok {
			if _, inst := info.Instances[id]; inst {
				return false
			}
		}
		return true
	})
	if c == nil {
		return nil, nil, "no call of a function value on the line"
	}
	name := r.name("Via")
	ch := newChange()
	ch.edits[t.f.rel] = []edit{{t.f.off(c.Fun.Pos()), t.f.off(c.Fun.Pos()), name + "("}, {t.f.off(c.Fun.End()), t.f.off(c.Fun.End()), ")"}}
	ch.appends[t.f.rel] = []string{fmt.Sprintf("func %s[F any](f F) F {\nreturn f\n}", name)}
	return ch, []string{t.at}, ""
}

func namedResults(_ *rewriter, t *target) (*change, []string, string) {
	fd := t.fn
	if fd == nil || fd.Body == nil || fd.Type.Results == nil || len(fd.Type.Results.List) == 0 {
		return nil, nil, "not in a function with results"
	}
	f := t.f
	var rets []*ast.ReturnStmt
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) > 0 {
				rets = append(rets, n)
			}
		}
		return true
	})
	if len(rets) == 0 {
		return nil, nil, "the function returns bare already"
	}
	var names []string
	var es []edit
	_, named := f.resultText(fd.Type)
	if named {
		for _, fl := range fd.Type.Results.List {
			for _, n := range fl.Names {
				if n.Name == "_" {
					return nil, nil, "a result is named _"
				}
				names = append(names, n.Name)
			}
		}
		shadow := ""
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && f.pkg.TypesInfo.Defs[id] != nil {
				for _, name := range names {
					if id.Name == name {
						shadow = name
					}
				}
			}
			return shadow == ""
		})
		if shadow != "" {
			return nil, nil, "the body declares another " + shadow
		}
	} else {
		var parts []string
		for _, fl := range fd.Type.Results.List {
			name := fmt.Sprintf("metaR%d", len(names))
			names = append(names, name)
			parts = append(parts, name+" "+f.text(fl.Type.Pos(), fl.Type.End()))
		}
		es = append(es, edit{f.off(fd.Type.Results.Pos()), f.off(fd.Type.Results.End()), "(" + strings.Join(parts, ", ") + ")"})
	}
	covered := []string{fmt.Sprintf("%s:%d", f.rel, f.line(fd.Pos()))}
	for _, ret := range rets {
		es = append(es, edit{f.off(ret.Pos()), f.off(ret.Pos()) + len("return"), strings.Join(names, ", ") + " ="})
		if end := f.stmtEnd(ret); end != f.off(ret.End()) {
			es = append(es, edit{end, end, "\nreturn"})
		} else {
			es = append(es, edit{end, end, "; return"})
		}
		covered = append(covered, fmt.Sprintf("%s:%d", f.rel, f.line(ret.Pos())))
	}
	ch := newChange()
	ch.edits[f.rel] = es
	return ch, covered, ""
}

func delegateEarly(r *rewriter, t *target) (*change, []string, string) {
	fd := t.fn
	if fd == nil || fd.Body == nil || generic(fd) {
		return nil, nil, "not in a non-generic function"
	}
	f := t.f
	info := f.pkg.TypesInfo
	deferred := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.DeferStmt); ok {
			deferred = true
		}
		_, lit := n.(*ast.FuncLit)
		return !lit && !deferred
	})
	if deferred {
		return nil, nil, "the function defers a call"
	}
	list := fd.Body.List
	for i, s := range list {
		ifs, ok := s.(*ast.IfStmt)
		if !ok || ifs.Else != nil || i+1 == len(list) {
			continue
		}
		b, ok := ifs.Cond.(*ast.BinaryExpr)
		if !ok || b.Op != token.NEQ {
			continue
		}
		x, ok := b.X.(*ast.Ident)
		if !ok || !info.Types[b.Y].IsNil() || !types.Identical(info.TypeOf(x), types.Universe.Lookup("error").Type()) {
			continue
		}
		if !terminates(ifs.Body.List) || !terminates(list[i+1:]) {
			continue
		}
		name := r.name("Rest")
		decl, args, why := r.helper(t, fd, fd.Type, name, list[i+1:], true)
		if why != "" {
			return nil, nil, "the rest of the body: " + why
		}
		ch := newChange()
		// The want comments on the if's line stay there.
		lbrace := f.off(ifs.Body.Lbrace) + 1
		first, comments := stripWants(string(f.src[lbrace:f.afterComment(lbrace)]))
		rest := string(f.src[f.afterComment(lbrace):f.off(ifs.Body.End())])
		ch.edits[f.rel] = []edit{
			{f.off(b.Pos()), f.off(b.End()), x.Name + " == nil"},
			{f.off(ifs.Body.Pos()), f.off(fd.Body.Rbrace), "{ " + strings.Join(comments, " ") + "\n" + call(fd.Type, name, args) + "\n} else {" + first + rest + "\n"},
		}
		ch.appends[f.rel] = []string{decl}
		covered := append(r.covered(f, f.off(ifs.Pos()), f.off(fd.Body.Rbrace)), fmt.Sprintf("%s:%d", f.rel, f.line(fd.Pos())))
		return ch, covered, ""
	}
	return nil, nil, "no `if err != nil` ending in a return, with statements after it, in the function's outermost block"
}

// movedPackage is the package move-package moves functions to.
const movedPackage = "metamoved"

func movePackage(r *rewriter, t *target) (*change, []string, string) {
	fd := t.fn
	if fd == nil || fd.Body == nil {
		return nil, nil, "not in a function"
	}
	f := t.f
	info := f.pkg.TypesInfo
	obj, _ := info.Defs[fd.Name].(*types.Func)
	if obj == nil {
		return nil, nil, "the function has no type"
	}
	if fd.Recv == nil && (fd.Name.Name == "init" || fd.Name.Name == "main" && f.pkg.Name == "main") {
		return nil, nil, "the program needs " + fd.Name.Name + " where it is"
	}
	// The receiver's uses must each select a field (or what a field
	// promotes), which becomes a parameter.
	var recv *types.Var
	if fd.Recv != nil && len(fd.Recv.List) > 0 && len(fd.Recv.List[0].Names) > 0 {
		recv, _ = info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	}
	type fieldParam struct{ name, field, typ string }
	var fields []*fieldParam
	byField := map[string]*fieldParam{}
	paths := map[string]string{} // import path -> name, for the new file
	missing := false
	qual := f.qualifier(&missing)
	record := func(p *types.Package) string {
		n := qual(p)
		if n != "" {
			paths[p.Path()] = n
		}
		return n
	}
	var es []edit
	why := ""
	selOf := map[*ast.Ident]*ast.SelectorExpr{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				selOf[id] = s
			}
		}
		return true
	})
	ast.Inspect(fd, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		if n == fd.Recv || n == fd.Name || n == fd.Doc {
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		switch o := info.Uses[id].(type) {
		case *types.PkgName:
			paths[o.Imported().Path()] = o.Name()
		case *types.Var:
			if recv != nil && o == recv {
				s := selOf[id]
				if s == nil {
					why = "the receiver is used other than to select a field"
					return false
				}
				sel := info.Selections[s]
				st, ok := derefStruct(recv.Type())
				if sel == nil || !ok || len(sel.Index()) == 0 || sel.Index()[0] >= st.NumFields() || len(sel.Index()) == 1 && sel.Kind() != types.FieldVal {
					why = "the receiver's own method " + s.Sel.Name + " is called"
					return false
				}
				fv := st.Field(sel.Index()[0])
				p := byField[fv.Name()]
				if p == nil {
					typ := types.TypeString(fv.Type(), func(p *types.Package) string { return record(p) })
					p = &fieldParam{name: "meta" + upper(fv.Name()), field: fv.Name(), typ: typ}
					byField[fv.Name()] = p
					fields = append(fields, p)
				}
				text := p.name
				if len(sel.Index()) > 1 {
					text += "." + s.Sel.Name
				}
				es = append(es, edit{f.off(s.Pos()), f.off(s.End()), text})
				return false
			}
			if o.Pkg() == f.pkg.Types && o.Parent() == f.pkg.Types.Scope() {
				why = "it uses " + o.Name() + " of its package"
			}
		case types.Object:
			if o.Pkg() == f.pkg.Types && o.Parent() == f.pkg.Types.Scope() {
				why = "it uses " + o.Name() + " of its package"
			}
		}
		return true
	})
	if why != "" {
		return nil, nil, why
	}
	if missing {
		return nil, nil, "a receiver field's type cannot be named in its file"
	}
	for path := range paths {
		if p := ownPackage(r.fx, path); p != nil && importsPath(p, f.pkg.PkgPath, map[string]bool{}) {
			return nil, nil, "it uses " + path + ", which imports the function's package"
		}
	}
	// Every use of the function must be a call, through the receiver's
	// variable for a method.
	ch := newChange()
	exported := "Meta" + upper(fd.Name.Name)
	qualified := movedPackage + "." + exported
	for _, of := range r.fx.files {
		if of.pkg != f.pkg {
			continue
		}
		var uses []*ast.Ident
		calls := map[*ast.Ident]*ast.CallExpr{}
		ast.Inspect(of.ast, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if of.pkg.TypesInfo.Uses[n] == obj {
					uses = append(uses, n)
				}
			case *ast.CallExpr:
				switch fun := n.Fun.(type) {
				case *ast.Ident:
					calls[fun] = n
				case *ast.SelectorExpr:
					if _, ok := fun.X.(*ast.Ident); ok {
						calls[fun.Sel] = n
					}
				}
			}
			return true
		})
		for _, u := range uses {
			c := calls[u]
			if c == nil {
				return nil, nil, "the function is used other than called"
			}
			if c.Pos() >= fd.Pos() && c.End() <= fd.End() {
				return nil, nil, "the function calls itself"
			}
			var args []string
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
				x := of.text(sel.X.Pos(), sel.X.End())
				for _, p := range fields {
					args = append(args, x+"."+p.field)
				}
			}
			text := qualified + "(" + strings.Join(args, ", ")
			if len(args) > 0 && len(c.Args) > 0 {
				text += ", "
			}
			ch.edits[of.rel] = append(ch.edits[of.rel], edit{of.off(c.Fun.Pos()), of.off(c.Lparen) + 1, text})
		}
		if len(uses) > 0 {
			ch.imports(of.rel, movedPackage+` "`+r.fx.Module+"/"+movedPackage+`"`)
		}
	}
	// The new file.
	var params []string
	for _, p := range fields {
		params = append(params, p.name+" "+p.typ)
	}
	if orig := strings.TrimSpace(f.text(fd.Type.Params.Opening+1, fd.Type.Params.Closing)); orig != "" {
		params = append(params, orig)
	}
	results := ""
	if fd.Type.Results != nil {
		results = f.text(fd.Type.Results.Pos(), fd.Type.Results.End())
	}
	tparams := ""
	if fd.Type.TypeParams != nil {
		tparams = f.text(fd.Type.TypeParams.Pos(), fd.Type.TypeParams.End())
	}
	body := f.splice(f.off(fd.Body.Pos()), f.stmtEnd(fd), es)
	var imports []string
	for path, name := range paths {
		imports = append(imports, fmt.Sprintf("%s %q", name, path))
	}
	sort.Strings(imports)
	src := fmt.Sprintf("// Package %s holds functions the metamorphic tests moved here.\npackage %s\n\nimport (\n%s\n)\n\n// %s was moved here.\nfunc %s%s(%s) %s %s\n",
		movedPackage, movedPackage, strings.Join(imports, "\n"), exported, exported, tparams, strings.Join(params, ", "), results, body)
	ch.created[movedPackage+"/"+strings.ToLower(fd.Name.Name)+".go"] = src
	// The function leaves its file, and the imports only it used.
	start := fd.Pos()
	if fd.Doc != nil {
		start = fd.Doc.Pos()
	}
	ch.edits[f.rel] = append(ch.edits[f.rel], edit{f.off(start), f.stmtEnd(fd), ""})
	for _, spec := range f.ast.Imports {
		pn := info.PkgNameOf(spec)
		if pn == nil || pn.Name() == "_" {
			continue
		}
		used := false
		for id, o := range info.Uses {
			if o == pn && (id.Pos() < fd.Pos() || id.Pos() >= fd.End()) && !r.movedAt(id.Pos()) {
				used = true
				break
			}
		}
		if !used {
			from, to := spec.Pos(), spec.End()
			for _, d := range f.ast.Decls {
				if g, ok := d.(*ast.GenDecl); ok && !g.Lparen.IsValid() && g.Pos() <= spec.Pos() && spec.End() <= g.End() {
					from, to = g.Pos(), g.End()
				}
			}
			ch.edits[f.rel] = append(ch.edits[f.rel], edit{f.off(from), f.off(to), ""})
		}
	}
	r.pending = []*ast.FuncDecl{fd}
	return ch, r.covered(f, f.off(fd.Pos()), f.off(fd.End())), ""
}

func derefStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	return s, ok
}

func upper(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

func ownPackage(fx *Fixture, path string) *packages.Package {
	for _, p := range fx.Tree.Own {
		if p.PkgPath == path {
			return p
		}
	}
	return nil
}

// importsPath says whether p imports path, directly or not.
func importsPath(p *packages.Package, path string, seen map[string]bool) bool {
	if seen[p.PkgPath] {
		return false
	}
	seen[p.PkgPath] = true
	for ip, q := range p.Imports {
		if ip == path || q != nil && importsPath(q, path, seen) {
			return true
		}
	}
	return false
}
