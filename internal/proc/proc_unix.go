//go:build unix

package proc

import "syscall"

// signalGroup sends SIGTERM (or SIGKILL when kill) to the process group pgid.
func signalGroup(pgid int, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-pgid, sig)
}
