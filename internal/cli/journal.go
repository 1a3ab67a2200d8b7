package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/diff"
	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/journal"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// writeJournal puts the markdown table of sides into the journal at path,
// in the fence of this comparison, table/ID (table/THEIRKIND/OURKIND when
// id is ""), theirs' repository and sha recorded on its begin line when
// theirs is pinned, or a checkout check must fetch. With check it writes
// nothing: it prints a diff and fails with exit code 1 when the journal is
// out of date. Through warn it says what check will need for a local tree
// it will not find in a clone of the journal's repository, and that a
// fence pinned at another commit of theirs is replaced.
func writeJournal(out io.Writer, path, id string, check bool, progress, warn func(string), sides ...result.Side) error {
	var body bytes.Buffer
	if err := report.Markdown(&body, sides...); err != nil {
		return err
	}
	theirs, ours := sides[0], sides[len(sides)-1]
	region := journal.Region{
		ID:      "table/" + controllerID(theirs) + "/" + controllerID(ours),
		Dirs:    localDirs(sides),
		Version: Version,
		Body:    body.String(),
	}
	if id != "" {
		region.ID = "table/" + id
	}
	if err := recordTrees(&region, path, sides, warn); err != nil {
		return err
	}
	if !check {
		warnRepin(path, region, warn)
	}
	before, after, err := journal.Update(path, region, check)
	if err != nil {
		return updateError(err)
	}
	switch {
	case check && !bytes.Equal(before, after):
		fmt.Fprint(out, diff.Unified(path, before, after))
		return fail.Wrap(fail.CodeFindings, fmt.Errorf("journal %s is out of date; run the same command without --check to update it", path))
	case progress == nil:
	case bytes.Equal(before, after):
		progress(fmt.Sprintf("journal %s is up to date", path))
	default:
		progress(fmt.Sprintf("wrote the table into %s", path))
	}
	return nil
}

// warnRepin says when the region replaces a fence of its id pinned at
// another commit of theirs: a table at a new commit replaces the old one,
// unless it is given a fence of its own with --id.
func warnRepin(path string, r journal.Region, warn func(string)) {
	src, err := os.ReadFile(path)
	if err != nil {
		return
	}
	for _, f := range journal.Parse(src).Fences {
		if f.ID == r.ID && f.Sha != "" && r.Sha != "" && f.Sha != r.Sha {
			warn(fmt.Sprintf("journal %s: the table in fence id=%s was pinned at %s; it is replaced by the one at %s. To keep both, write this one with --id NAME (its fence is then id=table/NAME)", path, r.ID, f.Sha, r.Sha))
		}
	}
}

// updateError gives a failure of journal.Update its exit code: 5 when the
// journal could not be written, 2 when the journal as given is at fault
// (it cannot be read, or its fences are malformed).
func updateError(err error) error {
	if errors.As(err, new(*journal.WriteError)) {
		return writeFailure(err)
	}
	return fail.Wrap(fail.CodeUsage, err)
}

// writeFailure gives a journal that could not be written exit code 5 and
// says what to look at; it returns any other error unchanged.
func writeFailure(err error) error {
	var we *journal.WriteError
	if !errors.As(err, &we) {
		return err
	}
	switch {
	case errors.Is(err, journal.ErrReadOnly):
		return fail.Wrap(fail.CodeJournal, fmt.Errorf("%w; the journal is unchanged: make it writable (chmod u+w %s) and run again", err, we.Path))
	case errors.Is(err, journal.ErrLinkToNothing):
		return fail.Wrap(fail.CodeJournal, fmt.Errorf("%w; the journal is unchanged", err))
	}
	return fail.Wrap(fail.CodeJournal, fmt.Errorf("%w; the journal is unchanged: check that %s is writable and has free space, then run again", err, filepath.Dir(we.Path)))
}

// controllerID names a side's controller in a fence id: its kind, else its
// reconciler's name.
func controllerID(s result.Side) string {
	if s.Controller.Kind != "" {
		return s.Controller.Kind
	}
	return s.Controller.Name
}

