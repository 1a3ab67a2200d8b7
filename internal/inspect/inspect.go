// Package inspect runs ctrlcmp's flow on one source tree: load it, build its
// call graph, locate its controllers, and describe the tree (repository, sha,
// dirty) for the report.
package inspect

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	git "github.com/go-git/go-git/v5"
	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/phase"
	"github.com/ctrlcmp/ctrlcmp/internal/redact"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
	"github.com/ctrlcmp/ctrlcmp/internal/resultcache"
)

// Tree analyses the Go module in dir and describes it (Analyse, then
// Describe).
func Tree(ctx context.Context, dir, side, linkFrom string, progress func(string)) (result.Tree, error) {
	a, err := Analyse(ctx, dir, progress, nil)
	if err != nil {
		return result.Tree{}, err
	}
	return Describe(a, dir, side, linkFrom)
}

// Analysis is a tree analysed but not yet described: what a result cache
// keeps of it.
type Analysis struct {
	// Tree holds the controllers, the warnings and the functions left out
	// of the analysis; the tree's identity (side, root, repository, sha,
	// links) is Describe's to fill in.
	Tree result.Tree `json:"tree"`
	// CitationRoot is the directory the citations are relative to.
	CitationRoot string `json:"citation-root"`
	// Clean says the tree loaded with no warning: no type error, every
	// dependency listed. Only then is the analysis a function of the
	// tree's files and the toolchain alone (a dependency the module cache
	// lacks, or that the network could not bring, changes it).
	Clean bool `json:"-"`
}

// Analyse loads the Go module in dir, builds its call graph and locates
// its controllers. progress, when not nil, hears of each stage. kept,
// when not nil, keeps dependency types between runs (load.Load). A
// cancelled ctx ends it at the next stage, with ctx's error.
func Analyse(ctx context.Context, dir string, progress func(string), kept *resultcache.Store) (Analysis, error) {
	ctx = phase.Begin(ctx, dir)
	t, err := load.Load(ctx, dir, progress, kept)
	if err == nil {
		err = ctx.Err() // interrupted once the go command was done
	}
	if err != nil {
		return Analysis{}, err
	}
	onePerDirectory(t)
	if progress != nil {
		progress(fmt.Sprintf("building the call graph of %d packages", len(t.Own)))
	}
	prog := callgraph.SSA(t.All, t.Own)
	phase.Mark(ctx, "SSA", "")
	prog.Graph()
	phase.Mark(ctx, "call graph", "")
	if err := ctx.Err(); err != nil {
		return Analysis{}, err
	}
	if progress != nil {
		progress("locating controllers")
	}
	ctrls, located, err := locate.Locate(ctx, t, prog, cite.New(t.Fset, t.Root, t.All, t.Own))
	if ctx.Err() != nil {
		return Analysis{}, ctx.Err()
	}
	if err != nil {
		return Analysis{}, fail.Load("%s: %w", dir, err)
	}
	phase.Mark(ctx, "locators", "")
	warnings := append(append(append([]string(nil), t.Warnings...), prog.Warnings...), located...)
	for i, w := range warnings {
		// The go command names the module proxy it used, credentials and
		// all when $GOPROXY holds them: a warning is printed, and written
		// into JSON and markdown.
		warnings[i] = redact.URLs(w)
	}
	if len(ctrls) == 0 {
		return Analysis{}, noController(dir, t.Warnings, prog.Warnings, t.Excluded)
	}
	return Analysis{
		Tree:         result.Tree{Controllers: ctrls, Warnings: warnings, Unanalysed: unanalysedNames(t.Fset, prog.Unanalysed)},
		CitationRoot: t.Root,
		Clean:        len(t.Warnings) == 0,
	}, nil
}

