package stages_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/golden"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
	"github.com/ctrlcmp/ctrlcmp/internal/stages"
)

// viewed are the trees of the views' fixed input, testdata/in-NAME.json:
// client-go controllers with their stage rows, with and without a finalizer.
var viewed = []string{"clientgo-finalizer", "clientgo-plain"}

// decode reads testdata/in-name.json into v.
func decode(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "in-"+name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

// treeOf decodes the one tree of a ctrlcmp/v1 document in the input, with
// citations linked to fixed targets.
func treeOf(t *testing.T, name string) result.Tree {
	t.Helper()
	var doc struct {
		Trees []result.Tree `json:"trees"`
	}
	decode(t, name, &doc)
	if len(doc.Trees) != 1 || len(doc.Trees[0].Controllers) != 1 {
		t.Fatalf("in-%s.json: want one tree with one controller", name)
	}
	tr := doc.Trees[0]
	tr.Link = func(file string, line int) string { return "../tree/" + file + fmt.Sprintf("#L%d", line) }
	return tr
}

// goldenPath names the golden file of one view's output.
func goldenPath(name string) string { return filepath.Join("testdata", "golden-"+name) }

// TestText writes each input controller's stage sites for the terminal.
func TestText(t *testing.T) {
	for _, name := range viewed {
		t.Run(name, func(t *testing.T) {
			tr := treeOf(t, name)
			var b bytes.Buffer
			if err := stages.Text(&b, tr, tr.Controllers[0]); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, goldenPath("text-"+name+".txt"), b.Bytes())
		})
	}
}

// TestMarkdown writes each input controller's stage table, with linked
// citations, and its sequence diagram.
func TestMarkdown(t *testing.T) {
	for _, name := range viewed {
		t.Run(name, func(t *testing.T) {
			tr := treeOf(t, name)
			var b bytes.Buffer
			if err := stages.Markdown(&b, tr, tr.Controllers[0]); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, goldenPath("markdown-"+name+".md"), b.Bytes())
		})
	}
}

// TestMermaid writes each input controller's sequence diagram alone.
func TestMermaid(t *testing.T) {
	for _, name := range viewed {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := stages.Mermaid(&b, treeOf(t, name).Controllers[0]); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, goldenPath("mermaid-"+name+".mmd"), b.Bytes())
		})
	}
}

// reading decodes testdata/in-reading.json: what ReadLog made of
// testdata/logs/settles.log (one object, two passes, settles).
func reading(t *testing.T) stages.Reading {
	t.Helper()
	var rd stages.Reading
	decode(t, "reading", &rd)
	return rd
}

// TestLogText writes the annotated excerpt and the object's verdict.
func TestLogText(t *testing.T) {
	var b bytes.Buffer
	if err := stages.LogText(&b, reading(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, goldenPath("logtext.txt"), b.Bytes())
}

// TestLogMarkdown writes the excerpt as a fenced block and the objects as a
// table.
func TestLogMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := stages.LogMarkdown(&b, reading(t)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, goldenPath("logmarkdown.md"), b.Bytes())
}
