// Package golden compares what a test printed with a golden file under the
// test's testdata. On a mismatch it reports a unified diff, not the whole
// output; with the test binary's -update flag it rewrites the file instead.
package golden

import (
	"flag"
	"os"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/diff"
)

// update is the -update flag of every test binary that imports golden.
var update = flag.Bool("update", false, "rewrite the golden files from the output instead of comparing")

// Check compares got with the file at path, or rewrites the file under -update.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if d := diff.Unified(path, want, got); d != "" {
		t.Errorf("the output differs from %s (go test -update rewrites it; review its diff):\n%s", path, d)
	}
}
