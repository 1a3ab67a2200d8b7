//go:build linux

package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// trees are the trees measured: the Flux-style fixture always, the others
// when their variable names a checkout.
var trees = []struct {
	name, env string
}{
	{"fixture", ""},
	{"kustomize-controller", "BENCH_KUSTOMIZE_CONTROLLER"},
	{"large-operator", "BENCH_LARGE_OPERATOR"},
	{"tree", "BENCH_TREE"},
}

// measure is one whole-process run: its wall time and the peak RSS of the
// largest process in it.
type measure struct {
	time time.Duration
	rss  int64
}

func (m measure) String() string {
	return fmt.Sprintf("%.2f s, %d MiB", m.time.Seconds(), m.rss>>20)
}

// tool is one command measured on a tree.
type tool struct {
	name string
	args []string
}

// BenchmarkTrees measures ctrlcmp locate, as a process, next to `go vet
// ./...` and `go list -deps -export ./...` on the same tree, with warm
// caches (each run once before), alternating BENCH_COUNT times (default 3)
// and comparing medians; with BENCH_COLD=1, once more each with an empty
// GOCACHE (and an empty ctrlcmp cache); then ctrlcmp again with its result
// cached. It prints a markdown
// table per tree and asserts nothing about time.
//
// A child's peak RSS (its rusage at wait, the largest of it and its
// children) includes the RSS of this process when it forked, so this
// process runs nothing heavy itself: its own peak is printed as the error
// bound.
func BenchmarkTrees(b *testing.B) {
	ctrlcmp := buildCtrlcmp(b)
	for _, tr := range trees {
		b.Run(tr.name, func(b *testing.B) {
			dir := os.Getenv(tr.env)
			if tr.env == "" {
				dir = filepath.Join("..", "..", "testdata", "src", "flux")
			}
			if dir == "" {
				b.Skipf("$%s does not name a checkout of %s", tr.env, tr.name)
			}
			dir, err := filepath.Abs(dir)
			if err != nil {
				b.Fatal(err)
			}
			benchTree(b, tr.name, dir, ctrlcmp)
		})
	}
}

func benchTree(b *testing.B, name, dir, ctrlcmp string) {
	tools := []tool{
		{"ctrlcmp locate", []string{ctrlcmp, "locate", dir, "--format", "json", "--no-cache"}},
		{"go vet ./...", []string{"go", "vet", "./..."}},
		{"go list -deps -export ./...", []string{"go", "list", "-deps", "-export", "./..."}},
	}
	count := 3
	if n, err := strconv.Atoi(os.Getenv("BENCH_COUNT")); err == nil && n > 0 {
		count = n
	}
	// ctrlcmp keeps the dependency types it derives in its cache
	// directory, as the go command keeps its build cache: warm, both are
	// filled; cold, both are empty.
	kept := []string{"CTRLCMP_CACHE=" + b.TempDir()}
	for _, t := range tools { // fill the module, build and ctrlcmp caches
		run(b, dir, t.args, kept)
	}
	warm := make([][]measure, len(tools))
	for range count {
		for i, t := range tools {
			warm[i] = append(warm[i], run(b, dir, t.args, kept))
		}
	}
	rows := [][]measure{medians(warm)}
	labels := []string{fmt.Sprintf("warm (median of %d, alternating)", count)}
	if os.Getenv("BENCH_COLD") == "1" {
		cold := make([]measure, len(tools))
		for i, t := range tools {
			cold[i] = run(b, dir, t.args, []string{"GOCACHE=" + b.TempDir(), "CTRLCMP_CACHE=" + b.TempDir()})
		}
		rows = append(rows, cold)
		labels = append(labels, "cold (empty GOCACHE, once)")
	}
	results := []string{"CTRLCMP_CACHE=" + b.TempDir()}
	cachedArgs := slices.DeleteFunc(slices.Clone(tools[0].args), func(a string) bool { return a == "--no-cache" })
	run(b, dir, cachedArgs, results) // stores the result
	var cached []measure
	for range count {
		cached = append(cached, run(b, dir, cachedArgs, results))
	}
	rows = append(rows, []measure{median(cached)})
	labels = append(labels, fmt.Sprintf("ctrlcmp again, its result cached (median of %d)", count))

	var out strings.Builder
	fmt.Fprintf(&out, "\n%s (%s)\n\n| run | %s | %s | %s | ctrlcmp / go vet | ctrlcmp / go list |\n|---|---|---|---|---|---|\n",
		name, dir, tools[0].name, tools[1].name, tools[2].name)
	for i, r := range rows {
		cells := []string{labels[i]}
		for j := range tools {
			if j < len(r) {
				cells = append(cells, r[j].String())
			} else {
				cells = append(cells, "")
			}
		}
		base := r // the cached run is compared with the warm ones
		if len(r) < len(tools) {
			base = rows[0]
		}
		for j := 1; j < len(tools); j++ {
			cells = append(cells, ratio(r[0], base[j]))
		}
		fmt.Fprintf(&out, "| %s |\n", strings.Join(cells, " | "))
	}
	fmt.Fprintf(&out, "\npeak RSS of the benchmark itself (the error bound of the children's): %d MiB\n", selfRSS()>>20)
	fmt.Print(out.String())

	b.ReportMetric(float64(rows[0][0].time)/float64(rows[0][1].time), "warm-x-go-vet")
	b.ReportMetric(float64(rows[0][0].rss>>20), "warm-peak-MiB")
	b.ReportMetric(float64(rows[len(rows)-1][0].time.Milliseconds()), "cached-ms")
}

// ratio is a's time and peak RSS over b's.
func ratio(a, b measure) string {
	if b.time == 0 || b.rss == 0 {
		return ""
	}
	return fmt.Sprintf("%.2g× time, %.2g× memory", a.time.Seconds()/b.time.Seconds(), float64(a.rss)/float64(b.rss))
}

// buildCtrlcmp builds ctrlcmp into a temporary directory.
func buildCtrlcmp(b *testing.B) string {
	exe := filepath.Join(b.TempDir(), "ctrlcmp")
	cmd := exec.Command("go", "build", "-o", exe, "github.com/ctrlcmp/ctrlcmp/cmd/ctrlcmp")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build ctrlcmp: %v\n%s", err, out)
	}
	return exe
}

// run runs args in dir with env added, and measures it. ctrlcmp failing
// ends the benchmark; the go command failing (a tree that does not vet
// cleanly) is logged, and measured all the same.
func run(b *testing.B, dir string, args, env []string) measure {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "CGO_ENABLED=0", "GOTOOLCHAIN=local"), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if err != nil {
		if filepath.Base(args[0]) == "ctrlcmp" {
			b.Fatalf("%s in %s: %v\n%s", strings.Join(args, " "), dir, err, &stderr)
		}
		b.Logf("%s in %s: %v\n%s", strings.Join(args, " "), dir, err, firstLines(stderr.String(), 5))
	}
	m := measure{time: elapsed}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m.rss = ru.Maxrss << 10 // KiB on Linux
	}
	return m
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// medians are the median of each tool's runs.
func medians(runs [][]measure) []measure {
	out := make([]measure, len(runs))
	for i, r := range runs {
		out[i] = median(r)
	}
	return out
}

// median is the median time of runs, with the largest peak RSS.
func median(runs []measure) measure {
	times := make([]time.Duration, len(runs))
	var rss int64
	for i, r := range runs {
		times[i], rss = r.time, max(rss, r.rss)
	}
	slices.Sort(times)
	return measure{time: times[len(times)/2], rss: rss}
}

func selfRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss << 10
}
