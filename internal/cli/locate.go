package cli

import (
	"github.com/spf13/cobra"

	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

const locateLong = `Locate every controller in one Go module and answer the table rows for each.

PATH is the directory holding go.mod. Nested modules wired in by a local
replace directive (an api/ module holding the CRD types) are loaded with it.
Dependencies must be in the module cache or reachable through GOPROXY; cgo is
off and GOTOOLCHAIN=local, so a go.mod cannot make the go command fetch a
toolchain.

Paths in the output are relative to the git repository holding PATH (or PATH
itself outside git); sites in dependencies are written module@version/path.

Instead of PATH, --rev REV (with --repo URL) locates a pinned tree. ` + pinnedHelp

func newLocate(g *globals) *cobra.Command {
	var kind, format, repo, rev string
	var fetching fetchFlags
	c := &cobra.Command{
		Use:   "locate (PATH | --rev REV [--repo URL])",
		Short: "Locate every controller in one tree and answer the table rows",
		Long:  locateLong,
		Example: `  ctrlcmp locate ./my-operator
  ctrlcmp locate ./kustomize-controller --kind Kustomization --format json
  ctrlcmp locate --rev 186fb3b29138ce82ff61ba1a9370b96a3dd598fe --format markdown
  ctrlcmp locate --repo https://github.com/fluxcd/source-controller --rev main`,
		Args: pathOrRev(&rev),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "markdown", "json"); err != nil {
				return err
			}
			linkFrom := ""
			if format == "markdown" {
				linkFrom = "."
			}
			t, err := g.inspectSource(c.Context(), locateSource(args, repo, rev), fetching, "", linkFrom)
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
				var sides []result.Side
				for _, ctrl := range t.Controllers {
					sides = append(sides, result.Side{Tree: t, Controller: ctrl})
				}
				return report.Markdown(out, sides...)
			}
			return report.Text(out, t)
		},
	}
	c.Flags().StringVar(&kind, "kind", "", "only the controller of this kind (or reconciler type name)")
	c.Flags().StringVar(&format, "format", "text", "output format: text, markdown or json")
	c.Flags().StringVar(&rev, "rev", "", "locate --repo pinned at REV (a full or abbreviated sha, a tag or a branch) instead of PATH")
	c.Flags().StringVar(&repo, "repo", defaultTheirsRepo, "repository of --rev REV")
	fetching.register(c.Flags())
	return c
}
