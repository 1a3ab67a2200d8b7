package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
)

// explainLong is generated from locate's topics, so a new row or answer
// appears here without an edit.
var explainLong = func() string {
	var b strings.Builder
	b.WriteString("Explain one answer with its whole path of evidence.\n\nROW is a table row or one of the answers the reader writes from the source:\n\n")
	for _, t := range locate.Topics() {
		fmt.Fprintf(&b, "  %-18s %s\n", t.ID, t.Question)
		for _, l := range wrap(t.Help, 56) {
			fmt.Fprintf(&b, "  %-18s   %s\n", "", l)
		}
	}
	b.WriteString("\nInstead of PATH, --rev REV (with --repo URL) explains a pinned tree.\n" + pinnedHelp)
	return b.String()
}()

// wrap breaks text into lines of at most width columns.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// ExplainOptions is what explain was asked to do: its ROW, PATH and flags,
// checked.
type ExplainOptions struct {
	Row    string     // the row or answer to explain, one of report.Explainable
	Source source     // PATH, or --repo at --rev
	Kind   string     // --kind: the controller to explain; "" when the tree holds one
	Fetch  fetchFlags // how to fetch a pinned tree
	Out    io.Writer
}

// newExplain is the explain command. runF, when not nil, runs instead of
// explainRun once the flags and arguments are checked.
func newExplain(g *globals, runF func(*ExplainOptions) error) *cobra.Command {
	opts := &ExplainOptions{}
	var repo, rev string
	c := &cobra.Command{
		Use:   "explain ROW (PATH | --rev REV [--repo URL])",
		Short: "Explain one row or answer with its whole path of evidence",
		Long:  explainLong,
		Example: `  ctrlcmp explain interval-trace ../kustomize-controller
  ctrlcmp explain writes ./my-operator --kind Widget`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fail.Usage("explain takes a ROW first, one of: %s", strings.Join(report.Explainable(), ", "))
			}
			rows := report.Explainable()
			if i := slices.IndexFunc(rows, func(r string) bool { return strings.EqualFold(r, args[0]) }); i >= 0 {
				args[0] = rows[i] // Reread is reread
			}
			if !slices.Contains(rows, args[0]) {
				if len(args) == 2 && slices.ContainsFunc(rows, func(r string) bool { return strings.EqualFold(r, args[1]) }) {
					return fail.Usage("unknown ROW %q: the ROW comes first, then the PATH: ctrlcmp explain %s %s", args[0], strings.ToLower(args[1]), args[0])
				}
				return fail.Usage("unknown ROW %q; use one of: %s", args[0], strings.Join(rows, ", "))
			}
			return pathOrRev(&rev)(c, args[1:])
		},
		RunE: func(c *cobra.Command, args []string) error {
			opts.Row = args[0]
			opts.Source = locateSource(args[1:], repo, rev)
			opts.Out = c.OutOrStdout()
			if runF != nil {
				return runF(opts)
			}
			return explainRun(c.Context(), g, opts)
		},
	}
	c.Flags().StringVar(&opts.Kind, "kind", "", "the controller to explain, when the tree holds several: its kind, its reconciler's type name, or DIR/NAME")
	c.Flags().StringVar(&repo, "repo", defaultTheirsRepo, "with --rev: the repository to fetch")
	c.Flags().StringVar(&rev, "rev", "", "a sha, tag or branch of --repo to fetch and explain instead of PATH")
	opts.Fetch.register(c.Flags())
	return c
}

// explainRun analyses the tree and explains the row for its controller.
func explainRun(ctx context.Context, g *globals, opts *ExplainOptions) error {
	t, err := g.inspectSource(ctx, opts.Source, opts.Fetch, "", "")
	if err != nil {
		return err
	}
	ctrl, err := inspect.Select(t, opts.Kind, "--kind")
	if err != nil {
		return err
	}
	return report.Explain(opts.Out, t, ctrl, opts.Row)
}
