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
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/phase"
	"github.com/ctrlcmp/ctrlcmp/internal/redact"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// Version is ctrlcmp's version, recorded in generated markdown.
var Version = "v0.1.0-dev"

const rootLong = `ctrlcmp reads Kubernetes controller source trees and says, with file:line
citations, where each part of a controller lives: the reconcile entry, where
the object is re-read, the finalizer (constant, added, cleaned up, removed),
the status condition types, and the requeues on error and on success.

It understands controller-runtime reconcilers (kubebuilder, Flux),
hand-wired client-go controllers (informers, listers, a workqueue, or a
queue of events), and generated reconcilers (knative.dev/pkg: the generated
Reconcile and the hand-written ReconcileKind). It reads the source with
go/packages and go/ssa; it never runs the code it reads.

Exit codes: 0 success; 1 findings (check); 2 usage error; 3 the tree could not
be loaded or analysed; 4 the source could not be fetched (or its server went
silent for --timeout); 5 the journal could not be written; 6 check in a
shallow clone needs the history it lacks; 130 interrupted (Ctrl-C); 143
terminated (SIGTERM), with the same cleanup.`

// Main runs ctrlcmp with args and returns the process exit code. An
// interrupt (Ctrl-C) cancels the run, which then exits with
// fail.CodeInterrupted; SIGTERM cancels it the same way (the same
// cleanup), and it exits with fail.CodeTerminated.
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := notifyContext(context.Background())
	defer stop()
	g := &globals{stderr: stderr}
	root := newRoot(g, stdout)
	root.AddCommand(newLocate(g, nil), newTable(g, nil), newExplain(g, nil), newCheck(g, nil), newStages(g, nil))
	return runUnderSignals(ctx, root, args, stderr, signalGrace)
}

// signalGrace is how long a run cancelled by a signal has to return before
// ctrlcmp exits without it.
const signalGrace = 3 * time.Second

// runUnderSignals executes root, and once ctx is cancelled waits at most grace for it
// to return: reading and analysing code does not stop at a signal (the
// SSA builder has no cancellation), so a run in the middle of it is left,
// and ctrlcmp exits interrupted (or terminated) all the same. Whatever is
// written is written atomically, so nothing is left half done.
func runUnderSignals(ctx context.Context, root *cobra.Command, args []string, stderr io.Writer, grace time.Duration) int {
	done := make(chan int, 1)
	go func() { done <- execute(ctx, root, args, stderr) }()
	select {
	case code := <-done:
		return code
	case <-ctx.Done():
	}
	select {
	case code := <-done:
		return code
	case <-time.After(grace):
		code, msg := interruption(ctx)
		fmt.Fprintf(stderr, "ctrlcmp: %s\n", msg)
		return code
	}
}

// interruption is the exit code and message of a run a signal cancelled:
// interrupted, or terminated when SIGTERM cancelled it.
func interruption(ctx context.Context) (int, string) {
	var s signalled
	if errors.As(context.Cause(ctx), &s) && s.sig == syscall.SIGTERM {
		return fail.CodeTerminated, "terminated"
	}
	return fail.CodeInterrupted, "interrupted"
}

// signalled is the cause of a run cancelled by a signal.
type signalled struct{ sig os.Signal }

func (s signalled) Error() string { return "received " + s.sig.String() }

// notifyContext returns a context cancelled at the first SIGINT or SIGTERM,
// with the signal as its cause, and the function that stops listening.
func notifyContext(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			cancel(signalled{s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// execute runs root with args under ctx and returns the exit code, printing
// a failure as one line on stderr. Once ctx is cancelled the run is
// interrupted (terminated, when SIGTERM cancelled it), whatever error the
// interrupted work returned.
func execute(ctx context.Context, root *cobra.Command, args []string, stderr io.Writer) int {
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return fail.CodeOK
	}
	code, msg := fail.Code(err), err.Error()
	if ctx.Err() != nil || code == fail.CodeInterrupted {
		code, msg = interruption(ctx)
	}
	fmt.Fprintf(stderr, "ctrlcmp: %s\n", redact.URLs(msg))
	return code
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
	return func(s string) { fmt.Fprintf(g.stderr, "ctrlcmp: %s\n", redact.URLs(s)) }
}

// phases returns ctx with, under --verbose (and not --quiet), each
// analysis' phase breakdown reported on stderr.
func (g *globals) phases(ctx context.Context) context.Context {
	return g.phasesTo(ctx, g.progress())
}

// phasesTo is phases with the phase lines handed to line (a progress
// printer, such as a tree's held lines in table).
func (g *globals) phasesTo(ctx context.Context, line func(string)) context.Context {
	if !g.verbose || g.quiet || line == nil {
		return ctx
	}
	return phase.WithReport(ctx, line)
}

// withoutAnalysis drops from an analysed tree what only `stages` reads:
// the anchors' syntax and types, which hold the whole loaded tree (49 MiB
// for a client-go fixture), so that a report is written with the analysis
// released.
func withoutAnalysis(t result.Tree) result.Tree {
	ctrls := slices.Clone(t.Controllers)
	for i := range ctrls {
		ctrls[i].Anchors = nil
	}
	t.Controllers = ctrls
	return t
}

// reported writes a report with write, marking its phase.
func reported(ctx context.Context, write func() error) error {
	ctx = phase.Begin(ctx, "output")
	err := write()
	phase.Mark(ctx, "report", "")
	return err
}

// warn prints a warning on stderr, also under --quiet: something the
// command did that will bite later.
func (g *globals) warn(msg string) {
	fmt.Fprintf(g.stderr, "ctrlcmp: warning: %s\n", redact.URLs(msg))
}

// newRoot is the ctrlcmp command with its global flags (into g), and
// without its subcommands.
func newRoot(g *globals, stdout io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "ctrlcmp",
		Short:         "Say where each part of a Kubernetes controller lives, with file:line citations",
		Long:          rootLong,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fail.Usage("unknown command %q; see `ctrlcmp --help` for the commands", args[0])
			}
			return nil
		},
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	root.SetOut(stdout)
	root.SetErr(g.stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fail.Usage("%w (see `%s --help`)", err, c.CommandPath())
	})
	root.PersistentFlags().BoolVarP(&g.quiet, "quiet", "q", false, "print no progress on stderr")
	root.PersistentFlags().BoolVarP(&g.verbose, "verbose", "v", false, "print progress on stderr even when it is not a terminal")
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
