package inspect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// TestSelect picks controllers in the samekind fixture, which holds two
// reconcilers of kind ConfigMap: the kind gives both to Matching and is
// ambiguous to Select, whose error lists them and asks for the reconciler's
// type name; that name (in any case) picks one.
func TestSelect(t *testing.T) {
	tree, err := Tree(context.Background(), filepath.Join("..", "..", "testdata", "src", "samekind"), "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	both, err := Matching(tree, "configmap")
	if err != nil || len(both) != 2 {
		t.Fatalf("Matching(configmap): %d controllers, %v; want both", len(both), err)
	}
	_, err = Select(tree, "ConfigMap", "--kind")
	if fail.Code(err) != fail.CodeUsage {
		t.Fatalf("Select(ConfigMap): %v, want a usage error", err)
	}
	for _, want := range []string{"2 controllers of kind \"ConfigMap\"", "ConfigMap (LabelReconciler), ConfigMap (PruneReconciler)", "reconciler's type name, e.g. --kind LabelReconciler"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Select(ConfigMap): %q does not say %q", err, want)
		}
	}
	c, err := Select(tree, "prunereconciler", "--kind")
	if err != nil || c.Name != "PruneReconciler" {
		t.Errorf("Select(prunereconciler): %s, %v; want PruneReconciler", c.Name, err)
	}
	if _, err := Select(tree, "", "--kind"); err == nil || !strings.Contains(err.Error(), "holds 2 controllers") {
		t.Errorf("Select without a kind: %v, want the two controllers listed", err)
	}
	if _, err := Matching(tree, "Secret"); err == nil || !strings.Contains(err.Error(), `no controller of kind "Secret"`) {
		t.Errorf("Matching(Secret): %v, want no such controller", err)
	}
}

// controllerAt is a controller whose entry is at file.
func controllerAt(name, kind, file string) locate.Controller {
	return locate.Controller{Name: name, Kind: kind, Rows: map[string]locate.Row{
		locate.RowEntry: {Sites: []locate.Site{{Site: cite.Site{File: file, Line: 10}, Primary: true}}},
	}}
}

