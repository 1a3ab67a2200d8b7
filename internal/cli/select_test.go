package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
	"github.com/ctrlcmp/ctrlcmp/internal/report"
)

// TestSymlinkedPackage: a package directory reached through a symlink
// inside the tree (internal/controller -> controller-impl, imported by the
// link's path) is one package, read once: its controller is reported once,
// and table takes it without asking to rename it.
func TestSymlinkedPackage(t *testing.T) {
	dir := copyFixture(t, "kubebuilder")
	tree := filepath.Join(dir, "kubebuilder")
	impl := filepath.Join(tree, "internal", "controller-impl")
	if err := os.Rename(filepath.Join(tree, "internal", "controller"), impl); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("controller-impl", filepath.Join(tree, "internal", "controller")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	t.Chdir(dir)
	code, out, errs := run(t, "locate", "kubebuilder", "--no-cache", "--format", "json")
	if code != 0 {
		t.Fatalf("locate: exit %d: %s", code, errs)
	}
	var doc report.Document
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Trees) != 1 {
		t.Fatalf("locate's JSON: %v:\n%s", err, out)
	}
	ctrls := doc.Trees[0].Controllers
	if len(ctrls) != 1 {
		t.Fatalf("%d controllers, want the one GadgetReconciler once", len(ctrls))
	}
	if e, _ := ctrls[0].Rows[locate.RowEntry].Primary(); e.File != "internal/controller/gadget_controller.go" {
		t.Errorf("entry cited at %s, want the package the program imports (internal/controller)", e.File)
	}
	if code, _, errs := run(t, "table", "--theirs-dir", "kubebuilder", "--ours", "kubebuilder", "--format", "json"); code != 0 {
		t.Errorf("table: exit %d: %s", code, errs)
	}
}
