// Package cli is ctrlcmp's command line: the cobra commands, their flags and
// help, and the mapping of every failure to one line on stderr and a stable
// exit code.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
)

// Version is ctrlcmp's version, recorded in generated markdown.
var Version = "v0.1.0-dev"

const rootLong = `ctrlcmp reads Kubernetes controller source trees and says, with file:line
citations, where each part of a controller lives: the reconcile entry, where
the object is re-read, the finalizer (constant, added, cleaned up, removed),
the status condition types, and the requeues on error and on success.

It understands controller-runtime reconcilers (kubebuilder, Flux) and
hand-wired client-go controllers (informers, listers, a workqueue). It reads
the source with go/packages and go/ssa; it never runs the code it reads.

Exit codes: 0 success; 1 findings (check); 2 usage error; 3 the tree could not
be loaded or analysed; 4 the source could not be fetched.`

const locateLong = `Locate every controller in one Go module and answer the table rows for each.

PATH is the directory holding go.mod. Nested modules wired in by a local
replace directive (an api/ module holding the CRD types) are loaded with it.
Dependencies must be in the module cache or reachable through GOPROXY; cgo is
off and GOTOOLCHAIN=local, so a go.mod cannot make the go command fetch a
toolchain.

Paths in the output are relative to the git repository holding PATH (or PATH
itself outside git); sites in dependencies are written module@version/path.`

const tableLong = `Print the comparison table: one row per part of a controller, one column for
their controller and one for yours, each cell the primary citation.

Markdown (the default) is meant for a journal: citations into a local tree are
links relative to the current directory (or --link-from DIR), each titled with
an anchor (the symbol and a hash of the cited line) that lets the citation be
checked again later.

When a tree holds several controllers, choose one with --theirs-kind or
--ours-kind (a kind such as Kustomization, or a reconciler's type name).`

// Main runs ctrlcmp with args and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return fail.CodeOK
	}
	msg := err.Error()
	if errors.Is(err, context.Canceled) {
		msg = "interrupted"
	}
	fmt.Fprintf(stderr, "ctrlcmp: %s\n", msg)
	return fail.Code(err)
}

type globals struct {
	quiet   bool
	verbose bool
	stderr  io.Writer
}

// progress returns the progress printer: on stderr when it is a terminal
// (or under --verbose), silent under --quiet.
func (g *globals) progress() func(string) {
	if g.quiet {
		return nil
	}
	if !g.verbose {
		f, ok := g.stderr.(*os.File)
		if !ok {
			return nil
		}
		st, err := f.Stat()
		if err != nil || st.Mode()&os.ModeCharDevice == 0 {
			return nil
		}
	}
	return func(s string) { fmt.Fprintf(g.stderr, "ctrlcmp: %s\n", s) }
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	g := &globals{stderr: stderr}
	root := &cobra.Command{
		Use:           "ctrlcmp",
		Short:         "Say where each part of a Kubernetes controller lives, with file:line citations",
		Long:          rootLong,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fail.Usage("%v (see `%s --help`)", err, c.CommandPath())
	})
	root.PersistentFlags().BoolVarP(&g.quiet, "quiet", "q", false, "print no progress on stderr")
	root.PersistentFlags().BoolVarP(&g.verbose, "verbose", "v", false, "print progress on stderr even when it is not a terminal")
	root.AddCommand(newLocate(g), newTable(g))
	return root
}

func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) != n {
			return fail.Usage("%s takes %s (got %d arguments); see `%s --help`", c.CommandPath(), what, len(args), c.CommandPath())
		}
		return nil
	}
}

func checkFormat(format string, allowed ...string) error {
	for _, a := range allowed {
		if format == a {
			return nil
		}
	}
	return fail.Usage("unknown --format %q; use one of: %s", format, strings.Join(allowed, ", "))
}

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