// localDirs are the roots of the local trees among sides, relative to the
// journal (where their links lead): the plain path:line citations the table
// holds are relative to them.
func localDirs(sides []result.Side) []string {
	var dirs []string
	for _, s := range sides {
		if dir, ok := localDir(s.Tree); ok {
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

// localDir is the root of a local tree relative to the journal, where its
// links lead; false for a pinned tree (its fence fields are repo= and sha=).
func localDir(t result.Tree) (string, bool) {
	if t.Link == nil || t.Sha != "" && strings.Contains(t.Link(".", 1), "/blob/"+t.Sha+"/") {
		return "", false
	}
	return strings.TrimSuffix(t.Link(".", 1), "#L1"), true
}

// recordTrees records in the region the tree of theirs that check reads
// its citations in. A pinned tree is recorded as such (repo=, sha=). So is
// a local checkout of theirs that a clone of the journal's repository does
// not hold (it is outside it, or a repository of its own inside it), at its
// origin and commit, with where it is (checkout=): check reads the
// citations into it in that commit, fetched like a pinned tree. A local
// tree that cannot be recorded so (ours, or theirs without git or an
// origin) gets a warning saying what check will need.
func recordTrees(r *journal.Region, journalPath string, sides []result.Side, warn func(string)) error {
	jdir, err := filepath.Abs(filepath.Dir(journalPath))
	if err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(jdir); err == nil {
		jdir = real
	}
	repoRoot, err := journal.WorkTreeRoot(jdir)
	if err != nil {
		return fail.Wrap(fail.CodeUsage, fmt.Errorf("journal %s: reading the git repository holding it: %w; check that repository (git status there)", journalPath, err))
	}
	bound := repoRoot
	if bound == "" {
		bound = jdir
	}
	for i, s := range sides {
		theirs := i == 0
		dir, local := localDir(s.Tree)
		if !local {
			if theirs {
				r.Repo, r.Sha = s.Tree.Repo, s.Tree.Sha
			}
			continue
		}
		// Citations and links are relative to the root of the git work
		// tree holding a tree (the tree itself when there is none), and
		// then it has a sha.
		root := filepath.Join(jdir, filepath.FromSlash(dir))
		if real, err := filepath.EvalSymlinks(root); err == nil {
			root = real
		}
		isGit := s.Tree.Sha != ""
		outside := !within(bound, root)
		nested := !outside && isGit && repoRoot != "" && root != repoRoot
		if !outside && !nested {
			continue
		}
		if theirs && isGit && s.Tree.Repo != "" {
			r.Repo, r.Sha, r.Checkout = s.Tree.Repo, s.Tree.Sha, dir
			if s.Tree.Dirty {
				warn(fmt.Sprintf("their tree %s has uncommitted changes: the journal records %s at %s, and `ctrlcmp check` reads that commit, not your changes; commit and push them, then write the table again", s.Tree.Root, s.Tree.Repo, s.Tree.Sha))
			}
			continue
		}
		warn(unrecordedTree(s.Tree.Root, journalPath, theirs, outside, isGit))
	}
	return nil
}

// unrecordedTree is the warning about a local tree a clone of the journal's
// repository will not hold (it is outside it, or else a repository of its
// own nested in it), and that the journal cannot record as pinned.
func unrecordedTree(root, journalPath string, theirs, outside, isGit bool) string {
	what, where := "our tree", "is outside the journal's repository"
	if theirs {
		what = "their tree"
	}
	if !outside {
		where = "is a git repository of its own inside the journal's"
	}
	need := "a CI clone of the journal's repository will not have it"
	if outside {
		need = fmt.Sprintf("`ctrlcmp check %s` will reject its citations unless run with --root DIR (a directory holding both), and %s", journalPath, need)
	}
	fix := "keep the journal in our tree's repository"
	switch {
	case theirs && isGit:
		where += " and has no origin remote with a URL to fetch it from"
		fix = "give it an origin (git remote add origin URL) and write the table again, or pin their tree with --theirs SHA --theirs-repo URL"
	case theirs:
		where += " and not a git checkout"
		fix = "pin their tree with --theirs SHA --theirs-repo URL instead"
	}
	return fmt.Sprintf("%s %s %s: %s; %s", what, root, where, need, fix)
}

// within reports whether path is dir or inside it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
