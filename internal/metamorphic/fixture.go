package metamorphic

import (
	"context"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"

	"github.com/ctrlcmp/ctrlcmp/internal/load"
	"github.com/ctrlcmp/ctrlcmp/internal/wants"
)

// Fixture is a fixture module loaded for rewriting: its tree, its own
// files' syntax and types, and its want comments.
type Fixture struct {
	// Dir is the module's directory, Tree the module as ctrlcmp loads it.
	Dir  string
	Tree *load.Tree
	// Module is the module path.
	Module string
	files  []*file
	// targets are the want lines of Go files, by file and line.
	targets map[string]map[int]bool
}

// file is one own Go file of a fixture.
type file struct {
	path string // absolute
	rel  string // relative to Fixture.Dir, slashes
	src  []byte
	ast  *ast.File
	tok  *token.File
	pkg  *packages.Package
}

// Open loads the fixture module at dir (as ctrlcmp's tests do) and reads
// its own files and want comments.
func Open(ctx context.Context, dir string) (*Fixture, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		return nil, err
	}
	tree, err := load.Load(ctx, abs, nil, nil)
	if err != nil {
		return nil, err
	}
	fx := &Fixture{Dir: abs, Tree: tree, targets: map[string]map[int]bool{}}
	for _, p := range tree.Own {
		if p.Module != nil && fx.Module == "" {
			fx.Module = p.Module.Path
		}
		for _, f := range p.Syntax {
			tf := tree.Fset.File(f.Pos())
			src, err := os.ReadFile(tf.Name())
			if err != nil {
				return nil, err
			}
			rel, err := filepath.Rel(abs, tf.Name())
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			fx.files = append(fx.files, &file{path: tf.Name(), rel: filepath.ToSlash(rel), src: src, ast: f, tok: tf, pkg: p})
		}
	}
	if fx.Module == "" {
		return nil, fmt.Errorf("%s: no module path among its packages; give a fixture module's directory", dir)
	}
	sort.Slice(fx.files, func(i, j int) bool { return fx.files[i].rel < fx.files[j].rel })
	ws, err := wants.Scan(abs, abs)
	if err != nil {
		return nil, err
	}
	for _, w := range ws {
		if w.None || !strings.Contains(w.At, ".go:") {
			continue
		}
		name, line := splitAt(w.At)
		if fx.targets[name] == nil {
			fx.targets[name] = map[int]bool{}
		}
		fx.targets[name][line] = true
	}
	return fx, nil
}

// splitAt splits a file:line.
func splitAt(at string) (string, int) {
	i := strings.LastIndex(at, ":")
	var line int
	fmt.Sscanf(at[i+1:], "%d", &line)
	return at[:i], line
}

// edit replaces src[start:end) of a file with text.
type edit struct {
	start, end int
	text       string
}

// change is what one rewrite does to a fixture: edits of its files (by
// path relative to the module), text appended to files, and new files.
type change struct {
	edits   map[string][]edit
	appends map[string][]string
	created map[string]string
	// imported are import specs a file gains, after its package clause.
	imported map[string]map[string]bool
}

func newChange() *change {
	return &change{edits: map[string][]edit{}, appends: map[string][]string{}, created: map[string]string{},
		imported: map[string]map[string]bool{}}
}

// imports adds an import spec to a file.
func (c *change) imports(rel, spec string) {
	if c.imported[rel] == nil {
		c.imported[rel] = map[string]bool{}
	}
	c.imported[rel][spec] = true
}

// clone copies c.
func (c *change) clone() *change {
	d := newChange()
	d.merge(c)
	return d
}

// overlaps says whether an edit would overlap one already in c.
func (c *change) overlaps(rel string, es []edit) bool {
	for _, e := range es {
		for _, o := range c.edits[rel] {
			if e.start < o.end && o.start < e.end || e.start == o.start {
				return true
			}
		}
	}
	return false
}

// merge adds d to c if none of its edits overlaps c's; it says whether it
// did.
func (c *change) merge(d *change) bool {
	for rel, es := range d.edits {
		if c.overlaps(rel, es) {
			return false
		}
		for i, e := range es {
			for _, f := range es[i+1:] {
				if e.start < f.end && f.start < e.end || e.start == f.start {
					return false
				}
			}
		}
	}
	for rel := range d.created {
		if _, ok := c.created[rel]; ok {
			return false
		}
	}
	for rel, es := range d.edits {
		c.edits[rel] = append(c.edits[rel], es...)
	}
	for rel, as := range d.appends {
		c.appends[rel] = append(c.appends[rel], as...)
	}
	for rel, s := range d.created {
		c.created[rel] = s
	}
	for rel, specs := range d.imported {
		for spec := range specs {
			c.imports(rel, spec)
		}
	}
	return true
}

