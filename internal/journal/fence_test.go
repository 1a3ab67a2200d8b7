package journal

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/diff"
)

var tableRegion = Region{ID: "table/Kustomization/Widget", Repo: "https://github.com/fluxcd/kustomize-controller",
	Sha: "186fb3b29138ce82ff61ba1a9370b96a3dd598fe", Version: "v0.1.0", Body: "| a | b |\n|---|---|\n| [x.go:1](x.go#L1) | y |\n"}

func TestSplice(t *testing.T) {
	begin := tableRegion.beginLine()
	fence := begin + "\n" + tableRegion.Body + endMarker
	for _, tc := range []struct{ name, src, want string }{
		{"new file", "", fence + "\n"},
		{"appended after a blank line", "# Notes\n\nprose\n", "# Notes\n\nprose\n\n" + fence + "\n"},
		{"appended to a last line without newline", "prose", "prose\n\n" + fence + "\n"},
		{"replaced in place", "a\n<!-- ctrlcmp:begin id=table/Kustomization/Widget sha=old -->\nold table\n<!-- ctrlcmp:end -->\nb\n", "a\n" + fence + "\nb\n"},
		{"indented markers keep their indent", "- item\n  <!-- ctrlcmp:begin id=table/Kustomization/Widget -->\n  old\n  <!-- ctrlcmp:end --> tail\n", "- item\n  " + fence + " tail\n"},
		{"CRLF journal gets CRLF fence", "a\r\n<!-- ctrlcmp:begin id=table/Kustomization/Widget -->\r\nold\r\n<!-- ctrlcmp:end -->\r\nb\r\n", "a\r\n" + strings.ReplaceAll(fence, "\n", "\r\n") + "\r\nb\r\n"},
		{"CRLF journal appended with CRLF", "a\r\n", "a\r\n\r\n" + strings.ReplaceAll(fence, "\n", "\r\n") + "\r\n"},
		{"other fences kept", "<!-- ctrlcmp:begin id=other -->\nkeep\n<!-- ctrlcmp:end -->\n", "<!-- ctrlcmp:begin id=other -->\nkeep\n<!-- ctrlcmp:end -->\n\n" + fence + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Splice([]byte(tc.src), tableRegion)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("Splice:\n%q\nwant\n%q", got, tc.want)
			}
			again, err := Splice(got, tableRegion)
			if err != nil || !bytes.Equal(again, got) {
				t.Fatalf("second Splice changed the journal (err %v):\n%q", err, again)
			}
		})
	}
}

func TestSpliceRefuses(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"<!-- ctrlcmp:begin id=table/Kustomization/Widget -->\nx\n", "line 1: ctrlcmp:begin without"},
		{"<!-- ctrlcmp:begin id=table/Kustomization/Widget -->\n<!-- ctrlcmp:end -->\n<!-- ctrlcmp:begin id=table/Kustomization/Widget -->\n<!-- ctrlcmp:end -->\n", "line 3: a second fence"},
		{"text\n```\nunclosed code block\n", "would not read back"},
	} {
		if _, err := Splice([]byte(tc.src), tableRegion); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Splice(%q) error = %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestUpdateIsAtomicKeepsModeAndIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "04-controllers.md")
	prose := "# My journal\r\n\r\nWords I wrote.\r\n"
	if err := os.WriteFile(path, []byte(prose), 0o600); err != nil {
		t.Fatal(err)
	}
	_, first, err := Update(path, tableRegion, false)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(first, []byte(prose)) {
		t.Fatalf("prose changed:\n%q", first)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode after update = %v (%v), want 0600", st.Mode().Perm(), err)
	}
	before, after, err := Update(path, tableRegion, false)
	if err != nil || !bytes.Equal(before, after) || !bytes.Equal(after, first) {
		t.Fatalf("second update changed the journal (err %v)", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}

	changed := tableRegion
	changed.Body = strings.Replace(changed.Body, "y", "z", 1)
	before, after, err = Update(path, changed, true)
	if err != nil || bytes.Equal(before, after) {
		t.Fatalf("dry run saw no change (err %v)", err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, first) {
		t.Fatal("dry run wrote the journal")
	}
	diff := diff.Unified("04-controllers.md", before, after)
	for _, want := range []string{"--- 04-controllers.md\n", "@@ -5,5 +5,5 @@\n", "-| [x.go:1](x.go#L1) | y |\r\n", "+| [x.go:1](x.go#L1) | z |\r\n", " " + endMarker} {
		if !strings.Contains(diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, diff)
		}
	}
}

func TestUpdateCreatesMissingJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.md")
	if _, _, err := Update(path, tableRegion, false); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if d := Parse(got); len(d.Fences) != 1 || d.Fences[0].ID != tableRegion.ID {
		t.Fatalf("new journal:\n%s", got)
	}
}

