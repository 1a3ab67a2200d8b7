package report_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/ctrlcmp/ctrlcmp/internal/report"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// trees decodes the printers' fixed input, testdata/in-trees.json: the
// analysed flux tree, the clientgo-finalizer one, then the clientgo-plain
// one (no finalizer, no condition), each with its one controller.
func trees(t *testing.T) []result.Tree {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "in-trees.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc report.Document
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != report.Schema || len(doc.Trees) != 3 {
		t.Fatalf("in-trees.json: schema %q with %d trees, want %s with 3", doc.Schema, len(doc.Trees), report.Schema)
	}
	return doc.Trees
}

// side makes a column of a comparison from a tree, named as the table names
// its sides ("theirs", "ours"), that links its citations to fixed targets.
func side(tr result.Tree, name string) result.Side {
	tr.Side = name
	tr.Link = func(file string, line int) string { return "../tree/" + file + fmt.Sprintf("#L%d", line) }
	return result.Side{Tree: tr, Controller: tr.Controllers[0]}
}

// table is the comparison the table command makes of the input: flux's
// controller as theirs, clientgo-finalizer's as ours.
func table(t *testing.T) []result.Side {
	ts := trees(t)
	return []result.Side{side(ts[0], "theirs"), side(ts[1], "ours")}
}

// goldenPath names the golden file of one printer's output.
func goldenPath(name string) string { return filepath.Join("testdata", "golden-"+name) }

// TestMain measures text with narrow widths for East Asian ambiguous
// characters (the ellipsis), whatever the locale, so that the text goldens
// do not depend on $LANG.
func TestMain(m *testing.M) {
	twwidth.SetEastAsian(false)
	os.Exit(m.Run())
}