// TestSelectQualified: two reconcilers of one name and kind in different
// packages (or modules) are told apart by their package's directory,
// DIR/NAME or the end of it, the root package's as ./NAME; the error that
// lists them names them so. A controller with no kind is listed by its
// name alone.
func TestSelectQualified(t *testing.T) {
	tree := result.Tree{Root: "twomod", Controllers: []locate.Controller{
		controllerAt("ConfigMapReconciler", "ConfigMap", "main.go"),
		controllerAt("ConfigMapReconciler", "ConfigMap", "plugins/controllers/configmap.go"),
		controllerAt("ConfigMapReconciler", "ConfigMap", "internal/controllers/configmap.go"),
		controllerAt("StatusReconciler", "", "internal/status/status.go"),
	}}
	// A name the locator qualified by its package (two generated-style
	// reconcilers named Reconciler) is selected by DIR/NAME too.
	knative := result.Tree{Root: "serving", Controllers: []locate.Controller{
		controllerAt("revision.Reconciler", "Revision", "pkg/reconciler/revision/revision.go"),
		controllerAt("route.Reconciler", "Route", "pkg/reconciler/route/route.go"),
	}}
	for _, sel := range []string{"revision/Reconciler", "pkg/reconciler/revision/Reconciler", "revision.Reconciler"} {
		if c, err := Select(knative, sel, "--ours-kind"); err != nil || c.Name != "revision.Reconciler" {
			t.Errorf("Select(%s): %s, %v; want revision.Reconciler", sel, c.Name, err)
		}
	}
	_, err := Select(tree, "configmapreconciler", "--ours-kind")
	for _, want := range []string{`holds 3 controllers named "configmapreconciler": ./ConfigMapReconciler (main.go:10), plugins/controllers/ConfigMapReconciler (plugins/controllers/configmap.go:10), internal/controllers/ConfigMapReconciler (internal/controllers/configmap.go:10); choose one by its package's directory, e.g. --ours-kind ./ConfigMapReconciler`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Select(configmapreconciler): %v, want %q", err, want)
		}
	}
	for sel, file := range map[string]string{
		"./ConfigMapReconciler":                    "main.go",
		"plugins/controllers/ConfigMapReconciler":  "plugins/controllers/configmap.go",
		"Plugins/ConfigMapReconciler":              "",
		"internal/controllers/configmapreconciler": "internal/controllers/configmap.go",
		"status/StatusReconciler":                  "internal/status/status.go",
		"StatusReconciler":                         "internal/status/status.go",
		"ontrollers/ConfigMapReconciler":           "",
		"controllers/ConfigMapReconciler":          "",
	} {
		c, err := Select(tree, sel, "--ours-kind")
		e, _ := c.Rows[locate.RowEntry].Primary()
		switch {
		case file == "" && err == nil:
			t.Errorf("Select(%s) picked %s, want an error", sel, e.File)
		case file != "" && (err != nil || e.File != file):
			t.Errorf("Select(%s): %s, %v; want the one at %s", sel, e.File, err, file)
		}
	}
	_, err = Select(tree, "", "--ours-kind")
	if want := "holds 4 controllers: ConfigMap (./ConfigMapReconciler), ConfigMap (plugins/controllers/ConfigMapReconciler), ConfigMap (internal/controllers/ConfigMapReconciler), StatusReconciler (no kind); choose one with --ours-kind KIND (or its reconciler's type name, or DIR/NAME), e.g. --ours-kind ./ConfigMapReconciler"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Select without a kind: %v, want %q", err, want)
	}
	_, err = Select(tree, "ConfigMap", "--ours-kind")
	if want := "choose one by its reconciler's type name, e.g. --ours-kind ./ConfigMapReconciler"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Select(ConfigMap): %v, want %q (a name that selects one)", err, want)
	}
	if c, err := Select(tree, "./plugins/controllers/ConfigMapReconciler", "--ours-kind"); err != nil || c.Rows[locate.RowEntry].Sites[0].File != "plugins/controllers/configmap.go" {
		t.Errorf("Select(./plugins/controllers/ConfigMapReconciler): %v; want the one in plugins/controllers", err)
	}
	// Every name each listing offers selects its controller.
	for _, c := range tree.Controllers {
		sel := selector(c, tree.Controllers)
		if got, err := Select(tree, sel, "--ours-kind"); err != nil || got.Rows[locate.RowEntry].Sites[0].File != c.Rows[locate.RowEntry].Sites[0].File {
			t.Errorf("Select(%s): %v; want %s", sel, err, Qualified(c))
		}
	}
}

// TestUnreadableRepository: a git repository the git library refuses (a
// config extension it does not know, here the worktreeConfig that git's
// sparse checkout sets) leaves the commit unrecorded with a warning that
// says why, rather than as silently as a tree outside git; an ordinary
// repository gives no warning.
func TestUnreadableRepository(t *testing.T) {
	dir := t.TempDir()
	if _, err := git.PlainInit(dir, false); err != nil {
		t.Fatal(err)
	}
	var plain result.Tree
	describeGit(&plain, dir)
	if len(plain.Warnings) != 0 {
		t.Errorf("a new repository: warnings %q, want none", plain.Warnings)
	}
	cfg := filepath.Join(dir, ".git", "config")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(b, "[extensions]\n\tworktreeConfig = true\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	var rt result.Tree
	describeGit(&rt, dir)
	if rt.Sha != "" || len(rt.Warnings) != 1 || !strings.Contains(rt.Warnings[0], "the git repository could not be read") || !strings.Contains(rt.Warnings[0], "worktreeconfig") {
		t.Errorf("sha %q, warnings %q: want no sha and one warning naming the extension", rt.Sha, rt.Warnings)
	}
}
