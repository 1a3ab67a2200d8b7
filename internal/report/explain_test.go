package report_test

import (
	"bytes"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/golden"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
)

// TestExplain writes every topic of the flux controller, each to its own
// golden file: its rows' sites, its two traces, its writes and its (empty)
// drift.
func TestExplain(t *testing.T) {
	tr := trees(t)[0]
	for _, topic := range locate.Topics() {
		t.Run(topic.ID, func(t *testing.T) {
			var b bytes.Buffer
			if err := report.Explain(&b, tr, tr.Controllers[0], topic.ID); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, goldenPath("explain-"+topic.ID+".txt"), b.Bytes())
		})
	}
}
