package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
)

// tree is the module measured: BENCH_TREE, or the Flux-style fixture.
func tree(b *testing.B) string {
	if dir := os.Getenv("BENCH_TREE"); dir != "" {
		return dir
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", "flux"))
	if err != nil {
		b.Fatal(err)
	}
	return dir
}

// goVet times `go vet ./...` in dir.
func goVet(b *testing.B, dir string) time.Duration {
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOTOOLCHAIN=local")
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Logf("go vet ./... in %s: %v\n%s", dir, err, out)
	}
	return time.Since(start)
}

func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss * 1024
}

// BenchmarkLocate runs ctrlcmp's flow on the tree and reports, next to its
// own time and peak RSS, the ratio to `go vet ./...` on the same tree with
// warm caches (a first run of each fills the module and build caches).
// The RSS of go vet is not reported: a child's peak RSS as the kernel counts
// it starts from its parent's, so it cannot be told apart from ours here;
// measure it with /usr/bin/time -v.
func BenchmarkLocate(b *testing.B) {
	dir := tree(b)
	if _, err := inspect.Tree(context.Background(), dir, "", "", nil); err != nil {
		b.Fatal(err)
	}
	goVet(b, dir)
	vetTime := goVet(b, dir)
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		if _, err := inspect.Tree(context.Background(), dir, "", "", nil); err != nil {
			b.Fatal(err)
		}
	}
	per := time.Since(start) / time.Duration(b.N)
	b.ReportMetric(float64(per)/float64(vetTime), "x-go-vet-time")
	b.ReportMetric(float64(vetTime.Milliseconds()), "go-vet-ms")
	b.ReportMetric(float64(peakRSS())/(1<<20), "peak-MiB")
}
