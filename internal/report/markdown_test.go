package report_test

import (
	"bytes"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/golden"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
)

// TestMarkdown writes the comparison table of the two sides, with linked
// citations, and the answers under it.
func TestMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := report.Markdown(&b, table(t)...); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, goldenPath("markdown.md"), b.Bytes())
}

// TestMarkdownWithoutAnswers writes the comparison of flux's controller
// with clientgo-plain's, which has no finalizer and no condition: the first
// finalizer row gives the reason and the next three refer to it, citations
// inside reasons are links, and what theirs has that ours lacks names every
// condition type of theirs.
func TestMarkdownWithoutAnswers(t *testing.T) {
	ts := trees(t)
	var b bytes.Buffer
	if err := report.Markdown(&b, side(ts[0], "theirs"), side(ts[2], "ours")); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, goldenPath("markdown-none.md"), b.Bytes())
}
