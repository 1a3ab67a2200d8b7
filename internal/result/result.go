// Package result is the model of an analysed source tree, as the pipeline
// hands it on: the tree's identity (root, repository, sha), its controllers
// with their located rows, and the warnings met on the way. The printers,
// the journal and the stages views all read it; none of them produces it.
package result

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/locate"
)

// Tree is one analysed source tree.
type Tree struct {
	Side        string              `json:"side,omitempty"`
	Root        string              `json:"root"`
	Repo        string              `json:"repo,omitempty"`
	Sha         string              `json:"sha,omitempty"`
	Dirty       bool                `json:"dirty"`
	Controllers []locate.Controller `json:"controllers"`
	// Warnings are the problems met reading the tree (type errors, with
	// paths relative to the tree; dependencies that could not be listed).
	Warnings []string `json:"warnings,omitempty"`
	// Unanalysed names the tree's own functions left out of the analysis
	// because of their type errors: the analysis is partial, and the rows
	// they might answer are not settled.
	Unanalysed []string `json:"unanalysed,omitempty"`
	// Link turns a tree-relative path and line into a link target; nil
	// gives plain citations.
	Link func(file string, line int) string `json:"-"`
	// Pinned says the tree was fetched at Sha (it cannot change under us).
	Pinned bool `json:"-"`
	// Module is the module path in the tree's go.mod, "" when unknown.
	Module string `json:"-"`
}

// Label is the tree's name in a table heading: the repository and short
// sha of a pinned tree; for a local one (whose sha would change with every
// commit of the journal that cites it), the last element of its module
// path (with the one before it when that is a major version, op/v2), which
// is the same in every clone and work tree whatever its directory's name;
// the directory's name when the module path is unknown.
func (t Tree) Label() string {
	if t.Pinned {
		return strings.TrimSuffix(path.Base(t.Repo), ".git") + "@" + t.Sha[:min(7, len(t.Sha))]
	}
	if t.Module != "" {
		dir, last := path.Split(t.Module)
		if dir != "" && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
			return path.Base(dir) + "/" + last
		}
		return last
	}
	if abs, err := filepath.Abs(t.Root); err == nil {
		return filepath.Base(abs)
	}
	return filepath.Base(t.Root)
}

// Side is one column of a comparison: a tree and the controller chosen in it.
type Side struct {
	Tree       Tree
	Controller locate.Controller
}
