package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// Explain writes one answer of a controller with its whole path of
// evidence: every site of a row with its class and note, or every step of
// a trace, or every write with the calls that reach it.
func Explain(w io.Writer, t result.Tree, c locate.Controller, what string) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s of %s (%s) in %s\n", what, locate.Question(what), c.Name, c.Kind, t.Label())
	line := func(s cite.Site, extra string) {
		fmt.Fprintf(&b, "  %s:%d  %s\n      %s\n", s.File, s.Line, s.Func, s.Text)
		if extra != "" {
			fmt.Fprintf(&b, "      %s\n", extra)
		}
	}
	switch what {
	case locate.AnswerIntervalTrace, locate.AnswerRetryTrace, locate.AnswerDrift:
		steps := c.IntervalTrace
		switch what {
		case locate.AnswerRetryTrace:
			steps = c.RetryTrace
		case locate.AnswerDrift:
			steps = c.Drift
		}
		if len(steps) == 0 {
			fmt.Fprintf(&b, "  none: %s\n", explainNone(c, what))
		}
		for i, s := range steps {
			fmt.Fprintf(&b, "%d. %s\n", i+1, s.Step)
			line(s.Site, s.Note)
		}
	case locate.AnswerWrites:
		if c.Unsettled != "" {
			fmt.Fprintf(&b, "  not settled: %s\n", c.Unsettled)
		} else if len(c.Writes) == 0 {
			b.WriteString("  none: no write is reachable from the entry\n")
		}
		for _, wr := range c.Writes {
			when := "only on some paths"
			if wr.Always {
				when = "on every pass that succeeds"
			}
			if wr.Partial {
				when += " " + partialMark
			}
			fmt.Fprintf(&b, "- %s %s, %s\n", wr.Verb, wr.Target, when)
			line(wr.Site, wr.Note)
			for _, p := range wr.Path {
				fmt.Fprintf(&b, "      via %s\n", p)
			}
		}
	default:
		r := c.Rows[what]
		if !hasPrimary(r) {
			fmt.Fprintf(&b, "  none: %s\n", r.None)
		}
		for _, s := range r.Sites {
			mark := " "
			if s.Primary {
				mark = "*"
			}
			var extra []string
			partial := ""
			if s.Partial {
				partial = partialMark
			}
			for _, x := range []string{s.Name, s.Class, s.Note, partial} {
				if x != "" {
					extra = append(extra, x)
				}
			}
			fmt.Fprintf(&b, "%s", mark)
			line(s.Site, strings.Join(extra, "; "))
			if s.Set != nil {
				fmt.Fprintf(&b, "      set at %s:%d  %s\n", s.Set.File, s.Set.Line, s.Set.Text)
			}
		}
		if len(r.Sites) > 0 {
			b.WriteString("* marks the primary site, the one the table cites; the others support it.\n")
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Explainable lists what explain can show: the row ids and the answers.
func Explainable() []string {
	var ids []string
	for _, t := range locate.Topics() {
		ids = append(ids, t.ID)
	}
	return ids
}

func explainNone(c locate.Controller, what string) string {
	switch {
	case what == locate.AnswerIntervalTrace:
		return c.Rows[locate.RowRequeueSuccess].None
	case what == locate.AnswerRetryTrace:
		return "no failure path requeues after a duration"
	case c.Unsettled != "":
		return "not settled: " + c.Unsettled
	}
	return "no apply through a library that detects drift, and no comparison guarding a write of another object"
}
