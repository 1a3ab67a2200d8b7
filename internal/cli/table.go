package cli

import (
	"github.com/spf13/cobra"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
)

const tableLong = `Print the comparison table: one row per part of a controller, one column for
their controller and one for yours, each cell the primary citation.

Markdown (the default) is meant for a journal: citations into a local tree are
links relative to the current directory (or --link-from DIR), each titled with
an anchor (the symbol and a hash of the cited line) that lets the citation be
checked again later.

When a tree holds several controllers, choose one with --theirs-kind or
--ours-kind (a kind such as Kustomization, or a reconciler's type name).`

func newTable(g *globals) *cobra.Command {
	var theirsDir, ours, theirsKind, oursKind, format, linkFrom string
	c := &cobra.Command{
		Use:   "table --theirs-dir PATH --ours PATH",
		Short: "Print the comparison table of their controller and yours",
		Long:  tableLong,
		Example: `  ctrlcmp table --theirs-dir ../kustomize-controller --ours .
  ctrlcmp table --theirs-dir ../kustomize-controller --ours ./operator --ours-kind Widget --format text`,
		Args: exactArgs(0, "no positional arguments (use --theirs-dir and --ours)"),
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkFormat(format, "markdown", "text", "json"); err != nil {
				return err
			}
			if theirsDir == "" || ours == "" {
				return fail.Usage("table needs both --theirs-dir PATH (the mature controller) and --ours PATH (yours)")
			}
			if format != "markdown" {
				linkFrom = ""
			}
			var sides []report.Side
			var trees []report.Tree
			for _, s := range []struct{ side, dir, kind, flag string }{
				{"theirs", theirsDir, theirsKind, "--theirs-kind"},
				{"ours", ours, oursKind, "--ours-kind"},
			} {
				t, err := inspect.Tree(c.Context(), s.dir, s.side, linkFrom, g.progress())
				if err != nil {
					return err
				}
				ctrl, err := inspect.Select(t, s.kind, s.flag)
				if err != nil {
					return err
				}
				t.Controllers = []locate.Controller{ctrl}
				trees = append(trees, t)
				sides = append(sides, report.Side{Tree: t, Controller: ctrl})
			}
			out := c.OutOrStdout()
			switch format {
			case "json":
				return report.JSON(out, trees...)
			case "text":
				return report.TextTable(out, sides...)
			}
			return report.Markdown(out, sides...)
		},
	}
	c.Flags().StringVar(&theirsDir, "theirs-dir", "", "directory of the mature controller's Go module (theirs)")
	c.Flags().StringVar(&ours, "ours", "", "directory of your controller's Go module (ours)")
	c.Flags().StringVar(&theirsKind, "theirs-kind", "", "the controller to use in theirs, when it holds several")
	c.Flags().StringVar(&oursKind, "ours-kind", "", "the controller to use in ours, when it holds several")
	c.Flags().StringVar(&format, "format", "markdown", "output format: markdown, text or json")
	c.Flags().StringVar(&linkFrom, "link-from", ".", "directory the markdown will live in; local citations link relative to it")
	return c
}
