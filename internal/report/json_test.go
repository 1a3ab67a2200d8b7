package report_test

import (
	"bytes"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/golden"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
)

// TestJSON writes the decoded input back as a ctrlcmp/v1 document.
func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := report.JSON(&b, trees(t)...); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, goldenPath("json.json"), b.Bytes())
}
