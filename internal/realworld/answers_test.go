package realworld_test

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// The answers beyond the table (spec/rows.md), as keyed: the interval
// trace's Spec field, the writes one pass of an unchanged object makes,
// and the drift correction's comparison and apply.
const (
	ansInterval = "interval"
	ansWrites   = "every_pass_writes"
	ansDrift    = "drift"
)

// answerIDs lists the answers in report order.
var answerIDs = []string{ansInterval, ansWrites, ansDrift}

// answersKey is a keyed controller's answers (FORMAT.md, "answers").
type answersKey struct {
	Interval *answerKey `json:"interval"`
	Writes   *answerKey `json:"every_pass_writes"`
	Drift    *answerKey `json:"drift"`
}

// answerKey is the key's answer to one of them: a site (interval: the
// Spec field, with its json path), a set of sites (the writes), a
// comparison and the function that applies (drift, with alternatives for
// the comparison), none, or unsettled (not scored).
type answerKey struct {
	At        string   `json:"at"`
	Path      string   `json:"path"`
	Sites     []string `json:"sites"`
	Compare   string   `json:"compare"`
	Or        []string `json:"or"`
	Apply     string   `json:"apply"`
	None      bool     `json:"none"`
	Unsettled bool     `json:"unsettled"`
}

func (k *answersKey) byID(id string) *answerKey {
	switch id {
	case ansInterval:
		return k.Interval
	case ansWrites:
		return k.Writes
	}
	return k.Drift
}

// judgeAnswer scores one answer of a located controller against the key.
func judgeAnswer(id string, c locate.Controller, want *answerKey, prefix string, found bool) (verdict, string) {
	if want == nil || want.Unsettled {
		return unscored, ""
	}
	if !found {
		return wrong, "the controller was not found"
	}
	if c.Unsettled != "" && id != ansInterval {
		return notSettled, "the controller was not analysed: " + c.Unsettled
	}
	switch id {
	case ansInterval:
		return judgeInterval(c, want, prefix)
	case ansWrites:
		return judgeWrites(c, want, prefix)
	}
	return judgeDrift(c, want, prefix)
}

// judgeInterval: the Spec fields the trace reaches must hold the key's;
// a trace that ends "not settled" (or a success requeue not settled)
// without reaching one is honest; a trace that ends at a constant, or no
// trace, is a certain "no field sets it".
func judgeInterval(c locate.Controller, want *answerKey, prefix string) (verdict, string) {
	var fields []string
	lost := ""
	for _, s := range c.IntervalTrace {
		switch {
		case s.Step == locate.StepSpecField:
			fields = append(fields, fmt.Sprintf("%s%s:%d", prefix, s.File, s.Line))
		case settledNot(s.Note) && lost == "":
			lost = fmt.Sprintf("%s (%s%s:%d)", s.Note, prefix, s.File, s.Line)
		}
	}
	if len(c.IntervalTrace) == 0 {
		if r := c.Rows[locate.RowRequeueSuccess]; settledNot(r.None) {
			lost = "the success requeue: " + r.None
		}
	}
	if want.None {
		switch {
		case len(fields) > 0:
			return wrong, fmt.Sprintf("traces to %v, the key says no field sets it", fields)
		case lost != "":
			return notSettled, lost + "; the key says none"
		}
		return right, ""
	}
	switch {
	case slices.Contains(fields, want.At):
		return right, ""
	case len(fields) > 0:
		return wrong, fmt.Sprintf("traces to %v, the key says %s (%s)", fields, want.At, want.Path)
	case lost != "":
		return notSettled, lost + "; the key says " + want.At
	case len(c.IntervalTrace) == 0:
		return wrong, "no interval trace (no success requeue), the key says " + want.At
	}
	last := c.IntervalTrace[len(c.IntervalTrace)-1]
	return wrong, fmt.Sprintf("the trace ends at %s%s:%d (%s: %s), the key says %s", prefix, last.File, last.Line, last.Step, last.Note, want.At)
}

// judgeWrites: the writes marked always must be the key's set; a smaller
// set with a write whose timing was not settled (read from an ill-typed
// body, or noted "not settled") is honest.
func judgeWrites(c locate.Controller, want *answerKey, prefix string) (verdict, string) {
	var got []string
	unsure := false
	for _, w := range c.Writes {
		if w.Always {
			got = append(got, fmt.Sprintf("%s%s:%d", prefix, w.File, w.Line))
		}
		if w.Partial || settledNot(w.Note) {
			unsure = true
		}
	}
	sort.Strings(got)
	got = slices.Compact(got)
	w := slices.Clone(want.Sites)
	sort.Strings(w)
	if slices.Equal(got, w) {
		return right, ""
	}
	why := fmt.Sprintf("every pass writes %v, the key says %v", orNone(got), orNone(w))
	if unsure && !slices.ContainsFunc(got, func(s string) bool { return !slices.Contains(w, s) }) {
		return notSettled, why + " (some writes' timing is not settled)"
	}
	return wrong, why
}

// judgeDrift: the key's comparison (or an alternative) must be among the
// comparisons cited, and the key's function among those that apply; no
// comparison with a write left unsettled is honest.
func judgeDrift(c locate.Controller, want *answerKey, prefix string) (verdict, string) {
	var compares, applies []string
	lost, cited := "", 0
	for _, s := range c.Drift {
		at := fmt.Sprintf("%s%s:%d", prefix, s.File, s.Line)
		switch s.Step {
		case locate.StepCompare, locate.StepLibraryCompare:
			compares = append(compares, at)
		case locate.StepApply, locate.StepLibraryApply:
			applies = append(applies, s.Func)
		case locate.StepUnread:
			if lost == "" {
				lost = fmt.Sprintf(" (not settled: %s at %s is not read)", s.Func, at)
			}
			continue
		case locate.StepUnsettled:
			if lost == "" {
				lost = fmt.Sprintf(" (%s, at %s)", s.Note, at)
			}
			continue
		}
		cited++
	}
	if want.None {
		switch {
		case cited > 0:
			return wrong, fmt.Sprintf("compares at %v and applies in %v, the key says none", orNone(compares), orNone(applies))
		case lost != "":
			return notSettled, "no drift cited" + lost + ", the key says none"
		}
		return right, ""
	}
	accepted := append([]string{want.Compare}, want.Or...)
	hasCompare := slices.ContainsFunc(compares, func(s string) bool { return slices.Contains(accepted, s) })
	if hasCompare && slices.Contains(applies, want.Apply) {
		return right, ""
	}
	why := fmt.Sprintf("compares at %v and applies in %v%s, the key says %s in %s", orNone(compares), orNone(applies), lost, want.Compare, want.Apply)
	if lost != "" {
		return notSettled, why
	}
	return wrong, why
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return "[" + strings.Join(s, " ") + "]"
}
