package locate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCRD: reading a YAML file as CRDs and looking a property up in them
// never panics, and a property found is cited on a line of the file, at the
// key named like the last json tag. Seeded with the Flux fixture's CRD.
func FuzzCRD(f *testing.F) {
	crd, err := os.ReadFile(filepath.Join("..", "..", "testdata", "src", "flux", "config", "crd", "bases", "example.com_bundles.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(crd, "Bundle", "v1", "spec.interval")
	f.Add(crd, "Bundle", "v1", "spec.retryInterval")
	f.Add([]byte("kind: CustomResourceDefinition\nspec: &a\n  names: {kind: K}\n  versions: [{name: v1, schema: {openAPIV3Schema: *a}}]\n---\n- x\n"), "K", "v1", "names")
	f.Fuzz(func(t *testing.T, data []byte, kind, version, path string) {
		docs, _ := readCRDs("crd.yaml", data)
		tags := strings.Split(path, ".")
		_, key, _, ok := findCRDProperty(docs, kind, version, tags)
		if !ok {
			return
		}
		if lines := bytes.Count(data, []byte("\n")) + 1; key.Line < 1 || key.Line > lines {
			t.Fatalf("property %s cited at line %d of %d", path, key.Line, lines)
		}
		if key.Value != tags[len(tags)-1] {
			t.Fatalf("property %s cited at key %q", path, key.Value)
		}
	})
}
