package cli

import (
	"fmt"
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
	b.WriteString("\nInstead of PATH, --rev REV (with --repo URL) explains a pinned tree. " + pinnedHelp)
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

func newExplain(g *globals) *cobra.Command {
	var kind, repo, rev string
	var fetching fetchFlags
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
			known := false
			for _, r := range report.Explainable() {
				known = known || r == args[0]
			}
			if !known {
				return fail.Usage("unknown ROW %q; use one of: %s", args[0], strings.Join(report.Explainable(), ", "))
			}
			return pathOrRev(&rev)(c, args[1:])
		},
		RunE: func(c *cobra.Command, args []string) error {
			t, err := g.inspectSource(c.Context(), locateSource(args[1:], repo, rev), fetching, "", "")
			if err != nil {
				return err
			}
			ctrl, err := inspect.Select(t, kind, "--kind")
			if err != nil {
				return err
			}
			return report.Explain(c.OutOrStdout(), t, ctrl, args[0])
		},
	}
	c.Flags().StringVar(&kind, "kind", "", "the controller to explain, when the tree holds several")
	c.Flags().StringVar(&repo, "repo", defaultTheirsRepo, "with --rev: the repository to fetch")
	c.Flags().StringVar(&rev, "rev", "", "a sha, tag or branch of --repo to fetch and explain instead of PATH")
	fetching.register(c.Flags())
	return c
}
