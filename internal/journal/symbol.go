package journal

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// funcSpan is a function declaration's lines in a Go file.
type funcSpan struct {
	name     string // as cite.FuncName writes it
	from, to int
}

// funcs parses a Go file's function declarations once (syntax only: no
// package is loaded). A file that does not parse has none.
func (f *sourceFile) declarations() []funcSpan {
	if f.parsed {
		return f.funcs
	}
	f.parsed = true
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", strings.Join(f.lines, "\n"), parser.SkipObjectResolution)
	if err != nil && file == nil {
		return nil
	}
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			f.funcs = append(f.funcs, funcSpan{cite.FuncName(fd), fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line})
		}
	}
	return f.funcs
}

// enclosingFunc is the function declaration holding line, or "".
func enclosingFunc(f *sourceFile, line int) string {
	for _, s := range f.declarations() {
		if s.from <= line && line <= s.to {
			return s.name
		}
	}
	return ""
}

// funcLines are the lines of the function declaration named name, or 0, 0.
func funcLines(f *sourceFile, name string) (from, to int) {
	for _, s := range f.declarations() {
		if s.name == name {
			return s.from, s.to
		}
	}
	return 0, 0
}

// baseSymbol drops what the report adds after a function's name, such as
// " (deferred func)".
func baseSymbol(s string) string {
	name, _, _ := strings.Cut(s, " ")
	return name
}
