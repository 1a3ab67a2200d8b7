package metamorphic

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// target is a want line of a Go file: the innermost statement that starts
// on it, or the declaration it opens, and the function around it.
type target struct {
	f    *file
	line int
	at   string // file:line relative to the module
	stmt ast.Stmt
	path []ast.Node    // from the statement (or the line's first node) out
	fn   *ast.FuncDecl // the declaration around the line, if any
}

// targets lists the want lines of the fixture's Go files in order.
func (fx *Fixture) targetList() []*target {
	var out []*target
	for _, f := range fx.files {
		lines := fx.targets[f.rel]
		var ls []int
		for l := range lines {
			ls = append(ls, l)
		}
		sort.Ints(ls)
		for _, l := range ls {
			t := &target{f: f, line: l, at: fmt.Sprintf("%s:%d", f.rel, l)}
			start := f.tok.LineStart(l)
			off := f.tok.Offset(start)
			for off < len(f.src) && (f.src[off] == ' ' || f.src[off] == '\t') {
				off++
			}
			pos := f.tok.Pos(off)
			path, _ := astutil.PathEnclosingInterval(f.ast, pos, pos)
			t.path = path
			for i, n := range path {
				if fd, ok := n.(*ast.FuncDecl); ok && t.fn == nil {
					t.fn = fd
				}
				if s, ok := n.(ast.Stmt); ok && t.stmt == nil && f.line(s.Pos()) == l {
					if _, block := s.(*ast.BlockStmt); !block {
						t.stmt = s
						t.path = path[i:]
					}
				}
			}
			out = append(out, t)
		}
	}
	return out
}

func (f *file) line(p token.Pos) int { return f.tok.Line(p) }
func (f *file) off(p token.Pos) int  { return f.tok.Offset(p) }

// text is the source between two positions.
func (f *file) text(lo, hi token.Pos) string { return string(f.src[f.off(lo):f.off(hi)]) }

// eol is the offset of the end of the line holding offset off (its
// newline, or the end of the file).
func (f *file) eol(off int) int {
	for off < len(f.src) && f.src[off] != '\n' {
		off++
	}
	return off
}

// stmtEnd is where a statement's text ends: the end of its last line when
// only a comment follows it there (so that the comment goes with it), else
// its end.
func (f *file) stmtEnd(s ast.Node) int { return f.afterComment(f.off(s.End())) }

// afterComment is the end of the line holding offset end when only a
// comment or blanks follow end there, else end.
func (f *file) afterComment(end int) int {
	e := f.eol(end)
	rest := strings.TrimSpace(string(f.src[end:e]))
	if rest == "" || strings.HasPrefix(rest, "//") {
		return e
	}
	return end
}

