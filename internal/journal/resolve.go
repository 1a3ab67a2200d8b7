package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/module"
)

// resolve finds the tree of a citation: a permalink's commit, a
// dependency's module in the module cache, the trees of the fence holding
// it, or, for one in prose, the working tree.
func (c *checker) resolve(cit Citation) (target, Finding, bool) {
	switch {
	case cit.Repo != "":
		if !isFullSha(cit.Ref) {
			return target{}, Finding{Status: Unverified, Message: fmt.Sprintf("unverified: the link is at %q, not at a full commit sha, so the lines it shows can change; link a permalink (press y on GitHub)", cit.Ref)}, false
		}
		return c.pinned(cit.Path, cit.Repo, cit.Ref)
	case isDependency(cit.Path):
		return c.dependency(cit)
	case cit.Fence >= 0:
		return c.inFence(cit, c.doc.Fences[cit.Fence])
	}
	return c.inProse(cit)
}

// inProse resolves a citation outside the fences: one into a fence's local
// checkout of its pinned tree is read in that tree; any other in the
// working tree, relative to the journal's directory. A plain one missing
// there is looked for in the tree the journal's fences pin, when they pin
// exactly one.
func (c *checker) inProse(cit Citation) (target, Finding, bool) {
	for _, fence := range c.doc.Fences {
		if rel, ok := fence.intoCheckout(cit.Path); ok {
			return c.pinned(rel, fence.Repo, fence.Sha)
		}
	}
	t, f, ok := c.local(cit, c.dir)
	if !ok || cit.Link || c.exists(t) {
		return t, f, ok
	}
	if repo, sha, one := c.onePinnedTree(); one {
		return c.orPinned(cit.Path, repo, sha, t, f, ok)
	}
	return t, f, ok
}

// inFence resolves a citation in generated text. A link is relative to
// the journal's directory; a plain citation (in the reason of a "none"
// cell) to one of the fence's local trees (dirs=), the first that holds
// the file. A path into the fence's local checkout of its pinned tree
// (checkout=) is read in that tree (repo= at sha=), wherever the checkout
// is, and while that tree is not at hand the citation is unverified; any
// other in the working tree. A plain citation in none of them is looked
// for in the fence's pinned tree, when it has one and no checkout.
func (c *checker) inFence(cit Citation, fence Fence) (target, Finding, bool) {
	bases := fence.Dirs
	if cit.Link || len(bases) == 0 {
		bases = []string{"."}
	}
	var first *target
	var rejected, notAtHand Finding
	for _, b := range bases {
		var t target
		if rel, in := fence.intoCheckout(path.Join(b, cit.Path)); in {
			pt, f, ok := c.pinned(rel, fence.Repo, fence.Sha)
			if !ok {
				notAtHand = f
				continue
			}
			t = pt
		} else {
			lt, f, ok := c.local(cit, filepath.Join(c.dir, filepath.FromSlash(b)))
			if !ok {
				if rejected.Status == OK {
					rejected = f
				}
				continue
			}
			t = lt
		}
		if c.exists(t) {
			return t, Finding{}, true
		}
		if first == nil {
			first = &t
		}
	}
	switch {
	case notAtHand.Status != OK:
		return target{}, notAtHand, false
	case !cit.Link && fence.Checkout == "" && fence.pinned():
		if first != nil {
			return c.orPinned(cit.Path, fence.Repo, fence.Sha, *first, Finding{}, true)
		}
		return c.orPinned(cit.Path, fence.Repo, fence.Sha, target{}, rejected, false)
	case first != nil:
		return *first, Finding{}, true
	}
	return target{}, rejected, false
}

// exists reports whether t's file is there (as far as reading it tells:
// one that cannot be read for another reason is there).
func (c *checker) exists(t target) bool {
	_, err := c.read(t)
	return !errors.Is(err, fs.ErrNotExist)
}

// orPinned reads a citation missing from the working tree in repo at sha,
// at path p: there when the file is there, or when the working tree
// rejected the citation (ok false); unverified when that tree is not at
// hand (it may well be there); else, missing from both, where the working
// tree resolved it (t, f, ok).
func (c *checker) orPinned(p, repo, sha string, t target, f Finding, ok bool) (target, Finding, bool) {
	if !filepath.IsLocal(filepath.FromSlash(p)) {
		return t, f, ok
	}
	pt, pf, pok := c.pinned(p, repo, sha)
	if !pok {
		return pt, pf, false
	}
	if c.exists(pt) || !ok {
		return pt, pf, true
	}
	return t, f, ok
}

