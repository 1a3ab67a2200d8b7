package load_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// TestSourcesAgree: a fixture analysed with its dependencies typed from
// the build cache's export data and from their declarations gives the same
// controllers, rows, citations and warnings, byte for byte.
func TestSourcesAgree(t *testing.T) {
	for _, name := range []string{"kubebuilder", "clientgo-plain", "flux"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "..", "testdata", "src", name)
			export := analysed(t, dir, load.ExportData)
			decls := analysed(t, dir, load.Declarations)
			if !bytes.Equal(export, decls) {
				t.Errorf("the two ways differ:\nexport data:  %s\ndeclarations: %s", export, decls)
			}
		})
	}
}

// analysed is the JSON of a tree's controllers and warnings with its
// dependencies typed from one source.
func analysed(t *testing.T, dir string, from load.DepSource) []byte {
	t.Helper()
	tree, err := load.LoadFrom(context.Background(), dir, nil, from)
	if err != nil {
		t.Fatal(err)
	}
	if tree.DepsFrom != from {
		t.Fatalf("dependencies typed from %s, want %s", tree.DepsFrom, from)
	}
	prog := callgraph.Build(tree.All, tree.Own)
	ctrls, warnings := locate.Locate(tree, prog, cite.New(tree.Fset, tree.Root, tree.All, tree.Own))
	out, err := json.MarshalIndent(struct {
		Controllers []locate.Controller
		Warnings    []string
	}{ctrls, append(append(tree.Warnings, prog.Warnings...), warnings...)}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}
