package locate_test

import (
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// TestCleanupInlineBranches: of the deletion branches that drop the
// finalizer inline, the one nested least deep is the main deletion path
// (the fixture's wants); two as deep leave the removal not settled, citing
// both.
func TestCleanupInlineBranches(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy: make test-heavy runs it")
	}
	l := locateFixture(t, "finbranches")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	for _, c := range l.ctrls {
		if c.Name != "PoolReconciler" {
			continue
		}
		row := c.Rows[locate.RowFinalizerRemove]
		if !strings.HasPrefix(row.None, "not settled: ") || len(row.Sites) != 2 {
			t.Errorf("PoolReconciler: finalizer-remove %q with %d sites, want not settled citing both removals", row.None, len(row.Sites))
		}
		return
	}
	t.Error("PoolReconciler not found")
}
