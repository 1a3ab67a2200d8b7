package desugar

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

const src = `package p

func chain(a, b int) int {
	switch n := a - b; {
	case n > 0:
		return 1
	case n < 0:
		return -1
	default:
		return 0
	}
}

func noDefault(a int) int {
	switch {
	case a > 10:
		a--
	}
	return a
}

func kept(a int) int {
	switch { // several tests in a case
	case a > 1, a < -1:
		return 1
	}
	switch { // a fallthrough
	case a > 0:
		a++
		fallthrough
	case a > 5:
		a++
	}
	switch { // a break that ends the switch
	case a > 0:
		if a > 3 {
			break
		}
		a++
	}
	switch { // a default before a case
	default:
		a--
	case a > 2:
		a++
	}
L:
	switch {
	case a > 2:
		break L
	}
	switch a { // a tag
	case 1:
		a++
	}
	for {
		switch { // a break inside a loop of the case's own
		case a > 0:
			for range 3 {
				break
			}
			return a
		}
	}
}

func held(a, b int) int {
	same := a == b
	if same {
		return 0
	}
	less := a < b
	if !less || a == 0 { // its first operand
		return -1
	}
	late := a > 3*b
	if a > 0 && late { // read after another operand
		a++
	}
	again := a > 2*b
	if again {
		a--
	}
	if again { // read again
		a--
	}
	return a
}

func heldError(err error) int {
	present := err == nil
	if !present { // a test of an error, named
		return 1
	}
	return 0
}
`

func TestFiles(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}, Scopes: map[ast.Node]*types.Scope{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	Files([]*ast.File{f}, info)

	forms := map[string]string{}
	for _, d := range f.Decls {
		fd := d.(*ast.FuncDecl)
		var b strings.Builder
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.IfStmt:
				b.WriteString("if@" + strings.TrimPrefix(fset.Position(n.If).String(), "p.go:") + " ")
			case *ast.SwitchStmt:
				b.WriteString("switch ")
			}
			return true
		})
		forms[fd.Name.Name] = strings.TrimSpace(b.String())
	}
	want := map[string]string{
		// The first if starts at the switch, whose init it takes; the
		// next at its case.
		"chain":     "if@4:2 if@7:2",
		"noDefault": "if@16:2",
		// Each switch of kept keeps its form but the last, whose break
		// ends a loop of its own; the if inside the third stays an if.
		"kept": "switch switch switch if@36:3 switch switch switch if@58:3",
		// The first test is the if's own, which starts at the variable;
		// the others keep their form.
		"held":      "if@68:2 if@72:2 if@77:2 if@81:2 if@84:2",
		"heldError": "if@92:2",
	}
	for name, w := range want {
		if forms[name] != w {
			t.Errorf("%s: %q, want %q", name, forms[name], w)
		}
	}
	chain := f.Decls[0].(*ast.FuncDecl).Body.List[0].(*ast.IfStmt)
	if chain.Init == nil || chain.Else.(*ast.IfStmt).Else.(*ast.BlockStmt).List[0].(*ast.ReturnStmt) == nil {
		t.Errorf("chain: the init or the default is lost")
	}
	// A branch has no closing brace: it ends with its last statement,
	// which a statement after it in the source is not on.
	if b := chain.Body; b.Rbrace.IsValid() || b.End() != b.List[0].End() {
		t.Errorf("chain: the first branch ends at %s, want at its return's end and no brace", fset.Position(b.End()))
	}

	held := f.Decls[3].(*ast.FuncDecl).Body
	if first := held.List[0].(*ast.IfStmt); len(held.List) != 8 || types.ExprString(first.Cond) != "a == b" {
		t.Errorf("held: %d statements, the first if tests %s; want 8, a == b", len(held.List), types.ExprString(first.Cond))
	}
	if second := held.List[1].(*ast.IfStmt); types.ExprString(second.Cond) != "!a < b || a == 0" {
		t.Errorf("held: the second if tests %s, want !(a < b) || a == 0 (printed without the parentheses the tree holds)", types.ExprString(second.Cond))
	}

	// The rewritten syntax builds with the type information as it was.
	prog := ssa.NewProgram(fset, 0)
	for _, imp := range pkg.Imports() {
		prog.CreatePackage(imp, nil, nil, true)
	}
	sp := prog.CreatePackage(pkg, []*ast.File{f}, info, false)
	sp.Build()
	fn := sp.Func("chain")
	var blocks []string
	for _, b := range fn.Blocks {
		blocks = append(blocks, b.Comment)
	}
	if got := strings.Join(blocks, " "); !strings.Contains(got, "if.then") || strings.Contains(got, "switch") {
		t.Errorf("chain's blocks: %s, want an if's and no switch's", got)
	}
}