func isFullSha(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

// onePinnedTree is the tree the journal's fences pin, when they pin one.
func (c *checker) onePinnedTree() (repo, sha string, ok bool) {
	seen := map[string]bool{}
	for _, f := range c.doc.Fences {
		if f.pinned() && !seen[f.Repo+"@"+f.Sha] {
			seen[f.Repo+"@"+f.Sha] = true
			repo, sha = f.Repo, f.Sha
		}
	}
	return repo, sha, len(seen) == 1
}

// pinned resolves path p in repo at commit sha. When that tree is not at
// hand, the citation is unverified; when the repository has no such
// commit, broken.
func (c *checker) pinned(p, repo, sha string) (target, Finding, bool) {
	where := repo + " at " + sha[:12]
	if !filepath.IsLocal(filepath.FromSlash(p)) {
		return target{}, Finding{Status: Rejected, Message: fmt.Sprintf("rejected: %s leaves the tree of %s; cite files inside it", p, where)}, false
	}
	if c.opt.WorkTrees == nil {
		return target{}, Finding{Status: Unverified, Message: "unverified: " + where + " is not at hand (no cache of pinned trees)"}, false
	}
	key := repo + "@" + sha
	tr, ok := c.trees[key]
	if !ok {
		tr.dir, tr.err = c.opt.WorkTrees.WorkTree(c.ctx, repo, sha)
		if tr.err == nil {
			tr.dir, tr.err = realDir(tr.dir)
		}
		c.trees[key] = tr
	}
	if errors.As(tr.err, new(*NoCommitError)) {
		return target{}, Finding{Status: Broken, Message: fmt.Sprintf("broken: %s cannot be read: %v", p, tr.err), Pin: repo + " at " + sha}, false
	}
	if tr.err != nil {
		return target{}, Finding{Status: Unverified, Message: fmt.Sprintf("unverified: %s is not at hand: %v", where, tr.err)}, false
	}
	return target{root: tr.dir, rel: filepath.FromSlash(p), base: tr.dir, where: where, fixed: true}, Finding{}, true
}

// isDependency reports whether a path is a dependency site as the report
// writes it: module@version/path.
func isDependency(p string) bool {
	at := strings.IndexByte(p, '@')
	return at > 0 && strings.IndexByte(p[at:], '/') > 0
}

func (c *checker) dependency(cit Citation) (target, Finding, bool) {
	at := strings.IndexByte(cit.Path, '@')
	slash := at + strings.IndexByte(cit.Path[at:], '/')
	mod, ver, rest := cit.Path[:at], cit.Path[at+1:slash], cit.Path[slash+1:]
	escMod, err1 := module.EscapePath(mod)
	escVer, err2 := module.EscapeVersion(ver)
	if err1 != nil || err2 != nil {
		return target{}, Finding{Status: Broken, Message: fmt.Sprintf("broken: %s@%s is not a module path and version", mod, ver)}, false
	}
	if c.opt.ModCache == "" && c.opt.Download == nil {
		return target{}, Finding{Status: Unverified, Message: "unverified: no Go module cache to read " + mod + "@" + ver + " from"}, false
	}
	dir, err := "", fs.ErrNotExist
	if c.opt.ModCache != "" {
		dir, err = realDir(filepath.Join(c.opt.ModCache, filepath.FromSlash(escMod)+"@"+escVer))
	}
	if err != nil {
		if c.opt.Download == nil {
			return target{}, Finding{Status: Unverified, Message: fmt.Sprintf("unverified: %s@%s is not in the module cache %s; run `go mod download %s@%s`", mod, ver, c.opt.ModCache, mod, ver)}, false
		}
		dl := c.download(mod, ver)
		if dl.err != nil {
			return target{}, Finding{Status: Unverified, Message: fmt.Sprintf("unverified: %s@%s is not in the module cache, and downloading it failed: %v", mod, ver, dl.err)}, false
		}
		dir = dl.dir
	}
	return target{root: dir, rel: filepath.FromSlash(rest), base: dir, where: mod + "@" + ver, fixed: true}, Finding{}, true
}

// download brings a module version into the module cache, once.
func (c *checker) download(mod, ver string) treeResult {
	key := mod + "@" + ver
	dl, ok := c.modules[key]
	if !ok {
		dl.dir, dl.err = c.opt.Download(c.ctx, mod, ver)
		if dl.err == nil {
			dl.dir, dl.err = realDir(dl.dir)
		}
		c.modules[key] = dl
	}
	return dl
}

// local resolves a citation against the working tree: relative to dir,
// then to the journal's git repository's root, then to --root. The file
// must lie inside the git repository or --root (the journal's directory
// when there is neither), symlinks included.
func (c *checker) local(cit Citation, dir string) (target, Finding, bool) {
	key := dir + "\x00" + cit.Path
	r, ok := c.locals[key]
	if !ok {
		r.t, r.f, r.ok = c.resolveLocal(cit.Path, dir)
		c.locals[key] = r
	}
	return r.t, r.f, r.ok
}

// localResult is a resolved local path, kept for the next citation of it.
type localResult struct {
	t  target
	f  Finding
	ok bool
}

// resolveLocal is local for the path p, without the memo.
func (c *checker) resolveLocal(p, dir string) (target, Finding, bool) {
	var bounds []string
	if c.git != nil {
		bounds = append(bounds, c.git.root)
	}
	if c.root != "" {
		bounds = append(bounds, c.root)
	}
	if len(bounds) == 0 {
		bounds = []string{c.dir}
	}
	var bases []string
	for _, b := range append([]string{dir}, bounds...) {
		if !slices.Contains(bases, b) {
			bases = append(bases, b)
		}
	}
	var tried []target
	for _, base := range bases {
		abs := filepath.Join(base, filepath.FromSlash(p))
		for _, bound := range bounds {
			rel, err := filepath.Rel(bound, abs)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				continue
			}
			t := target{root: bound, rel: rel, base: base, where: "the working tree"}
			if _, err := c.read(t); !errors.Is(err, fs.ErrNotExist) {
				return t, Finding{}, true
			}
			tried = append(tried, t)
			break
		}
	}
	if len(tried) == 0 {
		return target{}, Finding{Status: Rejected, Message: fmt.Sprintf("rejected: %s leaves %s; cite files inside it, or pass --root DIR to allow a wider tree", p, strings.Join(bounds, " and "))}, false
	}
	t := tried[0]
	t.others = tried[1:]
	return t, Finding{}, true
}