// onePerDirectory takes each of the tree's own packages once by its real
// directory. A directory reached through a symlink inside the tree is
// listed twice: by its real path (./... walks it) and by the link's (an
// import names it so), two packages of the same files, whose controller
// would be reported twice. Of two such packages the one another own
// package imports is kept (the one the program builds), else the first;
// when both are imported, both are kept.
func onePerDirectory(t *load.Tree) {
	imported := map[string]bool{}
	for _, p := range t.Own {
		for path := range p.Imports {
			imported[path] = true
		}
	}
	byDir := map[string]*packages.Package{}
	drop := map[*packages.Package]bool{}
	for _, p := range t.Own {
		if len(p.GoFiles) == 0 {
			continue
		}
		dir := filepath.Dir(p.GoFiles[0])
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		q, seen := byDir[dir]
		switch {
		case !seen:
			byDir[dir] = p
		case imported[p.PkgPath] && imported[q.PkgPath]:
		case imported[p.PkgPath]:
			drop[q], byDir[dir] = true, p
		default:
			drop[p] = true
		}
	}
	if len(drop) == 0 {
		return
	}
	dropped := func(p *packages.Package) bool { return drop[p] }
	t.Own = slices.DeleteFunc(slices.Clone(t.Own), dropped)
	t.All = slices.DeleteFunc(slices.Clone(t.All), dropped)
}

// Describe is the analysed tree at dir as a result: named by side
// ("theirs", "ours", or empty), with its git state; when linkFrom is not
// empty, the directory markdown will be written in, its citations are
// links relative to it.
func Describe(a Analysis, dir, side, linkFrom string) (result.Tree, error) {
	rt := a.Tree
	rt.Side, rt.Root = side, dir
	if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
		rt.Module = modfile.ModulePath(data)
	}
	describeGit(&rt, a.CitationRoot)
	if linkFrom != "" {
		if err := localLinks(&rt, a.CitationRoot, linkFrom); err != nil {
			return result.Tree{}, err
		}
	}
	return rt, nil
}

// maxListed bounds the problems an error lists.
const maxListed = 10

// noController is the error for a tree where no controller was found. When
// the tree does not load cleanly (type errors, dependencies missing from
// go.sum), the controller may be behind the problems: they are listed (up
// to maxListed), then the functions left out of the analysis because of
// them (skipped, one line per package), then the fix. The files build
// constraints left out (excluded) are named last, with the flag that
// brings them in.
func noController(dir string, problems, skipped, excluded []string) error {
	const why = "no type is registered with a controller-runtime builder (For(...).Complete(r)) and no client-go worker passes a workqueue key to a sync function"
	if len(problems) == 0 && len(skipped) == 0 {
		if len(excluded) > 0 {
			return fail.Load("%s: no controller found: %s; build constraints left out %s, so if the controller is there, give its tags with --tags", dir, why, listExcluded(excluded))
		}
		return fail.Load("%s: no controller found: %s; give the module that holds the controller", dir, why)
	}
	these := fmt.Sprintf("these %d problems", len(problems))
	if len(problems) == 1 {
		these = "this problem"
	}
	lines := []string{fmt.Sprintf("%s: no controller found, and the tree does not load cleanly: the controller may be behind %s:", dir, these)}
	for i, p := range problems {
		if i == maxListed {
			lines = append(lines, fmt.Sprintf("\t… and %d more", len(problems)-maxListed))
			break
		}
		lines = append(lines, "\t"+p)
	}
	if len(skipped) > 0 {
		lines = append(lines, "functions left out of the analysis:")
		for _, s := range skipped {
			lines = append(lines, "\t"+s)
		}
	}
	lines = append(lines, "fix them (`go build ./...` in the module shows them all); that lets ctrlcmp see the controller")
	if len(excluded) > 0 {
		lines = append(lines, "also, build constraints left out "+listExcluded(excluded)+"; if the controller is there, give its tags with --tags")
	}
	return fail.Load("%s", strings.Join(lines, "\n"))
}

// listExcluded names the files build constraints left out, up to
// maxListed.
func listExcluded(files []string) string {
	n := fmt.Sprintf("%d files: ", len(files))
	if len(files) == 1 {
		n = "1 file: "
	}
	if len(files) > maxListed {
		return n + strings.Join(files[:maxListed], ", ") + fmt.Sprintf(", … and %d more", len(files)-maxListed)
	}
	return n + strings.Join(files, ", ")
}

