package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

const widgetController = `package controller

import "context"

type WidgetReconciler struct{}

func (r *WidgetReconciler) Reconcile(ctx context.Context, name string) error {
	w, err := r.get(ctx, name)
	if err != nil {
		return err
	}
	if err := r.ensureFinalizer(ctx, w); err != nil {
		return err
	}
	return r.setReady(ctx, w)
}

func (r *WidgetReconciler) ensureFinalizer(ctx context.Context, w *widget) error {
	w.finalizers = append(w.finalizers, widgetFinalizer)
	return r.update(ctx, w)
}
`

const finalizerGo = `package controller

// widgetFinalizer guards the widget's external resources.
const widgetFinalizer = "widgets.example.com/finalizer"

func cleanup(w *widget) error {
	// Delete the bucket first, then the DNS record.
	return deleteBucket(w)
}
`

// operatorRepo writes a git repository (made with go-git) holding a small
// operator and a journal citing it, commits it, and returns its root.
func operatorRepo(t testing.TB, journal string) (string, *git.Repository) {
	t.Helper()
	root := t.TempDir()
	writeFile(t, root, "operator/internal/controller/widget_controller.go", widgetController)
	writeFile(t, root, "operator/internal/controller/finalizer.go", finalizerGo)
	writeFile(t, root, "journal/04-controllers.md", journal)
	repo, err := git.PlainInit(root, false)
	if err != nil {
		t.Fatal(err)
	}
	commitAll(t, repo, "operator and journal")
	return root, repo
}

