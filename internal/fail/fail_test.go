package fail

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

// TestWrap: a wrapped error keeps its message and its cause, and the
// outermost code is the exit code.
func TestWrap(t *testing.T) {
	if Wrap(CodeUsage, nil) != nil {
		t.Error("Wrap(code, nil) is not nil")
	}
	cause := fmt.Errorf("journal j.md: %w", fs.ErrPermission)
	err := Wrap(CodeJournal, cause)
	if err.Error() != cause.Error() {
		t.Errorf("message %q, want %q", err, cause)
	}
	if !errors.Is(err, fs.ErrPermission) {
		t.Error("the cause is lost")
	}
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, CodeOK},
		{err, CodeJournal},
		{fmt.Errorf("hinted: %w", err), CodeJournal},
		{Wrap(CodeUsage, Fetch("inner")), CodeUsage},
		{cause, CodeLoad},
		{context.Canceled, CodeInterrupted},
		{Wrap(CodeFetch, fmt.Errorf("fetching: %w", context.Canceled)), CodeInterrupted},
	} {
		if got := Code(c.err); got != c.want {
			t.Errorf("Code(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}
