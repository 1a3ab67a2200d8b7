package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
	"github.com/ctrlcmp/ctrlcmp/internal/loopback"
)

// writeText writes text into the file at path, creating its directory.
func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheckMalformedJournal: check refuses a journal whose fences cannot be
// read (an unclosed fence, two fences with one id, an end with no begin, a
// begin inside a fence) with exit 2 and the line naming the problem, the
// same line a write into that journal gives (and it once panicked on an
// unclosed fence).
func TestCheckMalformedJournal(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "op", "a.go"), "package a\n")
	log := filepath.Join(fixturesDir, "..", "logs", "settles.log")
	for _, tc := range []struct{ name, text, says string }{
		{"unclosed", "# notes\n\n<!-- ctrlcmp:begin id=table/A/B dirs=op -->\n| `a.go:1` | [a.go:1](op/a.go#L1) |\n",
			"line 3: ctrlcmp:begin without <!-- ctrlcmp:end -->; add the end line after the generated text"},
		{"same id", "<!-- ctrlcmp:begin id=stages/Widget -->\n<!-- ctrlcmp:end -->\nop/a.go:1\n<!-- ctrlcmp:begin id=stages/Widget -->\n<!-- ctrlcmp:end -->\n",
			"line 4: a second fence with id=stages/Widget (the first is at line 1); delete one of them"},
		{"stray end", "# notes\nop/a.go:1\n<!-- ctrlcmp:end -->\n",
			"line 3: <!-- ctrlcmp:end --> without a ctrlcmp:begin before it; remove it or add the begin line"},
		{"nested begin", "<!-- ctrlcmp:begin id=stages/Widget -->\n<!-- ctrlcmp:begin id=table/A/B -->\n<!-- ctrlcmp:end -->\n",
			"line 2: a ctrlcmp:begin inside the fence opened at line 1; add <!-- ctrlcmp:end --> before it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, tc.name+".md")
			writeText(t, file, tc.text)
			code, out, errs := run(t, "check", file)
			if code != fail.CodeUsage || out != "" {
				t.Errorf("check: exit %d, stdout %q; want exit %d and nothing on stdout", code, out, fail.CodeUsage)
			}
			wantOneLine(t, errs, "ctrlcmp: journal "+file+": "+tc.says)
			code, _, written := run(t, "stages", dir, "--log", log, "--journal", file)
			if code != fail.CodeUsage || written != errs {
				t.Errorf("stages --journal: exit %d, stderr %q; want exit %d and what check says, %q", code, written, fail.CodeUsage, errs)
			}
		})
	}
}

// TestCheckHint: the closing line counts the problems and says what to do
// about the kinds there are: --fix only when some citation has moved.
func TestCheckHint(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "op", "a.go"), "package a\n")
	file := filepath.Join(dir, "notes.md")
	writeText(t, file, "Gone: op/missing.go:1. Not committed: op/a.go:1.\n")
	for _, tc := range []struct {
		args []string
		says string
	}{
		{nil, "ctrlcmp: 1 citation problem(s): fix the 1 broken or rejected one(s) by hand\n"},
		{[]string{"--strict"}, "ctrlcmp: 2 citation problem(s): fix the 1 broken or rejected one(s) by hand; the 1 unverified one(s) fail because of --strict; each line says what would verify it\n"},
	} {
		code, _, errs := run(t, append([]string{"check", file}, tc.args...)...)
		if code != fail.CodeFindings || errs != tc.says {
			t.Errorf("check %v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errs, fail.CodeFindings, tc.says)
		}
		if strings.Contains(errs, "--fix") {
			t.Errorf("check %v: --fix is offered with nothing moved", tc.args)
		}
	}
}

