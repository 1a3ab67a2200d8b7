package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/diff"
	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/journal"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// writeJournal puts the markdown table of sides into the journal at path,
// in the fence of this comparison (theirs' repository and sha recorded on
// its begin line). With check it writes nothing: it prints a diff and fails
// with exit code 1 when the journal is out of date.
func writeJournal(out io.Writer, path string, check bool, progress func(string), sides ...result.Side) error {
	var body bytes.Buffer
	if err := report.Markdown(&body, sides...); err != nil {
		return err
	}
	theirs, ours := sides[0], sides[len(sides)-1]
	region := journal.Region{
		ID:      "table/" + controllerID(theirs) + "/" + controllerID(ours),
		Repo:    theirs.Tree.Repo,
		Sha:     theirs.Tree.Sha,
		Dirs:    localDirs(sides),
		Version: Version,
		Body:    body.String(),
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
	if errors.Is(err, journal.ErrReadOnly) {
		return fail.Wrap(fail.CodeJournal, fmt.Errorf("%w; the journal is unchanged: make it writable (chmod u+w %s) and run again", err, we.Path))
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
		if s.Tree.Link == nil || s.Tree.Sha != "" && strings.Contains(s.Tree.Link(".", 1), "/blob/"+s.Tree.Sha+"/") {
			continue // a pinned tree: its fence fields are repo= and sha=
		}
		dirs = append(dirs, strings.TrimSuffix(s.Tree.Link(".", 1), "#L1"))
	}
	return dirs
}