func writeFile(t testing.TB, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

var commitTime = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func commitAll(t testing.TB, repo *git.Repository, msg string) {
	t.Helper()
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	commitTime = commitTime.Add(time.Hour)
	sig := &object.Signature{Name: "Reader", Email: "reader@example.com", When: commitTime}
	if _, err := wt.Commit(msg, &git.CommitOptions{Author: sig}); err != nil {
		t.Fatal(err)
	}
}

// generatedCite is a generated citation of line n of the widget controller, as the
// report writes it from the journal's directory.
func generatedCite(t *testing.T, file string, n int, symbol string) string {
	t.Helper()
	src := widgetController
	if strings.HasSuffix(file, "finalizer.go") {
		src = finalizerGo
	}
	line := strings.Split(src, "\n")[n-1]
	return fmt.Sprintf("[%s:%d](../operator/internal/controller/%s#L%d %q)", file, n, file, n, strings.TrimSpace("ctrlcmp "+symbol+" "+cite.Anchor(line)))
}

// anchorOf is the anchor of line n of src.
func anchorOf(src string, n int) string { return cite.Anchor(strings.Split(src, "\n")[n-1]) }

func journalText(t *testing.T) string {
	return "# 04 — controllers\r\n\r\n" +
		"<!-- ctrlcmp:begin id=table/Widget/Widget version=v0.1.0 -->\r\n" +
		"| Part | ours |\r\n|---|---|\r\n" +
		"| the reconcile entry point | " + generatedCite(t, "widget_controller.go", 7, "(*WidgetReconciler).Reconcile") + " |\r\n" +
		"| where the finalizer is added | " + generatedCite(t, "widget_controller.go", 19, "(*WidgetReconciler).ensureFinalizer") + " |\r\n" +
		"| the finalizer constant | " + generatedCite(t, "finalizer.go", 4, "") + " |\r\n" +
		"<!-- ctrlcmp:end -->\r\n\r\n" +
		"My notes, which ctrlcmp must never change:\r\n\r\n" +
		"- The entry fetches first (`operator/internal/controller/widget_controller.go:8-11`).\r\n" +
		"  - Nested: the finalizer helper is declared at ../operator/internal/controller/widget_controller.go:18.\r\n" +
		"- Cleanup deletes the bucket first: operator/internal/controller/finalizer.go#L7-L8.\r\n"
}

func checkJournal(t *testing.T, root string) ([]string, Result) {
	t.Helper()
	res, err := Check(context.Background(), filepath.Join(root, "journal/04-controllers.md"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		if f.Status != OK {
			got = append(got, fmt.Sprintf("%d: %s", f.Citation.Line, f.Message))
		}
	}
	return got, res
}

func wantFindings(t *testing.T, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCheckEndToEnd edits a cited operator the ways code moves (a line
// inserted above cited sites, a file renamed) and checks that check names
// each moved citation with its new place, that --fix makes the check pass,
// and that the prose around the citations never changes.
func TestCheckEndToEnd(t *testing.T) {
	root, repo := operatorRepo(t, journalText(t))
	got, _ := checkJournal(t, root)
	wantFindings(t, got)

	// A line inserted above every cited site of the controller, and the
	// finalizer file renamed, in a later commit.
	writeFile(t, root, "operator/internal/controller/widget_controller.go", strings.Replace(widgetController,
		"type WidgetReconciler struct{}", "// WidgetReconciler reconciles widgets.\ntype WidgetReconciler struct{}", 1))
	old, renamed := filepath.Join(root, "operator/internal/controller/finalizer.go"), filepath.Join(root, "operator/internal/controller/finalizers.go")
	if err := os.Rename(old, renamed); err != nil {
		t.Fatal(err)
	}
	commitAll(t, repo, "document the reconciler; rename finalizer.go")

	got, res := checkJournal(t, root)
	wantFindings(t, got,
		"6: moved: ../operator/internal/controller/widget_controller.go:7 → ../operator/internal/controller/widget_controller.go:8",
		"7: moved: ../operator/internal/controller/widget_controller.go:19 → ../operator/internal/controller/widget_controller.go:20",
		"8: moved: ../operator/internal/controller/finalizer.go:4 → ../operator/internal/controller/finalizers.go:4",
		"13: moved: operator/internal/controller/widget_controller.go:8-11 → operator/internal/controller/widget_controller.go:9-12",
		"14: moved: ../operator/internal/controller/widget_controller.go:18 → ../operator/internal/controller/widget_controller.go:19",
		"15: moved: operator/internal/controller/finalizer.go:7-8 → operator/internal/controller/finalizers.go:7-8",
	)
	before, _ := os.ReadFile(res.File)
	n, err := Fix(res)
	if err != nil || n != 6 {
		t.Fatalf("Fix rewrote %d (err %v), want 6", n, err)
	}
	after, _ := os.ReadFile(res.File)
	want := string(before)
	for _, r := range [][2]string{
		{"widget_controller.go:7](../operator/internal/controller/widget_controller.go#L7 ", "widget_controller.go:8](../operator/internal/controller/widget_controller.go#L8 "},
		{"widget_controller.go:19](../operator/internal/controller/widget_controller.go#L19 ", "widget_controller.go:20](../operator/internal/controller/widget_controller.go#L20 "},
		{"[finalizer.go:4](../operator/internal/controller/finalizer.go#L4 ", "[finalizers.go:4](../operator/internal/controller/finalizers.go#L4 "},
		{"widget_controller.go:8-11`", "widget_controller.go:9-12`"},
		{"widget_controller.go:18.", "widget_controller.go:19."},
		{"finalizer.go#L7-L8.", "finalizers.go#L7-L8."},
	} {
		want = strings.Replace(want, r[0], r[1], 1)
	}
	if string(after) != want {
		t.Fatalf("--fix wrote:\n%s\nwant:\n%s", after, want)
	}

	// The rewritten prose lines are not committed yet: anchored by nothing
	// but existence, they are unverified, not problems.
	got, _ = checkJournal(t, root)
	for _, g := range got {
		if !strings.Contains(g, "unverified: ") || !strings.Contains(g, "not committed yet") {
			t.Errorf("after --fix: %s", g)
		}
	}
	commitAll(t, repo, "journal: follow the code")
	got, _ = checkJournal(t, root)
	wantFindings(t, got)
}

// TestCheckRenamedFunction renames a cited function: the citation of its
// declaration is broken (its text is gone), the one inside its body has
// moved into the new symbol.
func TestCheckRenamedFunction(t *testing.T) {
	root, repo := operatorRepo(t, journalText(t))
	writeFile(t, root, "operator/internal/controller/widget_controller.go",
		strings.ReplaceAll(widgetController, "ensureFinalizer", "addFinalizer"))
	commitAll(t, repo, "rename ensureFinalizer")
	got, res := checkJournal(t, root)
	wantFindings(t, got,
		"7: moved: ../operator/internal/controller/widget_controller.go:19 is now in (*WidgetReconciler).addFinalizer (the citation says (*WidgetReconciler).ensureFinalizer)",
		`14: broken: ../operator/internal/controller/widget_controller.go:18 no longer holds "func (r *WidgetReconciler) ensureFinalizer(ctx context.Context, w *widget) error {", and it is nowhere else in ../operator/internal/controller/widget_controller.go (21 lines)`,
	)
	if _, err := Fix(res); err != nil {
		t.Fatal(err)
	}
	got, _ = checkJournal(t, root)
	wantFindings(t, got,
		`14: broken: ../operator/internal/controller/widget_controller.go:18 no longer holds "func (r *WidgetReconciler) ensureFinalizer(ctx context.Context, w *widget) error {", and it is nowhere else in ../operator/internal/controller/widget_controller.go (21 lines)`,
	)
	text, _ := os.ReadFile(res.File)
	if !strings.Contains(string(text), `"ctrlcmp (*WidgetReconciler).addFinalizer `) {
		t.Errorf("--fix did not rename the symbol in the title:\n%s", text)
	}
}

// staticTrees serves pinned work trees from directories.
type staticTrees map[string]string

func (s staticTrees) WorkTree(_ context.Context, repo, sha string) (string, error) {
	if dir, ok := s[repo+"@"+sha]; ok {
		return dir, nil
	}
	return "", fmt.Errorf("%s at %s is not in the cache", repo, sha)
}

// TestCheckTrees covers pinned trees, the module cache, journals outside
// git, and paths that leave their root.
func TestCheckTrees(t *testing.T) {
	const sha = "186fb3b29138ce82ff61ba1a9370b96a3dd598fe"
	const repoURL = "https://github.com/fluxcd/kustomize-controller"
	pinned, modcache, outside, dir := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, pinned, "internal/controller/kustomization_controller.go", widgetController)
	writeFile(t, modcache, "github.com/fluxcd/pkg/apis/meta@v1.31.0/conditions.go", finalizerGo)
	writeFile(t, outside, "secret.go", "package secret\n")
	writeFile(t, dir, "notes/op/a.go", "package a\n\nfunc A() {}\n")
	if err := os.Symlink(filepath.Join(outside, "secret.go"), filepath.Join(dir, "notes/op/leak.go")); err != nil {
		t.Fatal(err)
	}
	blob := repoURL + "/blob/" + sha + "/internal/controller/kustomization_controller.go"
	text := "<!-- ctrlcmp:begin id=t repo=" + repoURL + " sha=" + sha + " -->\n" +
		"[kustomization_controller.go:7](" + blob + "#L7 \"ctrlcmp (*WidgetReconciler).Reconcile " + cite.Anchor(strings.Split(widgetController, "\n")[6]) + "\")\n" +
		"`github.com/fluxcd/pkg/apis/meta@v1.31.0/conditions.go:4`\n" +
		"`github.com/fluxcd/pkg/apis/meta@v1.30.0/conditions.go:4`\n" +
		"`internal/controller/kustomization_controller.go:12`\n" +
		"<!-- ctrlcmp:end -->\n" +
		"Prose about theirs: internal/controller/kustomization_controller.go:8-9, " + blob + "#L99, " +
		repoURL + "/blob/main/main.go#L3, https://github.com/o/unknown/blob/" + sha + "/x.go#L1.\n" +
		"Mine: op/a.go:3, op/a.go:4, op/missing.go:1, ../../etc/passwd:1, /etc/passwd:1, op/leak.go:1, [up](../../x.go#L1).\n"
	writeFile(t, dir, "notes/journal.md", text)
	res, err := Check(context.Background(), filepath.Join(dir, "notes/journal.md"),
		Options{WorkTrees: staticTrees{repoURL + "@" + sha: pinned}, ModCache: modcache})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, fmt.Sprintf("%d %s %s: %s", f.Citation.Line, f.Citation.Location(), f.Status, f.Message))
	}
	wantFindings(t, got,
		"2 internal/controller/kustomization_controller.go:7 ok: ",
		"3 github.com/fluxcd/pkg/apis/meta@v1.31.0/conditions.go:4 ok: ",
		"4 github.com/fluxcd/pkg/apis/meta@v1.30.0/conditions.go:4 unverified: unverified: github.com/fluxcd/pkg/apis/meta@v1.30.0 is not in the module cache "+modcache+"; run `go mod download github.com/fluxcd/pkg/apis/meta@v1.30.0`",
		"5 internal/controller/kustomization_controller.go:12 ok: ",
		"7 internal/controller/kustomization_controller.go:8-9 ok: ",
		"7 internal/controller/kustomization_controller.go:99 broken: broken: internal/controller/kustomization_controller.go:99 is past the end of the file (21 lines) in "+repoURL+" at 186fb3b29138",
		`7 main.go:3 unverified: unverified: the link is at "main", not at a full commit sha, so the lines it shows can change; link a permalink (press y on GitHub)`,
		"7 x.go:1 unverified: unverified: https://github.com/o/unknown at 186fb3b29138 is not at hand: https://github.com/o/unknown at "+sha+" is not in the cache",
		"8 op/a.go:3 unverified: unverified: op/a.go:3 exists, but the journal is not in a git repository, so the text it cited is unknown; commit the journal to anchor its citations",
		"8 op/a.go:4 broken: broken: op/a.go:4 is past the end of the file (3 lines)",
		"8 op/missing.go:1 broken: broken: op/missing.go does not exist in the working tree (looked in "+realPath(t, dir)+"/notes)",
		"8 ../../etc/passwd:1 rejected: rejected: ../../etc/passwd leaves "+realPath(t, dir)+"/notes; cite files inside it, or pass --root DIR to allow a wider tree",
		"8 /etc/passwd:1 rejected: rejected: /etc/passwd is an absolute path; cite files relative to the journal",
		"8 op/leak.go:1 rejected: rejected: op/leak.go leads out of "+realPath(t, dir)+"/notes (through a symlink); cite the file where it really is",
		"8 ../../x.go:1 rejected: rejected: ../../x.go leaves "+realPath(t, dir)+"/notes; cite files inside it, or pass --root DIR to allow a wider tree",
	)
}

func realPath(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCheckMalformed: a journal whose fences cannot be read is refused by
// check as it is by Splice, naming the line, and nothing is checked: a
// fence opened and never closed (with citations after it, which once made
// check index a fence that was not there), and two fences with one id.
func TestCheckMalformed(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "op/a.go", "package a\n")
	for _, tc := range []struct{ name, src, want string }{
		{"unclosed", "# notes\n\n<!-- ctrlcmp:begin id=table/A/B dirs=op -->\n| [a.go:1](op/a.go#L1) | `a.go:1` |\n", "line 3: ctrlcmp:begin without <!-- ctrlcmp:end -->; add the end line after the generated text"},
		{"same id", "<!-- ctrlcmp:begin id=table/A/B -->\nop/a.go:1\n<!-- ctrlcmp:end -->\n\n<!-- ctrlcmp:begin id=table/A/B -->\n<!-- ctrlcmp:end -->\n", "line 5: a second fence with id=table/A/B (the first is at line 1); delete one of them"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, tc.name+".md")
			writeFile(t, dir, tc.name+".md", tc.src)
			_, err := Check(context.Background(), file, Options{})
			var me *MalformedError
			if !errors.As(err, &me) || err.Error() != "journal "+file+": "+tc.want {
				t.Fatalf("Check error = %v, want a *MalformedError saying %q", err, tc.want)
			}
			_, spliced := Splice([]byte(tc.src), Region{ID: "table/A/B"})
			if spliced == nil || spliced.Error() != tc.want {
				t.Errorf("Splice error = %v; check and table must say the same", spliced)
			}
		})
	}
}

