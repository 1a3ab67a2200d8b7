package journal

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const sampleJournal = `# 04 — controllers

I compared kustomize-controller with my operator.

<!-- ctrlcmp:begin id=table/Kustomization/Widget repo=https://github.com/fluxcd/kustomize-controller sha=186fb3b29138ce82ff61ba1a9370b96a3dd598fe version=v0.1.0 -->
| Part | theirs: ` + "`KustomizationReconciler`" + ` (kustomize-controller@186fb3b) | ours: ` + "`WidgetReconciler`" + ` (op@1234567) |
|---|---|---|
| the reconcile entry point | [kustomization_controller.go:129](https://github.com/fluxcd/kustomize-controller/blob/186fb3b29138ce82ff61ba1a9370b96a3dd598fe/internal/controller/kustomization_controller.go#L129 "ctrlcmp (*KustomizationReconciler).Reconcile 1a2b3c4d") ` + "`(*KustomizationReconciler).Reconcile`" + ` | [widget_controller.go:41](../operator/internal/controller/widget_controller.go#L41 "ctrlcmp (*WidgetReconciler).Reconcile 0badcafe") ` + "`(*WidgetReconciler).Reconcile`" + ` |
| the status condition types | **Ready** ` + "`github.com/fluxcd/pkg/apis/meta@v1.31.0/conditions.go:43`" + ` | none: no conditions |
<!-- ctrlcmp:end -->

## What I noticed

- Their entry re-reads the object first (` + "`internal/controller/kustomization_controller.go:140-152`" + `).
  - Nested: mine does it at [the top](../operator/internal/controller/widget_controller.go#L44-L46).
    - Deeper: see https://github.com/fluxcd/kustomize-controller/blob/main/main.go#L10 and
      https://github.com/fluxcd/pkg/blob/0123456789abcdef0123456789abcdef01234567/apis/meta/conditions.go#L43-L45.
- The finalizer is removed in operator/finalizer.go:88, and ` + "`operator/finalizer.go#L90-L91`" + ` cleans up.
- Not citations: localhost:8080, v1.2.3:4, 10:30, example.com:443, https://example.com/a.go:12, [a link](https://kubernetes.io/docs).

` + "```sh" + `
ctrlcmp check journal/04.md   # prints operator/finalizer.go:88 when it moves
` + "```" + `

~~~
operator/in_tilde_block.go:1
~~~
Escaped \[not a link](x.go#L1) and main.go:7.
`

func TestParseJournal(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		src := strings.ReplaceAll(sampleJournal, "\n", eol)
		d := Parse([]byte(src))
		if len(d.Problems) != 0 {
			t.Fatalf("problems: %v", d.Problems)
		}
		if len(d.Fences) != 1 {
			t.Fatalf("fences: %+v", d.Fences)
		}
		f := d.Fences[0]
		if f.ID != "table/Kustomization/Widget" || f.Repo != "https://github.com/fluxcd/kustomize-controller" ||
			f.Sha != "186fb3b29138ce82ff61ba1a9370b96a3dd598fe" || f.Version != "v0.1.0" || f.BeginLine != 5 || f.EndLine != 10 {
			t.Errorf("fence = %+v", f)
		}
		if !strings.HasPrefix(src[f.Start:], beginMarker) || !strings.HasSuffix(src[:f.End], endMarker) {
			t.Errorf("fence offsets %d-%d do not span the markers", f.Start, f.End)
		}
		type want struct {
			line                int
			loc, repo, ref, sym string
			hash                string
			link                bool
			fence               int
		}
		wants := []want{
			{8, "internal/controller/kustomization_controller.go:129", "https://github.com/fluxcd/kustomize-controller", "186fb3b29138ce82ff61ba1a9370b96a3dd598fe", "(*KustomizationReconciler).Reconcile", "1a2b3c4d", true, 0},
			{8, "../operator/internal/controller/widget_controller.go:41", "", "", "(*WidgetReconciler).Reconcile", "0badcafe", true, 0},
			{9, "github.com/fluxcd/pkg/apis/meta@v1.31.0/conditions.go:43", "", "", "", "", false, 0},
			{14, "internal/controller/kustomization_controller.go:140-152", "", "", "", "", false, -1},
			{15, "../operator/internal/controller/widget_controller.go:44-46", "", "", "", "", true, -1},
			{16, "main.go:10", "https://github.com/fluxcd/kustomize-controller", "main", "", "", false, -1},
			{17, "apis/meta/conditions.go:43-45", "https://github.com/fluxcd/pkg", "0123456789abcdef0123456789abcdef01234567", "", "", false, -1},
			{18, "operator/finalizer.go:88", "", "", "", "", false, -1},
			{18, "operator/finalizer.go:90-91", "", "", "", "", false, -1},
			{28, "x.go:1", "", "", "", "", false, -1}, // an escaped link is text
			{28, "main.go:7", "", "", "", "", false, -1},
		}
		if len(d.Citations) != len(wants) {
			for _, c := range d.Citations {
				t.Logf("line %d: %s %q", c.Line, c.Location(), c.Text)
			}
			t.Fatalf("%d citations, want %d", len(d.Citations), len(wants))
		}
		for i, w := range wants {
			c := d.Citations[i]
			got := want{c.Line, c.Location(), c.Repo, c.Ref, c.Symbol, c.Hash, c.Link, c.Fence}
			if got != w {
				t.Errorf("citation %d:\n got %+v\nwant %+v", i, got, w)
			}
			if src[c.Start:c.End] != c.Text {
				t.Errorf("citation %d: offsets give %q, text is %q", i, src[c.Start:c.End], c.Text)
			}
		}
	}
}

