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
// client-go controllers with their stage rows, with and without a finalizer,
// and a generated reconciler whose queue and worker the dependency holds.
var viewed = []string{"clientgo-finalizer", "clientgo-plain", "knative"}

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

// TestViews writes each input controller's stages in each view: the
// terminal table, the markdown table with linked citations and its sequence
// diagram, and the sequence diagram alone.
func TestViews(t *testing.T) {
	views := []struct {
		name, ext string
		write     func(*bytes.Buffer, result.Tree) error
	}{
		{"text", "txt", func(b *bytes.Buffer, tr result.Tree) error { return stages.Text(b, tr, tr.Controllers[0]) }},
		{"markdown", "md", func(b *bytes.Buffer, tr result.Tree) error { return stages.Markdown(b, tr, tr.Controllers[0]) }},
		{"mermaid", "mmd", func(b *bytes.Buffer, tr result.Tree) error { return stages.Mermaid(b, tr.Controllers[0]) }},
	}
	for _, v := range views {
		for _, name := range viewed {
			t.Run(v.name+"/"+name, func(t *testing.T) {
				var b bytes.Buffer
				if err := v.write(&b, treeOf(t, name)); err != nil {
					t.Fatal(err)
				}
				golden.Check(t, goldenPath(v.name+"-"+name+"."+v.ext), b.Bytes())
			})
		}
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
