package cli

import (
	"net/url"
	"path/filepath"

	"github.com/ctrlcmp/ctrlcmp/internal/report"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
)

// htmlHelp says what --format html writes, for the help of the commands
// that take it.
const htmlHelp = `--format html writes one self-contained page (no network, no framework):
open it in a browser. Each row opens, by a click or by Tab then Enter, on
the code of each side around its citation, the cited line marked and the
row's other sites as tabs; the answers are chains of small excerpts. The
excerpts are read from the trees the analysis read (for a pinned tree, its
checkout in the cache) and from the module cache; citations link to their
permalinks, or to the file on this machine for a local tree.`

// htmlTree makes a tree's citations links for a page, and gives the
// reader of its cited files: dir is the directory on this machine its
// citations are relative to. A pinned tree links to its permalinks, a
// local one to its files (file URLs, absolute paths).
func htmlTree(t *result.Tree, dir string) report.Files {
	if t.Pinned {
		t.Link = permalinks(t.Repo, t.Sha)
	} else if abs, err := filepath.Abs(dir); err == nil {
		t.Link = func(file string, _ int) string {
			return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(abs, filepath.FromSlash(file)))}).String()
		}
	}
	return report.TreeFiles(dir, moduleCache())
}
