package load

import (
	"context"
	"os"
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

// TestWorkspaceOnItsOwn: a tree that is not the user's (OnItsOwn: theirs,
// fetched or checked out) is loaded as it builds on its own. The user's
// GOWORK, which names their own workspace, is not applied to it, and a
// go.work above its repository (the user's, or one in a directory the
// cache sits in) is not used; a go.work inside its repository is.
func TestWorkspaceOnItsOwn(t *testing.T) {
	work := t.TempDir()
	repo := func(name string) string { // a repository holding a copy of workspace/
		dir := filepath.Join(work, name)
		if err := os.CopyFS(dir, os.DirFS(loadDir("workspace"))); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	users, err := filepath.Abs(loadDir("workspace/go.work"))
	if err != nil {
		t.Fatal(err)
	}
	inside := repo("inside")
	t.Setenv("GOWORK", users)
	tree, err := LoadFrom(OnItsOwn(context.Background()), filepath.Join(inside, "op"), nil, Declarations)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(inside, "go.work"); tree.Workspace != want || len(tree.Warnings) != 0 {
		t.Errorf("theirs with its own go.work, the user's GOWORK set: workspace %q, warnings %q; want %q and none", tree.Workspace, tree.Warnings, want)
	}

	// The user's workspace uses the sibling module; their tree has no go.work.
	alone := repo("alone")
	if err := os.Remove(filepath.Join(alone, "go.work")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "go.work"), []byte("go 1.26.0\n\nuse ./alone/op\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, gowork := range []string{users, ""} {
		t.Setenv("GOWORK", gowork)
		tree, err = LoadFrom(OnItsOwn(context.Background()), filepath.Join(alone, "op"), nil, Declarations)
		if err != nil {
			t.Fatal(err)
		}
		if tree.Workspace != "" || len(tree.Warnings) == 0 || !strings.Contains(tree.Warnings[0], "example.com/lib") {
			t.Errorf("theirs without a go.work, GOWORK=%q and a go.work above its repository: workspace %q, warnings %q; want none, and a warning about example.com/lib", gowork, tree.Workspace, tree.Warnings)
		}
	}

	// The user's own tree, the same directory: the go.work above it is theirs to use.
	tree, err = LoadFrom(context.Background(), filepath.Join(alone, "op"), nil, Declarations)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(work, "go.work"); tree.Workspace != want {
		t.Errorf("the user's tree: workspace %q, want %q", tree.Workspace, want)
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
		if strings.Contains(w, "go.mod:7: replace example.com/forked => ../forks/forked: that directory does not exist") {
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
