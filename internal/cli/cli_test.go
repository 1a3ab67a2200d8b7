package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ctrlcmp/ctrlcmp/internal/diff"
	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/fetch"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
	"github.com/ctrlcmp/ctrlcmp/internal/stages"
)

var update = flag.Bool("update", false, "rewrite the golden table under testdata/golden")

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
// moduleCacheHolds brings the dependencies of a fixture into the module
// cache, so that a test may then turn the module proxy off (and a cold
// cache, a fresh CI machine, still serves the fixture).
func moduleCacheHolds(t *testing.T, name string) {
	t.Helper()
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir = filepath.Join(fixturesDir, name)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod download in %s: %v\n%s", cmd.Dir, err, out)
	}
}

// copyFixture copies a fixture tree of testdata/src into a new temporary
// directory, as NAME under it, and returns that directory.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	parent := t.TempDir()
	if err := os.CopyFS(filepath.Join(parent, name), os.DirFS(filepath.Join(fixturesDir, name))); err != nil {
		t.Fatal(err)
	}
	return parent
}

// golden compares got with the golden file name, printing a unified diff
// when they differ; under -update it rewrites the file instead.
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
		t.Fatalf("%v (run `go test ./internal/cli -run TestGolden -update` to create it)", err)
	}
	if got != string(want) {
		t.Errorf("the output differs from %s (run `go test ./internal/cli -run TestGolden -update` and review the change):\n%s", path, diff.Unified(name, want, []byte(got)))
	}
}

// TestGolden runs the whole CLI once, end to end: the markdown table of a
// Flux-style controller against a client-go one. The analysis itself is
// checked by the fixtures' want comments (internal/locate).
func TestGolden(t *testing.T) {
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
}

// stubbed runs ctrlcmp with every command's run function replaced by one
// that records its options, so that only the flags and arguments are
// checked and no tree is loaded. It returns the exit code, stderr, and the
// options the command was run with (nil when the command line was refused).
func stubbed(t *testing.T, args ...string) (int, string, any) {
	t.Helper()
	var got any
	record := func(opts any) error {
		got = opts
		return nil
	}
	var out, errb bytes.Buffer
	g := &globals{stderr: &errb}
	root := newRoot(g, &out)
	root.AddCommand(
		newLocate(g, func(o *LocateOptions) error { return record(o) }),
		newTable(g, func(o *TableOptions) error { return record(o) }),
		newExplain(g, func(o *ExplainOptions) error { return record(o) }),
		newCheck(g, func(o *CheckOptions) error { return record(o) }),
		newStages(g, func(o *StagesOptions) error { return record(o) }),
	)
	code := execute(context.Background(), root, args, &errb)
	return code, errb.String(), got
}

// wantOneLine checks that stderr is one line saying says, with no stack
// trace.
func wantOneLine(t *testing.T, stderr, says string) {
	t.Helper()
	if !strings.Contains(stderr, says) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr %q: want one line saying %q", stderr, says)
	}
	if strings.Contains(stderr, "goroutine") || strings.Contains(stderr, "panic") {
		t.Errorf("stderr holds a stack trace: %s", stderr)
	}
}

