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

// TestCleanupSavesAndRunners: a branch that only forgets the object once a
// helper dropped the finalizer and saved it, and one whose runner only
// calls an interface parameter's Delete, leave the cleanup not settled,
// naming what they run.
func TestCleanupSavesAndRunners(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy: make test-heavy runs it")
	}
	l := locateFixture(t, "finsaves")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	want := map[string][]string{
		"EvictReconciler": {"EvictReconciler).evict", "evict.go:60"},
		"PartsReconciler": {"runDelete", "endpointsPart).Delete", "finalizerPart).Delete"},
	}
	for _, c := range l.ctrls {
		names, ok := want[c.Name]
		if !ok {
			continue
		}
		delete(want, c.Name)
		row := c.Rows[locate.RowFinalizerCleanup]
		if !strings.HasPrefix(row.None, "not settled: ") {
			t.Errorf("%s: finalizer-cleanup %q, want not settled", c.Name, row.None)
		}
		for _, n := range names {
			if !strings.Contains(row.None, n) {
				t.Errorf("%s: finalizer-cleanup %q does not name %s", c.Name, row.None, n)
			}
		}
	}
	for name := range want {
		t.Errorf("%s not found", name)
	}
}
