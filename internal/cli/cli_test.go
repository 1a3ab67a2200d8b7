package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenDir is absolute: the tests change directory.
var goldenDir, _ = filepath.Abs(filepath.Join("..", "..", "testdata", "golden"))

// fixturesDir is absolute for the same reason.
var fixturesDir, _ = filepath.Abs(filepath.Join("..", "..", "testdata", "src"))

// run runs ctrlcmp and returns its exit code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(append([]string{"--quiet"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// copyFixture copies a fixture tree into a fresh directory outside any git
// repository and returns its parent, so that paths in the output do not
// depend on where the test runs.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(fixturesDir, name)
	parent := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		dst := filepath.Join(parent, name, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return parent
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./internal/cli -update` to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output (run `go test ./internal/cli -update` and review the diff):\n%s", path, got)
	}
}

// TestGolden checks the JSON of every fixture and the markdown table of a
// Flux-style controller against a client-go one.
func TestGolden(t *testing.T) {
	for _, name := range []string{"clientgo-finalizer", "clientgo-plain", "kubebuilder", "flux", "resultbuilder", "ctrlnew"} {
		t.Run(name, func(t *testing.T) {
			t.Chdir(copyFixture(t, name))
			code, out, errs := run(t, "locate", name, "--format", "json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden(t, name+".json", out)
		})
	}
	t.Run("table", func(t *testing.T) {
		dir := copyFixture(t, "flux")
		ours := copyFixture(t, "clientgo-finalizer")
		if err := os.Rename(filepath.Join(ours, "clientgo-finalizer"), filepath.Join(dir, "clientgo-finalizer")); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		code, out, errs := run(t, "table", "--theirs-dir", "flux", "--ours", "clientgo-finalizer")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		golden(t, "table.md", out)
	})
}

// TestBadInput checks that each kind of bad input gives one line on stderr
// naming the input, and the exit code of the output contract.
func TestBadInput(t *testing.T) {
	empty := t.TempDir()
	noController := t.TempDir()
	write := func(dir, name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(noController, "go.mod", "module example.com/empty\n\ngo 1.26\n")
	write(noController, "main.go", "package main\n\nfunc main() {}\n")
	badMod := t.TempDir()
	write(badMod, "go.mod", "this is not a go.mod\n")

	for _, tc := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"missing path", []string{"locate", filepath.Join(empty, "nope")}, fail.CodeUsage, "no such directory"},
		{"not a module", []string{"locate", empty}, fail.CodeLoad, "not a Go module"},
		{"malformed go.mod", []string{"locate", badMod}, fail.CodeLoad, "go.mod"},
		{"no controller", []string{"locate", noController}, fail.CodeLoad, "no controller found"},
		{"no path", []string{"locate"}, fail.CodeUsage, "takes one PATH"},
		{"unknown flag", []string{"locate", "--bogus", empty}, fail.CodeUsage, "unknown flag"},
		{"unknown format", []string{"locate", empty, "--format", "yaml"}, fail.CodeUsage, "unknown --format"},
		{"table without ours", []string{"table", "--theirs-dir", empty}, fail.CodeUsage, "--ours"},
		{"unknown command", []string{"frobnicate"}, fail.CodeUsage, "unknown command"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errs)
			}
			if !strings.Contains(errs, tc.says) || strings.Count(errs, "\n") != 1 {
				t.Errorf("stderr %q: want one line saying %q", errs, tc.says)
			}
			if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
				t.Errorf("stderr holds a stack trace: %s", errs)
			}
		})
	}
}

// TestUnknownKind asks for a kind a fixture does not hold.
func TestUnknownKind(t *testing.T) {
	t.Chdir(copyFixture(t, "kubebuilder"))
	code, _, errs := run(t, "locate", "kubebuilder", "--kind", "Nope")
	if code != fail.CodeUsage || !strings.Contains(errs, `no controller of kind "Nope"`) || !strings.Contains(errs, "Gadget") {
		t.Errorf("exit %d, stderr %q: want exit 2 naming the kinds there are", code, errs)
	}
}

// TestTreeWithTypeErrors: a tree that does not compile still gets every row
// that can be found, with the type errors as warnings.
func TestTreeWithTypeErrors(t *testing.T) {
	dir := copyFixture(t, "kubebuilder")
	broken := filepath.Join(dir, "kubebuilder", "internal", "controller", "broken.go")
	if err := os.WriteFile(broken, []byte("package controller\n\nfunc broken() int { return \"not an int\" }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, out, errs := run(t, "locate", "kubebuilder", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"warnings"`) || !strings.Contains(out, "broken.go") {
		t.Errorf("no warning names broken.go:\n%s", out)
	}
	if !strings.Contains(out, `"reconcile-entry"`) || !strings.Contains(out, "gadget_controller.go") {
		t.Errorf("rows missing despite the type error:\n%s", out)
	}
}

// TestUnanalysedOnThePath: a function on the reconcile path that does not
// type-check is left out, named in the warnings, and the rows it might
// answer say they are not settled rather than none.
func TestUnanalysedOnThePath(t *testing.T) {
	dir := copyFixture(t, "clientgo-plain")
	file := filepath.Join(dir, "clientgo-plain", "controller.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(src),
		"func newSecret(configMap *corev1.ConfigMap) *corev1.Secret {\n",
		"func newSecret(configMap *corev1.ConfigMap) *corev1.Secret {\n\tvar _ int = \"not an int\"\n", 1)
	if broken == string(src) {
		t.Fatal("newSecret not found in the fixture")
	}
	if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, out, errs := run(t, "locate", "clientgo-plain", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "not analysed, because of type errors: newSecret") {
		t.Errorf("no warning names newSecret:\n%s", out)
	}
	if !strings.Contains(out, `"none": "not settled: main.newSecret, on the reconcile path, could not be analysed`) {
		t.Errorf("rows without an answer do not say they are not settled:\n%s", out)
	}
}
