package locate_test

import (
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// TestSearchedNones: a none of the condition and requeue rows is a claim
// after a complete search, and says what it searched: the candidates in
// general terms and the functions it covered.
func TestSearchedNones(t *testing.T) {
	cases := []struct {
		fixture, ctrl, row string
		mentions           []string
	}{
		{"requeueflows", "EtaReconciler", locate.RowConditionTypes, []string{"Status.Conditions", "(*EtaReconciler).Reconcile"}},
		{"condflows", "AlphaReconciler", locate.RowRequeueSuccess, []string{"RequeueAfter", "(*AlphaReconciler).Reconcile"}},
	}
	for _, tc := range cases {
		l := locateFixture(t, tc.fixture)
		if l.err != nil {
			t.Fatalf("%s: load: %v", tc.fixture, l.err)
		}
		found := false
		for _, c := range l.ctrls {
			if c.Name != tc.ctrl {
				continue
			}
			found = true
			r := c.Rows[tc.row]
			if _, ok := r.Primary(); ok || r.None == "" {
				t.Errorf("%s %s: want a none, got %+v", tc.ctrl, tc.row, r)
				continue
			}
			for _, m := range tc.mentions {
				if !strings.Contains(r.Searched, m) {
					t.Errorf("%s %s: searched %q does not mention %q", tc.ctrl, tc.row, r.Searched, m)
				}
			}
		}
		if !found {
			t.Errorf("%s: no controller %s", tc.fixture, tc.ctrl)
		}
	}
}
