//go:build unix

package load

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the go command in a process group of its own, and makes
// cancelling it end the whole group: the compilers an export data probe
// started stop with it instead of finishing their packages orphaned.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = groupAttr()
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
