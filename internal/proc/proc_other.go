//go:build !unix

package proc

import (
	"os"
	"syscall"
)

// groupAttr is the default: process groups are a unix idea.
func groupAttr() *syscall.SysProcAttr { return nil }

// signalGroup kills the process pid (outside unix there is no group to
// signal, and no SIGTERM).
func signalGroup(pid int, _ bool) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
