package locate

import (
	"strings"
	"testing"
)

// TestInternalError: a panic of ctrlcmp's own becomes an error naming the
// place it happened, and a controller whose analysis panicked has every
// row not settled, never none, and its answers (writes, drift) not
// settled either.
func TestInternalError(t *testing.T) {
	var m map[string]int
	err := internalError(func() { m["x"] = 1 })
	if err == nil || !strings.Contains(err.Error(), "internal error in ctrlcmp") || !strings.Contains(err.Error(), "internalerror_test.go:") {
		t.Fatalf("got %v, want an internal error naming internalerror_test.go", err)
	}
	if err := internalError(func() {}); err != nil {
		t.Fatalf("no panic: got %v", err)
	}
	c := failedController(&found{name: "R", style: StyleClientGo}, err)
	for _, l := range locators {
		r := c.Rows[l.ID]
		if len(r.Sites) != 0 || !strings.HasPrefix(r.None, "not settled: internal error") {
			t.Errorf("%s: %+v, want not settled", l.ID, r)
		}
	}
	if !strings.HasPrefix(c.Unsettled, "internal error") {
		t.Errorf("answers: unsettled %q, want the internal error", c.Unsettled)
	}
}
