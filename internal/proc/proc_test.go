//go:build linux

package proc

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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

// TestRunDoesNotWaitForAnEscapedChild runs a shell whose child leaves the
// process group (setsid) with the shell's stdout: Run returns once the
// shell has exited, with its output and an error that says what happened,
// instead of waiting for the child to end.
func TestRunDoesNotWaitForAnEscapedChild(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid on this machine")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	t.Cleanup(func() {
		if data, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	out, _, err := Run(nil, "a shell", "sh", []string{"-c", "setsid sleep 600 & echo $! > pid; echo hi"}, dir, nil)
	if string(out) != "hi\n" || !errors.Is(err, exec.ErrWaitDelay) || !strings.Contains(err.Error(), "kept its output open") {
		t.Fatalf("Run: %q, %v; want hi and an error that a process kept the output open", out, err)
	}
}

// TestEnviron sets and removes variables.
func TestEnviron(t *testing.T) {
	got := Environ([]string{"A=1", "KUBECONFIG=/home/u/.kube/config", "B=2", "A=3"}, []string{"A", "KUBECONFIG=/tmp/k", "C=4"})
	want := []string{"B=2", "KUBECONFIG=/tmp/k", "C=4"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("Environ = %v, want %v", got, want)
	}
	t.Setenv("PROC_TEST_X", "1")
	out, _, err := Run(nil, "env", "sh", []string{"-c", "echo ${PROC_TEST_X-unset}"}, t.TempDir(), []string{"PROC_TEST_X"})
	if err != nil || string(out) != "unset\n" {
		t.Fatalf("a removed variable reached the child: %q, %v", out, err)
	}
}
