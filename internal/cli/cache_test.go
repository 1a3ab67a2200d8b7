package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/fetch"
	"github.com/ctrlcmp/ctrlcmp/internal/loopback"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// printed is every printer's output for a tree (its first controller for
// the per-controller ones), to compare a stored result with a fresh one
// byte for byte.
func printed(t *testing.T, tree result.Tree) map[string]string {
	t.Helper()
	out := map[string]string{}
	print := func(name string, f func(w io.Writer) error) {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = b.String()
	}
	side := result.Side{Tree: tree, Controller: tree.Controllers[0]}
	print("json", func(w io.Writer) error { return report.JSON(w, tree) })
	print("text", func(w io.Writer) error { return report.Text(w, tree, 100) })
	print("markdown", func(w io.Writer) error { return report.Markdown(w, side, side) })
	print("text table", func(w io.Writer) error { return report.TextTable(w, 100, side, side) })
	for _, row := range report.Explainable() {
		print("explain "+row, func(w io.Writer) error { return report.Explain(w, tree, side.Controller, row) })
	}
	return out
}

// lines collects progress lines.
type lines []string

func (l *lines) add(s string) { *l = append(*l, s) }

func (l lines) say(s string) bool {
	return slices.ContainsFunc(l, func(line string) bool { return strings.Contains(line, s) })
}

// TestResultCache analyses a local tree and the same tree pinned (served
// by a git server on 127.0.0.1) fresh, then through the result cache: the
// stored result prints byte for byte what the fresh one prints, in every
// format. A damaged entry is not trusted: it is analysed again and
// rewritten. --no-cache reads and writes nothing.
func TestResultCache(t *testing.T) {
	moduleCacheHolds(t, "clientgo-plain")
	work := copyFixture(t, "clientgo-plain")
	ours := filepath.Join(work, "clientgo-plain")
	loopback.Git(t, ours, "init", "-q", "-b", "main")
	loopback.Git(t, ours, "add", "-A")
	loopback.Git(t, ours, "commit", "-q", "-m", "fixture")
	sha := loopback.Git(t, ours, "rev-parse", "HEAD")
	loopback.Git(t, work, "clone", "-q", "--bare", ours, filepath.Join(work, "srv", "theirs.git"))
	repo := serveGit(t, filepath.Join(work, "srv")) + "/theirs.git"

	g := &globals{stderr: io.Discard}
	ctx := context.Background()
	caches := map[string]string{}
	for _, src := range []source{{dir: ours}, {repo: repo, rev: sha}} {
		cache := t.TempDir()
		caches[src.dir] = cache
		flags := fetchFlags{cacheDir: cache, timeout: fetch.DefaultTimeout}
		noCache := flags
		noCache.noCache = true
		inspect := func(f fetchFlags) (result.Tree, lines) {
			t.Helper()
			var progress lines
			tree, err := g.inspect(ctx, src, f, "ours", work, progress.add)
			if err != nil {
				t.Fatal(err)
			}
			return tree, progress
		}
		before, _ := filepath.Glob(filepath.Join(cache, "results", "*.json"))
		fresh, _ := inspect(noCache)
		want := printed(t, fresh)
		if after, _ := filepath.Glob(filepath.Join(cache, "results", "*.json")); len(after) != len(before) {
			t.Fatalf("%+v: --no-cache stored a result: %v", src, after)
		}

		for _, step := range []struct {
			name   string
			before func()
			says   string
		}{
			{"first run", func() {}, "cache miss (no result stored for this tree)"},
			{"second run", func() {}, "cache hit"},
			{"damaged entry", func() { damageEntries(t, cache) }, "cache miss (the stored result is damaged (its checksum does not match its content))"},
			{"rewritten entry", func() {}, "cache hit"},
		} {
			step.before()
			tree, progress := inspect(flags)
			if !progress.say(step.says) {
				t.Errorf("%+v, %s: progress %q does not say %q", src, step.name, progress, step.says)
			}
			for format, text := range printed(t, tree) {
				if text != want[format] {
					t.Errorf("%+v, %s: %s differs from the fresh analysis's:\n%s\nwant:\n%s", src, step.name, format, text, want[format])
				}
			}
		}
		if _, progress := inspect(noCache); progress.say("cache hit") || !progress.say("result cache not used") {
			t.Errorf("%+v: --no-cache read the stored result: %q", src, progress)
		}
	}

	// The command line prints the stored result as it printed the fresh one.
	args := []string{"locate", ours, "--format", "json", "--cache-dir", caches[ours]}
	var fresh, cached, stderr bytes.Buffer
	if code := Main(append(args, "--no-cache"), &fresh, io.Discard); code != 0 {
		t.Fatalf("locate --no-cache: exit %d", code)
	}
	if code := Main(append([]string{"--verbose"}, args...), &cached, &stderr); code != 0 || !strings.Contains(stderr.String(), "cache hit") {
		t.Fatalf("locate: exit %d, stderr %s", code, &stderr)
	}
	if fresh.String() != cached.String() {
		t.Errorf("locate --format json from the cache:\n%s\nfresh:\n%s", &cached, &fresh)
	}
}

