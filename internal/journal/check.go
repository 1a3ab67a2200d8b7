package journal

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/mod/module"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// WorkTrees gives the work tree of a repository checked out at a commit
// (the cache `ctrlcmp table --theirs` fills). When the repository answers
// but holds no such commit, the error is a *NoCommitError.
type WorkTrees interface {
	WorkTree(ctx context.Context, repo, sha string) (dir string, err error)
}

// NoCommitError is a repository that answered, but does not hold the
// commit asked for: the citations of that commit cannot be read there, now
// or later (unlike those of a repository out of reach).
type NoCommitError struct {
	Err error // what the repository said, naming it and the commit
}

func (e *NoCommitError) Error() string { return e.Err.Error() }
func (e *NoCommitError) Unwrap() error { return e.Err }

// Options configure Check.
type Options struct {
	// Root is a further directory local citations may resolve against and
	// stay inside (--root), besides the journal's directory and its git
	// repository.
	Root string
	// WorkTrees gives pinned trees; nil leaves pinned citations unverified.
	WorkTrees WorkTrees
	// ModCache is the Go module cache, where citations of dependencies
	// (module@version/path:line) are read; "" leaves them unverified.
	ModCache string
	// Download brings a module version missing from ModCache into the
	// module cache and returns its directory there (go mod download); nil
	// leaves the citations of such a module unverified.
	Download func(ctx context.Context, path, version string) (dir string, err error)
}

// Status is the verdict on one citation.
type Status int

// The verdicts. Moved, Broken and Rejected are problems; Unverified is a
// citation that could only be checked in part (it exists, but there is no
// anchor to compare, or its tree is not at hand).
const (
	OK Status = iota
	Moved
	Broken
	Rejected
	Unverified
)

func (s Status) String() string {
	return [...]string{"ok", "moved", "broken", "rejected", "unverified"}[s]
}

// Problem reports whether the status fails a check.
func (s Status) Problem() bool { return s == Moved || s == Broken || s == Rejected }

// Finding is the verdict on one citation.
type Finding struct {
	Citation Citation
	Status   Status
	Message  string // what is wrong and where the cited code went; empty when OK
	Fixed    string // for Moved: the citation's text pointing at the new place
}

// Result is the check of one journal.
type Result struct {
	File     string // as given
	Findings []Finding
}

// Check verifies every citation in the journal at file. A journal whose
// fences cannot be read is a *MalformedError, as when writing it.
func Check(ctx context.Context, file string, opt Options) (Result, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return Result{}, fmt.Errorf("journal %s: %w", file, err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return Result{}, fmt.Errorf("journal %s: %w", file, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	doc := Parse(src)
	if err := doc.malformed(); err != nil {
		return Result{}, fmt.Errorf("journal %s: %w", file, err)
	}
	c := &checker{ctx: ctx, opt: opt, dir: filepath.Dir(abs), doc: doc,
		files: map[string]*sourceFile{}, roots: map[string]*os.Root{}, trees: map[string]treeResult{},
		locals: map[string]localResult{}, modules: map[string]treeResult{}}
	defer c.close()
	if opt.Root != "" {
		if c.root, err = realDir(opt.Root); err != nil {
			return Result{}, fmt.Errorf("--root %s: %w", opt.Root, err)
		}
	}
	if c.git, err = openJournalGit(ctx, abs, src); err != nil {
		return Result{}, fmt.Errorf("journal %s: reading its git history: %w", file, err)
	}
	res := Result{File: file}
	for _, cit := range c.doc.Citations {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		f := c.check(cit)
		f.Citation = cit
		res.Findings = append(res.Findings, f)
	}
	return res, nil
}

func realDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		return "", fmt.Errorf("not a directory")
	}
	return real, nil
}

