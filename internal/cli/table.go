package cli

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"

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

` + htmlHelp + `

When a tree holds several controllers, choose one with --theirs-kind or
--ours-kind (a kind such as Kustomization, a reconciler's type name, or
DIR/NAME: the type name qualified by its package's directory).

Their tree is a local directory (--theirs-dir) or pinned (--theirs REV of
--theirs-repo); either is loaded on its own, not in the workspace your GOWORK
names (ours is loaded as locate loads a tree). ` + pinnedHelp

// TableOptions is what table was asked to do: its flags, checked.
type TableOptions struct {
	Theirs     source // --theirs-dir, or --theirs REV of --theirs-repo
	Ours       string // --ours: the directory of our module
	TheirsKind string // --theirs-kind: the controller in theirs; "" when it holds one
	OursKind   string // --ours-kind: the controller in ours; "" when it holds one
	Format     string // markdown, text, json or html
	// LinkFrom is the directory local citations link relative to: the
	// journal's, --link-from, or "" (plain citations) outside markdown.
	LinkFrom string
	Journal  string     // --journal: the journal to write the table into, or ""
	ID       string     // --id: names the table's fence (table/ID); "" names it by the two kinds
	Check    bool       // --check: compare the journal with the table, write nothing
	Fetch    fetchFlags // how to fetch a pinned tree of theirs
	Out      io.Writer
	Width    int // the columns a text table fits in (textWidth of Out)
}

// newTable is the table command. runF, when not nil, runs instead of
// tableRun once the flags are checked.
func newTable(g *globals, runF func(*TableOptions) error) *cobra.Command {
	opts := &TableOptions{}
	var theirsDir, theirsRev, theirsRepo string
	c := &cobra.Command{
		Use:   "table (--theirs REV | --theirs-dir PATH) --ours PATH",
		Short: "Print the comparison table of their controller and yours",
		Long:  tableLong,
		Example: `  ctrlcmp table --theirs 186fb3b29138ce82ff61ba1a9370b96a3dd598fe --ours .
  ctrlcmp table --theirs v1.5.0 --theirs-repo https://github.com/fluxcd/source-controller --ours .
  ctrlcmp table --theirs-dir ../kustomize-controller --ours .
  ctrlcmp table --theirs-dir ../kustomize-controller --ours ./operator --ours-kind Widget --format text
  ctrlcmp table --theirs-dir ../kustomize-controller --ours . --format html > compare.html`,
		Args: exactArgs(0, "no positional arguments (use --theirs or --theirs-dir, and --ours)"),
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkFormat(opts.Format, "markdown", "text", "json", "html"); err != nil {
				return err
			}
			if opts.ID != "" && opts.Journal == "" {
				return fail.Usage("--id names the table's fence in a journal; give the journal with --journal FILE")
			}
			if strings.ContainsAny(opts.ID, " \t\r\n") {
				return fail.Usage("--id %q has white space; give a name such as v1.8.0 or kc-main", opts.ID)
			}
			if opts.Check && opts.Journal == "" {
				return fail.Usage("--check compares a journal with a fresh table; name the journal with --journal FILE")
			}
			if opts.Journal != "" {
				if opts.Format != "markdown" {
					return fail.Usage("--journal writes markdown; drop --format %s", opts.Format)
				}
				opts.LinkFrom = filepath.Dir(opts.Journal)
			}
			theirs, err := theirsSource(c, theirsDir, theirsRev, theirsRepo)
			if err != nil {
				return err
			}
			opts.Theirs = theirs
			if opts.Ours == "" {
				return fail.Usage("table needs --ours PATH, the directory of your controller's Go module")
			}
			if opts.Format != "markdown" {
				opts.LinkFrom = ""
			}
			opts.Out = c.OutOrStdout()
			opts.Width = textWidth(opts.Out)
			if runF != nil {
				return runF(opts)
			}
			return tableRun(c.Context(), g, opts)
		},
	}
	c.Flags().StringVar(&theirsDir, "theirs-dir", "", "directory of the mature controller's Go module (theirs)")
	c.Flags().StringVar(&theirsRev, "theirs", "", "their tree pinned at REV of --theirs-repo: a full or abbreviated sha, a tag or a branch")
	c.Flags().StringVar(&theirsRepo, "theirs-repo", defaultTheirsRepo, "repository of --theirs REV")
	opts.Fetch.register(c.Flags())
	c.Flags().StringVar(&opts.Ours, "ours", "", "directory of your controller's Go module (ours)")
	c.Flags().StringVar(&opts.TheirsKind, "theirs-kind", "", "the controller to use in theirs, when it holds several: its kind, its reconciler's type name, or DIR/NAME (the name qualified by its package's directory)")
	c.Flags().StringVar(&opts.OursKind, "ours-kind", "", "the controller to use in ours, when it holds several: its kind, its reconciler's type name, or DIR/NAME (the name qualified by its package's directory)")
	c.Flags().StringVar(&opts.Format, "format", "markdown", "output format: markdown, text, json or html (a page for a browser)")
	c.Flags().StringVar(&opts.LinkFrom, "link-from", ".", "directory the markdown will live in; local citations link relative to it")
	c.Flags().StringVar(&opts.Journal, "journal", "", "write the table into this markdown journal, in its ctrlcmp fence")
	c.Flags().StringVar(&opts.ID, "id", "", "with --journal: name the table's fence table/ID, so that tables of one pair of controllers at other commits of theirs keep fences of their own (default: table/THEIRKIND/OURKIND)")
	c.Flags().BoolVar(&opts.Check, "check", false, "with --journal: write nothing, exit 1 with a diff when the journal is out of date")
	return c
}

// tableRun analyses both trees and prints their table, or writes it into
// the journal. The trees are analysed at once when memory allows
// (bothAtOnce), one after the other otherwise; either way stderr reads as
// if they were analysed in turn: ours's progress lines are held until
// theirs is done, and the warnings and errors come in the order theirs,
// ours.
func tableRun(ctx context.Context, g *globals, opts *TableOptions) error {
	ctx = g.phases(ctx)
	specs := []struct {
		side       string
		src        source
		kind, flag string
	}{
		{"theirs", opts.Theirs, opts.TheirsKind, "--theirs-kind"},
		{"ours", source{dir: opts.Ours}, opts.OursKind, "--ours-kind"},
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	concurrent, why := bothAtOnce()
	progress := g.progress()
	if progress != nil {
		progress(why)
	}
	held := make([]*heldLines, len(specs))
	analysed := make([]struct {
		tree result.Tree
		dir  string // where the tree's cited files are, for --format html
		err  error
		done chan struct{} // nil until the analysis starts
	}, len(specs))
	start := func(i int) {
		held[i] = &heldLines{print: progress, released: i == 0}
		analysed[i].done = make(chan struct{})
		go func() {
			defer close(analysed[i].done)
			s := specs[i]
			analysed[i].tree, analysed[i].dir, analysed[i].err = g.inspectAt(g.phasesTo(ctx, held[i].line), s.src, opts.Fetch, s.side, opts.LinkFrom, held[i].line)
		}()
	}
	// stop ends the analyses still running and waits for them.
	stop := func() {
		cancel()
		for _, a := range analysed {
			if a.done != nil {
				<-a.done
			}
		}
	}
	start(0)
	if concurrent {
		start(1)
	}
	var sides []result.Side
	var trees []result.Tree
	var files []report.Files
	for i, s := range specs {
		if analysed[i].done == nil {
			start(i)
		}
		held[i].release()
		<-analysed[i].done
		t, err := analysed[i].tree, analysed[i].err
		if err != nil {
			stop()
			return err
		}
		g.printWarnings(t)
		t = withoutAnalysis(t)
		ctrl, err := inspect.Select(t, s.kind, s.flag)
		if err != nil {
			stop()
			return err
		}
		t.Controllers = []locate.Controller{ctrl}
		if opts.Format == "html" {
			files = append(files, htmlTree(&t, analysed[i].dir))
		}
		trees = append(trees, t)
		sides = append(sides, result.Side{Tree: t, Controller: ctrl})
	}
	return reported(ctx, func() error {
		if opts.Journal != "" {
			return writeJournal(opts.Out, opts.Journal, opts.ID, opts.Check, g.progress(), g.warn, sides...)
		}
		switch opts.Format {
		case "json":
			return report.JSON(opts.Out, trees...)
		case "text":
			return report.TextTable(opts.Out, opts.Width, sides...)
		case "html":
			return report.HTML(opts.Out, files, sides...)
		}
		return report.Markdown(opts.Out, sides...)
	})
}

// heldLines passes progress lines on to print once released, and holds
// them until then.
type heldLines struct {
	mu       sync.Mutex
	print    func(string) // nil: no progress is printed
	held     []string
	released bool
}

func (h *heldLines) line(s string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.print == nil:
	case h.released:
		h.print(s)
	default:
		h.held = append(h.held, s)
	}
}

// release prints the lines held, and every later one as it comes.
func (h *heldLines) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.print != nil {
		for _, s := range h.held {
			h.print(s)
		}
	}
	h.held, h.released = nil, true
}
