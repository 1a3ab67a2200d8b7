package locate_test

import (
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// TestEventKinds: an event queue whose items are structs holding the
// object before and after a change has that object's type as its kind;
// and what a controller writes through a clientset it holds as an
// interface (kubernetes.Interface) is not set on its own object. In both,
// the children's conditions are not the primary's: the row is a none from
// a complete search, not "not settled".
func TestEventKinds(t *testing.T) {
	l := locateFixture(t, "eventkinds")
	if l.err != nil {
		t.Fatalf("load: %v", l.err)
	}
	want := map[string]string{"ServiceWatcher": "Service", "ConfigMapClaims": "ConfigMap"}
	for _, c := range l.ctrls {
		kind, ok := want[c.Name]
		if !ok {
			t.Errorf("unexpected controller %s", c.Name)
			continue
		}
		delete(want, c.Name)
		if c.Kind != kind {
			t.Errorf("%s: kind %q, want %q", c.Name, c.Kind, kind)
		}
		if r := c.Rows[locate.RowConditionTypes]; strings.HasPrefix(r.None, "not settled") {
			t.Errorf("%s: condition-types: %s, want none", c.Name, r.None)
		}
	}
	for name := range want {
		t.Errorf("no controller %s", name)
	}
}
