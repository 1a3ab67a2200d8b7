package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
)

// writeText writes text into the file at path, creating its directory.
func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheckMalformedJournal: check refuses a journal whose fences cannot be
// read with exit 2 and the line naming the problem, the same line a write
// into that journal gives (and it once panicked on an unclosed fence).
func TestCheckMalformedJournal(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "op", "a.go"), "package a\n")
	log := filepath.Join(fixturesDir, "..", "logs", "settles.log")
	for _, tc := range []struct{ name, text, says string }{
		{"unclosed", "# notes\n\n<!-- ctrlcmp:begin id=table/A/B dirs=op -->\n| `a.go:1` | [a.go:1](op/a.go#L1) |\n",
			"line 3: ctrlcmp:begin without <!-- ctrlcmp:end -->; add the end line after the generated text"},
		{"same id", "<!-- ctrlcmp:begin id=stages/Widget -->\n<!-- ctrlcmp:end -->\nop/a.go:1\n<!-- ctrlcmp:begin id=stages/Widget -->\n<!-- ctrlcmp:end -->\n",
			"line 4: a second fence with id=stages/Widget (the first is at line 1); delete one of them"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, tc.name+".md")
			writeText(t, file, tc.text)
			code, out, errs := run(t, "check", file)
			if code != fail.CodeUsage || out != "" {
				t.Errorf("check: exit %d, stdout %q; want exit %d and nothing on stdout", code, out, fail.CodeUsage)
			}
			wantOneLine(t, errs, "ctrlcmp: journal "+file+": "+tc.says)
			code, _, written := run(t, "stages", dir, "--log", log, "--journal", file)
			if code != fail.CodeUsage || written != errs {
				t.Errorf("stages --journal: exit %d, stderr %q; want exit %d and what check says, %q", code, written, fail.CodeUsage, errs)
			}
		})
	}
}

// TestCheckHint: the closing line counts the problems and says what to do
// about the kinds there are: --fix only when some citation has moved.
func TestCheckHint(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "op", "a.go"), "package a\n")
	file := filepath.Join(dir, "notes.md")
	writeText(t, file, "Gone: op/missing.go:1. Not committed: op/a.go:1.\n")
	for _, tc := range []struct {
		args []string
		says string
	}{
		{nil, "ctrlcmp: 1 citation problem(s): fix the 1 broken or rejected one(s) by hand\n"},
		{[]string{"--strict"}, "ctrlcmp: 2 citation problem(s): fix the 1 broken or rejected one(s) by hand; the 1 unverified one(s) fail because of --strict; each line says what would verify it\n"},
	} {
		code, _, errs := run(t, append([]string{"check", file}, tc.args...)...)
		if code != fail.CodeFindings || errs != tc.says {
			t.Errorf("check %v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errs, fail.CodeFindings, tc.says)
		}
		if strings.Contains(errs, "--fix") {
			t.Errorf("check %v: --fix is offered with nothing moved", tc.args)
		}
	}
}
