package cli

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// treeMemory is the memory one analysis may take at its peak: twice the
// largest measured since dependencies keep their types only (about 500 MiB,
// kustomize-controller and prometheus-operator with their dependencies
// typed from source, an empty build cache), for the larger trees not
// measured.
const treeMemory = 1 << 30

// bothAtOnce says whether table analyses its two trees at once: when the
// Go memory limit (GOMEMLIMIT) and the memory available (the kernel's
// estimate, within the cgroup's limit), where known, hold two analyses at
// their peak. why says which, for a progress line.
func bothAtOnce() (ok bool, why string) {
	const need = 2 * treeMemory
	if limit := debug.SetMemoryLimit(-1); limit < need {
		return false, fmt.Sprintf("the trees are analysed one after the other: GOMEMLIMIT (%d MiB) is below what two analyses may take (%d MiB)", limit>>20, need>>20)
	}
	if avail, known := availableMemory(); known && avail < need {
		return false, fmt.Sprintf("the trees are analysed one after the other: %d MiB of memory available, less than two analyses may take (%d MiB)", avail>>20, need>>20)
	}
	return true, "the two trees may be analysed at once"
}

// availableMemory is the memory this process may still take: MemAvailable
// of /proc/meminfo, lowered to what the cgroup (v2) leaves under its limit.
// known is false where neither can be read (not Linux).
func availableMemory() (avail int64, known bool) {
	avail = math.MaxInt64
	if kib, ok := meminfo("/proc/meminfo", "MemAvailable"); ok {
		avail, known = kib<<10, true
	}
	limit, errMax := readInt("/sys/fs/cgroup/memory.max")
	used, errCur := readInt("/sys/fs/cgroup/memory.current")
	if errMax == nil && errCur == nil {
		avail, known = min(avail, max(limit-used, 0)), true
	}
	return avail, known
}

// meminfo reads one field of a meminfo file, in KiB.
func meminfo(path, field string) (int64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		return kib, err == nil
	}
	return 0, false
}

// readInt reads a file holding one integer ("max", a cgroup's absent
// limit, is not one).
func readInt(path string) (int64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
}
