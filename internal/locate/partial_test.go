package locate_test

import (
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// TestUnreadMainWork: the entry hands back what a function that does not
// type-check returns (fixture illtypedend). Its returns are not read, so
// the main work's failure is not settled whatever the entry's own failure
// returns are, nor the success requeue whatever an earlier return asks
// (the Gadget's), and the condition types found are not settled beyond
// themselves: the helper that function calls is not followed.
func TestUnreadMainWork(t *testing.T) {
	l := locateFixture(t, "illtypedend")
	if l.err != nil || len(l.ctrls) != 2 {
		t.Fatalf("load: %v (%d controllers)", l.err, len(l.ctrls))
	}
	var c, g locate.Controller
	for _, lc := range l.ctrls {
		switch lc.Name {
		case "WidgetReconciler":
			c = lc
		case "GadgetReconciler":
			g = lc
		}
	}
	if r := g.Rows[locate.RowRequeueSuccess]; !strings.Contains(r.None, "gadget.go:34, which requeues after an interval, may not be the steady state") {
		t.Errorf("Gadget requeue-success: %q, want the early requeue named as not known to be the steady state", r.None)
	}
	if r := c.Rows[locate.RowRequeueError]; !strings.Contains(r.None, "the success path ends at ") || !strings.Contains(r.None, "(*WidgetReconciler).build") {
		t.Errorf("requeue-error: %q, want it to name the end in build, which was not read", r.None)
	}
	p, ok := c.Rows[locate.RowConditionTypes].Primary()
	if !ok {
		t.Fatalf("condition-types: no primary site (%s)", c.Rows[locate.RowConditionTypes].None)
	}
	for _, want := range []string{"not settled beyond these", "widget.go:61 ", "calls (*WidgetReconciler).markBuilt"} {
		if !strings.Contains(p.Note, want) {
			t.Errorf("condition-types note %q: want it to say %q", p.Note, want)
		}
	}
}
