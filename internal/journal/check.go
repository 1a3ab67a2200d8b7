package journal

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
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
	// Shallow marks an Unverified citation whose anchor is in history a
	// shallow clone does not have (see ShallowFix).
	Shallow bool
	// Pin is, for a citation Broken because its repository lacks the
	// commit it is pinned at (force-pushed away, never pushed), that
	// repository and commit: "REPO at SHA". Every citation of the pin
	// shares the fault, and the fix is to move the pin.
	Pin string
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
