//go:build unix && !linux

package load

import "syscall"

// groupAttr puts the go command in a new process group whose id is its
// PID.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
