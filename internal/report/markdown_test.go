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
