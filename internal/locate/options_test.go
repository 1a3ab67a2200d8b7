package locate_test

import (
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// TestStartedByOptions: the controllers a tree starts through an engine of
// its own, each reconciler carried by functional options that the engine
// applies to the options struct it makes (a slice of them spread into the
// call, one handed alone, one holding a library's wrapper), are found at
// their Reconcile, though an option only a test would use may also set
// how the controller is made; an object keeping its content in an
// unstructured map leaves its condition types not settled, never none.
func TestStartedByOptions(t *testing.T) {
	l := locateFixture(t, "optengine")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	got := map[string]locate.Controller{}
	for _, c := range l.ctrls {
		got[c.Name] = c
	}
	for _, name := range []string{"SecretReconciler", "ConfigMapReconciler", "WidgetReconciler"} {
		c, ok := got[name]
		if !ok {
			t.Errorf("%s: not found (found %d controllers)", name, len(l.ctrls))
			continue
		}
		if p, ok := c.Rows[locate.RowEntry].Primary(); !ok || !strings.Contains(p.Text, name) {
			t.Errorf("%s: entry %s:%d, want its Reconcile", name, p.File, p.Line)
		}
	}
	if reason := got["WidgetReconciler"].Rows[locate.RowConditionTypes].None; !strings.HasPrefix(reason, "not settled") || !strings.Contains(reason, "unstructured") {
		t.Errorf("WidgetReconciler condition-types: %q, want it not settled, saying the object is unstructured", reason)
	}
}