func TestParseMalformedFences(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"a\n<!-- ctrlcmp:begin id=x -->\nb\n", "line 2: ctrlcmp:begin without"},
		{"<!-- ctrlcmp:end -->\n", "line 1: <!-- ctrlcmp:end --> without a ctrlcmp:begin"},
		{"<!-- ctrlcmp:begin id=x -->\n<!-- ctrlcmp:begin id=y -->\n<!-- ctrlcmp:end -->\n", "line 2: a ctrlcmp:begin inside the fence opened at line 1"},
		{"<!-- ctrlcmp:begin id=x\n", "line 1: the ctrlcmp:begin line does not end with -->"},
		{"<!-- ctrlcmp:begin id -->\n<!-- ctrlcmp:end -->\n", `line 1: the ctrlcmp:begin line has "id", not key=value`},
		{"<!-- ctrlcmp:begin id=x -->\n<!-- ctrlcmp:end -->\n<!-- ctrlcmp:end -->\n<!-- ctrlcmp:begin id=x -->\n<!-- ctrlcmp:end -->\n", "line 3: <!-- ctrlcmp:end --> without"},
		{"<!-- ctrlcmp:begin id=x -->\n<!-- ctrlcmp:end -->\n<!-- ctrlcmp:begin id=x -->\n<!-- ctrlcmp:end -->\n", "line 3: a second fence with id=x (the first is at line 1)"},
		{"<!-- ctrlcmp:begin id=x -->\na/b.go:1\n", "line 1: ctrlcmp:begin without"},
	} {
		d := Parse([]byte(tc.src))
		var got []string
		for _, p := range d.Problems {
			got = append(got, "line "+strconv.Itoa(p.Line)+": "+p.Message)
		}
		if len(got) == 0 || !strings.HasPrefix(got[0], tc.want) {
			t.Errorf("Parse(%q) problems = %q, want %q", tc.src, got, tc.want)
		}
		for _, c := range d.Citations {
			if c.Fence >= len(d.Fences) {
				t.Errorf("Parse(%q): citation %q is in fence %d of %d", tc.src, c.Text, c.Fence, len(d.Fences))
			}
		}
	}
}

func TestParseSkipsMarkersInCodeBlocks(t *testing.T) {
	src := "```\n<!-- ctrlcmp:begin id=x -->\n```\ntext\n"
	if d := Parse([]byte(src)); len(d.Fences) != 0 || len(d.Problems) != 0 {
		t.Errorf("a marker in a code block was read: %+v", d)
	}
}

func TestRewriteKeepsStyle(t *testing.T) {
	for _, tc := range []struct {
		line, path string
		from, to   int
		sym, want  string
	}{
		{"see a/b.go:10 here", "a/b.go", 12, 12, "", "a/b.go:12"},
		{"see a/b.go:10-14 here", "a/c.go", 11, 15, "", "a/c.go:11-15"},
		{"see `a/b.go#L10-L14` here", "a/b.go", 20, 24, "", "a/b.go#L20-L24"},
		{`[b.go:10](../a/b.go#L10 "ctrlcmp (*R).Old 0badcafe")`, "../a/c.go", 11, 11, "(*R).New", `[c.go:11](../a/c.go#L11 "ctrlcmp (*R).New 0badcafe")`},
		{`[the top](../a/b.go#L10-L12)`, "../a/b.go", 13, 15, "", `[the top](../a/b.go#L13-L15)`},
		{"https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/x.go#L5", "x.go", 6, 6, "", "https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/x.go#L6"},
	} {
		cs := lineCitations(tc.line)
		if len(cs) != 1 {
			t.Fatalf("%q: %d citations", tc.line, len(cs))
		}
		if got := cs[0].rewrite(tc.path, tc.from, tc.to, tc.sym); got != tc.want {
			t.Errorf("rewrite of %q = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// citationShape is the regular expression pathSpans stands for.
var citationShape = regexp.MustCompile(`([\w.@+~/-]+)(?::\d+(?:-\d+)?|#L\d+(?:-L?\d+)?)`)

// FuzzPathSpans: the one-pass scanner finds what the regular expression
// finds, leftmost first and without overlap.
func FuzzPathSpans(f *testing.F) {
	for _, s := range []string{
		"a/b.go:12:34", "a:1b/c.go:5", "x.go:10-20 y.go#L3-L4 z.go#L5-6", "a.go:1- b.go:x c.go#L", "v1.2.3:4, 10:30",
		"`operator/finalizer.go#L90-L91`", "a.go:1x/b.go:2", "::1 #L1 a#L-1 b:-1", "https://example.com/a.go:12",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var want [][3]int
		for _, m := range citationShape.FindAllStringSubmatchIndex(line, -1) {
			want = append(want, [3]int{m[0], m[3], m[1]})
		}
		if got := pathSpans(line); !slices.Equal(got, want) {
			t.Fatalf("pathSpans(%q) = %v, want %v", line, got, want)
		}
	})
}