type checker struct {
	ctx   context.Context
	opt   Options
	dir   string // the journal's directory
	root  string // --root, resolved
	doc   Doc
	git   *journalGit // nil when the journal is not in a git repository
	files map[string]*sourceFile
	roots map[string]*os.Root
	trees map[string]treeResult // repo@sha -> work tree
	// modules are the modules downloaded (or not) so far: module@version
	// -> its directory in the module cache.
	modules map[string]treeResult
	// locals are the local paths resolved so far: directory and path,
	// joined by a NUL, to where the file is.
	locals map[string]localResult
}

// treeResult is where a tree was found, or why it was not.
type treeResult struct {
	dir string
	err error
}

func (c *checker) close() {
	for _, r := range c.roots {
		r.Close()
	}
}

// target is where a citation's file was found.
type target struct {
	root  string // the directory the file is read inside of, never outside
	rel   string // the file's path inside root
	base  string // the directory the citation's path is relative to
	where string // the tree, for messages
	fixed bool   // an immutable tree (a commit, a module version): no anchor needed
	// others are the further places a local citation could have meant,
	// when the file is in none of them (a rename is looked for in each).
	others []target
}

func (c *checker) check(cit Citation) Finding {
	if cit.From < 1 || cit.To < cit.From {
		return Finding{Status: Broken, Message: fmt.Sprintf("broken: %s is not a line range (lines count from 1, the end is not before the start)", cit.Location())}
	}
	if path.IsAbs(cit.Path) || filepath.IsAbs(filepath.FromSlash(cit.Path)) {
		return Finding{Status: Rejected, Message: fmt.Sprintf("rejected: %s is an absolute path; cite files relative to the journal", cit.Path)}
	}
	t, f, ok := c.resolve(cit)
	if !ok {
		return f
	}
	src, err := c.read(t)
	if err != nil {
		return c.missing(cit, t, err)
	}
	return c.verify(cit, t, src)
}

// resolve finds the tree of a citation: a permalink's commit, a
// dependency's module in the module cache, the trees of the fence holding
// it, or, for one in prose, the working tree.
func (c *checker) resolve(cit Citation) (target, Finding, bool) {
	switch {
	case cit.Repo != "":
		if !isFullSha(cit.Ref) {
			return target{}, Finding{Status: Unverified, Message: fmt.Sprintf("unverified: the link is at %q, not at a full commit sha, so the lines it shows can change; link a permalink (press y on GitHub)", cit.Ref)}, false
		}
		return c.pinned(cit.Path, cit.Repo, cit.Ref)
	case isDependency(cit.Path):
		return c.dependency(cit)
	case cit.Fence >= 0:
		return c.inFence(cit, c.doc.Fences[cit.Fence])
	}
	return c.inProse(cit)
}

// inProse resolves a citation outside the fences: one into a fence's local
// checkout of its pinned tree is read in that tree; any other in the
// working tree, relative to the journal's directory. A plain one missing
// there is looked for in the tree the journal's fences pin, when they pin
// exactly one.
func (c *checker) inProse(cit Citation) (target, Finding, bool) {
	for _, fence := range c.doc.Fences {
		if rel, ok := fence.intoCheckout(cit.Path); ok {
			return c.pinned(rel, fence.Repo, fence.Sha)
		}
	}
	t, f, ok := c.local(cit, c.dir)
	if !ok || cit.Link || c.exists(t) {
		return t, f, ok
	}
	if repo, sha, one := c.onePinnedTree(); one {
		return c.orPinned(cit.Path, repo, sha, t, f, ok)
	}
	return t, f, ok
}