// splice returns src[lo:hi) with the edits (inside it) applied.
func (f *file) splice(lo, hi int, es []edit) string {
	sort.Slice(es, func(i, j int) bool { return es[i].start < es[j].start })
	var b strings.Builder
	at := lo
	for _, e := range es {
		b.Write(f.src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.Write(f.src[at:hi])
	return b.String()
}

var wantCommentRE = regexp.MustCompile(`//\s*want(?:-none)?\s+(?:"[^"]+"\s*)+`)

// stripWants removes the want comments from text and returns them.
func stripWants(text string) (string, []string) {
	var found []string
	out := wantCommentRE.ReplaceAllStringFunc(text, func(m string) string {
		found = append(found, strings.TrimSpace(m))
		return ""
	})
	return out, found
}

// keepWants appends want comments to the line of text holding offset at,
// so that a marker moved out of an expression stays on the statement's
// line.
func keepWants(text string, at int, comments []string) string {
	if len(comments) == 0 {
		return text
	}
	e := strings.IndexByte(text[at:], '\n')
	if e < 0 {
		e = len(text)
	} else {
		e += at
	}
	return text[:e] + " " + strings.Join(comments, " ") + text[e:]
}

// qualifier names packages as f imports them; a package f does not import
// sets *missing.
func (f *file) qualifier(missing *bool) types.Qualifier {
	names := map[string]string{}
	for _, spec := range f.ast.Imports {
		if pn := f.pkg.TypesInfo.PkgNameOf(spec); pn != nil && pn.Name() != "_" && pn.Name() != "." {
			names[pn.Imported().Path()] = pn.Name()
		}
	}
	return func(p *types.Package) string {
		if p == f.pkg.Types {
			return ""
		}
		if n, ok := names[p.Path()]; ok {
			return n
		}
		*missing = true
		return p.Name()
	}
}

// typeText writes t as f can name it.
func (f *file) typeText(t types.Type) (string, bool) {
	missing := false
	s := types.TypeString(types.Default(t), f.qualifier(&missing))
	if missing || strings.Contains(s, "untyped") || strings.Contains(s, "invalid") {
		return "", false
	}
	return s, true
}

// resultText is a function type's results as source text, unnamed, and
// whether they are named.
func (f *file) resultText(ft *ast.FuncType) (string, bool) {
	if ft.Results == nil || len(ft.Results.List) == 0 {
		return "", false
	}
	var parts []string
	named := false
	for _, fl := range ft.Results.List {
		n := len(fl.Names)
		if n == 0 {
			n = 1
		} else {
			named = true
		}
		for range n {
			parts = append(parts, f.text(fl.Type.Pos(), fl.Type.End()))
		}
	}
	return "(" + strings.Join(parts, ", ") + ")", named
}

// param is a variable an extracted piece of code reads from around it.
type param struct {
	obj  *types.Var
	name string
	typ  string
	ptr  bool // passed by address, its uses written (*name)
	uses []*ast.Ident
}

// freeVars finds the variables of fn that the nodes use but do not
// declare, leaving out the subtree skip. A variable the nodes assign or
// take the address of is passed by address unless byValue; one they
// redeclare with := cannot be, and makes the extraction impossible.
func (f *file) freeVars(fn ast.Node, nodes []ast.Node, skip ast.Node, byValue bool) ([]*param, string) {
	info := f.pkg.TypesInfo
	lo, hi := nodes[0].Pos(), nodes[len(nodes)-1].End()
	byObj := map[*types.Var]*param{}
	var order []*param
	mutated := map[*types.Var]bool{}
	redefined := map[*types.Var]bool{}
	root := func(e ast.Expr) *types.Var {
		for {
			switch x := e.(type) {
			case *ast.Ident:
				v, _ := info.Uses[x].(*types.Var)
				return v
			case *ast.ParenExpr:
				e = x.X
			case *ast.SelectorExpr:
				s := info.Selections[x]
				if s == nil || s.Kind() != types.FieldVal || s.Indirect() || isPointer(info.TypeOf(x.X)) {
					return nil
				}
				e = x.X
			case *ast.IndexExpr:
				if _, ok := info.TypeOf(x.X).Underlying().(*types.Array); !ok {
					return nil
				}
				e = x.X
			default:
				return nil
			}
		}
	}
	for _, n := range nodes {
		ast.Inspect(n, func(x ast.Node) bool {
			if x == nil || skip != nil && x == skip {
				return false
			}
			switch x := x.(type) {
			case *ast.Ident:
				v, ok := info.Uses[x].(*types.Var)
				if !ok || v.IsField() || v.Pos() < fn.Pos() || v.Pos() >= fn.End() || v.Pos() >= lo && v.Pos() < hi {
					return true
				}
				p := byObj[v]
				if p == nil {
					p = &param{obj: v, name: v.Name()}
					byObj[v] = p
					order = append(order, p)
				}
				p.uses = append(p.uses, x)
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok && x.Tok == token.DEFINE {
						if v, ok := info.Uses[id].(*types.Var); ok {
							redefined[v] = true
						}
						continue
					}
					if v := root(l); v != nil {
						mutated[v] = true
					}
				}
			case *ast.IncDecStmt:
				if v := root(x.X); v != nil {
					mutated[v] = true
				}
			case *ast.UnaryExpr:
				if x.Op == token.AND {
					if v := root(x.X); v != nil {
						mutated[v] = true
					}
				}
			case *ast.RangeStmt:
				if x.Tok == token.ASSIGN {
					for _, e := range []ast.Expr{x.Key, x.Value} {
						if e != nil {
							if v := root(e); v != nil {
								mutated[v] = true
							}
						}
					}
				}
			case *ast.CallExpr:
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
					if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
						if sig, ok := s.Obj().Type().(*types.Signature); ok && sig.Recv() != nil && isPointer(sig.Recv().Type()) && !isPointer(info.TypeOf(sel.X)) {
							if v := root(sel.X); v != nil {
								mutated[v] = true
							}
						}
					}
				}
			}
			return true
		})
	}
	for _, p := range order {
		t, ok := f.typeText(p.obj.Type())
		if !ok {
			return nil, fmt.Sprintf("the type of %s cannot be named in %s", p.name, f.rel)
		}
		p.typ = t
		if !byValue && mutated[p.obj] {
			if redefined[p.obj] {
				return nil, fmt.Sprintf("%s is both assigned through and redeclared", p.name)
			}
			p.ptr = true
			p.typ = "*" + t
		}
	}
	return order, ""
}

