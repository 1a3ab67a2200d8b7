package liverun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const crdWithout = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec: {group: example.com, versions: [{name: v1}]}
`

const crdWith = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec: {group: example.com, versions: [{name: v1, subresources: {status: {}}}]}
`

// TestReadManifests: of two CRDs of one name the one with a status
// subresource is kept, whatever the file order; examples come from example
// or sample directories only.
func TestReadManifests(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"artifacts/examples/crd-status.yaml": crdWith,
		"artifacts/examples/crd.yaml":        crdWithout,
		"artifacts/examples/foo.yaml":        "apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: example-foo}\n",
		"deploy/foo.yaml":                    "apiVersion: example.com/v1\nkind: Foo\nmetadata: {name: deployed}\n",
		"config/samples/bar.yaml":            "apiVersion: example.com/v1\nkind: Bar\nmetadata: {name: a-bar}\n---\n",
		"notes/broken.yaml":                  "kind: [",
	} {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := ReadManifests(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.CRDs) != 1 || !hasStatus(m.CRDs[0]) {
		t.Errorf("CRDs %v, want the one foos.example.com with a status subresource", m.CRDs)
	}
	ex, err := m.ExampleOf("foo")
	if err != nil || ex.Object.Name() != "example-foo" || ex.File != filepath.Join("artifacts", "examples", "foo.yaml") {
		t.Errorf("ExampleOf(foo) = %v, %v; want example-foo from artifacts/examples/foo.yaml", ex, err)
	}
	if _, err := m.ExampleOf("Baz"); err == nil || !strings.Contains(err.Error(), "--object") {
		t.Errorf("ExampleOf(Baz): %v, want an error naming --object", err)
	}
}

// TestPlainFixtureExample: the fixture run by `stages --run` without
// --object has its example.
func TestPlainFixtureExample(t *testing.T) {
	m, err := ReadManifests("../../testdata/src/clientgo-plain")
	if err != nil {
		t.Fatal(err)
	}
	if ex, err := m.ExampleOf("ConfigMap"); err != nil || ex.Object.Name() != "app-settings" {
		t.Fatalf("ExampleOf(ConfigMap) = %v, %v", ex, err)
	}
}
