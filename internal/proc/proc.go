// Package proc starts the helper processes of `stages --run` (etcd,
// kube-apiserver, the patched controller, go build) each in its own process
// group, and stops them by PID: the group gets SIGTERM, then SIGKILL after a
// grace period, and Stop returns only once the process has been reaped, so
// no child outlives the run.
package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Process is one started command.
type Process struct {
	Name string // what it is, for messages ("etcd")
	cmd  *exec.Cmd
	done chan struct{} // closed once the process is reaped
	err  error         // its exit status, once done is closed
	once sync.Once
}

// waitDelay bounds how long, once a process has exited, its reaping waits
// for its output pipes to close: a descendant that left the process group
// (setsid) and kept them open would otherwise hold Wait, and with it Stop
// and Run, for as long as it lives.
const waitDelay = 5 * time.Second

// Start starts name (the binary path) with args in dir, with env applied
// to ctrlcmp's environment (see Environ), its output to stdout and
// stderr, in a process group of its own (so that a terminal's Ctrl-C
// reaches ctrlcmp only, which then stops it).
func Start(what, name string, args []string, dir string, env []string, stdout, stderr io.Writer) (*Process, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = Environ(os.Environ(), env)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = groupAttr()
	cmd.WaitDelay = waitDelay
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s (%s): %w", what, name, err)
	}
	p := &Process{Name: what, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// Environ is base with changes applied in order: NAME=VALUE sets NAME, and
// a bare NAME (no "=") removes it, so that a child can be kept from
// inheriting a variable.
func Environ(base, changes []string) []string {
	env := append([]string(nil), base...)
	for _, c := range changes {
		name, _, set := strings.Cut(c, "=")
		kept := env[:0]
		for _, kv := range env {
			if n, _, _ := strings.Cut(kv, "="); n != name {
				kept = append(kept, kv)
			}
		}
		env = kept
		if set {
			env = append(env, c)
		}
	}
	return env
}

// PID is the process's id (and its group's).
func (p *Process) PID() int { return p.cmd.Process.Pid }

// Exited is closed once the process has exited.
func (p *Process) Exited() <-chan struct{} { return p.done }

// Err is the process's exit status; call it after Exited is closed.
func (p *Process) Err() error { return p.err }

// Stop ends the process group: SIGTERM, then SIGKILL after grace. It waits
// until the process is reaped and (on Linux) no process of its group runs
// any more, and is safe to call more than once.
func (p *Process) Stop(grace time.Duration) {
	p.once.Do(func() {
		deadline := time.Now().Add(grace)
		signalGroup(p.PID(), false)
		select {
		case <-p.done:
		case <-time.After(grace):
		}
		// The leader is gone; its group may not be yet (children exit
		// on their own time after the SIGTERM).
		for groupRunning(p.PID()) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		signalGroup(p.PID(), true)
		<-p.done
		for end := time.Now().Add(5 * time.Second); groupRunning(p.PID()) && time.Now().Before(end); {
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// Run runs a command to completion in its own process group and returns
// its standard output and error. When cancel is closed first, the whole
// group (go build and its compilers) is killed, and Run returns
// ErrCancelled.
func Run(cancel <-chan struct{}, what, name string, args []string, dir string, env []string) (stdout, stderr []byte, err error) {
	var out, errOut lockedBuffer
	p, err := Start(what, name, args, dir, env, &out, &errOut)
	if err != nil {
		return nil, nil, err
	}
	select {
	case <-p.done:
	case <-cancel:
		p.Stop(2 * time.Second)
		return out.Bytes(), errOut.Bytes(), ErrCancelled
	}
	p.Stop(0) // stray children, if any
	if errors.Is(p.err, exec.ErrWaitDelay) {
		return out.Bytes(), errOut.Bytes(), fmt.Errorf("%s exited, but a process it started left its group and kept its output open, so the output may be incomplete: %w", what, p.err)
	}
	if p.err != nil {
		return out.Bytes(), errOut.Bytes(), fmt.Errorf("%s: %w", what, p.err)
	}
	return out.Bytes(), errOut.Bytes(), nil
}

// ErrCancelled is Run's error when it was cancelled.
var ErrCancelled = errors.New("cancelled")

// lockedBuffer is an output buffer written by a child's stdout and stderr.
type lockedBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.buf...)
}
