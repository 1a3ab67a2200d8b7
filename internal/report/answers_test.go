package report_test

import (
	"bytes"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/golden"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
)

// TestAnswers writes the answers of the comparison the other way round:
// clientgo-finalizer as theirs, flux as ours, so that ours lacks nothing
// (TestMarkdown covers a comparison where it does).
func TestAnswers(t *testing.T) {
	ts := trees(t)
	var b bytes.Buffer
	if err := report.Answers(&b, side(ts[1], "theirs"), side(ts[0], "ours")); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, goldenPath("answers.md"), b.Bytes())
}
