//go:build linux

package proc

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestStopEndsTheGroup stops a shell that started a child of its own: the
// child dies with it.
func TestStopEndsTheGroup(t *testing.T) {
	var out lockedBuffer
	p, err := Start("a shell", "sh", []string{"-c", "sleep 300 & echo $!; wait"}, t.TempDir(), nil, &out, &out)
	if err != nil {
		t.Fatal(err)
	}
	var child int
	for deadline := time.Now().Add(10 * time.Second); child == 0; {
		if line, _, ok := bytes.Cut(out.Bytes(), []byte("\n")); ok {
			child, _ = strconv.Atoi(strings.TrimSpace(string(line)))
		}
		if time.Now().After(deadline) {
			t.Fatalf("the shell never printed its child's pid: %q", out.Bytes())
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.Stop(5 * time.Second)
	p.Stop(5 * time.Second) // a second Stop is harmless
	for _, pid := range []int{p.PID(), child} {
		if Running(pid) {
			t.Errorf("process %d survives Stop", pid)
		}
	}
}

// TestRunCancelled kills a command whose cancel channel closes.
func TestRunCancelled(t *testing.T) {
	cancel := make(chan struct{})
	close(cancel)
	if _, _, err := Run(cancel, "sleep", "sleep", []string{"300"}, t.TempDir(), nil); !errors.Is(err, ErrCancelled) {
		t.Fatalf("Run with a closed cancel: %v, want ErrCancelled", err)
	}
}

// TestRunOutput returns a command's output, and its failure.
func TestRunOutput(t *testing.T) {
	out, errOut, err := Run(nil, "echo", "sh", []string{"-c", "echo hello; echo $X >&2; exit 3"}, t.TempDir(), []string{"X=1"})
	if err == nil || !strings.Contains(err.Error(), "exit status 3") || string(out) != "hello\n" || string(errOut) != "1\n" {
		t.Fatalf("Run: %q, %q, %v; want hello, 1 and exit status 3", out, errOut, err)
	}
}
