package report_test

import (
	"bytes"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/golden"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
)

// TestText writes the flux tree's controller as a terminal table.
func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := report.Text(&b, trees(t)[0]); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, goldenPath("text.txt"), b.Bytes())
}

// TestTextTable writes the comparison of the two sides as a terminal table.
func TestTextTable(t *testing.T) {
	var b bytes.Buffer
	if err := report.TextTable(&b, table(t)...); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, goldenPath("texttable.txt"), b.Bytes())
}