// TestBadInput checks that each mistake on the command line gives exit code
// 2 and one line on stderr naming it, before anything is loaded or fetched.
func TestBadInput(t *testing.T) {
	sha := strings.Repeat("ab", 20)
	for _, tc := range []struct {
		name string
		args []string
		says string
	}{
		{"no path", []string{"locate"}, "takes one PATH"},
		{"unknown flag", []string{"locate", "--bogus", "."}, "unknown flag: --bogus"},
		{"unknown format", []string{"locate", ".", "--format", "yaml"}, "unknown --format"},
		{"unknown command", []string{"frobnicate"}, "unknown command"},
		{"locate path and rev", []string{"locate", ".", "--rev", sha}, "no PATH with --rev"},
		{"locate repo alone", []string{"locate", "--repo", "https://example.com/r.git"}, "--repo goes with --rev"},
		{"table without ours", []string{"table", "--theirs-dir", "."}, "--ours"},
		{"both theirs", []string{"table", "--theirs", sha, "--theirs-dir", ".", "--ours", "."}, "give one of them"},
		{"no theirs", []string{"table", "--ours", "."}, "--theirs REV"},
		{"repo with dir", []string{"table", "--theirs-dir", ".", "--theirs-repo", "https://example.com/r.git", "--ours", "."}, "--theirs-repo goes with --theirs"},
		{"check without journal", []string{"table", "--theirs-dir", ".", "--ours", ".", "--check"}, "name the journal with --journal"},
		{"journal as text", []string{"table", "--theirs-dir", ".", "--ours", ".", "--journal", "j.md", "--format", "text"}, "drop --format text"},
		{"journal as html", []string{"table", "--theirs-dir", ".", "--ours", ".", "--journal", "j.md", "--format", "html"}, "drop --format html"},
		{"explain no row", []string{"explain"}, "explain takes a ROW first"},
		{"explain unknown row", []string{"explain", "nope", "."}, `unknown ROW "nope"`},
		{"explain path and row swapped", []string{"explain", "./op", "Writes"}, `unknown ROW "./op": the ROW comes first, then the PATH: ctrlcmp explain writes ./op`},
		{"check no file", []string{"check"}, "one or more journal FILEs"},
		{"check format", []string{"check", "--format", "yaml", "j.md"}, "unknown --format"},
		{"stages write alone", []string{"stages", ".", "--write"}, "use it with --patch"},
		{"stages patch and log", []string{"stages", ".", "--patch", "--log", "x.log"}, "one at a time"},
		{"stages patch into journal", []string{"stages", ".", "--patch", "--journal", "j.md"}, "not a patch"},
		{"stages log as mermaid", []string{"stages", ".", "--log", "x.log", "--format", "mermaid"}, "a log reading prints as"},
		{"stages settle not positive", []string{"stages", ".", "--log", "x.log", "--settle", "0s"}, "--settle 0s: give a positive duration"},
		{"stages run and log", []string{"stages", ".", "--run", "--log", "x.log"}, "use it without --patch and --log"},
		{"stages for without run", []string{"stages", ".", "--for", "1m"}, "go with --run"},
		{"stages run for nothing", []string{"stages", ".", "--run", "--for", "0s"}, "--for 0s: give a positive duration"},
		{"stages run as mermaid", []string{"stages", ".", "--run", "--format", "mermaid"}, "a run's reading prints as"},
		{"stages log as html", []string{"stages", ".", "--log", "x.log", "--format", "html"}, "--format html draws the stages of the code"},
		{"zero timeout", []string{"locate", "--rev", sha, "--timeout", "0"}, `invalid argument "0" for "--timeout" flag: a fetch needs time; give a positive duration`},
		{"timeout without unit", []string{"check", "--timeout", "30", "j.md"}, `invalid argument "30" for "--timeout" flag: not a duration; give one such as 30s`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, errs, ran := stubbed(t, tc.args...)
			if code != fail.CodeUsage {
				t.Errorf("exit %d, want %d (stderr %q)", code, fail.CodeUsage, errs)
			}
			if ran != nil {
				t.Errorf("the command ran with %+v", ran)
			}
			wantOneLine(t, errs, tc.says)
		})
	}
}

