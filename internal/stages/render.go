package stages

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

func at(s locate.Site) string { return fmt.Sprintf("%s:%d", s.File, s.Line) }

// Text writes a controller's stage sites, one line per site.
func Text(w io.Writer, t result.Tree, c locate.Controller) error {
	fmt.Fprintf(w, "%s  kind %s  in %s\n", c.Name, c.Kind, t.Label())
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, id := range locate.StageIDs {
		r := c.Stages[id]
		if len(r.Sites) == 0 {
			fmt.Fprintf(tw, "%s\tnone\t\t%s\n", id, r.None)
		}
		for _, s := range r.Sites {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", id, at(s), s.Func, what(s))
		}
	}
	return tw.Flush()
}

// Markdown writes a controller's stage sites as a table, followed by the
// sequence diagram of one object's life.
func Markdown(w io.Writer, t result.Tree, c locate.Controller) error {
	fmt.Fprintf(w, "### Stages of %s (%s) in %s\n\n| stage | site | symbol | what |\n|---|---|---|---|\n", c.Kind, c.Name, t.Label())
	for _, id := range locate.StageIDs {
		r := c.Stages[id]
		if len(r.Sites) == 0 {
			fmt.Fprintf(w, "| `%s` | none | | %s |\n", id, cell(r.None))
		}
		for _, s := range r.Sites {
			site := "`" + at(s) + "`"
			if t.Link != nil && !inDependency(s) {
				site = fmt.Sprintf("[%s:%d](%s %q)", filepath.Base(s.File), s.Line, t.Link(s.File, s.Line), "ctrlcmp "+s.Func+" "+cite.Anchor(s.Text))
			}
			fmt.Fprintf(w, "| `%s` | %s | `%s` | %s |\n", id, site, s.Func, cell(what(s)))
		}
	}
	fmt.Fprintln(w)
	return Mermaid(w, c)
}

// what says what a site is: its name and note.
func what(s locate.Site) string {
	switch {
	case s.Name == "":
		return s.Note
	case s.Note == "":
		return s.Name
	}
	return s.Name + ": " + s.Note
}

func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;", ">", "&gt;").Replace(s)
}

// Mermaid writes the sequence diagram of one object's life through the
// stages, with the file:line of each step, as a fenced block markdown
// renders (GitHub draws mermaid blocks).
func Mermaid(w io.Writer, c locate.Controller) error {
	kind := c.Kind
	if kind == "" {
		kind = "object"
	}
	var b strings.Builder
	b.WriteString("```mermaid\nsequenceDiagram\n    autonumber\n")
	b.WriteString("    participant API as API server\n")
	fmt.Fprintf(&b, "    participant I0 as %s informer\n", mm(kind))
	b.WriteString("    participant Q as workqueue\n    participant S as worker and sync\n")
	informers := map[string]string{kind: "I0"}
	reentry := c.Stages[locate.StageReentry]
	var types []string
	for _, s := range reentry.Sites {
		if typ, _, ok := strings.Cut(s.Name, " "); ok && s.Name != "" && informers[typ] == "" {
			informers[typ] = fmt.Sprintf("I%d", len(informers))
			types = append(types, typ)
		}
	}
	for _, typ := range types {
		fmt.Fprintf(&b, "    participant %s as %s informer\n", informers[typ], mm(typ))
	}
	fmt.Fprintf(&b, "    API->>I0: %s added\n", mm(kind))
	step := func(from, to, stage string, s locate.Site, what string) {
		fmt.Fprintf(&b, "    %s->>%s: %s · %s · %s\n", from, to, stage, mm(what), at(s))
	}
	if r := c.Stages[locate.StageWatch]; len(r.Sites) > 0 {
		what := "AddFunc"
		for _, s := range r.Sites {
			if s.Name == "handler" {
				what += " → " + s.Func
			}
		}
		step("I0", "I0", stageWatch, r.Sites[0], what)
	}
	// A generated reconciler's enqueue in the tree ends in the dependency's
	// Add, cited after it: one arrow, at the tree's site.
	enq := c.Stages[locate.StageEnqueue].Sites
	own := slices.ContainsFunc(enq, func(s locate.Site) bool { return !inDependency(s) })
	for _, s := range enq {
		if !own || !inDependency(s) {
			step("I0", "Q", stageEnqueue, s, "Add key")
		}
	}
	if s, ok := c.Stages[locate.StageDequeue].Primary(); ok {
		step("Q", "S", stageDequeue, s, "Get key")
	}
	for _, s := range c.Stages[locate.StageRead].Sites {
		step("S", "I0", stageRead, s, "lister Get from the cache")
	}
	for _, s := range c.Stages[locate.StageWrite].Sites {
		if s.Name != "" {
			step("S", "API", stageWrite, s, s.Name)
		}
	}
	// The worker's own requeues: a re-add in the function that dequeues.
	if deq := c.Stages[locate.StageDequeue].Sites; len(deq) > 0 {
		for _, rq := range []struct{ row, what string }{
			{locate.RowRequeueError, "rate-limited after a failed pass"},
			{locate.RowRequeueSuccess, "after a delay"},
		} {
			// A generated reconciler's worker is the dependency's: its
			// requeues are those the hand-written code asks for.
			if s, ok := c.Rows[rq.row].Primary(); ok && (s.Func == deq[0].Func || c.Style == locate.StyleGenerated) {
				step("S", "Q", stageRequeue, s, rq.what)
			}
		}
	}
	for _, s := range reentry.Sites {
		typ, event, ok := strings.Cut(s.Name, " ")
		if !ok || s.Name == "" {
			continue
		}
		fmt.Fprintf(&b, "    API-->>%s: %s %s event\n", informers[typ], mm(typ), event)
		step(informers[typ], "Q", "re-entry", s, event+" handler enqueues the owner again")
	}
	b.WriteString("    Note over Q,S: each re-entry or requeue is one more pass through dequeue, read and write. The object settles when a pass writes no change that comes back (event records and no-op writes bring nothing back); failed passes come back at growing gaps\n")
	b.WriteString("```\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// inDependency says whether a site is in a dependency's source
// (module@version/path), not in the tree.
func inDependency(s locate.Site) bool { return strings.Contains(s.File, "@") }

// mm keeps text from ending a mermaid message early.
func mm(s string) string {
	return strings.NewReplacer(";", ",", "#", "", "\n", " ").Replace(s)
}

// Resolve replaces each line's file:line (klog prints the file's base name)
// with its path in the tree at dir, when exactly one file of that name there
// holds the STAGE line at that line; it reports how many it resolved.
func Resolve(dir string, rd *Reading) int {
	byBase := map[string][]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "vendor" || d.Name() == ".git" || d.Name() == "testdata") && p != dir {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			byBase[d.Name()] = append(byBase[d.Name()], p)
		}
		return nil
	})
	lines := map[string][]string{}
	n := 0
	for i, l := range rd.Lines {
		base, lineStr, ok := strings.Cut(filepath.Base(l.At), ":")
		if !ok {
			continue
		}
		var line int
		if _, err := fmt.Sscanf(lineStr, "%d", &line); err != nil {
			continue
		}
		var hits []string
		for _, p := range byBase[base] {
			if lines[p] == nil {
				src, err := os.ReadFile(p)
				if err != nil {
					continue
				}
				lines[p] = strings.Split(string(src), "\n")
			}
			if line >= 1 && line <= len(lines[p]) && strings.Contains(lines[p][line-1], strconv.Quote(tag(l.Stage))) {
				hits = append(hits, p)
			}
		}
		if len(hits) == 1 {
			if rel, err := filepath.Rel(dir, hits[0]); err == nil {
				rd.Lines[i].At = fmt.Sprintf("%s:%d", filepath.ToSlash(rel), line)
				n++
			}
		}
	}
	return n
}

