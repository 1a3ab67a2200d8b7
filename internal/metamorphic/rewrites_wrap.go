package metamorphic

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/wants"
)

// alsoMark begins a comment naming the keys of a want line whose site
// the rewrite also put on the comment's line: either line is the site.
const alsoMark = "// also "

// alsoComment is the also comment for the want keys of the target's line,
// or "".
func alsoComment(t *target) string {
	return alsoKeys(t, func(string) bool { return true })
}

// alsoKeys is the also comment for the want keys of the target's line
// that keep says a moved value may be cited for, or "".
func alsoKeys(t *target, keep func(key string) bool) string {
	start := t.f.off(t.f.tok.LineStart(t.line))
	return alsoCommentOf(t.at, string(t.f.src[start:t.f.eol(start)]), keep)
}

// alsoCommentOf is the also comment for the want keys in text, a line at at, that
// keep accepts, or "".
func alsoCommentOf(at, text string, keep func(key string) bool) string {
	var keys []string
	for _, w := range wants.Line(at, text) {
		if w.None || !keep(w.Key) {
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
	results, why := callResults(t, c)
	switch {
	case why != "":
		return "", why
	case results == "":
		return "func() { " + text + " }", ""
	}
	return fmt.Sprintf("func() %s { return %s }", results, text), ""
}

// callResults is the result list of a call as source text: "" when it
// has none, a type, or a parenthesised list; or why it cannot be named in
// its file.
func callResults(t *target, c *ast.CallExpr) (string, string) {
	tv := t.f.pkg.TypesInfo.TypeOf(c)
	if tup, ok := tv.(*types.Tuple); ok {
		if tup.Len() == 0 {
			return "", ""
		}
		var parts []string
		for v := range tup.Variables() {
			s, ok := t.f.typeText(v.Type())
			if !ok {
				return "", "a result's type cannot be named in its file"
			}
			parts = append(parts, s)
		}
		return "(" + strings.Join(parts, ", ") + ")", ""
	}
	s, ok := t.f.typeText(tv)
	if !ok {
		return "", "the result's type cannot be named in its file"
	}
	return s, ""
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

// extractCall moves the line's first call into a function of the
// fixture's own that only makes it, handed what the call reads:
// `r.Get(ctx, key, &obj)` becomes `metaCall1(r, ctx, key, &obj)`, with
// `func metaCall1(r *R, …) error { return r.Get(ctx, key, obj) }`. The
// call now stands in the helper: its line is the line's site too.
func extractCall(r *rewriter, t *target) (*change, []string, string) {
	fn, _ := enclosing(t)
	c := firstCall(t, notDeferred(t))
	if c == nil || fn == nil {
		return nil, nil, "no call on the line"
	}
	if generic(fn) {
		return nil, nil, "the call is in a generic function"
	}
	if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok {
		if _, builtin := t.f.pkg.TypesInfo.Uses[id].(*types.Builtin); builtin {
			return nil, nil, "the call is of a builtin"
		}
	}
	if tv := t.f.pkg.TypesInfo.Types[c.Fun]; tv.IsType() {
		return nil, nil, "the call is a conversion"
	}
	results, why := callResults(t, c)
	if why != "" {
		return nil, nil, why
	}
	ps, why := t.f.freeVars(fn, []ast.Node{c}, nil, false)
	if why != "" {
		return nil, nil, why
	}
	params, args := signature(ps)
	name := r.name("Call")
	stmt, _ := replaceIn(t, c, fmt.Sprintf("%s(%s)", name, args))
	expr, _ := stripWants(t.f.splice(t.f.off(c.Pos()), t.f.off(c.End()), t.f.useEdits(ps)))
	body := expr
	if results != "" {
		body = "return " + expr
	}
	if first, _, _ := strings.Cut(expr, "\n"); !strings.Contains(first, "`") {
		// The call's first line is still its site: the also comment
		// goes there, unless a raw string could run past it.
		body = withAlso(body, t)
	}
	ch := newChange()
	ch.edits[t.f.rel] = []edit{{t.f.off(t.stmt.Pos()), t.f.stmtEnd(t.stmt), stmt}}
	ch.appends[t.f.rel] = []string{fmt.Sprintf("func %s(%s) %s {\n%s\n}", name, params, results, body)}
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
		if !ok || !f.writtenIf(ifs) || ifs.Else != nil || i+1 == len(list) {
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

// addDefer makes the innermost function holding the line defer a function
// literal that does nothing, first thing in its body: a function that
// defers returns through its results' slots, which must not change what
// it is read to return.
func addDefer(r *rewriter, t *target) (*change, []string, string) {
	fn, _ := enclosing(t)
	var b *ast.BlockStmt
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		b = fn.Body
	case *ast.FuncLit:
		b = fn.Body
	}
	if b == nil {
		return nil, nil, "not in a function body"
	}
	f := t.f
	at := f.afterComment(f.off(b.Lbrace) + 1)
	e := edit{at, at, "\n\tdefer func() {}()\n"}
	if at == f.eol(at) {
		e.text = "\n\tdefer func() {}()"
	}
	return ch(f.rel, []edit{e}), r.covered(f, f.off(b.Lbrace), f.off(b.Rbrace)), ""
}
