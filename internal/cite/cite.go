// Package cite turns source positions of a loaded tree into citations: the
// path (relative to the tree's root, or module@version/path for a file in a
// dependency), the line, the enclosing symbol and the trimmed source line.
// A vendored copy of a module the tree replaces by one of its own directories
// is cited at that directory, where its source is. Each file is read at most
// once.
package cite

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// Site is one cited place in the source.
type Site struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Func string `json:"func"`
	Text string `json:"text"`
}

// Citer makes citations for one tree.
type Citer struct {
	fset    *token.FileSet
	root    string
	modules map[string]*packages.Module // file directory -> module (dependencies)
	mu      sync.Mutex
	lines   map[string][][]byte
	funcs   map[string][]span // own file -> function spans
	sources map[string]string // vendored file -> the same file in the tree's own directory, "" when none
}

type span struct {
	pos, end token.Pos
	name     string
}

// New indexes the packages of a tree whose citations are relative to root.
func New(fset *token.FileSet, root string, all, own []*packages.Package) *Citer {
	c := &Citer{fset: fset, root: root, modules: map[string]*packages.Module{},
		lines: map[string][][]byte{}, funcs: map[string][]span{}, sources: map[string]string{}}
	for _, p := range all {
		if p.Module == nil {
			continue
		}
		for _, f := range p.GoFiles {
			c.modules[filepath.Dir(f)] = p.Module
		}
	}
	for _, p := range own {
		for _, f := range p.Syntax {
			c.indexFuncs(f)
		}
	}
	return c
}

func (c *Citer) indexFuncs(f *ast.File) {
	name := c.fset.File(f.Pos()).Name()
	var spans []span
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		fname := FuncName(fd)
		spans = append(spans, span{fd.Pos(), fd.End(), fname})
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if d, ok := n.(*ast.DeferStmt); ok {
				if lit, ok := d.Call.Fun.(*ast.FuncLit); ok {
					spans = append(spans, span{lit.Pos(), lit.End(), fname + " (deferred func)"})
				}
			}
			return true
		})
	}
	c.funcs[name] = spans
}

// FuncName is the symbol of a function declaration as the output contract
// writes it: F, (T).M or (*T).M.
func FuncName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	id, _ := t.(*ast.Ident)
	name := "?"
	if id != nil {
		name = id.Name
	}
	return "(" + star + name + ")." + fd.Name.Name
}

// ObjectName is the symbol of a function object: pkg.F, (T).M or (*T).M.
func ObjectName(f *types.Func) string {
	sig, _ := f.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		if f.Pkg() != nil {
			return f.Pkg().Name() + "." + f.Name()
		}
		return f.Name()
	}
	t := sig.Recv().Type()
	star := ""
	if p, ok := t.(*types.Pointer); ok {
		star, t = "*", p.Elem()
	}
	name := types.TypeString(t, func(*types.Package) string { return "" })
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	return "(" + star + name + ")." + f.Name()
}

// At cites the line holding pos. The enclosing function is found for the
// tree's own files; fn, when not empty, overrides it.
func (c *Citer) At(pos token.Pos, fn string) Site {
	p := c.fset.PositionFor(pos, false)
	s := Site{File: c.Path(p.Filename), Line: p.Line, Func: fn, Text: c.lineText(p.Filename, p.Line)}
	if s.Func == "" {
		s.Func = c.enclosing(p.Filename, pos)
	}
	return s
}

// Line cites a line of any file of the tree (a CRD's YAML, say), with the
// symbol given.
func (c *Citer) Line(filename string, line int, symbol string) Site {
	return Site{File: c.Path(filename), Line: line, Func: symbol, Text: c.lineText(filename, line)}
}

// Path is the citation path of a file.
func (c *Citer) Path(filename string) string {
	if rel, err := filepath.Rel(c.root, filename); err == nil && !strings.HasPrefix(rel, "..") {
		if src := c.source(filename); src != "" {
			rel, _ = filepath.Rel(c.root, src)
		}
		return filepath.ToSlash(rel)
	}
	if m := c.modules[filepath.Dir(filename)]; m != nil && m.Dir != "" && m.Version != "" {
		if rel, err := filepath.Rel(m.Dir, filename); err == nil {
			return m.Path + "@" + m.Version + "/" + filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(filename)
}

// source is the file a vendored one was copied from when its module is
// replaced by a directory of the tree (`replace example.com/api => ./api`)
// and the two hold the same bytes; "" otherwise (a dependency's vendored
// copy, which is what the tree builds, or a copy that differs).
func (c *Citer) source(filename string) string {
	m := c.modules[filepath.Dir(filename)]
	if m == nil || m.Replace == nil || m.Replace.Version != "" || m.Replace.Dir == "" {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if src, ok := c.sources[filename]; ok {
		return src
	}
	src := ""
	if rel, err := filepath.Rel(c.root, m.Replace.Dir); err == nil && !strings.HasPrefix(rel, "..") {
		if sub, ok := vendoredPath(filename, m.Path); ok {
			src = filepath.Join(m.Replace.Dir, sub)
			a, errA := os.ReadFile(filename)
			b, errB := os.ReadFile(src)
			if errA != nil || errB != nil || !bytes.Equal(a, b) {
				src = ""
			}
		}
	}
	c.sources[filename] = src
	return src
}

// vendoredPath is the path of filename inside module modPath's copy in a
// vendor directory.
func vendoredPath(filename, modPath string) (string, bool) {
	marker := string(filepath.Separator) + "vendor" + string(filepath.Separator) + filepath.FromSlash(modPath) + string(filepath.Separator)
	i := strings.LastIndex(filename, marker)
	if i < 0 {
		return "", false
	}
	return filename[i+len(marker):], true
}

func (c *Citer) enclosing(filename string, pos token.Pos) string {
	best := ""
	var bestLen token.Pos = -1
	for _, s := range c.funcs[filename] {
		if s.pos <= pos && pos < s.end && (bestLen < 0 || s.end-s.pos < bestLen) {
			best, bestLen = s.name, s.end-s.pos
		}
	}
	return best
}

func (c *Citer) lineText(filename string, line int) string {
	return strings.TrimSpace(c.LineRaw(filename, line))
}

// LineRaw returns a line of a file as it is (without its line ending).
func (c *Citer) LineRaw(filename string, line int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	lines, ok := c.lines[filename]
	if !ok {
		data, err := os.ReadFile(filename)
		if err == nil {
			lines = bytes.Split(data, []byte("\n"))
		}
		c.lines[filename] = lines
	}
	if line < 1 || line > len(lines) {
		return ""
	}
	return string(bytes.TrimRight(lines[line-1], "\r"))
}