// LogText writes the annotated excerpt (each STAGE line with its stage and
// the printing statement in the margin), then each object's counts and
// verdict.
func LogText(w io.Writer, rd Reading) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, l := range rd.Lines {
		fmt.Fprintf(tw, "%s\t%s\t%d| %s\n", l.Stage, l.At, l.N, l.Text)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, o := range rd.Objects {
		fmt.Fprintf(w, "\n%s: %s\n", o.Object, counts(o))
		for _, e := range o.Episodes {
			fmt.Fprintf(w, "  %s: %s\n", episodeHead(e), passCount(e))
			for _, r := range e.Reentries {
				fmt.Fprintf(w, "    pass %d (log line %d): %s\n", r.Pass, r.Line, r.Cause)
			}
			fmt.Fprintf(w, "    verdict: %s: %s\n", e.Verdict, e.Why)
		}
	}
	return nil
}

// episodeHead names an episode and its log lines.
func episodeHead(e Episode) string {
	if e.From == e.To {
		return fmt.Sprintf("%s (log line %d)", e.Kind, e.From)
	}
	return fmt.Sprintf("%s (log lines %d–%d)", e.Kind, e.From, e.To)
}

// passCount says how many passes an episode took and how many wrote.
func passCount(e Episode) string {
	var s string
	switch {
	case e.Passes == 1 && e.WritingPasses == 0:
		s = "1 pass, no change written"
	case e.Passes == 1:
		s = "1 pass, it wrote a change"
	default:
		s = fmt.Sprintf("%d passes, %d of them wrote a change", e.Passes, e.WritingPasses)
	}
	if e.Retries > 0 {
		s += ", " + plural(e.Retries, "retry after a failure", "retries after failures")
	}
	return s
}

// LogMarkdown writes the same reading for a journal.
func LogMarkdown(w io.Writer, rd Reading) error {
	fmt.Fprintln(w, "```text")
	if err := LogText(w, Reading{Lines: rd.Lines}); err != nil {
		return err
	}
	fmt.Fprintln(w, "```")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| object | watch | enqueue | dequeue | read | write | requeue |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, o := range rd.Objects {
		fmt.Fprintf(w, "| `%s` |", o.Object)
		for _, s := range stageNames {
			fmt.Fprintf(w, " %d |", o.Counts[s])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| object | episode | passes | verdict |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, o := range rd.Objects {
		for _, e := range o.Episodes {
			fmt.Fprintf(w, "| `%s` | %s | %s | **%s**: %s |\n", o.Object, cell(episodeHead(e)), cell(passCount(e)), e.Verdict, cell(e.Why))
		}
	}
	return nil
}

func counts(o ObjectLife) string {
	var parts []string
	for _, s := range stageNames {
		parts = append(parts, fmt.Sprintf("%s %d", s, o.Counts[s]))
	}
	return strings.Join(parts, ", ")
}
