package report

import (
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// FuzzWrapCell: wrapping a cell never makes a line wider than the column
// (unless one rune is), and, uncut, keeps every character that is not
// white space, in order (bytes that are not UTF-8 as U+FFFD).
func FuzzWrapCell(f *testing.F) {
	f.Add("internal/controller/kustomization_controller.go:1184\n(*KustomizationReconciler).finalize +2 more", 27)
	f.Add("[error-backoff] c.workqueue.AddRateLimited(objRef) // want \"requeue-error\"", 26)
	f.Add("* github.com/fluxcd/pkg/apis/meta@v1.31.0/conditions.go:43", 8)
	f.Add("日本語のテキスト… and a very_long_identifier_without_breaks", 3)
	f.Fuzz(func(t *testing.T, cell string, width int) {
		if width < 1 || width > 500 {
			return
		}
		lines := wrapCell(cell, width, 0)
		widest := 1
		for _, r := range cell {
			widest = max(widest, twwidth.Width(string(r)))
		}
		for _, l := range lines {
			if w := twwidth.Width(l); w > max(width, widest) {
				t.Fatalf("width %d: line %q is %d wide", width, l, w)
			}
		}
		if got, want := strings.Join(strings.Fields(strings.Join(lines, " ")), ""), strings.Join(strings.Fields(strings.ToValidUTF8(cell, "\uFFFD")), ""); got != want {
			t.Fatalf("width %d: wrapping lost characters:\n got %q\nwant %q", width, got, want)
		}
	})
}
