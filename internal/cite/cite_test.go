package cite

import (
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestPathVendoredReplacement: a vendored copy of a module the tree replaces
// by one of its own directories is cited there; a copy that differs, and a
// dependency's vendored copy, keep their vendor path.
func TestPathVendoredReplacement(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const api = "package v1\n\nconst Finalizer = \"example.com/cleanup\"\n"
	write("api/v1/types.go", api)
	same := write("vendor/example.com/tree/api/v1/types.go", api)
	stale := write("vendor/example.com/tree/api/v1/old.go", "package v1\n")
	write("api/v1/old.go", "package v1 // edited since vendoring\n")
	dep := write("vendor/example.com/lib/lib.go", "package lib\n")
	replaced := &packages.Module{Path: "example.com/tree/api", Version: "v0.0.0",
		Replace: &packages.Module{Path: "./api", Dir: filepath.Join(root, "api")}}
	all := []*packages.Package{
		{GoFiles: []string{same, stale}, Module: replaced},
		{GoFiles: []string{dep}, Module: &packages.Module{Path: "example.com/lib", Version: "v1.2.3"}},
	}
	c := New(token.NewFileSet(), root, all, nil)
	for file, want := range map[string]string{
		same:  "api/v1/types.go",
		stale: "vendor/example.com/tree/api/v1/old.go",
		dep:   "vendor/example.com/lib/lib.go",
	} {
		if got := c.Path(file); got != want {
			t.Errorf("Path(%s) = %s, want %s", file, got, want)
		}
	}
	if s := c.Line(same, 3, ""); s.File != "api/v1/types.go" || s.Text != `const Finalizer = "example.com/cleanup"` {
		t.Errorf("Line = %+v", s)
	}
}