// sources returns the changed and created files' formatted text, by path
// relative to the module.
func (fx *Fixture) sources(c *change) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, f := range fx.files {
		es, as := c.edits[f.rel], c.appends[f.rel]
		if len(es) == 0 && len(as) == 0 && len(c.imported[f.rel]) == 0 {
			continue
		}
		es = append([]edit(nil), es...)
		if specs := c.imported[f.rel]; len(specs) > 0 {
			var lines []string
			for spec := range specs {
				lines = append(lines, "\n\nimport "+spec)
			}
			sort.Strings(lines)
			at := f.tok.Offset(f.ast.Name.End())
			es = append(es, edit{at, at, strings.Join(lines, "")})
		}
		sort.SliceStable(es, func(i, j int) bool { return es[i].start < es[j].start })
		var b strings.Builder
		at := 0
		for _, e := range es {
			b.Write(f.src[at:e.start])
			b.WriteString(e.text)
			at = e.end
		}
		b.Write(f.src[at:])
		for _, a := range as {
			b.WriteString("\n" + a + "\n")
		}
		src, err := formatKeepingWants([]byte(b.String()))
		if err != nil {
			return nil, fmt.Errorf("%s: the rewrite does not parse: %v", f.rel, err)
		}
		out[f.rel] = src
	}
	for rel, s := range c.created {
		src, err := formatKeepingWants([]byte(s))
		if err != nil {
			return nil, fmt.Errorf("%s: the rewrite does not parse: %v", rel, err)
		}
		out[rel] = src
	}
	return out, nil
}

// formatKeepingWants formats src unless formatting would move a want
// comment to a line of other code (gofmt breaks a long function literal
// over lines, for one): then src is kept as written, which parses.
func formatKeepingWants(src []byte) ([]byte, error) {
	out, err := format.Source(src)
	if err != nil {
		return nil, err
	}
	if slices.Equal(wantLines(src), wantLines(out)) {
		return out, nil
	}
	return src, nil
}

// wantLines are the lines holding a want comment, blanks removed.
func wantLines(src []byte) []string {
	var out []string
	for _, l := range strings.Split(string(src), "\n") {
		if wantCommentRE.MatchString(l) || strings.Contains(l, alsoMark) {
			out = append(out, strings.Join(strings.Fields(l), ""))
		}
	}
	return out
}

// typeErrors type-checks the own packages with the changed sources in
// place (dependencies as the fixture's load typed them) and returns their
// type errors.
func (fx *Fixture) typeErrors(changed map[string][]byte) []string {
	fset := token.NewFileSet()
	byPkg := map[string][]*ast.File{}
	names := map[string]string{}
	var errs []string
	parse := func(pkgPath, rel string, src []byte) {
		f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
		if err != nil {
			errs = append(errs, err.Error())
			return
		}
		byPkg[pkgPath] = append(byPkg[pkgPath], f)
		names[pkgPath] = f.Name.Name
	}
	for _, f := range fx.files {
		src := f.src
		if s, ok := changed[f.rel]; ok {
			src = s
		}
		parse(f.pkg.PkgPath, f.rel, src)
	}
	for rel, src := range changed {
		if !fx.hasFile(rel) {
			parse(fx.Module+"/"+filepath.ToSlash(filepath.Dir(rel)), rel, src)
		}
	}
	checked := map[string]*types.Package{}
	var imp types.ImporterFrom
	var check func(path string) (*types.Package, error)
	check = func(path string) (*types.Package, error) {
		if p, ok := checked[path]; ok {
			if p == nil {
				return nil, fmt.Errorf("import cycle through %s", path)
			}
			return p, nil
		}
		files, own := byPkg[path]
		if !own {
			if p := fx.Tree.Types(path); p != nil {
				return p, nil
			}
			return importer.Default().Import(path)
		}
		checked[path] = nil
		conf := types.Config{Importer: imp, Error: func(err error) { errs = append(errs, err.Error()) }}
		p, _ := conf.Check(path, fset, files, nil)
		checked[path] = p
		return p, nil
	}
	imp = importerFunc(check)
	paths := make([]string, 0, len(byPkg))
	for p := range byPkg {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if _, err := check(p); err != nil {
			errs = append(errs, err.Error())
		}
	}
	return errs
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
func (f importerFunc) ImportFrom(path, _ string, _ types.ImportMode) (*types.Package, error) {
	return f(path)
}

func (fx *Fixture) hasFile(rel string) bool {
	for _, f := range fx.files {
		if f.rel == rel {
			return true
		}
	}
	return false
}

// write copies the fixture module to dir and writes the changed sources
// over it.
func (fx *Fixture) write(dir string, changed map[string][]byte) error {
	err := filepath.WalkDir(fx.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(fx.Dir, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		return err
	}
	for rel, src := range changed {
		to := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(to, src, 0o644); err != nil {
			return err
		}
	}
	return fx.writeReplaced(dir)
}

// writeReplaced copies the modules that the fixture's go.mod replaces by a
// relative directory (../queuelib) to the same place relative to the copy
// at dir, once, so that the copy builds against them as the original does
// and cites them by the same relative paths.
func (fx *Fixture) writeReplaced(dir string) error {
	gomod := filepath.Join(fx.Dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		return err
	}
	mf, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		return err
	}
	for _, r := range mf.Replace {
		if r.New.Version != "" || filepath.IsAbs(r.New.Path) {
			continue
		}
		from, to := filepath.Join(fx.Dir, r.New.Path), filepath.Join(dir, r.New.Path)
		if _, err := os.Stat(to); err == nil {
			continue
		}
		if err := os.CopyFS(to, os.DirFS(from)); err != nil {
			return fmt.Errorf("copying %s, which %s replaces %s by: %w", from, gomod, r.Old.Path, err)
		}
	}
	return nil
}