// TestCheckPinnedTree checks a journal whose fence pins their tree, served
// by git on 127.0.0.1, in the states CI meets it in: its citations (the
// fence's plain ones and prose ones) are unverified, never broken, while
// the tree is not at hand (a cold cache with --offline, a repository out
// of reach), broken when the repository lacks the commit (said once per
// pin, with how to move it), and hold once it is fetched, also offline
// afterwards.
func TestCheckPinnedTree(t *testing.T) {
	work := t.TempDir()
	theirs := filepath.Join(work, "theirs")
	writeText(t, filepath.Join(theirs, "internal", "x.go"), "package internal\n\n// X is theirs.\nfunc X() {}\n")
	loopback.Git(t, theirs, "init", "-q", "-b", "main")
	loopback.Git(t, theirs, "add", "-A")
	loopback.Git(t, theirs, "commit", "-q", "-m", "theirs")
	sha := loopback.Git(t, theirs, "rev-parse", "HEAD")
	loopback.Git(t, work, "clone", "-q", "--bare", theirs, filepath.Join(work, "srv", "theirs.git"))
	repo := serveGit(t, filepath.Join(work, "srv")) + "/theirs.git"
	dead := "http://" + loopback.Dead(t) + "/repo.git"
	missing := strings.Repeat("0123456789", 4)

	notes := filepath.Join(work, "notes")
	writeText(t, filepath.Join(notes, "ours", "a.go"), "package a\n")
	journals := map[string]string{}
	for name, pin := range map[string][2]string{"pinned": {repo, sha}, "dead": {dead, sha}, "missing": {repo, missing}} {
		journals[name] = filepath.Join(notes, name+".md")
		writeText(t, journals[name], "<!-- ctrlcmp:begin id=table/X/A repo="+pin[0]+" sha="+pin[1]+" dirs=ours -->\n"+
			"| none: see internal/x.go:4 | none: see a.go:1 |\n<!-- ctrlcmp:end -->\n\nTheirs, in prose: internal/x.go:3.\n")
	}
	loopback.Git(t, notes, "init", "-q")
	loopback.Git(t, notes, "add", "-A")
	loopback.Git(t, notes, "commit", "-q", "-m", "notes")

	cold, warm := t.TempDir(), t.TempDir()
	notAtHand := func(repo, why string) string {
		return "unverified: " + repo + " at " + sha[:12] + " is not at hand: " + why
	}
	for _, tc := range []struct {
		name, journal string
		env           string // CTRLCMP_CACHE
		args          []string
		code          int
		says          []string
		summary       string
	}{
		{"cold cache, offline", "pinned", "", []string{"--offline", "--cache-dir", cold}, 0,
			[]string{notAtHand(repo, repo+" at "+sha+" is not in the cache "), "and --offline forbids fetching it; run once without --offline to fetch it"},
			"1 ok, 0 moved, 0 broken, 0 rejected, 2 unverified"},
		{"out of reach", "dead", "", []string{"--cache-dir", cold}, 0,
			[]string{notAtHand(dead, "cannot reach "+dead)},
			"1 ok, 0 moved, 0 broken, 0 rejected, 2 unverified"},
		{"no such commit", "missing", "", []string{"--cache-dir", cold}, fail.CodeFindings,
			[]string{"broken: " + repo + " has no commit " + missing + " (force-pushed away, or never pushed), so the 2 citation(s) of this journal pinned there cannot be read; move the pin to a commit it has: write the table again (ctrlcmp table --theirs REV --theirs-repo " + repo + " … --journal " + journals["missing"] + "), and edit the permalinks typed by hand"},
			"1 ok, 0 moved, 2 broken, 0 rejected, 0 unverified"},
		{"fetched", "pinned", warm, []string{"--strict"}, 0, nil,
			"3 ok, 0 moved, 0 broken, 0 rejected, 0 unverified"},
		{"fetched before, offline", "pinned", "", []string{"--strict", "--offline", "--cache-dir", warm}, 0, nil,
			"3 ok, 0 moved, 0 broken, 0 rejected, 0 unverified"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CTRLCMP_CACHE", tc.env)
			code, out, errs := run(t, append([]string{"check", journals[tc.journal]}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, errs)
			}
			times := 2 // once per citation of the tree
			if tc.code == fail.CodeFindings {
				times = 1 // once per pin whose commit is gone
			}
			for _, want := range tc.says {
				if strings.Count(out, want) != times {
					t.Errorf("stdout does not say %d times %q:\n%s", times, want, out)
				}
			}
			if tc.code == fail.CodeFindings && !strings.Contains(errs, "move the pin of the 2 whose commit is gone") || strings.Contains(errs, "by hand") {
				t.Errorf("stderr %q: want the pin to move, not a fix by hand", errs)
			}
			if strings.Contains(out, "working tree") {
				t.Errorf("a citation of their tree was looked for in the working tree:\n%s", out)
			}
			if !strings.HasSuffix(out, tc.summary+"\n") {
				t.Errorf("stdout ends with\n%s\nwant %q", out, tc.summary)
			}
		})
	}
}

