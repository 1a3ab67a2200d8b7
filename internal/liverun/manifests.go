package liverun

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/cluster"
)

// Manifests are the YAML objects of a tree that a run applies.
type Manifests struct {
	// CRDs are the tree's CustomResourceDefinitions, one per name: when
	// several files define one name, the one with a status subresource
	// (sample-controller ships its CRD with and without).
	CRDs []cluster.Object
	// Examples are the objects in the tree's example or sample
	// directories (a directory whose name holds "example" or "sample"),
	// each with the file it came from, in path order.
	Examples []Example
}

// Example is one example object and its file.
type Example struct {
	Object cluster.Object
	File   string
}

// maxManifest bounds the YAML files read.
const maxManifest = 8 << 20

// ReadManifests walks the tree at dir (not .git, vendor, node_modules or
// testdata) for YAML files and sorts their objects into CRDs and examples.
// Files that do not parse as Kubernetes objects are skipped.
func ReadManifests(dir string) (Manifests, error) {
	var m Manifests
	crds := map[string]cluster.Object{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "vendor", "node_modules", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		if (ext != ".yaml" && ext != ".yml") || !d.Type().IsRegular() {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > maxManifest {
			return nil
		}
		objs, err := cluster.ReadObjects(path)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		for _, o := range objs {
			if o.Kind() == "CustomResourceDefinition" {
				if old, ok := crds[o.Name()]; !ok || !hasStatus(old) && hasStatus(o) {
					crds[o.Name()] = o
				}
				continue
			}
			if exampleDir(filepath.Dir(rel)) {
				m.Examples = append(m.Examples, Example{Object: o, File: rel})
			}
		}
		return nil
	})
	if err != nil {
		return Manifests{}, err
	}
	names := make([]string, 0, len(crds))
	for n := range crds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		m.CRDs = append(m.CRDs, crds[n])
	}
	return m, nil
}

// exampleDir says whether a directory path names examples or samples.
func exampleDir(rel string) bool {
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		p := strings.ToLower(part)
		if strings.Contains(p, "example") || strings.Contains(p, "sample") {
			return true
		}
	}
	return false
}

// hasStatus says whether a CRD declares the status subresource in any of
// its versions (or, in the old form, for all).
func hasStatus(crd cluster.Object) bool {
	spec, _ := crd["spec"].(map[string]any)
	if sub, ok := spec["subresources"].(map[string]any); ok && sub["status"] != nil {
		return true
	}
	versions, _ := spec["versions"].([]any)
	for _, v := range versions {
		vm, _ := v.(map[string]any)
		if sub, ok := vm["subresources"].(map[string]any); ok && sub["status"] != nil {
			return true
		}
	}
	return false
}

// ExampleOf picks the example object of kind: the first of that kind.
func (m Manifests) ExampleOf(kind string) (Example, error) {
	for _, e := range m.Examples {
		if strings.EqualFold(e.Object.Kind(), kind) {
			return e, nil
		}
	}
	return Example{}, fmt.Errorf("no example %s in the tree's example or sample directories; give one with --object FILE", kind)
}
