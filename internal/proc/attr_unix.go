//go:build unix && !linux

package proc

import "syscall"

// groupAttr puts a child in a new process group whose id is its PID.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
