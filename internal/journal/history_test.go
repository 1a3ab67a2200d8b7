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