// inFence resolves a citation in generated text. A link is relative to
// the journal's directory; a plain citation (in the reason of a "none"
// cell) to one of the fence's local trees (dirs=), the first that holds
// the file. A path into the fence's local checkout of its pinned tree
// (checkout=) is read in that tree (repo= at sha=), wherever the checkout
// is, and while that tree is not at hand the citation is unverified; any
// other in the working tree. A plain citation in none of them is looked
// for in the fence's pinned tree, when it has one and no checkout.
func (c *checker) inFence(cit Citation, fence Fence) (target, Finding, bool) {
	bases := fence.Dirs
	if cit.Link || len(bases) == 0 {
		bases = []string{"."}
	}
	var first *target
	var rejected, notAtHand Finding
	for _, b := range bases {
		var t target
		if rel, in := fence.intoCheckout(path.Join(b, cit.Path)); in {
			pt, f, ok := c.pinned(rel, fence.Repo, fence.Sha)
			if !ok {
				notAtHand = f
				continue
			}
			t = pt
		} else {
			lt, f, ok := c.local(cit, filepath.Join(c.dir, filepath.FromSlash(b)))
			if !ok {
				if rejected.Status == OK {
					rejected = f
				}
				continue
			}
			t = lt
		}
		if c.exists(t) {
			return t, Finding{}, true
		}
		if first == nil {
			first = &t
		}
	}
	switch {
	case notAtHand.Status != OK:
		return target{}, notAtHand, false
	case !cit.Link && fence.Checkout == "" && fence.pinned():
		if first != nil {
			return c.orPinned(cit.Path, fence.Repo, fence.Sha, *first, Finding{}, true)
		}
		return c.orPinned(cit.Path, fence.Repo, fence.Sha, target{}, rejected, false)
	case first != nil:
		return *first, Finding{}, true
	}
	return target{}, rejected, false
}

// exists reports whether t's file is there (as far as reading it tells:
// one that cannot be read for another reason is there).
func (c *checker) exists(t target) bool {
	_, err := c.read(t)
	return !errors.Is(err, fs.ErrNotExist)
}

// orPinned reads a citation missing from the working tree in repo at sha,
// at path p: there when the file is there, or when the working tree
// rejected the citation (ok false); unverified when that tree is not at
// hand (it may well be there); else, missing from both, where the working
// tree resolved it (t, f, ok).
func (c *checker) orPinned(p, repo, sha string, t target, f Finding, ok bool) (target, Finding, bool) {
	if !filepath.IsLocal(filepath.FromSlash(p)) {
		return t, f, ok
	}
	pt, pf, pok := c.pinned(p, repo, sha)
	if !pok {
		return pt, pf, false
	}
	if c.exists(pt) || !ok {
		return pt, pf, true
	}
	return t, f, ok
}