// moduleProxy points the go command at a module proxy made of this test's
// own module cache (file://, nothing leaves the machine afterwards), with an
// empty module cache of its own, and returns the proxy's URL. The modules
// the test needs are first brought into its own cache the usual way, so
// that a cold cache (a fresh CI machine) serves them too.
func moduleProxy(t *testing.T, modules ...string) string {
	t.Helper()
	for _, m := range modules {
		path, version, _ := strings.Cut(m, "@")
		if _, err := load.Download(context.Background(), path, version); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	proxy := "file://" + filepath.ToSlash(filepath.Join(strings.TrimSpace(string(out)), "cache", "download"))
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOPROXY", proxy)
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-modcacherw")
	return proxy
}

// TestCheckDownloadsModules: a citation of a dependency (module@version/path)
// missing from the module cache is downloaded into it through the module
// proxy, unless --offline; one the proxy does not have is unverified, with
// the go command's reason.
func TestCheckDownloadsModules(t *testing.T) {
	proxy := moduleProxy(t, "github.com/fluxcd/pkg/apis/meta@v1.31.0")
	file := filepath.Join(t.TempDir(), "notes.md")
	writeText(t, file, "Ready is `github.com/fluxcd/pkg/apis/meta@v1.31.0/conditions.go:43`;\n"+
		"no such version: `github.com/fluxcd/pkg/apis/meta@v1.99.0/conditions.go:43`.\n")
	for _, tc := range []struct {
		name    string
		args    []string
		says    []string
		summary string
	}{
		{"offline, not downloaded", []string{"--offline"}, []string{
			"notes.md:1: unverified: github.com/fluxcd/pkg/apis/meta@v1.31.0 is not in the module cache ",
			"; run `go mod download github.com/fluxcd/pkg/apis/meta@v1.31.0`",
		}, "0 ok, 0 moved, 0 broken, 0 rejected, 2 unverified"},
		{"downloaded", nil, []string{
			"notes.md:2: unverified: github.com/fluxcd/pkg/apis/meta@v1.99.0 is not in the module cache, and downloading it failed: go mod download: github.com/fluxcd/pkg/apis/meta@v1.99.0: reading " + proxy,
		}, "1 ok, 0 moved, 0 broken, 0 rejected, 1 unverified"},
		{"offline, downloaded before", []string{"--offline"}, nil, "1 ok, 0 moved, 0 broken, 0 rejected, 1 unverified"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, append([]string{"check", file}, tc.args...)...)
			if code != 0 {
				t.Errorf("exit %d; stderr %q", code, errs)
			}
			for _, want := range tc.says {
				if !strings.Contains(out, want) {
					t.Errorf("stdout does not say %q:\n%s", want, out)
				}
			}
			if !strings.HasSuffix(out, tc.summary+"\n") {
				t.Errorf("stdout ends with\n%s\nwant %q", out, tc.summary)
			}
		})
	}
}

// TestCheckAllUnverified: a check whose every citation is unverified (a
// journal outside git) passes, but says loudly that it verified nothing,
// on stderr and as a GitHub annotation; --strict fails it.
func TestCheckAllUnverified(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "op", "a.go"), "package op\n\nfunc A() {}\n")
	writeText(t, filepath.Join(dir, "notes.md"), "A is at op/a.go:3, the package at op/a.go:1.\n")
	const says = "none of the 2 citation(s) could be verified, so this check proves nothing"
	code, out, errs := run(t, "check", "--format", "github", filepath.Join(dir, "notes.md"))
	if code != 0 || !strings.Contains(errs, "ctrlcmp: warning: "+says) || !strings.Contains(out, "::warning title=ctrlcmp check::"+says) {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit 0 and the warning on both", code, out, errs)
	}
	code, _, errs = run(t, "check", "--strict", filepath.Join(dir, "notes.md"))
	if code != fail.CodeFindings || strings.Contains(errs, says) {
		t.Errorf("--strict: exit %d, stderr %q; want exit 1 and no warning", code, errs)
	}
	writeText(t, filepath.Join(dir, "more.md"), "Not a citation.\n")
	if _, _, errs := run(t, "check", filepath.Join(dir, "more.md")); strings.Contains(errs, "warning") {
		t.Errorf("a journal with no citation: %q", errs)
	}
}

// TestCheckJSON: --format json writes every citation of every journal with
// its verdict (moved ones with the text --fix writes), and the counts; the
// exit code is the text format's.
func TestCheckJSON(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "op", "a.go"), "package op\n\nfunc A() {}\n")
	writeText(t, filepath.Join(dir, "notes.md"), "A is at op/a.go:3; op/gone.go:1 is not.\n")
	code, out, _ := run(t, "check", "--format", "json", filepath.Join(dir, "notes.md"))
	var doc checkDocument
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if code != fail.CodeFindings || doc.Schema != "ctrlcmp-check/v1" || len(doc.Files) != 1 || len(doc.Files[0].Citations) != 2 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	got := doc.Files[0].Citations
	if got[0].Location != "op/a.go:3" || got[0].Status != "unverified" || got[1].Location != "op/gone.go:1" || got[1].Status != "broken" || got[1].Line != 1 {
		t.Errorf("citations: %+v", got)
	}
	if want := map[string]int{"citations": 2, "files": 1, "ok": 0, "moved": 0, "broken": 1, "rejected": 0, "unverified": 1, "shallow": 0}; !reflect.DeepEqual(doc.Summary, want) {
		t.Errorf("summary %v, want %v", doc.Summary, want)
	}
}
