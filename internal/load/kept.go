package load

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/types"
	"hash"
	"os"

	"golang.org/x/tools/go/gcexportdata"

	"github.com/ctrlcmp/ctrlcmp/internal/resultcache"
)

// What the loader keeps between runs, in ctrlcmp's cache, so that a warm
// run neither types the standard library again nor asks the go command
// where the module dependencies' export data is:
//
//   - the standard library's types, as the export data ctrlcmp writes of
//     the packages it typed from their declarations (about a megabyte for
//     a controller's few hundred standard packages). Their positions are
//     the source files' own, so nothing cited changes;
//   - the export data files the probe found in the build cache for the
//     module dependencies, used only while every one is still there (the
//     build cache names a file by its content, so a file that is there
//     holds what it held).
//
// Each is stored in the tree's own slot, which a later run overwrites (so
// the cache holds two entries per tree, as many as the trees analysed),
// under a hash of what it is a function of: for every package, its path,
// name, module and files (each file's path, size and modification time, so
// that an edited GOROOT or replacement counts), the architecture, and
// ctrlcmp's build.
type kept struct {
	store        *resultcache.Store
	std, modules resultcache.Key
}

// keptFor computes the keys of the tree's kept types; nil when they cannot
// be kept.
func keptFor(store *resultcache.Store, dir string, g *graph) *kept {
	if store == nil {
		return nil
	}
	std, err := keptKey("standard library types of "+dir, g, func(n *node) bool { return n.listed.Standard && !n.own })
	if err != nil {
		return nil
	}
	modules, err := keptKey("module export data of "+dir, g, isModule)
	if err != nil {
		return nil
	}
	return &kept{store: store, std: std, modules: modules}
}

// keptKey is the key of what slot keeps: a hash of the selected packages'
// inputs.
func keptKey(slot string, g *graph, selected func(*node) bool) (resultcache.Key, error) {
	h := sha256.New()
	fmt.Fprintf(h, "GOARCH %s\n", goarch())
	for _, n := range g.nodes {
		if !selected(n) {
			continue
		}
		fmt.Fprintf(h, "package %s %s\n", n.pkg.PkgPath, n.pkg.Name)
		if m := n.pkg.Module; m != nil {
			fmt.Fprintf(h, "module %s %s %s\n", m.Path, m.Version, m.GoVersion)
		}
		if err := hashFiles(h, n.pkg.GoFiles); err != nil {
			return resultcache.Key{}, err
		}
	}
	content := hex.EncodeToString(h.Sum(nil))
	return resultcache.DerivedKey(slot, content)
}

func hashFiles(h hash.Hash, files []string) error {
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "file %s %d %d\n", f, st.Size(), st.ModTime().UnixNano())
	}
	return nil
}

// keptPackage is one standard package's export data.
type keptPackage struct {
	Path string `json:"path"`
	Data []byte `json:"data"`
}

// readStd types the standard library from its kept export data, and says
// why not when it cannot (then no standard package is typed).
func (k *kept) readStd(g *graph) (why string) {
	var stored []keptPackage
	if miss := k.store.Get(k.std, &stored); miss != "" {
		return miss
	}
	imports := map[string]*types.Package{"unsafe": types.Unsafe}
	for _, p := range stored {
		if _, err := gcexportdata.Read(bytes.NewReader(p.Data), g.fset, imports, p.Path); err != nil {
			return fmt.Sprintf("the kept types of %s cannot be read (%v)", p.Path, err)
		}
	}
	std := func(n *node) bool { return n.listed.Standard && !n.own }
	for _, n := range g.nodes {
		if std(n) && imports[n.pkg.PkgPath] == nil {
			return fmt.Sprintf("no types kept for %s", n.pkg.PkgPath)
		}
	}
	for _, n := range g.nodes {
		if std(n) {
			n.pkg.Types = imports[n.pkg.PkgPath]
		}
	}
	return ""
}

// writeStd keeps the standard library's types, as typed from their
// declarations; not when one of them holds errors (its types would be read
// back as whole).
func (k *kept) writeStd(g *graph) error {
	var stored []keptPackage
	for _, n := range g.nodes {
		if !n.listed.Standard || n.own || n.pkg.PkgPath == "unsafe" {
			continue
		}
		if n.illTyped || n.pkg.Types == nil {
			return fmt.Errorf("%s holds errors", n.pkg.PkgPath)
		}
		var buf bytes.Buffer
		if err := gcexportdata.Write(&buf, g.fset, n.pkg.Types); err != nil {
			return err
		}
		stored = append(stored, keptPackage{Path: n.pkg.PkgPath, Data: buf.Bytes()})
	}
	return k.store.Put(k.std, stored)
}

// keptExports is where the build cache held the module dependencies'
// export data, as the probe found it.
type keptExports struct {
	Files map[string]string `json:"files"`
	// Cgo: the export data is the user's own build, with cgo on.
	Cgo bool `json:"cgo"`
}

// moduleExports is the export data kept for the module dependencies, when
// the build cache still holds every file of it; else why not.
func (k *kept) moduleExports() (keptExports, string) {
	var x keptExports
	if miss := k.store.Get(k.modules, &x); miss != "" {
		return keptExports{}, miss
	}
	for _, f := range x.Files {
		if _, err := os.Stat(f); err != nil {
			return keptExports{}, "the build cache no longer holds the export data found before"
		}
	}
	return x, ""
}
