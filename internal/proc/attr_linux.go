package proc

import "syscall"

// groupAttr puts a child in a new process group whose id is its PID, and
// has the kernel kill it should ctrlcmp die without stopping it (SIGKILL
// leaves no chance to): the backstop of Stop.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
