package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/journal"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
	"github.com/ctrlcmp/ctrlcmp/internal/stages"
)

const stagesLong = `Show the five stages of a client-go controller — watch, enqueue, dequeue,
read, write — with file:line and enclosing function, and the re-entry paths:
which informer handlers fire again because of the controller's own writes.
--format mermaid draws one object's life as a sequence diagram; --format html
writes one self-contained page that draws it in SVG, each arrow linked to the
excerpt of its site, read from the tree.

A generated reconciler (knative.dev/pkg style) has the same stages, its
workqueue and worker cited in the dependency's source at the version the
tree requires (module@version/path:line); --patch and --run are for
client-go controllers only.

--patch prints a unified diff (paths relative to PATH, for git apply or
patch -p1 inside PATH) that adds one klog line per stage, tagged STAGE/watch
… STAGE/write, after the call where the stage acts, and STAGE/requeue after
each re-add of a key (rate-limited after a failure, or after a delay); the
watch line goes in every handler and names its informer and event, a write
no informer watches says reenters=false. --write applies it in place
instead. Patching a patched tree changes nothing.

--log FILE reads the log of the patched controller (klog text or JSON, this
patch's or an earlier one's) and prints its STAGE lines with the stage and
the printing statement in the margin, the counts per stage per object, and
each object's life cut into episodes (create, startup replay, change,
resync, delete), what brought each pass back, and a verdict per episode:
settles (quiet for --settle after its last pass, or until the next change
from outside when its last pass wrote no change), error loop (retries after
failures at growing gaps), hot loop (each pass brought back by its own
write's watch event), or not seen long enough. Event records, writes no
informer watches, failed writes and writes no watch event follows never
count as bringing the object back. PATH is then only used to find the
printing statements.

--run does the whole exercise in one command: it patches a copy of the tree
(never the tree itself), builds it, starts a throwaway etcd and kube-apiserver
on 127.0.0.1 (built once from the Go module proxy at the Kubernetes version
of the tree's client-go, and cached: the first run takes minutes), applies
the tree's CRDs, creates its example object (or --object FILE), runs the
controller for --for, changes the object halfway with --then FILE, deletes
it, stops everything and reads the log as --log does. --kubeconfig FILE uses
your own cluster instead of the throwaway one.

--journal FILE puts the markdown (the stages, or with --log the reading) into
a fenced region of a journal, leaving the rest of it untouched.`

// StagesOptions is what stages was asked to do: its PATH and flags,
// checked.
type StagesOptions struct {
	Dir     string // PATH: the controller's module
	Kind    string // --kind: the controller; "" when the tree holds one
	Format  string // text, markdown, json, mermaid or html
	Patch   bool   // --patch: print the diff that adds the STAGE lines
	Write   bool   // --write: apply that patch in place
	Log     string // --log: the patched controller's log to read, or ""
	Journal string // --journal: the journal to write the markdown into, or ""
	// LinkFrom is the directory local citations in markdown link relative
	// to (the journal's), or "" for plain citations.
	LinkFrom string
	Run      RunOptions // --run and its flags
	Tags     []string   // --tags: the build tags the tree is loaded and built with
	Out      io.Writer
	ErrOut   io.Writer // where unpatched stages are reported
	// Settle is --settle: how long an object stays quiet after its last
	// pass for the log reading to say it settles.
	Settle time.Duration
}