// TestOptions checks what the flags and arguments become (text tables
// fitted to $COLUMNS).
func TestOptions(t *testing.T) {
	t.Setenv("COLUMNS", "90")
	sha := strings.Repeat("ab", 20)
	for _, tc := range []struct {
		name string
		args []string
		want any
	}{
		{"locate path", []string{"locate", "op", "--kind", "Widget", "--format", "json"},
			&LocateOptions{Source: source{dir: "op"}, Kind: "Widget", Format: "json", Width: 90, Fetch: fetchFlags{timeout: fetch.DefaultTimeout}}},
		{"locate rev", []string{"locate", "--rev", sha, "--offline", "--cache-dir", "c"},
			&LocateOptions{Source: source{repo: defaultTheirsRepo, rev: sha}, Format: "text", Fetch: fetchFlags{cacheDir: "c", offline: true, timeout: fetch.DefaultTimeout}, Width: 90}},
		{"table into a journal", []string{"table", "--theirs-dir", "th", "--ours", "op", "--journal", "notes/j.md", "--check"},
			&TableOptions{Theirs: source{dir: "th", repo: defaultTheirsRepo}, Ours: "op", Format: "markdown", LinkFrom: "notes", Journal: "notes/j.md", Check: true, Width: 90, Fetch: fetchFlags{timeout: fetch.DefaultTimeout}}},
		{"table as text", []string{"table", "--theirs", "v1.0.0", "--theirs-repo", "https://example.com/r.git", "--ours", "op", "--format", "text", "--timeout", "2m"},
			&TableOptions{Theirs: source{repo: "https://example.com/r.git", rev: "v1.0.0"}, Ours: "op", Format: "text", Width: 90, Fetch: fetchFlags{timeout: 2 * time.Minute}}},
		{"table as html", []string{"table", "--theirs-dir", "th", "--ours", "op", "--format", "html"},
			&TableOptions{Theirs: source{dir: "th", repo: defaultTheirsRepo}, Ours: "op", Format: "html", Width: 90, Fetch: fetchFlags{timeout: fetch.DefaultTimeout}}},
		{"locate as html", []string{"locate", "op", "--format", "html"},
			&LocateOptions{Source: source{dir: "op"}, Format: "html", Width: 90, Fetch: fetchFlags{timeout: fetch.DefaultTimeout}}},
		{"explain", []string{"explain", "writes", "op", "--kind", "Widget"},
			&ExplainOptions{Row: "writes", Source: source{dir: "op"}, Kind: "Widget", Fetch: fetchFlags{timeout: fetch.DefaultTimeout}}},
		{"explain a row in capitals", []string{"explain", "Reread", "op"},
			&ExplainOptions{Row: "reread", Source: source{dir: "op"}, Fetch: fetchFlags{timeout: fetch.DefaultTimeout}}},
		{"check", []string{"check", "--fix", "--strict", "--root", "r", "a.md", "b.md"},
			&CheckOptions{Files: []string{"a.md", "b.md"}, Root: "r", Format: "text", Fix: true, Strict: true, Timeout: fetch.DefaultTimeout}},
		{"check timeout", []string{"check", "--timeout", "1m30s", "a.md"},
			&CheckOptions{Files: []string{"a.md"}, Format: "text", Timeout: 90 * time.Second}},
		{"stages journal", []string{"stages", "op", "--journal", "notes/j.md"},
			&StagesOptions{Dir: "op", Format: "text", Journal: "notes/j.md", LinkFrom: "notes", Settle: stages.DefaultSettle, Run: RunOptions{For: 30 * time.Second}}},
		{"stages patch", []string{"stages", "op", "--patch", "--write"},
			&StagesOptions{Dir: "op", Format: "text", Patch: true, Write: true, Settle: stages.DefaultSettle, Run: RunOptions{For: 30 * time.Second}}},
		{"stages log settle", []string{"stages", "op", "--log", "x.log", "--settle", "30s"},
			&StagesOptions{Dir: "op", Format: "text", Log: "x.log", Settle: 30 * time.Second, Run: RunOptions{For: 30 * time.Second}}},
		{"stages run", []string{"stages", "op", "--run", "--for", "1m", "--object", "o.yaml", "--then", "t.yaml", "--kubeconfig", "kc"},
			&StagesOptions{Dir: "op", Format: "text", Settle: stages.DefaultSettle, Run: RunOptions{On: true, For: time.Minute, Object: "o.yaml", Then: "t.yaml", Kubeconfig: "kc"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, errs, got := stubbed(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !reflect.DeepEqual(withoutWriters(got), tc.want) {
				t.Errorf("options\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

// withoutWriters clears the output streams of a command's options, which
// TestOptions does not compare.
func withoutWriters(opts any) any {
	switch o := opts.(type) {
	case *LocateOptions:
		o.Out = nil
	case *TableOptions:
		o.Out = nil
	case *ExplainOptions:
		o.Out = nil
	case *CheckOptions:
		o.Out, o.ErrOut = nil, nil
	case *StagesOptions:
		o.Out, o.ErrOut = nil, nil
	}
	return opts
}

// TestBadTree checks that each kind of tree that cannot be read gives one
// line on stderr naming it, and the exit code of the output contract. The
// environment asks for any toolchain a go.mod names (GOTOOLCHAIN=auto), as
// a user's may: a go line newer than the go command is still refused, with
// no download (the module proxy is off, so none could leave the machine).
func TestBadTree(t *testing.T) {
	moduleCacheHolds(t, "clientgo-plain")
	t.Setenv("GOTOOLCHAIN", "auto")
	t.Setenv("GOPROXY", "off")
	empty := t.TempDir()
	noController := t.TempDir()
	write := func(dir, name, content string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(noController, "go.mod", "module example.com/empty\n\ngo 1.26\n")
	write(noController, "main.go", "package main\n\nfunc main() {}\n")
	badMod := t.TempDir()
	write(badMod, "go.mod", "this is not a go.mod\n")
	goModOnly := t.TempDir()
	write(goModOnly, "go.mod", "module example.com/empty\n\ngo 1.26\n")
	tooNew := filepath.Join(copyFixture(t, "clientgo-plain"), "clientgo-plain")
	replaceIn(t, filepath.Join(tooNew, "go.mod"), "\ngo 1.26.0\n", "\ngo 1.99\n")
	goVersion, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	// A workspace root, a directory holding a module further down, and a
	// directory inside a module: the error names the modules to give.
	repo := t.TempDir()
	write(filepath.Join(repo, "ws"), "go.work", "go 1.26.0\n\nuse (\n\t./lib\n\t./op\n)\n")
	write(filepath.Join(repo, "deploy", "operator"), "go.mod", "module example.com/operator\n\ngo 1.26\n")
	write(filepath.Join(repo, "deploy", "operator", "examples"), "README", "examples\n")

	for _, tc := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"missing path", []string{"locate", filepath.Join(empty, "nope")}, fail.CodeUsage, "no such directory"},
		{"not a module", []string{"locate", empty}, fail.CodeLoad, empty + " is not a Go module (no go.mod); give the module's root directory"},
		{"a workspace root", []string{"locate", filepath.Join(repo, "ws")}, fail.CodeLoad,
			filepath.Join(repo, "ws") + " is not a Go module (no go.mod); it is a go.work workspace: give one of the modules it uses: " + filepath.Join(repo, "ws", "lib") + ", " + filepath.Join(repo, "ws", "op")},
		{"a module further down", []string{"locate", repo}, fail.CodeLoad,
			repo + " is not a Go module (no go.mod); give one of the modules below it: " + filepath.Join(repo, "deploy", "operator")},
		{"inside a module", []string{"locate", filepath.Join(repo, "deploy", "operator", "examples")}, fail.CodeLoad,
			filepath.Join(repo, "deploy", "operator", "examples") + " is not a Go module (no go.mod); it is inside the module at " + filepath.Join(repo, "deploy", "operator") + ": give that directory"},
		{"malformed go.mod", []string{"locate", badMod}, fail.CodeLoad, "go.mod"},
		{"no controller", []string{"locate", noController}, fail.CodeLoad, "no controller found"},
		{"empty module", []string{"locate", goModOnly}, fail.CodeLoad, goModOnly + ": no Go packages could be loaded; run `go build ./...` there to see why"},
		{"go line too new", []string{"locate", tooNew}, fail.CodeLoad,
			tooNew + ": go list failed: go: go.mod requires go >= 1.99 (running go " + strings.TrimPrefix(strings.TrimSpace(string(goVersion)), "go") + "; GOTOOLCHAIN=local)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errs)
			}
			wantOneLine(t, errs, tc.says)
		})
	}
}

// TestJournalExitCodes: a journal that cannot be written (a read-only one
// included) exits 5, a malformed one 2, each with one line naming it.
func TestJournalExitCodes(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(fixturesDir, "..", "logs", "settles.log")
	malformed := filepath.Join(dir, "malformed.md")
	if err := os.WriteFile(malformed, []byte("notes\n```\nan unclosed code block\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The name fits the file system, but not the temporary file written
	// beside it: the write fails even for root.
	unwritable := filepath.Join(dir, strings.Repeat("j", 240)+".md")
	readOnly := filepath.Join(dir, "read-only.md")
	if err := os.WriteFile(readOnly, []byte("notes\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.md")
	if err := os.Symlink(filepath.Join(dir, "nowhere.md"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, journal string
		code          int
		says          string
	}{
		{"malformed", malformed, fail.CodeUsage, "close the code block"},
		{"link to nothing", dangling, fail.CodeJournal, ": a symlink to nothing: it leads to " + filepath.Join(dir, "nowhere.md") + ", which does not exist; create that file, or replace the link with the journal; the journal is unchanged"},
		{"unwritable", unwritable, fail.CodeJournal, "the journal is unchanged"},
		{"read-only", readOnly, fail.CodeJournal, ": read-only (mode 0444); the journal is unchanged: make it writable (chmod u+w " + readOnly + ") and run again"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := run(t, "stages", dir, "--log", log, "--journal", tc.journal)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errs)
			}
			wantOneLine(t, errs, tc.journal)
			wantOneLine(t, errs, tc.says)
		})
	}
}

// TestLogWithoutStages: a log with no STAGE lines is a usage error whose
// hint names the flags that produce them.
func TestLogWithoutStages(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "x.log")
	if err := os.WriteFile(log, []byte("I0601 10:00:00.000000 1 main.go:1] \"hello\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "stages", dir, "--log", log)
	if code != fail.CodeUsage {
		t.Errorf("exit %d, want %d (stderr %q)", code, fail.CodeUsage, errs)
	}
	wantOneLine(t, errs, "log "+log+" has no STAGE lines")
	wantOneLine(t, errs, "ctrlcmp stages "+dir+" --patch --write")
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

// breakFixture copies a fixture and replaces old (which must occur) with
// new in one of its files; it returns the copy's parent directory.
func breakFixture(t *testing.T, name, file, old, new string) string {
	t.Helper()
	dir := copyFixture(t, name)
	path := filepath.Join(dir, name, file)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(src), old, new, 1)
	if broken == string(src) {
		t.Fatalf("%q not found in %s", old, path)
	}
	if err := os.WriteFile(path, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestIllTypedEntry: a type error in the sync function does not lose the
// controller: its entry is cited, the rows it might answer are not settled,
// and the warnings name the type error on stderr, relative to the tree, in
// locate and table alike; table's markdown says the analysis was partial.
func TestIllTypedEntry(t *testing.T) {
	dir := breakFixture(t, "clientgo-plain", "controller.go",
		"objectRef cache.ObjectName) error { // want \"reconcile-entry\"\n",
		"objectRef cache.ObjectName) error { // want \"reconcile-entry\"\n\tvar zz int = \"str\"\n")
	ctrlnew := copyFixture(t, "ctrlnew")
	if err := os.Rename(filepath.Join(ctrlnew, "ctrlnew"), filepath.Join(dir, "ctrlnew")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	wantWarning := func(t *testing.T, stderr, label string) {
		t.Helper()
		want := "ctrlcmp: warning: " + label + ": controller.go:145:15: cannot use \"str\""
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q: want a line starting %q", stderr, want)
		}
		if strings.Contains(stderr, dir) {
			t.Errorf("stderr %q holds the tree's absolute path", stderr)
		}
	}

	code, out, errs := run(t, "locate", "clientgo-plain", "--format", "json")
	if code != 0 {
		t.Fatalf("locate: exit %d: %s", code, errs)
	}
	wantWarning(t, errs, "clientgo-plain")
	var doc report.Document
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Trees) != 1 || len(doc.Trees[0].Controllers) != 1 {
		t.Fatalf("locate's JSON: %v, want one tree with one controller:\n%s", err, out)
	}
	tree, c := doc.Trees[0], doc.Trees[0].Controllers[0]
	if entry, ok := c.Rows[locate.RowEntry].Primary(); !ok || entry.File != "controller.go" || entry.Line != 144 {
		t.Errorf("entry %+v, want the sync function at controller.go:144", entry)
	}
	// The lister Get in the ill-typed sync function still has its types:
	// the re-read is found there, from the syntax, marked partial.
	if reread, ok := c.Rows[locate.RowReread].Primary(); !ok || !reread.Partial || reread.Func != "(*Controller).syncHandler" {
		t.Errorf("reread %+v (%s), want a partial site in the sync function", reread, c.Rows[locate.RowReread].None)
	}
	if !reflect.DeepEqual(tree.Unanalysed, []string{"(*Controller).syncHandler"}) {
		t.Errorf("unanalysed %q, want the sync function", tree.Unanalysed)
	}

	for _, format := range []string{"markdown", "text"} {
		code, out, errs = run(t, "table", "--theirs-dir", "ctrlnew", "--theirs-kind", "Secret", "--ours", "clientgo-plain", "--format", format)
		if code != 0 {
			t.Fatalf("table --format %s: exit %d: %s", format, code, errs)
		}
		wantWarning(t, errs, "ours")
		if note := "_Partial analysis: 1 function of ours could not be analysed because of type errors (`(*Controller).syncHandler`"; format == "markdown" && !strings.Contains(out, note) {
			t.Errorf("the markdown table does not say the analysis was partial:\n%s", out)
		}
		if strings.Contains(out, "cannot use") {
			t.Errorf("table --format %s prints warnings on stdout:\n%s", format, out)
		}
	}
}

// TestNoControllerBehindTypeErrors: when no controller is found and the tree
// has type errors, the error names them (relative to the tree) and the
// functions left out, and says that fixing them lets ctrlcmp see the
// controller.
func TestNoControllerBehindTypeErrors(t *testing.T) {
	dir := breakFixture(t, "kubebuilder", filepath.Join("internal", "controller", "gadget_controller.go"), "Complete(r)", "Completes(r)")
	t.Chdir(dir)
	code, _, errs := run(t, "locate", "kubebuilder")
	if code != fail.CodeLoad {
		t.Fatalf("exit %d, want %d: %s", code, fail.CodeLoad, errs)
	}
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if !strings.HasPrefix(lines[0], "ctrlcmp: kubebuilder: no controller found") {
		t.Errorf("first line %q, want the summary", lines[0])
	}
	for _, want := range []string{
		"\tinternal/controller/gadget_controller.go:141:3: ",
		"Completes undefined",
		"\texample.com/fixtures/kubebuilder/internal/controller: not analysed, because of type errors: (*GadgetReconciler).SetupWithManager",
		"go build ./...",
		"lets ctrlcmp see the controller",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr does not hold %q:\n%s", want, errs)
		}
	}
}

// TestKindOfTwo: with two reconcilers of the asked kind, locate shows both,
// and table, which needs one, lists them and asks for the reconciler's type
// name, which it then takes.
func TestKindOfTwo(t *testing.T) {
	t.Chdir(copyFixture(t, "samekind"))
	code, out, errs := run(t, "locate", "samekind", "--kind", "ConfigMap", "--format", "json")
	if code != 0 {
		t.Fatalf("locate: exit %d: %s", code, errs)
	}
	var doc report.Document
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Trees) != 1 {
		t.Fatalf("locate's JSON: %v:\n%s", err, out)
	}
	var names []string
	for _, c := range doc.Trees[0].Controllers {
		names = append(names, c.Name)
	}
	if strings.Join(names, " ") != "LabelReconciler PruneReconciler" {
		t.Errorf("locate --kind ConfigMap shows %v, want both reconcilers", names)
	}

	code, _, errs = run(t, "table", "--theirs-dir", "samekind", "--ours", "samekind", "--theirs-kind", "ConfigMap")
	if code != fail.CodeUsage {
		t.Errorf("table: exit %d, want %d (stderr %q)", code, fail.CodeUsage, errs)
	}
	wantOneLine(t, errs, "ConfigMap (LabelReconciler), ConfigMap (PruneReconciler); choose one by its reconciler's type name, e.g. --theirs-kind LabelReconciler")

	code, out, errs = run(t, "table", "--theirs-dir", "samekind", "--ours", "samekind", "--theirs-kind", "LabelReconciler", "--ours-kind", "PruneReconciler", "--format", "json")
	if code != 0 {
		t.Fatalf("table with type names: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"name": "LabelReconciler"`) || !strings.Contains(out, `"name": "PruneReconciler"`) {
		t.Errorf("table with type names does not compare the two reconcilers:\n%s", out)
	}
}

// TestLocateWarnings: a problem met while locating (a CRD file that is not
// YAML) is a warning on stderr, relative to the tree, not part of the
// output.
func TestLocateWarnings(t *testing.T) {
	dir := copyFixture(t, "flux")
	crd := filepath.Join(dir, "flux", "config", "crd", "bases", "broken.yaml")
	if err := os.WriteFile(crd, []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: [unclosed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, out, errs := run(t, "locate", "flux")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := "ctrlcmp: warning: flux: config/crd/bases/broken.yaml: not read as a CRD: "; !strings.HasPrefix(errs, want) {
		t.Errorf("stderr %q, want it to start %q", errs, want)
	}
	if strings.Contains(out, "broken.yaml") {
		t.Errorf("the warning is on stdout:\n%s", out)
	}
}
