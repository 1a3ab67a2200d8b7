package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// Answers writes, under the table, the three questions the reader answers
// from the source — what the success requeue waits for, what one reconcile
// of an unchanged object writes, where drift is corrected — for each side,
// and, for a comparison of two, what theirs has that ours lacks.
func Answers(w io.Writer, sides ...result.Side) error {
	var b bytes.Buffer
	b.WriteString("\n### What the success requeue waits for\n\n")
	for _, s := range sides {
		fmt.Fprintf(&b, "- %s:", sideName(s))
		if len(s.Controller.IntervalTrace) == 0 {
			fmt.Fprintf(&b, " no timed requeue on success. %s\n", mdText(s.Tree, s.Controller.Rows[locate.RowRequeueSuccess].None))
		} else {
			b.WriteString("\n")
			writeSteps(&b, s.Tree, s.Controller.IntervalTrace)
		}
		if len(s.Controller.RetryTrace) > 0 {
			b.WriteString("  - on failure, the retry waits for:\n")
			for _, st := range s.Controller.RetryTrace {
				fmt.Fprintf(&b, "    - %s %s%s\n", st.Step, mdCite(s.Tree, st.File, st.Line, st.Func, st.Text), stepNote(s.Tree, st.Note))
			}
		}
	}

	b.WriteString("\n### What one reconcile of an unchanged object writes\n\n")
	for _, s := range sides {
		always, some := splitWrites(s.Controller.Writes)
		fmt.Fprintf(&b, "- %s: ", sideName(s))
		if s.Controller.Unsettled != "" {
			fmt.Fprintf(&b, "not settled: %s.\n", mdText(s.Tree, s.Controller.Unsettled))
			continue
		}
		if len(always) == 0 {
			b.WriteString("no write dominates the normal return, so an unchanged object's pass writes nothing unless a branch finds a difference")
		} else {
			b.WriteString("on every pass that succeeds: ")
			var parts []string
			for _, wr := range always {
				parts = append(parts, writeText(s.Tree, wr))
			}
			b.WriteString(strings.Join(parts, "; "))
		}
		b.WriteString(".\n")
		if len(some) > 0 {
			fmt.Fprintf(&b, "  - only on some paths (under a comparison, an error branch or a flag): ")
			var parts []string
			for _, wr := range some {
				parts = append(parts, writeText(s.Tree, wr))
			}
			b.WriteString(strings.Join(parts, "; ") + ".\n")
		}
	}

	b.WriteString("\n### Where drift is corrected\n\n")
	for _, s := range sides {
		fmt.Fprintf(&b, "- %s:", sideName(s))
		if s.Controller.Unsettled != "" {
			fmt.Fprintf(&b, " not settled: %s.\n", mdText(s.Tree, s.Controller.Unsettled))
			continue
		}
		if len(s.Controller.Drift) == 0 {
			b.WriteString(" none found: no apply through a library that detects drift, and no comparison guarding a write of another object.\n")
			continue
		}
		b.WriteString("\n")
		writeSteps(&b, s.Tree, s.Controller.Drift)
	}
	if len(sides) == 2 {
		lacks(&b, sides[0], sides[1])
	}
	_, err := w.Write(b.Bytes())
	return err
}

func sideName(s result.Side) string {
	if s.Tree.Side != "" {
		return s.Tree.Side + " (`" + s.Controller.Name + "`)"
	}
	return "`" + s.Controller.Name + "`"
}

func writeSteps(b *bytes.Buffer, t result.Tree, steps []locate.Step) {
	for _, st := range steps {
		fmt.Fprintf(b, "  - %s %s%s\n", st.Step, mdCite(t, st.File, st.Line, st.Func, st.Text), stepNote(t, st.Note))
	}
}

func stepNote(t result.Tree, note string) string {
	if note == "" {
		return ""
	}
	return ": " + mdText(t, note)
}

func writeText(t result.Tree, w locate.Write) string {
	return mdPieces(writePieces(t, w))
}

// lacks lists, with citations, each row or answer where theirs has an
// answer and ours has none.
func lacks(b *bytes.Buffer, theirs, ours result.Side) {
	items := lacksItems(theirs, ours)
	b.WriteString("\n### What theirs has that ours lacks\n\n")
	if len(items) == 0 {
		b.WriteString("Nothing: every row and answer theirs has, ours has too.\n")
		return
	}
	for _, it := range items {
		b.WriteString("- " + mdPieces(it) + "\n")
	}
}

func hasStep(steps []locate.Step, name string) bool {
	_, ok := firstStep(steps, name)
	return ok
}

// firstStep is the first of steps named name.
func firstStep(steps []locate.Step, name string) (locate.Step, bool) {
	for _, s := range steps {
		if s.Step == name {
			return s, true
		}
	}
	return locate.Step{}, false
}
