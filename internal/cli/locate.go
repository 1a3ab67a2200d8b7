package cli

import (
	"github.com/spf13/cobra"

	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
)

const locateLong = `Locate every controller in one Go module and answer the table rows for each.

PATH is the directory holding go.mod. Nested modules wired in by a local
replace directive (an api/ module holding the CRD types) are loaded with it.
Dependencies must be in the module cache or reachable through GOPROXY; cgo is
off and GOTOOLCHAIN=local, so a go.mod cannot make the go command fetch a
toolchain.

Paths in the output are relative to the git repository holding PATH (or PATH
itself outside git); sites in dependencies are written module@version/path.`

func newLocate(g *globals) *cobra.Command {
	var kind, format string
	c := &cobra.Command{
		Use:   "locate PATH",
		Short: "Locate every controller in one tree and answer the table rows",
		Long:  locateLong,
		Example: `  ctrlcmp locate ./my-operator
  ctrlcmp locate ./kustomize-controller --kind Kustomization --format json`,
		Args: exactArgs(1, "one PATH, the directory of a Go module"),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "markdown", "json"); err != nil {
				return err
			}
			linkFrom := ""
			if format == "markdown" {
				linkFrom = "."
			}
			t, err := inspect.Tree(c.Context(), args[0], "", linkFrom, g.progress())
			if err != nil {
				return err
			}
			if kind != "" {
				ctrl, err := inspect.Select(t, kind, "--kind")
				if err != nil {
					return err
				}
				t.Controllers = []locate.Controller{ctrl}
			}
			out := c.OutOrStdout()
			switch format {
			case "json":
				return report.JSON(out, t)
			case "markdown":
				var sides []report.Side
				for _, ctrl := range t.Controllers {
					sides = append(sides, report.Side{Tree: t, Controller: ctrl})
				}
				return report.Markdown(out, sides...)
			}
			return report.Text(out, t)
		},
	}
	c.Flags().StringVar(&kind, "kind", "", "only the controller of this kind (or reconciler type name)")
	c.Flags().StringVar(&format, "format", "text", "output format: text, markdown or json")
	return c
}
