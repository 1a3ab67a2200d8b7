package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// journalGit is the git history of a journal, read with go-git: which
// commit last changed each of its lines, and the cited files at those
// commits.
type journalGit struct {
	ctx         context.Context
	repo        *git.Repository
	root        string // the work tree's root
	head        *object.Commit
	lineCommits []plumbing.Hash                     // per line of the journal as it is on disk; zero when not committed
	files       map[string]*sourceFile              // commit:path -> the file at that commit
	renames     map[plumbing.Hash]map[string]string // from a commit to HEAD: old path -> new path
	// boundary holds the commits where a shallow clone's history stops: a
	// line blamed on one of them may have been written before it, so the
	// text it cited is unknown.
	boundary map[plumbing.Hash]bool
}

// WorkTreeRoot is the root of the work tree of the git repository holding
// dir, symlinks resolved, or "" when dir is in none: where check lets a
// journal in dir cite files, besides --root. dir need not exist yet (its
// nearest existing parent is asked).
func WorkTreeRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(abs); err == nil || filepath.Dir(abs) == abs {
			break
		}
		abs = filepath.Dir(abs)
	}
	_, root, err := openWorkTree(abs)
	return root, err
}

// openWorkTree opens the git repository holding dir, and returns it and
// its work tree's root, symlinks resolved; nil and "" when dir is in none
// (or in a bare repository, which holds no files on disk). A linked work
// tree (git worktree add) is opened with the main repository's refs and
// objects, which its own .git directory does not hold.
func openWorkTree(dir string) (*git.Repository, string, error) {
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return nil, "", nil
	}
	root, err := realDir(wt.Filesystem.Root())
	if err != nil {
		return nil, "", err
	}
	return repo, root, nil
}

// openJournalGit reads the history of the journal at abs (whose bytes on
// disk are src); nil when it is not in a git repository.
func openJournalGit(ctx context.Context, abs string, src []byte) (*journalGit, error) {
	repo, root, err := openWorkTree(filepath.Dir(abs))
	if repo == nil || err != nil {
		return nil, err
	}
	g := &journalGit{ctx: ctx, repo: repo, root: root, files: map[string]*sourceFile{},
		renames: map[plumbing.Hash]map[string]string{}}
	g.lineCommits = make([]plumbing.Hash, strings.Count(string(src), "\n")+1)
	ref, err := repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return g, nil // no commits yet
	}
	if err != nil {
		return nil, err
	}
	shallow, err := repo.Storer.Shallow()
	if err != nil {
		return nil, err
	}
	var objects storer.EncodedObjectStorer = repo.Storer
	if len(shallow) > 0 {
		g.boundary = map[plumbing.Hash]bool{}
		for _, h := range shallow {
			g.boundary[h] = true
		}
		objects = cutHistory{EncodedObjectStorer: repo.Storer, boundary: g.boundary}
	}
	if g.head, err = object.GetCommit(objects, ref.Hash()); err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return nil, err
	}
	rel = filepath.ToSlash(rel)
	committed, err := g.head.File(rel)
	if errors.Is(err, object.ErrFileNotFound) {
		return g, nil // the journal is not committed yet
	}
	if err != nil {
		return nil, err
	}
	text, err := committed.Contents()
	if err != nil {
		return nil, err
	}
	blame, err := git.Blame(g.head, rel)
	if err != nil {
		return nil, fmt.Errorf("blame %s: %w", rel, err)
	}
	// Map the lines on disk to the committed ones: an edited or added line
	// has no commit yet.
	diffs := []diffmatchpatch.Diff{{Type: diffmatchpatch.DiffEqual, Text: text}}
	if text != string(src) {
		diffs = diff.Do(text, string(src))
	}
	headLine, diskLine := 0, 0
	for _, d := range diffs {
		n := strings.Count(d.Text, "\n")
		if !strings.HasSuffix(d.Text, "\n") {
			n++
		}
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			for i := 0; i < n; i++ {
				if headLine+i < len(blame.Lines) && diskLine+i < len(g.lineCommits) {
					g.lineCommits[diskLine+i] = blame.Lines[headLine+i].Hash
				}
			}
			headLine, diskLine = headLine+n, diskLine+n
		case diffmatchpatch.DiffDelete:
			headLine += n
		case diffmatchpatch.DiffInsert:
			diskLine += n
		}
	}
	return g, nil
}