// TestCheckCheckout: a fence written from a local checkout of a pinned tree
// (checkout=) has its citations into that checkout read in the pinned tree,
// though the checkout is not there (as in CI): its links, its plain
// citations relative to the checkout (dirs=), and prose citations into it.
// When the pinned tree is not at hand, they are unverified, not broken.
func TestCheckCheckout(t *testing.T) {
	const sha = "186fb3b29138ce82ff61ba1a9370b96a3dd598fe"
	const repoURL = "https://example.com/theirs.git"
	pinned, dir := t.TempDir(), t.TempDir()
	writeFile(t, pinned, "internal/controller/widget_controller.go", widgetController)
	writeFile(t, dir, "repo/ours/a.go", "package a\n\nfunc A() {}\n")
	text := "<!-- ctrlcmp:begin id=table/W/A repo=" + repoURL + " sha=" + sha + " checkout=../../theirs dirs=../../theirs,../ours -->\n" +
		"| [widget_controller.go:7](../../theirs/internal/controller/widget_controller.go#L7 \"ctrlcmp (*WidgetReconciler).Reconcile " + anchorOf(widgetController, 7) + "\") |" +
		" none: see internal/controller/widget_controller.go:19 | none: see a.go:3 |\n" +
		"<!-- ctrlcmp:end -->\n" +
		"Prose: ../../theirs/internal/controller/widget_controller.go:99, ../ours/a.go:9.\n"
	writeFile(t, dir, "repo/notes/journal.md", text)
	file := filepath.Join(dir, "repo/notes/journal.md")
	for _, tc := range []struct {
		name  string
		trees WorkTrees
		want  []string
	}{
		{"at hand", staticTrees{repoURL + "@" + sha: pinned}, []string{
			"2 ../../theirs/internal/controller/widget_controller.go:7 ok: ",
			"2 internal/controller/widget_controller.go:19 ok: ",
			"2 a.go:3 unverified: unverified: a.go:3 exists, but the journal is not in a git repository, so the text it cited is unknown; commit the journal to anchor its citations",
			"4 ../../theirs/internal/controller/widget_controller.go:99 broken: broken: ../../theirs/internal/controller/widget_controller.go:99 is past the end of the file (21 lines) in " + repoURL + " at 186fb3b29138",
			"4 ../ours/a.go:9 broken: broken: ../ours/a.go:9 is past the end of the file (3 lines)",
		}},
		{"not at hand", staticTrees{}, []string{
			"2 ../../theirs/internal/controller/widget_controller.go:7 unverified: unverified: " + repoURL + " at 186fb3b29138 is not at hand: " + repoURL + " at " + sha + " is not in the cache",
			"2 internal/controller/widget_controller.go:19 unverified: unverified: " + repoURL + " at 186fb3b29138 is not at hand: " + repoURL + " at " + sha + " is not in the cache",
			"2 a.go:3 unverified: unverified: a.go:3 exists, but the journal is not in a git repository, so the text it cited is unknown; commit the journal to anchor its citations",
			"4 ../../theirs/internal/controller/widget_controller.go:99 unverified: unverified: " + repoURL + " at 186fb3b29138 is not at hand: " + repoURL + " at " + sha + " is not in the cache",
			"4 ../ours/a.go:9 broken: broken: ../ours/a.go:9 is past the end of the file (3 lines)",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Check(context.Background(), file, Options{WorkTrees: tc.trees, Root: filepath.Join(dir, "repo")})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range res.Findings {
				got = append(got, fmt.Sprintf("%d %s %s: %s", f.Citation.Line, f.Citation.Location(), f.Status, f.Message))
			}
			wantFindings(t, got, tc.want...)
		})
	}
}