func isFullSha(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

// onePinnedTree is the tree the journal's fences pin, when they pin one.
func (c *checker) onePinnedTree() (repo, sha string, ok bool) {
	seen := map[string]bool{}
	for _, f := range c.doc.Fences {
		if f.pinned() && !seen[f.Repo+"@"+f.Sha] {
			seen[f.Repo+"@"+f.Sha] = true
			repo, sha = f.Repo, f.Sha
		}
	}
	return repo, sha, len(seen) == 1
}

// pinned resolves path p in repo at commit sha. When that tree is not at
// hand, the citation is unverified; when the repository has no such
// commit, broken.
func (c *checker) pinned(p, repo, sha string) (target, Finding, bool) {
	where := repo + " at " + sha[:12]
	if !filepath.IsLocal(filepath.FromSlash(p)) {
		return target{}, Finding{Status: Rejected, Message: fmt.Sprintf("rejected: %s leaves the tree of %s; cite files inside it", p, where)}, false
	}
	if c.opt.WorkTrees == nil {
		return target{}, Finding{Status: Unverified, Message: "unverified: " + where + " is not at hand (no cache of pinned trees)"}, false
	}
	key := repo + "@" + sha
	tr, ok := c.trees[key]
	if !ok {
		tr.dir, tr.err = c.opt.WorkTrees.WorkTree(c.ctx, repo, sha)
		if tr.err == nil {
			tr.dir, tr.err = realDir(tr.dir)
		}
		c.trees[key] = tr
	}
	if errors.As(tr.err, new(*NoCommitError)) {
		return target{}, Finding{Status: Broken, Message: fmt.Sprintf("broken: %s cannot be read: %v", p, tr.err)}, false
	}
	if tr.err != nil {
		return target{}, Finding{Status: Unverified, Message: fmt.Sprintf("unverified: %s is not at hand: %v", where, tr.err)}, false
	}
	return target{root: tr.dir, rel: filepath.FromSlash(p), base: tr.dir, where: where, fixed: true}, Finding{}, true
}

// isDependency reports whether a path is a dependency site as the report
// writes it: module@version/path.
func isDependency(p string) bool {
	at := strings.IndexByte(p, '@')
	return at > 0 && strings.IndexByte(p[at:], '/') > 0
}

func (c *checker) dependency(cit Citation) (target, Finding, bool) {
	at := strings.IndexByte(cit.Path, '@')
	slash := at + strings.IndexByte(cit.Path[at:], '/')
	mod, ver, rest := cit.Path[:at], cit.Path[at+1:slash], cit.Path[slash+1:]
	escMod, err1 := module.EscapePath(mod)
	escVer, err2 := module.EscapeVersion(ver)
	if err1 != nil || err2 != nil {
		return target{}, Finding{Status: Broken, Message: fmt.Sprintf("broken: %s@%s is not a module path and version", mod, ver)}, false
	}
	if c.opt.ModCache == "" && c.opt.Download == nil {
		return target{}, Finding{Status: Unverified, Message: "unverified: no Go module cache to read " + mod + "@" + ver + " from"}, false
	}
	dir, err := "", fs.ErrNotExist
	if c.opt.ModCache != "" {
		dir, err = realDir(filepath.Join(c.opt.ModCache, filepath.FromSlash(escMod)+"@"+escVer))
	}
	if err != nil {
		if c.opt.Download == nil {
			return target{}, Finding{Status: Unverified, Message: fmt.Sprintf("unverified: %s@%s is not in the module cache %s; run `go mod download %s@%s`", mod, ver, c.opt.ModCache, mod, ver)}, false
		}
		dl := c.download(mod, ver)
		if dl.err != nil {
			return target{}, Finding{Status: Unverified, Message: fmt.Sprintf("unverified: %s@%s is not in the module cache, and downloading it failed: %v", mod, ver, dl.err)}, false
		}
		dir = dl.dir
	}
	return target{root: dir, rel: filepath.FromSlash(rest), base: dir, where: mod + "@" + ver, fixed: true}, Finding{}, true
}

// download brings a module version into the module cache, once.
func (c *checker) download(mod, ver string) treeResult {
	key := mod + "@" + ver
	dl, ok := c.modules[key]
	if !ok {
		dl.dir, dl.err = c.opt.Download(c.ctx, mod, ver)
		if dl.err == nil {
			dl.dir, dl.err = realDir(dl.dir)
		}
		c.modules[key] = dl
	}
	return dl
}

// local resolves a citation against the working tree: relative to dir,
// then to the journal's git repository's root, then to --root. The file
// must lie inside the git repository or --root (the journal's directory
// when there is neither), symlinks included.
func (c *checker) local(cit Citation, dir string) (target, Finding, bool) {
	key := dir + "\x00" + cit.Path
	r, ok := c.locals[key]
	if !ok {
		r.t, r.f, r.ok = c.resolveLocal(cit.Path, dir)
		c.locals[key] = r
	}
	return r.t, r.f, r.ok
}

// localResult is a resolved local path, kept for the next citation of it.
type localResult struct {
	t  target
	f  Finding
	ok bool
}

// resolveLocal is local for the path p, without the memo.
func (c *checker) resolveLocal(p, dir string) (target, Finding, bool) {
	var bounds []string
	if c.git != nil {
		bounds = append(bounds, c.git.root)
	}
	if c.root != "" {
		bounds = append(bounds, c.root)
	}
	if len(bounds) == 0 {
		bounds = []string{c.dir}
	}
	var bases []string
	for _, b := range append([]string{dir}, bounds...) {
		if !slices.Contains(bases, b) {
			bases = append(bases, b)
		}
	}
	var tried []target
	for _, base := range bases {
		abs := filepath.Join(base, filepath.FromSlash(p))
		for _, bound := range bounds {
			rel, err := filepath.Rel(bound, abs)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				continue
			}
			t := target{root: bound, rel: rel, base: base, where: "the working tree"}
			if _, err := c.read(t); !errors.Is(err, fs.ErrNotExist) {
				return t, Finding{}, true
			}
			tried = append(tried, t)
			break
		}
	}
	if len(tried) == 0 {
		return target{}, Finding{Status: Rejected, Message: fmt.Sprintf("rejected: %s leaves %s; cite files inside it, or pass --root DIR to allow a wider tree", p, strings.Join(bounds, " and "))}, false
	}
	t := tried[0]
	t.others = tried[1:]
	return t, Finding{}, true
}

