package load_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/load"
)

// TestOwnImportedByDependency: a module dependency that imports one of the
// tree's own packages (the tree's API module, replaced by a local path) is
// typed after it, against the same types, whichever way the dependencies
// are typed; the tree then holds no type error.
func TestOwnImportedByDependency(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "load", "ownunder", "tree")
	for _, from := range []load.DepSource{load.AnySource, load.Declarations} {
		tree, err := load.LoadFrom(context.Background(), dir, nil, from)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range tree.Own {
			for _, e := range p.Errors {
				t.Errorf("%s (dependencies from %s): %s: %s", p.PkgPath, tree.DepsFrom, e.Pos, e.Msg)
			}
		}
		api := tree.Types("example.com/ownunder/api")
		lib := tree.Types("example.com/ownunderlib")
		if api == nil || lib == nil {
			t.Fatalf("api %v, lib %v: not typed", api, lib)
		}
		if lib.Imports()[0] != api {
			t.Errorf("the dependency's import of the API package is another package than the tree's own (dependencies from %s)", tree.DepsFrom)
		}
	}
}
