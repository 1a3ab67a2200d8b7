package load

import "syscall"

// groupAttr puts the go command in a new process group whose id is its
// PID, and has the kernel kill it should ctrlcmp die without cancelling
// it (SIGKILL leaves no chance to), so that a killed ctrlcmp does not
// leave `go list -export` compiling.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
