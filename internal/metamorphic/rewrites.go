package metamorphic

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
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
	{"hoist-local", "the line's value is held in a local variable defined just before the statement, which uses the variable", hoistLocal},
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
	{"if-switch", "the innermost if chain holding the line becomes a tagless switch, each branch a case (the else the default)", ifSwitch},
	{"init-split", "the init statement of the innermost if holding the line that has one becomes a statement of its own before the if", initSplit},
	{"field-stores", "the line's struct literal is built field by field in a variable before the statement, which uses the variable", fieldStores},
	{"split-and", "the innermost if without an else testing a conjunction nests its second test: if a && b {…} becomes if a { if b {…} }", splitAnd},
	{"negate-if", "the innermost if with a plain else swaps its branches and negates its test", negateIf},
	{"cond-local", "the test of the innermost if without an init statement is held in a bool variable the if tests: if c {…} becomes ok := c; if ok {…}", condLocal},
	{"wrap-error", "the error a return on the line gives back passes through a helper that wraps it (nil stays nil)", wrapError},
	{"extract-call", "the line's first call moves into a function of the fixture's own that only makes it", extractCall},
	{"add-defer", "the function holding the line defers a function literal that does nothing, as its first statement (its results then pass through their slots)", addDefer},
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
	deletion := map[*ast.BlockStmt]bool{}
	if ifs, ok := t.stmt.(*ast.IfStmt); ok && t.f.writtenIf(ifs) {
		blocks = append(blocks, ifs.Body)
		deletion[ifs.Body] = deletionBranch(ifs, ifs.Body)
	}
	for i, n := range t.path {
		if n == fn {
			break
		}
		if b, ok := n.(*ast.BlockStmt); ok && i+1 < len(t.path) {
			if ifs, ok := t.path[i+1].(*ast.IfStmt); ok && t.f.writtenIf(ifs) && (ifs.Body == b || ifs.Else == b) {
				blocks = append(blocks, b)
				deletion[b] = deletionBranch(ifs, b)
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
		if deletion[b] {
			// The function run on the deletion branch, which the
			// cleanup row cites, is now the helper.
			decl = strings.Replace(decl, "{\n", "{ "+alsoMark+`"finalizer-cleanup"`+"\n", 1)
		}
		c := newChange()
		lo, hi := t.f.afterComment(t.f.off(b.Lbrace)+1), t.f.off(b.Rbrace)
		c.edits[t.f.rel] = []edit{{lo, hi, "\n" + call(ft, name, args) + "\n"}}
		c.appends[t.f.rel] = []string{decl}
		return c, append(r.covered(t.f, lo, hi), t.at), ""
	}
	return nil, nil, why
}

// deletionBranch reports whether b is the branch of ifs taken when the
// object's DeletionTimestamp is set (if !obj.DeletionTimestamp.IsZero(),
// != nil; or the else of IsZero(), == nil).
func deletionBranch(ifs *ast.IfStmt, b *ast.BlockStmt) bool {
	cond := types.ExprString(ifs.Cond)
	if !strings.Contains(cond, "DeletionTimestamp") || strings.Contains(cond, "&&") || strings.Contains(cond, "||") {
		return false
	}
	set := strings.HasPrefix(cond, "!") || strings.Contains(cond, "!= nil")
	return set == (ifs.Body == b)
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
	// The value's own sites (valueSite) move with it into the helper; the
	// statement keeps the rest.
	also := ""
	if !strings.Contains(expr, "//") && !strings.Contains(expr, "\n") {
		also = alsoKeys(t, valueSite)
	}
	c.appends[t.f.rel] = []string{fmt.Sprintf("func %s(%s) (bool, %s) {\nreturn true, %s%s\n}", name, params, typ, expr, also)}
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

// valueStep says whether a want key is a trace step that a value's own
// expression makes (a constant of the standard library, cited where it is
// used; a value computed there; a field set in a literal): it moves with
// the value.
func valueStep(key string) bool {
	return strings.HasPrefix(key, wants.TracePrefix) && slices.Contains([]string{locate.StepConstant, locate.StepComputed, locate.StepSet}, strings.TrimPrefix(key, wants.TracePrefix))
}

// fieldStores builds the line's struct literal field by field in a
// variable before the statement: `return ctrl.Result{RequeueAfter: d}, nil`
// becomes `v := ctrl.Result{}`, `v.RequeueAfter = d` and `return v, nil`;
// the steps of the trace that the literal's values make may be cited at
// their stores.
func fieldStores(r *rewriter, t *target) (*change, []string, string) {
	lit, ok := valueExpr(t).(*ast.CompositeLit)
	if !ok {
		return nil, nil, "no composite literal on the line"
	}
	if _, ok := t.f.pkg.TypesInfo.TypeOf(lit).Underlying().(*types.Struct); !ok || len(lit.Elts) == 0 {
		return nil, nil, "the literal is not a struct's with fields set"
	}
	if text := t.f.text(lit.Pos(), lit.End()); strings.Contains(text, "\n") || strings.Contains(text, "//") {
		return nil, nil, "the literal spans lines or holds a comment"
	}
	if why := hoistable(t, lit); why != "" {
		return nil, nil, why
	}
	v := r.name("V")
	stores := []string{fmt.Sprintf("%s := %s{}", v, t.f.text(lit.Type.Pos(), lit.Type.End()))}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil, nil, "an element of the literal is not keyed"
		}
		stores = append(stores, fmt.Sprintf("%s.%s = %s%s", v, t.f.text(kv.Key.Pos(), kv.Key.End()), t.f.text(kv.Value.Pos(), kv.Value.End()), alsoKeys(t, valueStep)))
	}
	stmt, _ := replaceIn(t, lit, v)
	c := newChange()
	c.edits[t.f.rel] = []edit{{t.f.off(t.stmt.Pos()), t.f.stmtEnd(t.stmt), strings.Join(stores, "\n") + "\n" + stmt}}
	return c, []string{t.at}, ""
}