// newStages is the stages command. runF, when not nil, runs instead of
// stagesRun once the flags and arguments are checked.
func newStages(g *globals, runF func(*StagesOptions) error) *cobra.Command {
	opts := &StagesOptions{}
	c := &cobra.Command{
		Use:   "stages PATH",
		Short: "Show, instrument and read the five stages of a client-go controller",
		Long:  stagesLong,
		Example: `  ctrlcmp stages ./sample-controller --format mermaid
  ctrlcmp stages ./sample-controller --format html > stages.html
  ctrlcmp stages ./sample-controller --patch | git -C ./sample-controller apply
  ctrlcmp stages ./sample-controller --log controller.log --journal notes.md
  ctrlcmp stages ./sample-controller --run --for 1m`,
		Args: exactArgs(1, "one PATH, the directory of a Go module"),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Dir = args[0]
			if err := checkFormat(opts.Format, "text", "markdown", "json", "mermaid", "html"); err != nil {
				return err
			}
			switch {
			case opts.Write && !opts.Patch:
				return fail.Usage("--write applies the patch: use it with --patch")
			case opts.Patch && opts.Log != "":
				return fail.Usage("--patch and --log do different things; run them one at a time")
			case opts.Patch && opts.Journal != "":
				return fail.Usage("--journal takes the stages or a log reading, not a patch")
			case opts.Settle <= 0:
				return fail.Usage("--settle %s: give a positive duration, such as 5s", opts.Settle)
			case opts.Run.On && (opts.Patch || opts.Log != ""):
				return fail.Usage("--run patches, runs and reads the log itself; use it without --patch and --log")
			case !opts.Run.On && opts.Run.flagsSet(c):
				return fail.Usage("--for, --object, --then and --kubeconfig go with --run")
			case opts.Run.On && opts.Run.For <= 0:
				return fail.Usage("--for %s: give a positive duration, such as 30s", opts.Run.For)
			case opts.Run.On && (opts.Format == "mermaid" || opts.Format == "html"):
				return fail.Usage("--format %s draws the stages of the code; a run's reading prints as text, markdown or json", opts.Format)
			case opts.Log != "" && (opts.Format == "mermaid" || opts.Format == "html"):
				return fail.Usage("--format %s draws the stages of the code; a log reading prints as text, markdown or json", opts.Format)
			}
			switch {
			case opts.Journal != "":
				opts.LinkFrom = filepath.Dir(opts.Journal)
			case opts.Format == "markdown":
				opts.LinkFrom = "."
			}
			opts.Out, opts.ErrOut = c.OutOrStdout(), c.ErrOrStderr()
			if runF != nil {
				return runF(opts)
			}
			return stagesRun(c.Context(), g, opts)
		},
	}
	c.Flags().StringVar(&opts.Kind, "kind", "", "the controller of this kind (or type name, or DIR/NAME), when the tree holds several")
	c.Flags().StringVar(&opts.Format, "format", "text", "output format: text, markdown, json, mermaid or html (a page for a browser)")
	c.Flags().BoolVar(&opts.Patch, "patch", false, "print the diff that adds a STAGE log line at each stage")
	c.Flags().BoolVar(&opts.Write, "write", false, "with --patch: apply the patch to the files in place")
	c.Flags().StringVar(&opts.Log, "log", "", "read this log of the patched controller (klog text or JSON)")
	c.Flags().DurationVar(&opts.Settle, "settle", stages.DefaultSettle, "with --log: how long an object must stay quiet after its last pass to settle")
	c.Flags().StringVar(&opts.Journal, "journal", "", "write the markdown into a fenced region of this journal")
	opts.Run.addFlags(c)
	tagsFlag(c.Flags(), &opts.Tags)
	return c
}