// unanalysedNames names the functions left out of the analysis, in source
// order.
func unanalysedNames(fset *token.FileSet, funcs map[*types.Func]bool) []string {
	objs := make([]*types.Func, 0, len(funcs))
	for f := range funcs {
		objs = append(objs, f)
	}
	sort.Slice(objs, func(i, j int) bool {
		pi, pj := fset.PositionFor(objs[i].Pos(), false), fset.PositionFor(objs[j].Pos(), false)
		if pi.Filename != pj.Filename {
			return pi.Filename < pj.Filename
		}
		return pi.Offset < pj.Offset
	})
	var names []string
	for _, f := range objs {
		names = append(names, cite.ObjectName(f))
	}
	return names
}

// describeGit fills in the repository, sha and dirty state of the git
// repository at root, when it is one (a linked work tree included).
func describeGit(rt *result.Tree, root string) {
	repo, err := git.PlainOpenWithOptions(root, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if err != nil {
		if !errors.Is(err, git.ErrRepositoryNotExists) {
			// A repository the git library cannot read (an extension it
			// does not know, such as the worktreeConfig a sparse checkout
			// sets): say so, rather than cite it as if outside git.
			rt.Warnings = append(rt.Warnings, fmt.Sprintf("%s: the git repository could not be read (%v): its commit is not recorded and citations are not pinned to it", root, err))
		}
		return
	}
	if head, err := repo.Head(); err == nil {
		rt.Sha = head.Hash().String()
	}
	if wt, err := repo.Worktree(); err == nil {
		if st, err := wt.Status(); err == nil {
			rt.Dirty = !st.IsClean()
		}
	}
	if remote, err := repo.Remote("origin"); err == nil && len(remote.Config().URLs) > 0 {
		// The origin's credentials, if its URL holds any, are never
		// recorded: the tree's repository is written into journals.
		if u := remote.Config().URLs[0]; strings.Contains(u, "://") || strings.HasPrefix(u, "git@") {
			rt.Repo = redact.URLs(u)
		}
	}
}

// Select picks the controller of a tree named by kind (its kind or its
// reconciler's type name, case-insensitively, or DIR/NAME: the type name
// qualified by its package's directory, or the end of it); with an empty
// kind the tree must hold one. A kind that several controllers share is
// ambiguous: the error lists them, and the reconciler's type name picks
// one; a type name several packages declare, its qualified name.
func Select(t result.Tree, kind, flag string) (locate.Controller, error) {
	if kind == "" {
		if len(t.Controllers) == 1 {
			return t.Controllers[0], nil
		}
		return locate.Controller{}, fail.Usage("%s holds %d controllers: %s; choose one with %s KIND (or its reconciler's type name, or DIR/NAME), e.g. %s %s", t.Root, len(t.Controllers), candidates(t.Controllers), flag, flag, selector(t.Controllers[0], t.Controllers))
	}
	ctrls, err := Matching(t, kind)
	if err != nil {
		return locate.Controller{}, err
	}
	switch {
	case len(ctrls) == 1:
		return ctrls[0], nil
	case strings.EqualFold(ctrls[0].Name, path.Base(kind)):
		// Reconcilers of one type name in several packages.
		return locate.Controller{}, fail.Usage("%s holds %d controllers named %q: %s; choose one by its package's directory, e.g. %s %s", t.Root, len(ctrls), kind, entries(ctrls), flag, Qualified(ctrls[0]))
	}
	return locate.Controller{}, fail.Usage("%s holds %d controllers of kind %q: %s; choose one by its reconciler's type name, e.g. %s %s", t.Root, len(ctrls), kind, candidates(ctrls), flag, selector(ctrls[0], t.Controllers))
}

// selector is the shortest name that selects c among all: its kind when
// no other controller has it, else its reconciler's type name when no
// other has that, else its qualified name (DIR/NAME).
func selector(c locate.Controller, all []locate.Controller) string {
	kinds, names := 0, 0
	for _, o := range all {
		if c.Kind != "" && strings.EqualFold(o.Kind, c.Kind) {
			kinds++
		}
		if strings.EqualFold(o.Name, c.Name) {
			names++
		}
	}
	switch {
	case kinds == 1:
		return c.Kind
	case names == 1:
		return c.Name
	}
	return Qualified(c)
}

// Matching returns the controllers of a tree named by kind: those whose
// qualified name (DIR/NAME) ends with it, on a path element's boundary,
// the one it names whole when there is one; else those whose reconciler's
// type name it is; else all of that kind (case-insensitively).
func Matching(t result.Tree, kind string) ([]locate.Controller, error) {
	if rest, ok := strings.CutPrefix(kind, "./"); ok && strings.Contains(rest, "/") {
		kind = rest // ./DIR/NAME: DIR/NAME, relative to the tree
	}
	var exact, byQualified, byName, byKind []locate.Controller
	for _, c := range t.Controllers {
		q := Qualified(c)
		switch {
		case !strings.Contains(kind, "/"):
		case strings.EqualFold(q, kind):
			exact = append(exact, c)
			fallthrough
		case len(q) > len(kind) && strings.EqualFold(q[len(q)-len(kind):], kind) && q[len(q)-len(kind)-1] == '/':
			byQualified = append(byQualified, c)
		}
		if strings.EqualFold(c.Name, kind) {
			byName = append(byName, c)
		}
		if c.Kind != "" && strings.EqualFold(c.Kind, kind) {
			byKind = append(byKind, c)
		}
	}
	switch {
	case len(exact) == 1:
		return exact, nil
	case len(byQualified) > 0:
		return byQualified, nil
	case len(byName) > 0:
		return byName, nil
	case len(byKind) > 0:
		return byKind, nil
	}
	return nil, fail.Usage("%s has no controller of kind %q; it has: %s", t.Root, kind, candidates(t.Controllers))
}

// Qualified is a controller's reconciler type name qualified by the
// directory of its package in the tree (where its entry is): DIR/NAME,
// ./NAME for the tree's root package. A name the locator already
// qualified by its package (revision.Reconciler) gives that package's
// directory and the bare type name (pkg/reconciler/revision/Reconciler).
func Qualified(c locate.Controller) string {
	e, ok := c.Rows[locate.RowEntry].Primary()
	if !ok {
		return c.Name
	}
	dir, name := path.Dir(e.File), c.Name
	if pkg, typ, ok := strings.Cut(name, "."); ok && pkg == path.Base(dir) {
		name = typ
	}
	return dir + "/" + name
}

// entries lists controllers by their qualified name and entry's citation.
func entries(ctrls []locate.Controller) string {
	var names []string
	for _, c := range ctrls {
		e, _ := c.Rows[locate.RowEntry].Primary()
		names = append(names, fmt.Sprintf("%s (%s:%d)", Qualified(c), e.File, e.Line))
	}
	return strings.Join(names, ", ")
}

// candidates lists controllers as "Kind (Name)", or "Name (no kind)" for a
// controller whose kind is unknown; a type name that several of them share
// is qualified by its package's directory (DIR/NAME), which selects it.
func candidates(ctrls []locate.Controller) string {
	count := map[string]int{}
	for _, c := range ctrls {
		count[strings.ToLower(c.Name)]++
	}
	var names []string
	for _, c := range ctrls {
		name := c.Name
		if count[strings.ToLower(name)] > 1 {
			name = Qualified(c)
		}
		if c.Kind == "" {
			names = append(names, name+" (no kind)")
			continue
		}
		names = append(names, c.Kind+" ("+name+")")
	}
	return strings.Join(names, ", ")
}

// localLinks makes the citations of a local tree links relative to the
// directory the markdown is written in.
func localLinks(t *result.Tree, root, markdownDir string) error {
	mdAbs, err := filepath.Abs(markdownDir)
	if err != nil {
		return err
	}
	if r, err := filepath.EvalSymlinks(mdAbs); err == nil {
		mdAbs = r
	}
	rel, err := filepath.Rel(mdAbs, root)
	if err != nil {
		return fail.Usage("cannot link %s from %s: %w", root, markdownDir, err)
	}
	t.Link = func(file string, line int) string {
		return filepath.ToSlash(filepath.Join(rel, filepath.FromSlash(file))) + fmt.Sprintf("#L%d", line)
	}
	return nil
}
