package load

import (
	"context"
	"fmt"
	"go/ast"

	"github.com/ctrlcmp/ctrlcmp/internal/phase"
	"github.com/ctrlcmp/ctrlcmp/internal/resultcache"
)

// The dependencies' types, and where each group takes them from: the
// standard library from its declarations or from what an earlier run kept
// (kept.go); the module dependencies from the build cache's export data
// (the probe, golist.go) or from their declarations (check.go).

// typeDependencies gives every dependency its types: the standard
// library's from its declarations (or from the types kept by an earlier
// run), and the modules' from the build cache's export data when from
// allows it and the cache holds it for every one of them, else from their
// declarations too. (The compiler writes a standard library position as
// $GOROOT/src/…, which is no file: from source, its positions are the
// files' own, whichever way the modules went.)
//
// A module dependency that imports one of the tree's own packages (under)
// is typed from its declarations, with those own packages typed in full
// (their syntax) in the same order: a dependency's export data holds its
// own copy of them, a second identity for the same types.
func (t *Tree) typeDependencies(ctx context.Context, g *graph, from DepSource, store *resultcache.Store, syntax map[*node][]*ast.File) error {
	keep := keptFor(store, t.Dir, g)
	under := g.ownUnderModules()
	if len(under) > 0 {
		from = Declarations
	}
	var remembered keptExports
	if keep != nil && len(under) == 0 {
		var why string
		if remembered, why = keep.moduleExports(); why != "" {
			phase.Mark(ctx, "kept export data", "not used: "+why)
		}
	}
	probe := make(chan probed, 1)
	probeCtx, stopProbe := context.WithCancel(ctx)
	defer stopProbe()
	probing := from != Declarations && remembered.Files == nil
	if probing {
		go func() { probe <- t.probeExports(probeCtx, g, from) }() // the go command hashes the files while the standard library is typed
	}
	if err := t.typeStd(ctx, g, keep); err != nil {
		stopProbe()
		return err
	}
	if remembered.Files != nil {
		err := g.importExportData(remembered.Files)
		if err == nil {
			t.DepsFrom = ExportData
			phase.Mark(ctx, "type-check dependencies", fmt.Sprintf("%d packages, from %s%s, where an earlier run found it", len(remembered.Files), ExportData, cgoNote(remembered.Cgo)))
			return nil
		}
		phase.Mark(ctx, "kept export data", "not used: "+err.Error())
		g.forgetModules()
		if from != Declarations {
			probing = true
			probe <- t.probeExports(ctx, g, from)
		}
	}
	if probing {
		p := <-probe
		if err := ctx.Err(); err != nil {
			return err
		}
		why := "not every module dependency has export data in the build cache"
		if p.ok {
			phase.Mark(ctx, "export data probe", "every module dependency has export data in the build cache"+cgoNote(p.cgo))
			err := g.importExportData(p.files)
			if err == nil {
				t.DepsFrom = ExportData
				phase.Mark(ctx, "type-check dependencies", fmt.Sprintf("%d packages, from %s", len(p.files), ExportData))
				if keep != nil {
					if err := keep.store.Put(keep.modules, keptExports{Files: p.files, Cgo: p.cgo}); err != nil {
						phase.Mark(ctx, "kept export data", "not kept: "+err.Error())
					}
				}
				return nil
			}
			why = err.Error()
			g.forgetModules()
		}
		phase.Mark(ctx, "export data probe", why)
	}
	var modules effort
	if len(under) > 0 {
		if err := g.checkMixed(ctx, under, syntax, &modules); err != nil {
			return err
		}
		t.DepsFrom = Declarations
		phase.Mark(ctx, "type-check dependencies", fmt.Sprintf("from %s, with the %d own packages they import: %s", Declarations, len(under), &modules))
		return nil
	}
	if err := g.checkDeclarations(ctx, isModule, &modules); err != nil {
		return err
	}
	t.DepsFrom = Declarations
	phase.Mark(ctx, "type-check dependencies", fmt.Sprintf("from %s: %s", Declarations, &modules))
	return nil
}

// isModule tells a module dependency.
func isModule(n *node) bool { return !n.listed.Standard && !n.own }

// probed is what the export data probe found.
type probed struct {
	files map[string]string
	ok    bool
	cgo   bool // the export data is the user's, built with cgo
}

// probeExports asks the go command for the module dependencies' export
// data: built with cgo off, else (when from is AnySource) as the user's
// own go command built it.
func (t *Tree) probeExports(ctx context.Context, g *graph, from DepSource) probed {
	var paths []string
	for _, n := range g.nodes {
		if isModule(n) && len(n.pkg.GoFiles) > 0 { // a package of test files only has no export data, and needs none
			paths = append(paths, n.pkg.PkgPath)
		}
	}
	if len(paths) == 0 {
		return probed{files: map[string]string{}, ok: true}
	}
	files, ok := exportFiles(ctx, t.Dir, paths, from == AnySource, false)
	if !ok && from == AnySource && userBuildsWithCgo(ctx, t.Dir) {
		files, ok = exportFiles(ctx, t.Dir, paths, true, true)
		return probed{files, ok, true}
	}
	return probed{files, ok, false}
}

func cgoNote(cgo bool) string {
	if cgo {
		return ", built with cgo on as the user's go command builds (the tree's own packages are still typed with cgo off)"
	}
	return ""
}

// typeStd types the standard library: from the types an earlier run kept,
// else from its declarations (and keeps them).
func (t *Tree) typeStd(ctx context.Context, g *graph, keep *kept) error {
	if keep != nil {
		why := keep.readStd(g)
		if why == "" {
			phase.Mark(ctx, "type-check standard library", "from the types an earlier run kept")
			return nil
		}
		phase.Mark(ctx, "kept standard library types", "not used: "+why)
	}
	var std effort
	if err := g.checkDeclarations(ctx, func(n *node) bool { return n.listed.Standard && !n.own }, &std); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	phase.Mark(ctx, "type-check standard library", fmt.Sprintf("from %s: %s", Declarations, &std))
	if keep != nil {
		if err := keep.writeStd(g); err != nil {
			phase.Mark(ctx, "kept standard library types", "not kept: "+err.Error())
		}
	}
	return nil
}