// sourceFile is a cited file, read once. What citations are compared with
// is derived from its lines once, when first needed, however many cite it:
// the lines with their white space folded, their anchors, and an index from
// each to the lines that have it.
type sourceFile struct {
	lines      []string // without line endings
	err        error
	funcs      []funcSpan          // Go files: function declarations, parsed when first needed
	funcByName map[string]funcSpan // the first declaration of each name
	parsed     bool
	folded     []string         // the lines with their white space folded
	anchors    []string         // cite.Anchor of each line
	byFolded   map[string][]int // a folded line -> the lines (from 1) that fold to it
	byAnchor   map[string][]int // an anchor -> the lines (from 1) that have it
}

// foldedLines returns the file's lines with their white space folded.
func (f *sourceFile) foldedLines() []string {
	if f.folded == nil {
		f.folded = make([]string, len(f.lines))
		f.byFolded = map[string][]int{}
		for i, l := range f.lines {
			f.folded[i] = fold(l)
			f.byFolded[f.folded[i]] = append(f.byFolded[f.folded[i]], i+1)
		}
	}
	return f.folded
}

// anchorLines returns the anchor of each of the file's lines.
func (f *sourceFile) anchorLines() []string {
	if f.anchors == nil {
		f.anchors = make([]string, len(f.lines))
		f.byAnchor = map[string][]int{}
		for i, l := range f.lines {
			f.anchors[i] = cite.Anchor(l)
			f.byAnchor[f.anchors[i]] = append(f.byAnchor[f.anchors[i]], i+1)
		}
	}
	return f.anchors
}

