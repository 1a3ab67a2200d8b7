package cli

import (
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

const tableLong = `Print the comparison table: one row per part of a controller, one column for
their controller and one for yours, each cell the primary citation.

Markdown (the default) is meant for a journal: citations into a local tree are
links relative to the current directory (or --link-from DIR), each titled with
an anchor (the symbol and a hash of the cited line) that lets the citation be
checked again later.

With --journal FILE the table goes into a markdown journal instead, between
<!-- ctrlcmp:begin … --> and <!-- ctrlcmp:end --> comments: the region is
replaced on every run, every byte around it is kept, and the file is
created when missing. --check writes nothing and exits 1 with a diff when
the journal's table is out of date. ` + "`ctrlcmp check FILE`" + ` verifies its citations.

When a tree holds several controllers, choose one with --theirs-kind or
--ours-kind (a kind such as Kustomization, or a reconciler's type name).

Their tree is a local directory (--theirs-dir) or pinned (--theirs REV of
--theirs-repo). ` + pinnedHelp

func newTable(g *globals) *cobra.Command {
	var theirsDir, ours, theirsKind, oursKind, format, linkFrom, journalFile string
	var checkJournal bool
	var theirsRev, theirsRepo string
	var fetching fetchFlags
	c := &cobra.Command{
		Use:   "table (--theirs REV | --theirs-dir PATH) --ours PATH",
		Short: "Print the comparison table of their controller and yours",
		Long:  tableLong,
		Example: `  ctrlcmp table --theirs 186fb3b29138ce82ff61ba1a9370b96a3dd598fe --ours .
  ctrlcmp table --theirs v1.5.0 --theirs-repo https://github.com/fluxcd/source-controller --ours .
  ctrlcmp table --theirs-dir ../kustomize-controller --ours .
  ctrlcmp table --theirs-dir ../kustomize-controller --ours ./operator --ours-kind Widget --format text`,
		Args: exactArgs(0, "no positional arguments (use --theirs or --theirs-dir, and --ours)"),
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkFormat(format, "markdown", "text", "json"); err != nil {
				return err
			}
			if checkJournal && journalFile == "" {
				return fail.Usage("--check compares a journal with a fresh table; name the journal with --journal FILE")
			}
			if journalFile != "" {
				if format != "markdown" {
					return fail.Usage("--journal writes markdown; drop --format %s", format)
				}
				linkFrom = filepath.Dir(journalFile)
			}
			theirs, err := theirsSource(c, theirsDir, theirsRev, theirsRepo)
			if err != nil {
				return err
			}
			if ours == "" {
				return fail.Usage("table needs --ours PATH, the directory of your controller's Go module")
			}
			if format != "markdown" {
				linkFrom = ""
			}
			var sides []result.Side
			var trees []result.Tree
			for _, s := range []struct {
				side       string
				src        source
				kind, flag string
			}{
				{"theirs", theirs, theirsKind, "--theirs-kind"},
				{"ours", source{dir: ours}, oursKind, "--ours-kind"},
			} {
				t, err := g.inspectSource(c.Context(), s.src, fetching, s.side, linkFrom)
				if err != nil {
					return err
				}
				ctrl, err := inspect.Select(t, s.kind, s.flag)
				if err != nil {
					return err
				}
				t.Controllers = []locate.Controller{ctrl}
				trees = append(trees, t)
				sides = append(sides, result.Side{Tree: t, Controller: ctrl})
			}
			out := c.OutOrStdout()
			if journalFile != "" {
				return writeJournal(out, journalFile, checkJournal, g.progress(), sides...)
			}
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
	c.Flags().StringVar(&theirsRev, "theirs", "", "their tree pinned at REV of --theirs-repo: a full or abbreviated sha, a tag or a branch")
	c.Flags().StringVar(&theirsRepo, "theirs-repo", defaultTheirsRepo, "repository of --theirs REV")
	fetching.register(c.Flags())
	c.Flags().StringVar(&ours, "ours", "", "directory of your controller's Go module (ours)")
	c.Flags().StringVar(&theirsKind, "theirs-kind", "", "the controller to use in theirs, when it holds several")
	c.Flags().StringVar(&oursKind, "ours-kind", "", "the controller to use in ours, when it holds several")
	c.Flags().StringVar(&format, "format", "markdown", "output format: markdown, text or json")
	c.Flags().StringVar(&linkFrom, "link-from", ".", "directory the markdown will live in; local citations link relative to it")
	c.Flags().StringVar(&journalFile, "journal", "", "write the table into this markdown journal, in its ctrlcmp fence")
	c.Flags().BoolVar(&checkJournal, "check", false, "with --journal: write nothing, exit 1 with a diff when the journal is out of date")
	return c
}
