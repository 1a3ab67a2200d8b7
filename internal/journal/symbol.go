package journal

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// funcSpan is a function declaration's lines in a Go file.
type funcSpan struct {
	name     string // as cite.FuncName writes it
	from, to int
}

// declarations parses a Go file's function declarations once (syntax
// only: no package is loaded), in the order of the file, and indexes them
// by name. A file that does not parse has none.
func (f *sourceFile) declarations() []funcSpan {
	if f.parsed {
		return f.funcs
	}
	f.parsed = true
	f.funcByName = map[string]funcSpan{}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", strings.Join(f.lines, "\n"), parser.SkipObjectResolution)
	if err != nil && file == nil {
		return nil
	}
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			s := funcSpan{cite.FuncName(fd), fset.PositionFor(fd.Pos(), false).Line, fset.PositionFor(fd.End(), false).Line}
			f.funcs = append(f.funcs, s)
			if _, seen := f.funcByName[s.name]; !seen {
				f.funcByName[s.name] = s
			}
		}
	}
	return f.funcs
}

// enclosingFunc is the function declaration holding line, or "".
func enclosingFunc(f *sourceFile, line int) string {
	funcs := f.declarations()
	// The declarations do not overlap: the last one starting at or before
	// line is the only one that can hold it.
	i := sort.Search(len(funcs), func(i int) bool { return funcs[i].from > line }) - 1
	if i >= 0 && line <= funcs[i].to {
		return funcs[i].name
	}
	return ""
}

// funcLines are the lines of the (first) function declaration named name,
// or 0, 0.
func funcLines(f *sourceFile, name string) (from, to int) {
	f.declarations()
	s := f.funcByName[name]
	return s.from, s.to
}

// baseSymbol drops what the report adds after a function's name, such as
// " (deferred func)".
func baseSymbol(s string) string {
	name, _, _ := strings.Cut(s, " ")
	return name
}