// stagesRun shows, patches in or (with a log) reads the stages of the
// controller.
func stagesRun(ctx context.Context, g *globals, opts *StagesOptions) error {
	if opts.Log != "" {
		return readLog(g, opts)
	}
	if opts.Run.On {
		return runStages(ctx, g, opts)
	}
	// The probes need the syntax of the anchors, which no stored result
	// holds.
	t, dir, err := g.inspectAt(ctx, source{dir: opts.Dir}, fetchFlags{noCache: true, tags: opts.Tags}, "", opts.LinkFrom, g.progress())
	if err != nil {
		return err
	}
	g.printWarnings(t)
	ctrl, err := inspect.Select(t, opts.Kind, "--kind")
	if err != nil {
		return err
	}
	switch {
	case ctrl.Style == locate.StyleGenerated && opts.Patch:
		return fail.Usage("%s: %s is a generated reconciler, whose workqueue and worker are in a dependency (the controller.Impl of knative.dev/pkg), outside the tree; --patch instruments client-go controllers only: `ctrlcmp stages %s` lists the stage sites, the dependency's cited at its version", opts.Dir, ctrl.Name, opts.Dir)
	case ctrl.Style != locate.StyleClientGo && ctrl.Style != locate.StyleGenerated:
		return fail.Usage("%s: %s is a %s controller; the five stages are those of client-go controllers (informers, a workqueue, a sync function) and of generated reconcilers", opts.Dir, ctrl.Name, ctrl.Style)
	}
	if opts.Patch {
		ins, err := stages.Instrument(opts.Dir, ctrl.Anchors)
		if err != nil {
			return fail.Wrap(fail.CodeLoad, err)
		}
		changes, err := stages.Patch(opts.Dir, ins)
		if err != nil {
			return fail.Wrap(fail.CodeLoad, err)
		}
		for _, s := range ins.Skipped {
			fmt.Fprintf(opts.ErrOut, "ctrlcmp: not patched: %s\n", s)
		}
		if opts.Write {
			if err := stages.Write(changes); err != nil {
				return fail.Wrap(fail.CodeLoad, err)
			}
			if p := g.progress(); p != nil {
				p(fmt.Sprintf("patched %d files in %s", len(changes), opts.Dir))
			}
			return nil
		}
		_, err = fmt.Fprint(opts.Out, stages.Diff(changes))
		return err
	}
	if opts.Journal != "" {
		var body bytes.Buffer
		if err := stages.Markdown(&body, t, ctrl); err != nil {
			return err
		}
		return updateJournal(g, opts.Journal, journal.Region{ID: "stages/" + ctrl.Kind, Repo: t.Repo, Sha: t.Sha, Version: Version, Body: body.String()})
	}
	switch opts.Format {
	case "json":
		t.Controllers = []locate.Controller{ctrl}
		return report.JSON(opts.Out, t)
	case "markdown":
		return stages.Markdown(opts.Out, t, ctrl)
	case "mermaid":
		return stages.Mermaid(opts.Out, ctrl)
	case "html":
		return report.StagesHTML(opts.Out, htmlTree(&t, dir), t, ctrl)
	}
	return stages.Text(opts.Out, t, ctrl)
}

// readLog prints (or puts in a journal) the reading of a controller's log.
func readLog(g *globals, opts *StagesOptions) error {
	if st, err := os.Stat(opts.Dir); err != nil || !st.IsDir() {
		return fail.Usage("%s is not a directory; give the controller's module directory, where the log's printing statements are looked up", opts.Dir)
	}
	f, err := os.Open(opts.Log)
	if err != nil {
		return fail.Usage("--log %s: %w; give the file the patched controller logged to", opts.Log, err)
	}
	defer f.Close()
	rd, err := stages.ReadLog(f, opts.Log, stages.Options{Settle: opts.Settle})
	if errors.Is(err, stages.ErrNoStageLines) {
		return fail.Usage("%w; patch the controller with `ctrlcmp stages %s --patch --write`, run it, and give its log to --log", err, opts.Dir)
	}
	if err != nil {
		return fail.Wrap(fail.CodeUsage, err)
	}
	stages.Resolve(opts.Dir, &rd)
	if opts.Journal != "" {
		var body bytes.Buffer
		if err := stages.LogMarkdown(&body, rd); err != nil {
			return err
		}
		return updateJournal(g, opts.Journal, journal.Region{ID: "stages-log/" + filepath.Base(opts.Log), Version: Version, Body: body.String()})
	}
	switch opts.Format {
	case "json":
		return writeJSON(opts.Out, rd)
	case "markdown":
		return stages.LogMarkdown(opts.Out, rd)
	}
	return stages.LogText(opts.Out, rd)
}

// updateJournal puts a region into the journal at path.
func updateJournal(g *globals, path string, r journal.Region) error {
	before, after, err := journal.Update(path, r, false)
	if err != nil {
		return updateError(err)
	}
	if p := g.progress(); p != nil {
		if bytes.Equal(before, after) {
			p(fmt.Sprintf("journal %s is up to date", path))
		} else {
			p(fmt.Sprintf("wrote %s into %s", r.ID, path))
		}
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