// TestUpdateWriteError: a journal that cannot be written is a *WriteError
// naming it, and nothing is left behind; a malformed one is not.
func TestUpdateWriteError(t *testing.T) {
	dir := t.TempDir()
	// The name fits the file system, but not the temporary file's name
	// beside it: the write fails even for root.
	path := filepath.Join(dir, strings.Repeat("j", 240)+".md")
	_, _, err := Update(path, tableRegion, false)
	var we *WriteError
	if !errors.As(err, &we) || we.Path != path || !strings.Contains(err.Error(), path) {
		t.Errorf("Update(%s) error = %v, want a *WriteError naming it", path, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed write left %s behind", entries[0].Name())
	}
	malformed := filepath.Join(dir, "malformed.md")
	if err := os.WriteFile(malformed, []byte("text\n```\nunclosed code block\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Update(malformed, tableRegion, false); err == nil || errors.As(err, &we) {
		t.Errorf("Update of a malformed journal: error = %v, want one that is not a *WriteError", err)
	}
}

// FuzzSplice: Splice never panics, never changes a byte outside the fence it
// writes, and a second Splice changes nothing.
func FuzzSplice(f *testing.F) {
	f.Add([]byte(""), "| a |\n")
	f.Add([]byte(sampleJournal), "| new |\n")
	f.Add([]byte(strings.ReplaceAll(sampleJournal, "\n", "\r\n")), "x")
	f.Add([]byte("<!-- ctrlcmp:begin id=table/Kustomization/Widget -->\n<!-- ctrlcmp:end -->"), "")
	f.Add([]byte("```\n<!-- ctrlcmp:begin id=table/Kustomization/Widget -->\n```\n"), "a\n```\n")
	f.Add([]byte("x\r<!-- ctrlcmp:begin id=table/Kustomization/Widget -->\r\n\r<!-- ctrlcmp:end -->\n"), "<!-- ctrlcmp:end -->\n")
	f.Fuzz(func(t *testing.T, src []byte, body string) {
		r := tableRegion
		r.Body = body
		out, err := Splice(src, r)
		if err != nil {
			return
		}
		start, end := len(src), len(src) // appended: all of src is before the fence
		for _, fe := range Parse(src).Fences {
			if fe.ID == r.ID {
				start, end = fe.Start, fe.End
			}
		}
		if !bytes.HasPrefix(out, src[:start]) || !bytes.HasSuffix(out, src[end:]) {
			t.Fatalf("bytes outside the fence changed:\nsrc %q\nout %q", src, out)
		}
		again, err := Splice(out, r)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("second Splice changed the journal (err %v):\nout   %q\nagain %q", err, out, again)
		}
	})
}

// FuzzParse: Parse never panics, and every citation's offsets hold its
// text on the line it names.
func FuzzParse(f *testing.F) {
	f.Add([]byte(sampleJournal))
	f.Add([]byte(strings.ReplaceAll(sampleJournal, "\n", "\r\n")))
	f.Add([]byte("[a](b.go#L1 \"ctrlcmp (*T).M 0badcafe\") `c/d.go:3-4` e/f.go#L5-L6 [[x]](<y z.go#L2>)"))
	f.Add([]byte("https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/x.go#L99999999999999999999"))
	f.Add([]byte("``x/y.go:1`` ```` a ` b ```` [`](q.go#L1)"))
	f.Fuzz(func(t *testing.T, src []byte) {
		d := Parse(src)
		for _, c := range d.Citations {
			if c.Start < 0 || c.End > len(src) || c.Start > c.End || string(src[c.Start:c.End]) != c.Text {
				t.Fatalf("citation %+v: offsets do not hold its text", c)
			}
			if line := bytes.Count(src[:c.Start], []byte("\n")) + 1; line != c.Line {
				t.Fatalf("citation %q is on line %d, says %d", c.Text, line, c.Line)
			}
			c.rewrite(c.Path+"x", c.From+1, c.To+1, c.Symbol+"y") // must not panic
		}
		for _, fe := range d.Fences {
			if fe.Start < 0 || fe.End > len(src) || fe.Start > fe.End {
				t.Fatalf("fence %+v: offsets out of the journal", fe)
			}
		}
	})
}

func TestBeginLineRoundTrip(t *testing.T) {
	r := Region{ID: "table/A/B", Repo: "https://example.com/o/r", Sha: "186fb3b29138ce82ff61ba1a9370b96a3dd598fe",
		Checkout: "../their checkout", Dirs: []string{"../their checkout", "../odd, name dir"}, Version: "v1 beta"}
	f, msg := parseBegin(r.beginLine())
	if msg != "" {
		t.Fatal(msg)
	}
	if f.ID != r.ID || f.Repo != r.Repo || f.Sha != r.Sha || f.Checkout != r.Checkout || f.Version != r.Version || !slices.Equal(f.Dirs, r.Dirs) {
		t.Fatalf("%s read back as %+v", r.beginLine(), f)
	}
}