// inside returns the path of abs in the repository, slash-separated.
func (g *journalGit) inside(abs string) (string, bool) {
	rel, err := filepath.Rel(g.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// linesWhenWritten returns the lines a hand-typed citation cited when it
// was written: in the commit that last changed its journal line, the file
// at abs. When there is no such commit, why says so.
func (g *journalGit) linesWhenWritten(cit Citation, abs string) (lines []string, why string) {
	if g == nil {
		return nil, "the journal is not in a git repository, so the text it cited is unknown; commit the journal to anchor its citations"
	}
	rel, ok := g.inside(abs)
	if !ok {
		return nil, "it is outside the journal's git repository, so the text it cited is unknown"
	}
	h := g.lineCommits[cit.Line-1]
	if h.IsZero() {
		return nil, "the journal line is not committed yet; commit it to anchor the citation"
	}
	if g.boundary[h] {
		return nil, fmt.Sprintf("this clone is shallow, and its history stops at commit %s, where the journal line is first seen, so the text it cited is unknown; %s", h.String()[:12], ShallowFix)
	}
	f := g.fileAt(h, rel)
	if f.err != nil {
		return nil, fmt.Sprintf("%s was not in commit %s, which last changed this journal line, so the text it cited is unknown", rel, h.String()[:12])
	}
	if cit.To > len(f.lines) {
		return nil, fmt.Sprintf("it was past the end of %s (%d lines) in commit %s, which last changed this journal line", rel, len(f.lines), h.String()[:12])
	}
	return f.foldedLines()[cit.From-1 : cit.To], ""
}

// cutOff reports whether the citation's journal line is blamed on a commit
// where a shallow clone's history stops: its anchor may be older.
func (g *journalGit) cutOff(cit Citation) bool {
	return g != nil && g.boundary[g.lineCommits[cit.Line-1]]
}

// fileAt is the file at path rel in commit h, read once (its error too).
func (g *journalGit) fileAt(h plumbing.Hash, rel string) *sourceFile {
	key := h.String() + ":" + rel
	if f, ok := g.files[key]; ok {
		return f
	}
	f := &sourceFile{}
	g.files[key] = f
	c, err := g.repo.CommitObject(h)
	if err != nil {
		f.err = err
		return f
	}
	file, err := c.File(rel)
	if err != nil {
		f.err = err
		return f
	}
	text, err := file.Contents()
	if err != nil {
		f.err = err
		return f
	}
	f.lines = splitLines(text)
	return f
}

// renamedTo follows the file at abs from the commit that last changed the
// citation's journal line to HEAD, and returns its new path in the
// repository when it was renamed.
func (g *journalGit) renamedTo(cit Citation, abs string) (string, bool) {
	rel, ok := g.inside(abs)
	if !ok || g.head == nil {
		return "", false
	}
	from := g.lineCommits[cit.Line-1]
	if from.IsZero() || from == g.head.Hash {
		return "", false
	}
	renames, ok := g.renames[from]
	if !ok {
		renames = map[string]string{}
		g.renames[from] = renames
		if err := g.collectRenames(from, renames); err != nil {
			return "", false
		}
	}
	newRel, ok := renames[rel]
	return filepath.FromSlash(newRel), ok
}

func (g *journalGit) collectRenames(from plumbing.Hash, renames map[string]string) error {
	c, err := g.repo.CommitObject(from)
	if err != nil {
		return err
	}
	before, err := c.Tree()
	if err != nil {
		return err
	}
	after, err := g.head.Tree()
	if err != nil {
		return err
	}
	changes, err := object.DiffTreeWithOptions(g.ctx, before, after, object.DefaultDiffTreeOptions)
	if err != nil {
		return err
	}
	for _, ch := range changes {
		if ch.From.Name != "" && ch.To.Name != "" && ch.From.Name != ch.To.Name {
			renames[ch.From.Name] = ch.To.Name
		}
	}
	return nil
}
