package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

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
--format mermaid draws one object's life as a sequence diagram.

--patch prints a unified diff (paths relative to PATH, for git apply or
patch -p1 inside PATH) that adds one klog line per stage, tagged STAGE/watch
… STAGE/write, after the call where the stage acts; --write applies it in
place instead. Patching a patched tree changes nothing.

--log FILE reads the log of the patched controller (klog text or JSON) and
prints its STAGE lines with the stage and the printing statement in the
margin, the counts per stage per object, the reconciles for one create, and a
verdict: settles (the last pass wrote nothing) or hot loop. PATH is then only
used to find the printing statements.

--journal FILE puts the markdown (the stages, or with --log the reading) into
a fenced region of a journal, leaving the rest of it untouched.`

func newStages(g *globals) *cobra.Command {
	var kind, format, logFile, journalFile string
	var patch, write bool
	c := &cobra.Command{
		Use:   "stages PATH",
		Short: "Show, instrument and read the five stages of a client-go controller",
		Long:  stagesLong,
		Example: `  ctrlcmp stages ./sample-controller --format mermaid
  ctrlcmp stages ./sample-controller --patch | git -C ./sample-controller apply
  ctrlcmp stages ./sample-controller --log controller.log --journal notes.md`,
		Args: exactArgs(1, "one PATH, the directory of a Go module"),
		RunE: func(c *cobra.Command, args []string) error {
			dir := args[0]
			if err := checkFormat(format, "text", "markdown", "json", "mermaid"); err != nil {
				return err
			}
			switch {
			case write && !patch:
				return fail.Usage("--write applies the patch: use it with --patch")
			case patch && logFile != "":
				return fail.Usage("--patch and --log do different things; run them one at a time")
			case patch && journalFile != "":
				return fail.Usage("--journal takes the stages or a log reading, not a patch")
			}
			out := c.OutOrStdout()
			if logFile != "" {
				return readLog(c, g, dir, logFile, format, journalFile)
			}
			linkFrom := ""
			if format == "markdown" || journalFile != "" {
				linkFrom = "."
				if journalFile != "" {
					linkFrom = filepath.Dir(journalFile)
				}
			}
			t, err := inspect.Tree(c.Context(), dir, "", linkFrom, g.progress())
			if err != nil {
				return err
			}
			ctrl, err := inspect.Select(t, kind, "--kind")
			if err != nil {
				return err
			}
			if ctrl.Style != locate.StyleClientGo {
				return fail.Usage("%s: %s is a %s controller; the five stages are those of client-go controllers (informers, a workqueue, a sync function)", dir, ctrl.Name, ctrl.Style)
			}
			if patch {
				ins, err := stages.Instrument(dir, ctrl.Anchors)
				if err != nil {
					return fail.Load("%v", err)
				}
				changes, err := stages.Patch(dir, ins)
				if err != nil {
					return fail.Load("%v", err)
				}
				for _, s := range ins.Skipped {
					fmt.Fprintf(c.ErrOrStderr(), "ctrlcmp: not patched: %s\n", s)
				}
				if write {
					if err := stages.Write(changes); err != nil {
						return fail.Load("%v", err)
					}
					if p := g.progress(); p != nil {
						p(fmt.Sprintf("patched %d files in %s", len(changes), dir))
					}
					return nil
				}
				_, err = fmt.Fprint(out, stages.Diff(changes))
				return err
			}
			if journalFile != "" {
				var body bytes.Buffer
				if err := stages.Markdown(&body, t, ctrl); err != nil {
					return err
				}
				return updateJournal(g, journalFile, journal.Region{ID: "stages/" + ctrl.Kind, Repo: t.Repo, Sha: t.Sha, Version: Version, Body: body.String()})
			}
			switch format {
			case "json":
				t.Controllers = []locate.Controller{ctrl}
				return report.JSON(out, t)
			case "markdown":
				return stages.Markdown(out, t, ctrl)
			case "mermaid":
				return stages.Mermaid(out, ctrl)
			}
			return stages.Text(out, t, ctrl)
		},
	}
	c.Flags().StringVar(&kind, "kind", "", "the controller of this kind (or type name), when the tree holds several")
	c.Flags().StringVar(&format, "format", "text", "output format: text, markdown, json or mermaid")
	c.Flags().BoolVar(&patch, "patch", false, "print the diff that adds a STAGE log line at each stage")
	c.Flags().BoolVar(&write, "write", false, "with --patch: apply the patch to the files in place")
	c.Flags().StringVar(&logFile, "log", "", "read this log of the patched controller (klog text or JSON)")
	c.Flags().StringVar(&journalFile, "journal", "", "write the markdown into a fenced region of this journal")
	return c
}

// readLog prints (or puts in a journal) the reading of a controller's log.
func readLog(c *cobra.Command, g *globals, dir, logFile, format, journalFile string) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fail.Usage("%s is not a directory; give the controller's module directory, where the log's printing statements are looked up", dir)
	}
	f, err := os.Open(logFile)
	if err != nil {
		return fail.Usage("--log %s: %v; give the file the patched controller logged to", logFile, err)
	}
	defer f.Close()
	rd, err := stages.ReadLog(f, logFile)
	if err != nil {
		return fail.Usage("%v", err)
	}
	stages.Resolve(dir, &rd)
	out := c.OutOrStdout()
	if journalFile != "" {
		var body bytes.Buffer
		if err := stages.LogMarkdown(&body, rd); err != nil {
			return err
		}
		return updateJournal(g, journalFile, journal.Region{ID: "stages-log/" + filepath.Base(logFile), Version: Version, Body: body.String()})
	}
	switch format {
	case "json":
		return writeJSON(out, rd)
	case "markdown":
		return stages.LogMarkdown(out, rd)
	case "mermaid":
		return fail.Usage("--format mermaid draws the stages of the code; a log reading prints as text, markdown or json")
	}
	return stages.LogText(out, rd)
}

// updateJournal puts a region into the journal at path.
func updateJournal(g *globals, path string, r journal.Region) error {
	before, after, err := journal.Update(path, r, false)
	if err != nil {
		return fail.Usage("%v", err)
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
