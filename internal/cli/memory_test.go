package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMeminfo reads a field of a meminfo file, in KiB, and nothing from a
// file without it.
func TestMeminfo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meminfo")
	text := "MemTotal:       24683584 kB\nMemFree:         1234567 kB\nMemAvailable:   22928052 kB\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if kib, ok := meminfo(path, "MemAvailable"); !ok || kib != 22928052 {
		t.Errorf("MemAvailable: %d, %v", kib, ok)
	}
	if _, ok := meminfo(path, "SwapFree"); ok {
		t.Error("SwapFree read from a file without it")
	}
	if _, ok := meminfo(filepath.Join(t.TempDir(), "none"), "MemAvailable"); ok {
		t.Error("MemAvailable read from no file")
	}
}
