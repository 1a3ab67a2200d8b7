package report_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/ctrlcmp/ctrlcmp/internal/golden"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// textWidths are the terminal widths of the text goldens.
var textWidths = []int{80, 120}

// TestText writes the flux tree's controller and the clientgo-plain one
// (rows without an answer, a reason given once) as terminal tables, at 80
// and at 120 columns.
func TestText(t *testing.T) {
	ts := trees(t)
	for _, width := range textWidths {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			var b bytes.Buffer
			for _, tr := range []result.Tree{ts[0], ts[2]} {
				if err := report.Text(&b, tr, width); err != nil {
					t.Fatal(err)
				}
			}
			golden.Check(t, goldenPath(fmt.Sprintf("text-%d.txt", width)), b.Bytes())
		})
	}
}

// TestTextTable writes the comparison of flux's controller with
// clientgo-plain's as a terminal table, at 80 and at 120 columns.
func TestTextTable(t *testing.T) {
	ts := trees(t)
	for _, width := range textWidths {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			var b bytes.Buffer
			if err := report.TextTable(&b, width, side(ts[0], "theirs"), side(ts[2], "ours")); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, goldenPath(fmt.Sprintf("texttable-%d.txt", width)), b.Bytes())
		})
	}
}

// TestTextFits checks that no line of the text formats is wider than the
// terminal, from narrow to wide, and that the header is printed as given.
func TestTextFits(t *testing.T) {
	ts := trees(t)
	for width := 60; width <= 200; width += 7 {
		var b bytes.Buffer
		for _, tr := range ts {
			if err := report.Text(&b, tr, width); err != nil {
				t.Fatal(err)
			}
		}
		for _, ours := range ts[1:] {
			if err := report.TextTable(&b, width, side(ts[0], "theirs"), side(ours, "ours")); err != nil {
				t.Fatal(err)
			}
		}
		for i, line := range strings.Split(b.String(), "\n") {
			if w := twwidth.Width(line); w > width {
				t.Errorf("width %d: line %d is %d wide: %s", width, i+1, w, line)
			}
		}
		if !strings.Contains(b.String(), "theirs:") || strings.Contains(b.String(), "THEIRS") {
			t.Errorf("width %d: the table's header is not printed as given", width)
		}
	}
}