func isPointer(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// useEdits are the edits that write each use of a parameter passed by
// address as (*name).
func (f *file) useEdits(ps []*param) []edit {
	var es []edit
	for _, p := range ps {
		if !p.ptr {
			continue
		}
		for _, id := range p.uses {
			es = append(es, edit{f.off(id.Pos()), f.off(id.End()), "(*" + p.name + ")"})
		}
	}
	return es
}

// signature is a helper's parameter list and the arguments its call
// passes.
func signature(ps []*param) (params, args string) {
	var pl, al []string
	for _, p := range ps {
		pl = append(pl, p.name+" "+p.typ)
		if p.ptr {
			al = append(al, "&"+p.name)
		} else {
			al = append(al, p.name)
		}
	}
	return strings.Join(pl, ", "), strings.Join(al, ", ")
}

// leaves says why control would leave the nodes other than by falling
// through or returning (a break, continue or goto out of them, a label, a
// defer or a recover), or "".
func leaves(nodes []ast.Node) string {
	why := ""
	for _, n := range nodes {
		var walk func(x ast.Node, loops int) bool
		walk = func(x ast.Node, loops int) bool {
			ast.Inspect(x, func(y ast.Node) bool {
				if why != "" || y == nil {
					return false
				}
				switch y := y.(type) {
				case *ast.FuncLit:
					return false
				case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
					if y != x {
						walk(y, loops+1)
						return false
					}
				case *ast.BranchStmt:
					if y.Label != nil || y.Tok == token.GOTO || y.Tok == token.FALLTHROUGH || loops == 0 {
						why = "a " + y.Tok.String() + " leaves it"
					}
				case *ast.LabeledStmt:
					why = "it holds a label"
				case *ast.DeferStmt:
					why = "it defers a call"
				case *ast.CallExpr:
					if id, ok := y.Fun.(*ast.Ident); ok && id.Name == "recover" {
						why = "it calls recover"
					}
				}
				return true
			})
			return why == ""
		}
		walk(n, 0)
	}
	return why
}

// bareReturn says whether the nodes hold a return without values (outside
// function literals).
func bareReturn(nodes []ast.Node) bool {
	found := false
	for _, n := range nodes {
		ast.Inspect(n, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(x.Results) == 0 {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// usesResults says whether the nodes use a named result of ft.
func (f *file) usesResults(ft *ast.FuncType, ps []*param) bool {
	if ft.Results == nil {
		return false
	}
	for _, fl := range ft.Results.List {
		for _, n := range fl.Names {
			for _, p := range ps {
				if f.pkg.TypesInfo.Defs[n] == p.obj {
					return true
				}
			}
		}
	}
	return false
}

// terminates says whether a statement list ends in a return or a panic.
func terminates(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		if c, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}
