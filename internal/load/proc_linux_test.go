package load

import (
	"context"
	"syscall"
	"testing"
)

// TestGoCommandBounded checks what every go command the loader runs gets:
// its own process group, the kernel's SIGKILL should ctrlcmp die, and a
// bounded wait for its output once it has ended.
func TestGoCommandBounded(t *testing.T) {
	cmd := goCommand(context.Background(), t.TempDir(), nil, "env", "GOVERSION")
	if a := cmd.SysProcAttr; a == nil || !a.Setpgid || a.Pdeathsig != syscall.SIGKILL {
		t.Errorf("SysProcAttr %+v, want Setpgid and Pdeathsig SIGKILL", a)
	}
	if cmd.WaitDelay <= 0 || cmd.Cancel == nil {
		t.Errorf("WaitDelay %v, Cancel set %v; want a WaitDelay and a Cancel that kills the group", cmd.WaitDelay, cmd.Cancel != nil)
	}
	if out, err := cmd.Output(); err != nil || len(out) == 0 {
		t.Errorf("go env GOVERSION: %q, %v", out, err)
	}
}
