package cli

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

const locateLong = `Locate every controller in one Go module and answer the table rows for each.

PATH is the directory holding go.mod. Nested modules wired in by a local
replace directive (an api/ module holding the CRD types) are loaded with it.
Dependencies must be in the module cache or reachable through GOPROXY; cgo is
off and GOTOOLCHAIN=local, so a go.mod cannot make the go command fetch a
toolchain. A module of a go.work workspace is loaded in it, as the go command
builds it (GOWORK as you set it; GOWORK=off loads the module alone); a pinned
tree is loaded on its own, in a go.work only when its repository holds one.
Files behind a //go:build line are loaded with --tags.

Paths in the output are relative to the git repository holding PATH (or PATH
itself outside git); sites in dependencies are written module@version/path.

` + htmlHelp + ` Each controller of the tree is a column.

Instead of PATH, --rev REV (with --repo URL) locates a pinned tree.
` + pinnedHelp

// LocateOptions is what locate was asked to do: its flags and PATH,
// checked.
type LocateOptions struct {
	Source source     // PATH, or --repo at --rev
	Kind   string     // --kind: only this controller; "" for all
	Format string     // text, markdown, json or html
	Fetch  fetchFlags // how to fetch a pinned tree
	Out    io.Writer
	Width  int // the columns a text table fits in (textWidth of Out)
}

// newLocate is the locate command. runF, when not nil, runs instead of
// locateRun once the flags and arguments are checked.
func newLocate(g *globals, runF func(*LocateOptions) error) *cobra.Command {
	opts := &LocateOptions{}
	var repo, rev string
	c := &cobra.Command{
		Use:   "locate (PATH | --rev REV [--repo URL])",
		Short: "Locate every controller in one tree and answer the table rows",
		Long:  locateLong,
		Example: `  ctrlcmp locate ./my-operator
  ctrlcmp locate ./kustomize-controller --kind Kustomization --format json
  ctrlcmp locate --rev 186fb3b29138ce82ff61ba1a9370b96a3dd598fe --format markdown
  ctrlcmp locate --repo https://github.com/fluxcd/source-controller --rev main
  ctrlcmp locate ./my-operator --format html > locate.html`,
		Args: pathOrRev(&rev),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkFormat(opts.Format, "text", "markdown", "json", "html"); err != nil {
				return err
			}
			opts.Source = locateSource(args, repo, rev)
			opts.Out = c.OutOrStdout()
			opts.Width = textWidth(opts.Out)
			if runF != nil {
				return runF(opts)
			}
			return locateRun(c.Context(), g, opts)
		},
	}
	c.Flags().StringVar(&opts.Kind, "kind", "", "only the controllers of this kind (or the one of this reconciler type name)")
	c.Flags().StringVar(&opts.Format, "format", "text", "output format: text, markdown, json or html (a page for a browser)")
	c.Flags().StringVar(&rev, "rev", "", "locate --repo pinned at REV (a full or abbreviated sha, a tag or a branch) instead of PATH")
	c.Flags().StringVar(&repo, "repo", defaultTheirsRepo, "repository of --rev REV")
	opts.Fetch.register(c.Flags())
	return c
}

// locateRun analyses the tree and prints its controllers.
func locateRun(ctx context.Context, g *globals, opts *LocateOptions) error {
	linkFrom := ""
	if opts.Format == "markdown" {
		linkFrom = "."
	}
	ctx = g.phases(ctx)
	t, dir, err := g.inspectAt(ctx, opts.Source, opts.Fetch, "", linkFrom, g.progress())
	if err != nil {
		return err
	}
	g.printWarnings(t)
	t = withoutAnalysis(t)
	if opts.Kind != "" {
		if t.Controllers, err = inspect.Matching(t, opts.Kind); err != nil {
			return err
		}
	}
	return reported(ctx, func() error {
		switch opts.Format {
		case "json":
			return report.JSON(opts.Out, t)
		case "markdown", "html":
			var files []report.Files
			if opts.Format == "html" {
				read := htmlTree(&t, dir)
				for range t.Controllers {
					files = append(files, read)
				}
			}
			var sides []result.Side
			for _, ctrl := range t.Controllers {
				sides = append(sides, result.Side{Tree: t, Controller: ctrl})
			}
			if opts.Format == "html" {
				return report.HTML(opts.Out, files, sides...)
			}
			return report.Markdown(opts.Out, sides...)
		}
		return report.Text(opts.Out, t, opts.Width)
	})
}
