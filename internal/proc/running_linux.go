package proc

import (
	"bytes"
	"os"
	"strconv"
)

// Running says whether the process pid exists and has not exited: an
// exited child that no one has reaped yet (a zombie, state Z in
// /proc/PID/stat) holds no ports and runs no code, so it does not count.
func Running(pid int) bool {
	state, _, ok := stat(strconv.Itoa(pid))
	return ok && state != 'Z'
}

// groupRunning says whether a process of group pgid still runs.
func groupRunning(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		if state, group, ok := stat(e.Name()); ok && state != 'Z' && group == pgid {
			return true
		}
	}
	return false
}

// stat reads a process's state and process group from /proc/PID/stat:
// "pid (comm) state ppid pgrp …", where comm may hold spaces and
// parentheses.
func stat(pid string) (state byte, pgrp int, ok bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, false
	}
	fields := bytes.Fields(data[i+1:])
	if len(fields) < 3 {
		return 0, 0, false
	}
	pgrp, err = strconv.Atoi(string(fields[2]))
	return fields[0][0], pgrp, err == nil
}
