//go:build unix

package proc

import "syscall"

// groupAttr puts a child in a new process group whose id is its PID.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends SIGTERM (or SIGKILL when kill) to the process group pgid.
func signalGroup(pgid int, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-pgid, sig)
}
