//go:build unix

package cli

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
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
