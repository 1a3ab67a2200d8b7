package report

import (
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// noneRef is a row without an answer whose reason an earlier row of the
// same controller already gives: id is that earlier row, extra what this
// row's reason adds to it ("" when the reasons are the same).
type noneRef struct{ id, extra string }

// see is the reference for a table whose first column says "none": "see"
// and the earlier row's name, then the extra reason.
func (r noneRef) see(name string) string {
	if r.extra != "" {
		return "see " + name + "; " + r.extra
	}
	return "see " + name
}

// cell is the reference as a cell of a comparison: "none (see …)", then
// the extra reason.
func (r noneRef) cell(name, extra string) string {
	if extra != "" {
		return "none (see " + name + "); " + extra
	}
	return "none (see " + name + ")"
}

// noneRefs finds, among a controller's rows in table order, those without
// an answer whose reason repeats the reason of an earlier such row, or
// extends it after a semicolon (the four finalizer rows of a controller
// without a finalizer), so that a table gives the reason once.
func noneRefs(c locate.Controller) map[string]noneRef {
	refs := map[string]noneRef{}
	var first []string
	for _, id := range locate.Rows {
		r := c.Rows[id]
		if hasPrimary(r) || r.None == "" {
			continue
		}
		ref, found := noneRef{}, false
		for _, f := range first {
			reason := c.Rows[f].None
			if r.None == reason {
				ref, found = noneRef{id: f}, true
			} else if extra, ok := strings.CutPrefix(r.None, reason+"; "); ok {
				ref, found = noneRef{id: f, extra: extra}, true
			}
			if found {
				break
			}
		}
		if found {
			refs[id] = ref
		} else {
			first = append(first, id)
		}
	}
	return refs
}

// noneText is the cell of a row without an answer: its reason, after
// "none: " unless the reason itself starts by saying there is none ("no
// finalizer: …", "not settled: …").
func noneText(reason string) string {
	if strings.HasPrefix(reason, "no ") || strings.HasPrefix(reason, "not ") {
		return reason
	}
	return "none: " + reason
}
