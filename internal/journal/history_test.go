package journal

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/loopback"
)

// shiftController inserts a comment line above every cited site of the
// widget controller in the work tree at root.
func shiftController(t *testing.T, root string) {
	t.Helper()
	writeFile(t, root, "operator/internal/controller/widget_controller.go", strings.Replace(widgetController,
		"type WidgetReconciler struct{}", "// WidgetReconciler reconciles widgets.\ntype WidgetReconciler struct{}", 1))
}

// TestCheckInWorktree checks a journal in a linked work tree (git worktree
// add), whose .git is a file naming the main repository's: it verifies like
// a clone of the same commit, its moved citations found, rather than taking
// every hand-typed line for uncommitted.
func TestCheckInWorktree(t *testing.T) {
	root, _ := operatorRepo(t, journalText(t))
	wt := filepath.Join(t.TempDir(), "wt")
	loopback.Git(t, root, "worktree", "add", "-q", "-b", "shifted", wt)
	got, _ := checkJournal(t, wt)
	wantFindings(t, got)

	shiftController(t, wt)
	loopback.Git(t, wt, "commit", "-q", "-a", "-m", "document the reconciler")
	clone := filepath.Join(t.TempDir(), "clone")
	loopback.Git(t, root, "clone", "-q", "-b", "shifted", root, clone)
	inClone, _ := checkJournal(t, clone)
	inWorktree, _ := checkJournal(t, wt)
	if !slices.Equal(inWorktree, inClone) {
		t.Fatalf("in the work tree:\n%s\nin a clone of the same commit:\n%s", strings.Join(inWorktree, "\n"), strings.Join(inClone, "\n"))
	}
	if n := len(inClone); n != 4 {
		t.Fatalf("a clone finds %d problems, want the 4 moved:\n%s", n, strings.Join(inClone, "\n"))
	}
}

// TestCheckInShallowClone checks a journal in a shallow clone (CI's
// default): the generated citations, anchored by their own hashes, verify
// as in a full clone; a hand-typed one verifies when the commit that last
// changed its line is in the clone, and is otherwise unverified and marked
// Shallow, with the fix, rather than failing the whole journal.
func TestCheckInShallowClone(t *testing.T) {
	root, repo := operatorRepo(t, journalText(t))
	shiftController(t, root)
	writeFile(t, root, "journal/04-controllers.md", journalText(t)+"- Written after the shift: operator/internal/controller/widget_controller.go:9.\r\n")
	commitAll(t, repo, "document the reconciler; a note")
	for _, tc := range []struct {
		depth   string
		shallow []int // the journal lines whose anchor is cut off
	}{
		{"1", []int{13, 14, 15, 16}},
		{"2", []int{13, 14, 15}},
	} {
		t.Run("depth "+tc.depth, func(t *testing.T) {
			clone := filepath.Join(t.TempDir(), "clone")
			loopback.Git(t, t.TempDir(), "clone", "-q", "--depth", tc.depth, "file://"+root, clone)
			got, res := checkJournal(t, clone)
			var shallow []int
			for _, f := range res.Findings {
				if f.Shallow {
					shallow = append(shallow, f.Citation.Line)
					if f.Status != Unverified || !strings.Contains(f.Message, "this clone is shallow") || !strings.Contains(f.Message, "fetch-depth: 0") {
						t.Errorf("line %d: %s %s", f.Citation.Line, f.Status, f.Message)
					}
				}
			}
			if !slices.Equal(shallow, tc.shallow) {
				t.Errorf("cut off: lines %v, want %v\n%s", shallow, tc.shallow, strings.Join(got, "\n"))
			}
			// The generated citations moved with the shift, as in a full clone.
			for _, want := range []string{"6: moved: ", "7: moved: "} {
				if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
					t.Errorf("no %q in:\n%s", want, strings.Join(got, "\n"))
				}
			}
		})
	}
}
