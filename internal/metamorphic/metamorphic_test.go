package metamorphic

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// subset are the fixtures of the matrix without METAMORPHIC=full
// (`make metamorphic` runs every fixture under testdata/src). Under -short
// (`make test`) only the first runs: each fixture is loaded once per
// rewrite, about a minute of CPU a fixture, so the second's subtest skips
// and `make test-heavy` runs both.
var subset = []string{"childwait", "samekind"}

// knownFile lists the cells known to be wrong, one "fixture rewrite
// controller/row" a line: a wrong cell not in it fails, a cell in it that
// is no longer wrong is reported.
const knownFile = "testdata/known.txt"

// TestMatrix rewrites fixtures with every refactoring and checks each
// row's answer against the want comments the rewrite carried along. It
// prints the matrix (go test -v). METAMORPHIC_MATRIX=FILE also writes it
// there; METAMORPHIC_UPDATE=1 rewrites the known list from this run (the
// cells of the fixtures and rewrites it ran). METAMORPHIC_FIXTURES and METAMORPHIC_REWRITES
// (comma-separated names) narrow the run; METAMORPHIC_KEEP=DIR keeps the
// rewritten trees there.
func TestMatrix(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "src")
	fixtures := subset
	if os.Getenv("METAMORPHIC") == "full" {
		ds, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		fixtures = nil
		for _, d := range ds {
			if d.IsDir() {
				fixtures = append(fixtures, d.Name())
			}
		}
	}
	rewrites := Rewrites
	if only := os.Getenv("METAMORPHIC_REWRITES"); only != "" {
		rewrites = nil
		for _, rw := range Rewrites {
			if slices.Contains(strings.Split(only, ","), rw.Name) {
				rewrites = append(rewrites, rw)
			}
		}
	}
	if only := os.Getenv("METAMORPHIC_FIXTURES"); only != "" {
		fixtures = strings.Split(only, ",")
	} else if testing.Short() && os.Getenv("METAMORPHIC") != "full" {
		for _, name := range fixtures[1:] {
			t.Run(name, func(t *testing.T) {
				t.Skip("heavy: make test-heavy runs it")
			})
		}
		fixtures = fixtures[:1]
	}
	known := readKnown(t)
	var cells []Cell
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			tmp, keep := t.TempDir(), os.Getenv("METAMORPHIC_KEEP")
			if keep != "" {
				tmp = keep
			}
			cs, err := Run(context.Background(), name, filepath.Join(root, name), tmp, rewrites, keep != "")
			if err != nil {
				t.Fatal(err)
			}
			cells = append(cells, cs...)
		})
	}
	matrix := Matrix(cells, rewrites)
	var wrong []string
	for _, c := range cells {
		if c.Verdict == Wrong {
			wrong = append(wrong, c.Key()+": "+c.Detail)
		}
	}
	t.Logf("\n%s\nwrong cells:\n%s", matrix, strings.Join(wrong, "\n"))
	if out := os.Getenv("METAMORPHIC_MATRIX"); out != "" {
		if err := os.WriteFile(out, []byte(matrix+"\nwrong cells:\n"+strings.Join(wrong, "\n")+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	now := map[string]bool{}
	for _, c := range cells {
		if c.Verdict != Wrong {
			continue
		}
		now[c.Key()] = true
		if !known[c.Key()] {
			t.Errorf("%s: wrong, and not in %s: %s", c.Key(), knownFile, c.Detail)
		}
	}
	// ran says whether this run judged a known cell's fixture and rewrite.
	ran := func(k string) bool {
		f := strings.Fields(k)
		return len(f) == 3 && slices.Contains(fixtures, f[0]) && slices.ContainsFunc(rewrites, func(rw Rewrite) bool { return rw.Name == f[1] })
	}
	var stale []string
	for k := range known {
		if ran(k) && !now[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(stale)
	for _, k := range stale {
		t.Logf("now passes: remove from the known list (%s): %s", knownFile, k)
	}
	if os.Getenv("METAMORPHIC_UPDATE") == "1" {
		for k := range known {
			if !ran(k) {
				now[k] = true
			}
		}
		writeKnown(t, now)
	}
}

func readKnown(t *testing.T) map[string]bool {
	t.Helper()
	known := map[string]bool{}
	f, err := os.Open(knownFile)
	if os.IsNotExist(err) {
		return known
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			known[line] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return known
}

func writeKnown(t *testing.T, keys map[string]bool) {
	t.Helper()
	var lines []string
	for k := range keys {
		lines = append(lines, k)
	}
	sort.Strings(lines)
	head := "# Cells of the metamorphic matrix known to be wrong: fixture rewrite controller/row.\n" +
		"# TestMatrix fails on a wrong cell not listed here and reports a listed one that passes.\n"
	if err := os.WriteFile(knownFile, []byte(head+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
