//go:build unix

package cli

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/cobra"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
)

// TestSignals: SIGINT and SIGTERM, sent to the process, cancel the run's
// context with the signal as the cause.
func TestSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		ctx, stop := notifyContext(context.Background())
		if err := syscall.Kill(os.Getpid(), sig); err != nil {
			stop()
			t.Fatal(err)
		}
		<-ctx.Done()
		var s signalled
		if !errors.As(context.Cause(ctx), &s) || s.sig != sig {
			t.Errorf("sent %v: the cause is %v", sig, context.Cause(ctx))
		}
		stop()
	}
}

// TestSignalLeavesStuckWork: a run that does not return when its context
// is cancelled (the analysis cannot be interrupted) is left, and ctrlcmp
// exits terminated all the same.
func TestSignalLeavesStuckWork(t *testing.T) {
	ctx, stop := notifyContext(context.Background())
	defer stop()
	stuck := make(chan struct{})
	defer close(stuck)
	root := &cobra.Command{Use: "ctrlcmp", SilenceErrors: true, SilenceUsage: true, RunE: func(*cobra.Command, []string) error {
		if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
			return err
		}
		<-stuck // ignores the cancelled context
		return nil
	}}
	var stderr strings.Builder
	if code := runUnderSignals(ctx, root, nil, &stderr, 0); code != fail.CodeTerminated {
		t.Errorf("exit code %d, want %d", code, fail.CodeTerminated)
	}
	if !strings.Contains(stderr.String(), "terminated") {
		t.Errorf("stderr %q does not say terminated", stderr.String())
	}
}
