package metamorphic

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/tools/go/packages"
)

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
	// A method nothing calls by name is called through an interface (the
	// optional one a library asserts, FinalizeKind): moving it would take
	// it out of its type's method set and change what the program does.
	if fd.Recv != nil && !usedByName(r.fx, obj) {
		return nil, nil, "the method is called only through an interface: moving it would take it out of its type's method set"
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

// usedByName reports whether a package of the fixture names the function
// (calls it, or takes it as a value).
func usedByName(fx *Fixture, obj *types.Func) bool {
	seen := map[*packages.Package]bool{}
	for _, of := range fx.files {
		if seen[of.pkg] {
			continue
		}
		seen[of.pkg] = true
		for _, o := range of.pkg.TypesInfo.Uses {
			if o == obj {
				return true
			}
		}
	}
	return false
}
