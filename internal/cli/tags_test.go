package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
)

// TestTagsFlag: a tree whose reconcilers are in a file behind a build tag
// (a stub builds without it) finds no controller, and the error names the
// file, its constraint and --tags; with --tags, locate finds them. A tree
// whose only package is behind the tag says the same.
func TestTagsFlag(t *testing.T) {
	dir := filepath.Join(copyFixture(t, "samekind"), "samekind")
	file := filepath.Join(dir, "controller", "configmaps.go")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append([]byte("//go:build enterprise\n\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	stub := filepath.Join(dir, "controller", "stub.go")
	if err := os.WriteFile(stub, []byte("//go:build !enterprise\n\n// Package controller is empty without the enterprise tag.\npackage controller\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "locate", dir)
	if code != fail.CodeLoad || !strings.Contains(errs, "no controller found") || !strings.Contains(errs, "controller/configmaps.go (//go:build enterprise)") || !strings.Contains(errs, "--tags") {
		t.Errorf("locate without the tag: exit %d, %s; want exit %d naming configmaps.go, its constraint and --tags", code, errs, fail.CodeLoad)
	}
	code, out, errs := run(t, "locate", "--tags", "enterprise", dir)
	if code != 0 || !strings.Contains(out, "LabelReconciler") || !strings.Contains(out, "PruneReconciler") {
		t.Errorf("locate --tags enterprise: exit %d\n%s\n%s", code, out, errs)
	}

	if err := os.Remove(stub); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run(t, "locate", "--no-cache", dir)
	if code != fail.CodeLoad || !strings.Contains(errs, "controller/configmaps.go (//go:build enterprise)") || !strings.Contains(errs, "--tags") {
		t.Errorf("locate of a tree whose one package is behind the tag: exit %d, %s; want it to name configmaps.go and --tags", code, errs)
	}
}
