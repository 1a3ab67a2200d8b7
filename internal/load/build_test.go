package load

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// loadDir is a tree of testdata/load.
func loadDir(name string) string { return filepath.Join("..", "..", "testdata", "load", name) }

// TestWorkspaceHonoured: a module of a go.work workspace that imports a
// sibling module its go.mod does not require loads as the go command
// builds it, in the workspace: no warning, the sibling's types known. With
// GOWORK=off, as the user may set it, the workspace is not used, and the
// import is missing.
func TestWorkspaceHonoured(t *testing.T) {
	t.Setenv("GOWORK", "")
	tree, err := LoadFrom(context.Background(), loadDir("workspace/op"), nil, Declarations)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.Abs(loadDir("workspace/go.work")); tree.Workspace != want {
		t.Errorf("Workspace = %q, want %q", tree.Workspace, want)
	}
	if len(tree.Warnings) != 0 {
		t.Errorf("warnings in the workspace: %q", tree.Warnings)
	}
	if lib := tree.Types("example.com/lib"); lib == nil || lib.Scope().Lookup("Greeting") == nil {
		t.Errorf("the sibling module's types: %v", lib)
	}

	t.Setenv("GOWORK", "off")
	tree, err = LoadFrom(context.Background(), loadDir("workspace/op"), nil, Declarations)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Workspace != "" || len(tree.Warnings) == 0 || !strings.Contains(tree.Warnings[0], "example.com/lib") {
		t.Errorf("with GOWORK=off: workspace %q, warnings %q; want none, and a warning about example.com/lib", tree.Workspace, tree.Warnings)
	}
}

// TestBuildTags: a file behind a //go:build tag is left out, and named
// with its constraint (a file left out by its name is not: no tag brings
// it in); with the tag (WithTags) it is loaded.
func TestBuildTags(t *testing.T) {
	tree, err := LoadFrom(context.Background(), loadDir("tags"), nil, Declarations)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tree.Excluded, "; "); !strings.HasSuffix(got, "testdata/load/tags/enterprise.go (//go:build enterprise)") || strings.Contains(got, "windows") {
		t.Errorf("Excluded = %q, want enterprise.go with its constraint alone", tree.Excluded)
	}
	if tree.Own[0].Types.Scope().Lookup("Enterprise") != nil {
		t.Error("Enterprise typed without the tag")
	}
	tree, err = LoadFrom(WithTags(context.Background(), []string{"enterprise"}), loadDir("tags"), nil, Declarations)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Excluded) != 0 || tree.Own[0].Types.Scope().Lookup("Enterprise") == nil {
		t.Errorf("with -tags enterprise: Excluded %q, Enterprise %v; want none excluded and Enterprise typed", tree.Excluded, tree.Own[0].Types.Scope().Lookup("Enterprise"))
	}
}

// TestMissingReplaceDirectory: a replace to a directory that does not
// exist gives one warning naming the replace line, not one per package
// with advice to download the module.
func TestMissingReplaceDirectory(t *testing.T) {
	tree, err := LoadFrom(context.Background(), loadDir("repmiss"), nil, Declarations)
	if err != nil {
		t.Fatal(err)
	}
	var replace, download int
	for _, w := range tree.Warnings {
		if strings.Contains(w, "go.mod:7: replace example.com/forked => ../forks/forked: the directory") {
			replace++
		}
		if strings.Contains(w, "go mod download") {
			download++
		}
	}
	if replace != 1 || download != 0 {
		t.Errorf("warnings %q: want one naming the replace line at go.mod:7 and no advice to download", tree.Warnings)
	}
}

// TestWorkspaceOutsideRefused: a go.work that uses a directory outside its
// own (`use ../elsewhere`) is not honoured: a fetched tree does not name
// what else on the machine is read. The tree loads without it, with one
// warning saying so.
func TestWorkspaceOutsideRefused(t *testing.T) {
	t.Setenv("GOWORK", "")
	tree, err := LoadFrom(context.Background(), loadDir("wsoutside/ws/op"), nil, Declarations)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Workspace != "" {
		t.Errorf("Workspace = %q, want none", tree.Workspace)
	}
	if len(tree.Warnings) != 1 || !strings.HasPrefix(tree.Warnings[0], "../go.work uses ../elsewhere, outside the workspace's own directory") {
		t.Errorf("warnings %q, want one about ../elsewhere", tree.Warnings)
	}
}
