package journal

import (
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// ShallowFix is how to give check the whole history of a shallow clone:
// the history that anchors hand-typed citations.
const ShallowFix = "fetch the whole history: `git fetch --unshallow`, or `fetch-depth: 0` in GitHub's actions/checkout"

// cutHistory is a repository's objects as a shallow clone has them, its
// boundary commits (those whose parents were not fetched) read as roots,
// so that blame stops there instead of failing on a missing parent.
type cutHistory struct {
	storer.EncodedObjectStorer
	boundary map[plumbing.Hash]bool
}

// EncodedObject returns the object h; a boundary commit comes without its
// parents, under its own hash.
func (s cutHistory) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	o, err := s.EncodedObjectStorer.EncodedObject(t, h)
	if err != nil || !s.boundary[h] || o.Type() != plumbing.CommitObject {
		return o, err
	}
	c, err := object.DecodeCommit(s.EncodedObjectStorer, o)
	if err != nil {
		return nil, err
	}
	c.ParentHashes = nil
	root := &rootCommit{hash: h}
	if err := c.Encode(&root.MemoryObject); err != nil {
		return nil, err
	}
	return root, nil
}

// rootCommit is a boundary commit re-encoded without its parents, which
// keeps the hash it has in the repository.
type rootCommit struct {
	plumbing.MemoryObject
	hash plumbing.Hash
}

// Hash is the commit's hash in the repository.
func (o *rootCommit) Hash() plumbing.Hash { return o.hash }
