package load

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// parseFile parses an own file for the type checker: with its comments and
// bodies, but a generated file loses its data (dropGeneratedData).
func (t *Tree) parseFile(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	f, err := parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
	if f != nil && ast.IsGenerated(f) {
		dropGeneratedData(f)
		t.generated[filename] = true
	}
	return f, err
}

// maxGeneratedBody is the size of source above which a generated
// function's body counts as data and is dropped.
const maxGeneratedBody = 1 << 20

// dropGeneratedData strips a generated file of its data, keeping its
// functions (but those whose bodies exceed maxGeneratedBody): a generated reconciler's bodies hold half of a controller's
// answers, while what makes a generated file cost gigabytes is data. The
// data of package-level variables goes (the initialiser of a variable
// declared with a type, and the elements of the composite literals that
// give the others their types: one syntax node and one typed expression per
// element is what makes an embedded blob cost gigabytes), and so does the
// body of an init function (it becomes empty), which registers data rather
// than reconciling anything. An array literal of inferred length ([...]T)
// keeps its elements, each emptied in turn, so that its type is unchanged.
// What is left type-checks as the file did, except for imports only the
// dropped code used (a soft error, which Load drops).
func dropGeneratedData(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			switch {
			case d.Body == nil:
			case d.Recv == nil && d.Name.Name == "init":
				d.Body = &ast.BlockStmt{Lbrace: d.Body.Lbrace, Rbrace: d.Body.Rbrace}
			case d.Body.End()-d.Body.Pos() > maxGeneratedBody && !isGeneric(d):
				// A body this large is data returned by a function (an
				// OpenAPI definitions table), not reconcile logic.
				d.Body = nil
			}
		case *ast.GenDecl:
			dropVarData(d)
		}
	}
}

// dropBody drops a dependency's function body, as far as the type checker
// allows: an init function's becomes empty, and a generic function keeps
// its own (the checker wants both, though with IgnoreFuncBodies it checks
// neither).
func dropBody(d *ast.FuncDecl) {
	switch {
	case d.Body == nil || isGeneric(d):
	case d.Recv == nil && d.Name.Name == "init":
		d.Body = &ast.BlockStmt{Lbrace: d.Body.Lbrace, Rbrace: d.Body.Rbrace}
	default:
		d.Body = nil
	}
}

// dropVarData drops the data of the package-level variables a declaration
// declares: the initialiser of a variable declared with a type, and the
// elements of the composite literals that give the others their types.
func dropVarData(d *ast.GenDecl) {
	if d.Tok != token.VAR {
		return
	}
	for _, spec := range d.Specs {
		vs := spec.(*ast.ValueSpec)
		if vs.Type != nil {
			vs.Values = nil
			continue
		}
		for _, v := range vs.Values {
			dropElements(v)
		}
	}
}

// isGeneric reports whether a function declares type parameters, or is a
// method of a generic type.
func isGeneric(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams != nil {
		return true
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	recv := fd.Recv.List[0].Type
	if s, ok := recv.(*ast.StarExpr); ok {
		recv = s.X
	}
	switch recv.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// dropElements empties the composite literals of an initialiser, keeping
// their types: a literal of inferred array length keeps its elements (and
// their keys, which may set the length), each emptied in turn. Function
// literals are left whole.
func dropElements(e ast.Expr) {
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CompositeLit:
			if at, ok := x.Type.(*ast.ArrayType); ok {
				if _, inferred := at.Len.(*ast.Ellipsis); inferred {
					for _, el := range x.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							el = kv.Value
						}
						dropElements(el)
					}
					return false
				}
			}
			x.Elts = nil
			return false
		}
		return true
	})
}
