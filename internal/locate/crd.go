package locate

import (
	"bytes"
	"errors"
	"fmt"
	"go/types"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// crdDoc is one CustomResourceDefinition document of the tree.
type crdDoc struct {
	file string
	root *yaml.Node // the document's top mapping
}

// maxCRDFile bounds the YAML files read as CRDs.
const maxCRDFile = 8 << 20

// crdDocs reads the tree's CustomResourceDefinitions once.
func (a *analysis) crdDocs() []crdDoc {
	if a.crds != nil {
		return *a.crds
	}
	docs := []crdDoc{}
	a.crds = &docs
	_ = filepath.WalkDir(a.tree.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "vendor", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		if (ext != ".yaml" && ext != ".yml") || d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > maxCRDFile {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(data, []byte("CustomResourceDefinition")) {
			return nil
		}
		found, err := readCRDs(path, data)
		if err != nil {
			a.warn(fmt.Sprintf("%s: not read as a CRD: %v", a.cite.Path(path), err))
		}
		docs = append(docs, found...)
		return nil
	})
	return docs
}

// readCRDs returns the CustomResourceDefinition documents of one YAML
// file, named file, and the error that stopped the reading (the documents
// before it are kept).
func readCRDs(file string, data []byte) ([]crdDoc, error) {
	var docs []crdDoc
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return docs, err
		}
		if len(n.Content) == 1 && scalar(mapGet(n.Content[0], "kind")) == "CustomResourceDefinition" {
			docs = append(docs, crdDoc{file: file, root: n.Content[0]})
		}
	}
}

// crdProperty cites the CRD schema property a Spec field maps to: in the CRD
// of the primary kind, under the version named like the Go package that
// declares the field.
func (a *analysis) crdProperty(kind *types.Named, field *types.Var, tags []string) (Site, bool) {
	if kind == nil || field.Pkg() == nil {
		return Site{}, false
	}
	version := field.Pkg().Name()
	doc, key, path, ok := findCRDProperty(a.crdDocs(), kind.Obj().Name(), version, tags)
	if !ok {
		return Site{}, false
	}
	s := Site{Site: a.cite.Line(doc.file, key.Line, "(CRD schema) "+strings.Join(path, "."))}
	s.Note = fmt.Sprintf("property %s of %s %s", strings.Join(tags, "."), kind.Obj().Name(), version)
	return s, true
}

// findCRDProperty finds the property at the json path tags in the schema
// of version of kind's CRD among docs: the document, the property's key
// node, and the property's path in the document.
func findCRDProperty(docs []crdDoc, kind, version string, tags []string) (crdDoc, *yaml.Node, []string, bool) {
	for _, doc := range docs {
		spec := mapGet(doc.root, "spec")
		if scalar(mapGet(mapGet(spec, "names"), "kind")) != kind {
			continue
		}
		versions := mapGet(spec, "versions")
		if versions == nil || versions.Kind != yaml.SequenceNode {
			continue
		}
		for _, v := range versions.Content {
			if scalar(mapGet(v, "name")) != version {
				continue
			}
			node := mapGet(mapGet(v, "schema"), "openAPIV3Schema")
			path := []string{"versions[name=" + version + "]", "schema", "openAPIV3Schema"}
			var key *yaml.Node
			for _, tag := range tags {
				props := mapGet(node, "properties")
				key = mapKey(props, tag)
				node = mapGet(props, tag)
				path = append(path, "properties", tag)
				if node == nil {
					return crdDoc{}, nil, nil, false
				}
			}
			if key == nil {
				return crdDoc{}, nil, nil, false
			}
			return doc, key, path, true
		}
	}
	return crdDoc{}, nil, nil, false
}

// mapKey returns the key node of a mapping entry.
func mapKey(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i]
		}
	}
	return nil
}

// mapGet returns the value node of a mapping entry.
func mapGet(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}