// damageEntries flips a byte in the middle of every stored result.
func damageEntries(t *testing.T, cache string) {
	t.Helper()
	entries, _ := filepath.Glob(filepath.Join(cache, "results", "*.json"))
	if len(entries) == 0 {
		t.Fatal("no stored result to damage")
	}
	for _, e := range entries {
		data, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0x20
		if err := os.WriteFile(e, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTableBothAtOnce runs table with both trees analysed at once and, under
// a memory limit too low for two analyses, one after the other: the output
// is the same, and so is stderr but for the line that says which, theirs's
// progress all before ours's.
func TestTableBothAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("heavy: make test-heavy runs it")
	}
	theirs, ours := filepath.Join(fixturesDir, "clientgo-finalizer"), filepath.Join(fixturesDir, "clientgo-plain")
	table := func() (stdout string, stderr []string) {
		t.Helper()
		var out, errb bytes.Buffer
		if code := Main([]string{"--verbose", "table", "--theirs-dir", theirs, "--ours", ours, "--no-cache", "--format", "json"}, &out, &errb); code != 0 {
			t.Fatalf("table: exit %d\n%s", code, &errb)
		}
		// Phase lines carry times and heap sizes, which differ run to run.
		lines := slices.DeleteFunc(strings.Split(strings.TrimSpace(errb.String()), "\n"), func(l string) bool {
			return strings.HasPrefix(l, "ctrlcmp: phase ")
		})
		return out.String(), lines
	}
	atOnce, atOnceErr := table()
	if ok, _ := bothAtOnce(); !ok || atOnceErr[0] != "ctrlcmp: the two trees may be analysed at once" {
		t.Skipf("this machine analyses the trees one after the other: %s", atOnceErr[0])
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(treeMemory))
	inTurn, inTurnErr := table()
	if !strings.Contains(inTurnErr[0], "one after the other: GOMEMLIMIT") {
		t.Errorf("under a memory limit, stderr begins %q", inTurnErr[0])
	}
	if atOnce != inTurn {
		t.Errorf("the table analysed at once:\n%s\nin turn:\n%s", atOnce, inTurn)
	}
	if !slices.Equal(atOnceErr[1:], inTurnErr[1:]) {
		t.Errorf("stderr analysing at once:\n%s\nin turn:\n%s", strings.Join(atOnceErr, "\n"), strings.Join(inTurnErr, "\n"))
	}
	loadsTheirs := slices.IndexFunc(atOnceErr, func(l string) bool { return strings.Contains(l, "loading packages of "+theirs) })
	loadsOurs := slices.IndexFunc(atOnceErr, func(l string) bool { return strings.Contains(l, "loading packages of "+ours) })
	if loadsTheirs < 0 || loadsOurs < loadsTheirs || !slices.ContainsFunc(atOnceErr[loadsTheirs:loadsOurs], func(l string) bool { return strings.Contains(l, "locating controllers") }) {
		t.Errorf("stderr does not load theirs before ours:\n%s", strings.Join(atOnceErr, "\n"))
	}
}
