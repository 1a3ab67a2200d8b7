package locate_test

import (
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// TestKindThroughInterface: a reconciler that reads its object by the
// request's key as an interface, registered for a concrete kind, has the
// registration's kind, its re-read says so, and the rows that search for
// the kind's own operations are not settled rather than a false none; a
// reconciler of the same tree that reads its object as what it is keeps
// its nones.
func TestKindThroughInterface(t *testing.T) {
	l := locateFixture(t, "ifacekind")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	kindRows := []string{locate.RowFinalizerConst, locate.RowFinalizerAdd, locate.RowFinalizerCleanup, locate.RowFinalizerRemove}
	for _, c := range l.ctrls {
		through := c.Name == "ObjectReconciler"
		if through {
			if c.Kind != "Widget" {
				t.Errorf("%s: kind %q, want Widget (the registration's)", c.Name, c.Kind)
			}
			if p, ok := c.Rows[locate.RowReread].Primary(); !ok || !strings.Contains(p.Note, "its kind is the registration's") {
				t.Errorf("%s: reread %+v, want the Get with a note that the kind is the registration's", c.Name, c.Rows[locate.RowReread])
			}
		}
		for _, id := range kindRows {
			reason := c.Rows[id].None
			if got := strings.HasPrefix(reason, "not settled: the primary object is handled as"); got != through {
				t.Errorf("%s: %s: %q, want not settled through the interface: %v", c.Name, id, reason, through)
			}
		}
	}
}
