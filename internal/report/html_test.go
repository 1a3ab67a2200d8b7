package report_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/golden"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// fixtureFiles reads the cited files of each side from its fixture under
// testdata/src (the trees of in-trees.json), and none of a dependency's:
// no module cache, so that the page does not depend on this machine's.
func fixtureFiles(sides []result.Side) []report.Files {
	var files []report.Files
	for _, s := range sides {
		files = append(files, report.TreeFiles(filepath.Join("..", "..", "testdata", "src", s.Tree.Root), ""))
	}
	return files
}

// htmlPage is the page of the comparison TestMarkdown writes: flux's
// controller-runtime controller as theirs, clientgo-finalizer's client-go
// one as ours.
func htmlPage(t *testing.T) []byte {
	t.Helper()
	sides := table(t)
	var b bytes.Buffer
	if err := report.HTML(&b, fixtureFiles(sides), sides...); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestHTML writes the page of the comparison: the table, each row's
// excerpts of both fixtures, and the answers.
func TestHTML(t *testing.T) {
	golden.Check(t, goldenPath("html.html"), htmlPage(t))
}

// TestStagesHTML writes the stages page of the client-go fixture: one
// object's life drawn in SVG, each arrow linked to its site's excerpt.
func TestStagesHTML(t *testing.T) {
	tr := trees(t)[1]
	files := report.TreeFiles(filepath.Join("..", "..", "testdata", "src", tr.Root), "")
	var b bytes.Buffer
	if err := report.StagesHTML(&b, files, tr, tr.Controllers[0]); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, goldenPath("stages.html"), b.Bytes())
}
