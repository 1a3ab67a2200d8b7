package report_test

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/golden"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
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

// TestMarkdownPartial: under the table, each side whose analysis was
// partial says so, and why, so that a journal written from it does too.
func TestMarkdownPartial(t *testing.T) {
	sides := table(t)
	sides[0].Tree.Warnings = []string{"k8s.io/klog/v2: missing go.sum entry for module providing package k8s.io/klog/v2"}
	sides[1].Tree.Warnings = []string{"controller.go:242:15: cannot use \"str\" (untyped string constant) as int value in variable declaration"}
	sides[1].Tree.Unanalysed = []string{"(*Controller).syncHandler"}
	var b bytes.Buffer
	if err := report.Markdown(&b, sides...); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "_Partial analysis") {
			got = append(got, line)
		}
	}
	want := []string{
		"_Partial analysis: reading theirs met 1 problem (see the warnings); rows may lack answers the tree holds._",
		"_Partial analysis: 1 function of ours could not be analysed because of type errors (`(*Controller).syncHandler`; see the warnings); rows it might answer say \"not settled\"._",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(b.String(), "|\n\n_Partial analysis") {
		t.Error("the notes do not stand right under the table")
	}
}

// TestMarkdownPartialSite: a table cell whose site was read from a body
// that does not type-check carries the mark, and the legend explains it
// under the table.
func TestMarkdownPartialSite(t *testing.T) {
	sides := table(t)
	row := sides[1].Controller.Rows[locate.RowReread]
	sites := slices.Clone(row.Sites)
	for i := range sites {
		sites[i].Partial = sites[i].Primary
	}
	row.Sites = sites
	rows := maps.Clone(sides[1].Controller.Rows)
	rows[locate.RowReread] = row
	sides[1].Controller.Rows = rows
	var b bytes.Buffer
	if err := report.Markdown(&b, sides...); err != nil {
		t.Fatal(err)
	}
	var cell string
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "| "+locate.Question(locate.RowReread)+" |") {
			cell = line
		}
	}
	if cells := strings.Split(cell, " | "); len(cells) < 3 || !strings.Contains(cells[2], "(partial)") || strings.Contains(cells[1], "(partial)") {
		t.Errorf("the re-read row does not mark ours' site alone: %q", cell)
	}
	if !strings.Contains(b.String(), "\n_(partial) marks a site found in a function body that does not type-check") {
		t.Error("no legend under the table")
	}
}
