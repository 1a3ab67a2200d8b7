package locate

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// The drift a library detects: its own comparison and apply, cited in its
// source at the version the tree requires.

// libraryDrift cites, in the library's source at the version the tree
// requires, the comparison and the apply its knowledge entry names. The
// comparison's name depends on the version: when the entry names none for
// it, or the library's function calls none of the names, a warning says
// so (the library's comparison is then not cited) instead of silence.
func (a *analysis) libraryDrift(c call) []Step {
	k := c.fact.Drift
	if k == nil || c.fn.Pkg() == nil {
		return nil
	}
	dir, module, version := a.depDir(c.fn.Pkg().Path())
	if dir == "" {
		return nil
	}
	var compare []string
	for _, n := range k.Compare {
		if n.holds(version) {
			compare = append(compare, n.Name)
		}
	}
	file := filepath.Join(dir, k.File)
	fd, fset := a.depFunc(file, func(fd *ast.FuncDecl, _ *token.FileSet) bool {
		return fd.Name.Name == k.Func && (fd.Recv != nil) == (c.fn.Type().(*types.Signature).Recv() != nil)
	})
	var out []Step
	compared := false
	if fd != nil {
		symbol := cite.FuncName(fd)
		if fd.Recv == nil {
			// A function as the tree's are cited: pkg.F.
			symbol = c.fn.Pkg().Name() + "." + symbol
		}
		seen := map[string]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || seen[sel.Sel.Name] {
				return true
			}
			line := fset.PositionFor(call.Pos(), false).Line
			switch name := sel.Sel.Name; {
			case !compared && slices.Contains(compare, name):
				seen[name], compared = true, true
				out = append(out, Step{Site: a.cite.Line(file, line, symbol), Step: StepLibraryCompare, Note: "the library computes the drift"})
			case name == k.Apply:
				seen[name] = true
				out = append(out, Step{Site: a.cite.Line(file, line, symbol), Step: StepLibraryApply, Note: "the library applies the difference"})
			}
			return true
		})
	}
	if !compared {
		at := module
		if version != "" {
			at += "@" + version
		}
		a.warn(fmt.Sprintf("%s: the drift comparison of %s is not cited: ctrlcmp knows it as %s in %s.%s, and finds none of them there at this version; the knowledge table (internal/locate/knowledge.go) needs an entry for it",
			at, cite.ObjectName(c.fn), versionedNames(k.Compare), k.File, k.Func))
	}
	return out
}

// depDir is the directory of a loaded dependency package, and its
// module's path and version ("" when it is not loaded).
func (a *analysis) depDir(path string) (dir, module, version string) {
	for _, p := range a.tree.All {
		if p.PkgPath == path && len(p.GoFiles) > 0 {
			dir = filepath.Dir(p.GoFiles[0])
			if p.Module != nil {
				module, version = p.Module.Path, p.Module.Version
			}
		}
	}
	return dir, module, version
}

// versionedNames describes a library's names with their versions.
func versionedNames(ns []VersionedName) string {
	var parts []string
	for _, n := range ns {
		s := n.Name
		switch {
		case n.Since != "" && n.Before != "":
			s += fmt.Sprintf(" (%s to before %s)", n.Since, n.Before)
		case n.Since != "":
			s += " (from " + n.Since + ")"
		case n.Before != "":
			s += " (before " + n.Before + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " or ")
}

// depFunc parses one file of a dependency (whose bodies were not loaded)
// and returns the first function declaration match accepts.
func (a *analysis) depFunc(file string, match func(*ast.FuncDecl, *token.FileSet) bool) (*ast.FuncDecl, *token.FileSet) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		msg := a.cite.Path(file) + ": " + err.Error()
		if el, ok := err.(scanner.ErrorList); ok && len(el) > 0 {
			msg = fmt.Sprintf("%s:%d:%d: %s", a.cite.Path(file), el[0].Pos.Line, el[0].Pos.Column, el[0].Msg)
		}
		a.warn(msg)
		return nil, nil
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && match(fd, fset) {
			return fd, fset
		}
	}
	return nil, nil
}