func (c *checker) read(t target) (*sourceFile, error) {
	key := filepath.Join(t.root, t.rel)
	if f, ok := c.files[key]; ok {
		return f, f.err
	}
	f := &sourceFile{}
	c.files[key] = f
	root, ok := c.roots[t.root]
	if !ok {
		root, f.err = os.OpenRoot(t.root)
		if f.err != nil {
			return f, f.err
		}
		c.roots[t.root] = root
	}
	data, err := root.ReadFile(t.rel)
	if err != nil {
		f.err = err
		return f, err
	}
	f.lines = splitLines(string(data))
	return f, nil
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// missing is the finding for a citation whose file could not be read: a
// symlink out of its root is rejected; a file gone may have been renamed.
func (c *checker) missing(cit Citation, t target, err error) Finding {
	var errno syscall.Errno
	switch {
	case errors.Is(err, fs.ErrNotExist):
		bases := []string{t.base}
		for _, cand := range append([]target{t}, t.others...) {
			if f, ok := c.renamed(cit, cand); ok {
				return f
			}
			if cand.base != t.base {
				bases = append(bases, cand.base)
			}
		}
		return Finding{Status: Broken, Message: fmt.Sprintf("broken: %s does not exist in %s (looked in %s)", cit.Path, t.where, strings.Join(bases, ", "))}
	case errors.As(err, &errno):
		return Finding{Status: Broken, Message: fmt.Sprintf("broken: %s cannot be read: %v", cit.Path, errno)}
	}
	return Finding{Status: Rejected, Message: fmt.Sprintf("rejected: %s leads out of %s (through a symlink); cite the file where it really is", cit.Path, t.root)}
}

// verify compares the cited lines with the citation's anchor.
func (c *checker) verify(cit Citation, t target, src *sourceFile) Finding {
	a, why := c.anchor(cit, t)
	inRange := cit.To <= len(src.lines)
	switch {
	case a.empty() && !inRange:
		return Finding{Status: Broken, Message: fmt.Sprintf("broken: %s is past the end of the file (%d lines)%s", cit.Location(), len(src.lines), inTree(t))}
	case a.empty() && why == "":
		return Finding{}
	case a.empty():
		return Finding{Status: Unverified, Message: "unverified: " + cit.Location() + " exists, but " + why}
	case inRange && a.matches(src, cit.From):
		return c.checkSymbol(cit, t, src, cit.From)
	}
	symFrom, symTo := c.symbolRange(cit, t, src)
	at, ok := a.find(src, cit.From, symFrom, symTo)
	if !ok {
		return Finding{Status: Broken, Message: "broken: " + a.lost(cit, src, len(src.lines))}
	}
	return c.moved(cit, t, t, at, c.symbolAt(t, src, at, cit.Symbol))
}

func inTree(t target) string {
	if t.fixed {
		return " in " + t.where
	}
	return ""
}

// checkSymbol checks that a generated citation's line is still inside the
// symbol its title names.
func (c *checker) checkSymbol(cit Citation, t target, src *sourceFile, line int) Finding {
	sym := c.symbolAt(t, src, line, cit.Symbol)
	if sym == cit.Symbol {
		return Finding{}
	}
	return c.moved(cit, t, t, line, sym)
}

// symbolAt is the symbol to record for line: the enclosing function of a
// Go file when the citation named one, else the citation's own.
func (c *checker) symbolAt(t target, src *sourceFile, line int, was string) string {
	if was == "" || !strings.HasSuffix(t.rel, ".go") {
		return was
	}
	name := enclosingFunc(src, line)
	if name == "" || baseSymbol(name) == baseSymbol(was) {
		return was
	}
	return name
}

func (c *checker) symbolRange(cit Citation, t target, src *sourceFile) (from, to int) {
	if cit.Symbol == "" || !strings.HasSuffix(t.rel, ".go") {
		return 0, 0
	}
	return funcLines(src, baseSymbol(cit.Symbol))
}

// moved is the finding for a citation whose anchor is now at line of the
// file of t (was: the file the citation names).
func (c *checker) moved(cit Citation, was, now target, line int, symbol string) Finding {
	newPath := cit.Path
	if now.rel != was.rel {
		rel, err := filepath.Rel(was.base, filepath.Join(now.root, now.rel))
		if err == nil {
			newPath = filepath.ToSlash(rel)
		}
	}
	to := line + cit.To - cit.From
	msg := fmt.Sprintf("moved: %s → %s", cit.Location(), location(newPath, line, to))
	if newPath == cit.Path && line == cit.From {
		msg = fmt.Sprintf("moved: %s is now in %s", cit.Location(), symbol)
	}
	if symbol != cit.Symbol {
		msg += fmt.Sprintf(" (the citation says %s)", cit.Symbol)
	}
	return Finding{Status: Moved, Message: msg, Fixed: cit.rewrite(newPath, line, to, symbol)}
}

// anchor is what a citation must still match: the hash of its generated
// title, or the lines it cited when it was last written (from git).
type anchor struct {
	hash  string
	lines []string // white space folded
}

func (a anchor) empty() bool { return a.hash == "" && a.lines == nil }

func fold(s string) string { return strings.Join(strings.Fields(s), " ") }

// matches reports whether the anchor is at line at of f.
func (a anchor) matches(f *sourceFile, at int) bool {
	if a.hash != "" {
		return at >= 1 && at <= len(f.lines) && f.anchorLines()[at-1] == a.hash
	}
	folded := f.foldedLines()
	if at < 1 || at-1+len(a.lines) > len(folded) {
		return false
	}
	for i, want := range a.lines {
		if folded[at-1+i] != want {
			return false
		}
	}
	return true
}

// find looks for the anchor elsewhere in f: within the symbol's lines
// [symFrom, symTo] when there are matches there, else anywhere; the match
// nearest to near wins. Only the lines the index gives for the anchor's
// (first) line are compared.
func (a anchor) find(f *sourceFile, near, symFrom, symTo int) (int, bool) {
	var candidates []int
	if a.hash != "" {
		f.anchorLines()
		candidates = f.byAnchor[a.hash]
	} else {
		f.foldedLines()
		candidates = f.byFolded[a.lines[0]]
	}
	best, bestIn := 0, false
	for _, at := range candidates {
		if !a.matches(f, at) {
			continue
		}
		in := symFrom <= at && at <= symTo
		if best == 0 || in && !bestIn || in == bestIn && abs(at-near) < abs(best-near) {
			best, bestIn = at, in
		}
	}
	return best, best > 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// lost says that the anchor is nowhere in the file.
func (a anchor) lost(cit Citation, src *sourceFile, n int) string {
	what := "the line it cited"
	if a.lines != nil {
		what = fmt.Sprintf("%q", strings.Join(a.lines, " ⏎ "))
	}
	msg := fmt.Sprintf("%s no longer holds %s, and it is nowhere else in %s (%d lines)", cit.Location(), what, cit.Path, n)
	if cit.Symbol != "" {
		if from, to := funcLines(src, baseSymbol(cit.Symbol)); from > 0 {
			msg += fmt.Sprintf("; %s is at lines %d-%d", baseSymbol(cit.Symbol), from, to)
		} else if strings.HasSuffix(cit.Path, ".go") {
			msg += fmt.Sprintf("; %s is gone from the file", baseSymbol(cit.Symbol))
		}
	}
	return msg
}

// anchor finds the citation's anchor; when there is none, why says why not
// (empty for an immutable tree, where existence is the whole check).
func (c *checker) anchor(cit Citation, t target) (anchor, string) {
	if cit.Hash != "" {
		return anchor{hash: cit.Hash}, ""
	}
	if t.fixed {
		return anchor{}, ""
	}
	old, why := c.git.linesWhenWritten(cit, filepath.Join(t.root, t.rel))
	return anchor{lines: old}, why
}

// renamed looks for a local citation's file under its new name in the
// history of the journal's repository, from the commit that last changed
// the citation's journal line to HEAD.
func (c *checker) renamed(cit Citation, t target) (Finding, bool) {
	if t.fixed || c.git == nil {
		return Finding{}, false
	}
	newRel, ok := c.git.renamedTo(cit, filepath.Join(t.root, t.rel))
	if !ok {
		return Finding{}, false
	}
	now := target{root: c.git.root, rel: newRel, base: t.base, where: t.where}
	src, err := c.read(now)
	if err != nil {
		return Finding{}, false
	}
	a, _ := c.anchor(cit, t)
	if a.empty() {
		return Finding{Status: Broken, Message: fmt.Sprintf("broken: %s does not exist; it was renamed to %s, and with no anchor the line there is unknown", cit.Path, filepath.ToSlash(newRel))}, true
	}
	if at, ok := a.find(src, cit.From, 0, 0); ok {
		return c.moved(cit, t, now, at, c.symbolAt(now, src, at, cit.Symbol)), true
	}
	return Finding{Status: Broken, Message: fmt.Sprintf("broken: %s was renamed to %s, and the cited line is not in it", cit.Path, filepath.ToSlash(newRel))}, true
}
