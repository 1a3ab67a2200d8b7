package fetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/flock"
)

// CacheEnv is the environment variable naming the cache directory.
const CacheEnv = "CTRLCMP_CACHE"

// cache is the part of the cache directory that holds one repository's
// entries: repoDir/SHA is the verified work tree at SHA (with its .git),
// repoDir/SHA.lock serialises the processes making or checking it, and
// repoDir/.tmp-SHA-* are entries being written.
type cache struct {
	repoDir string
}

// CacheDir is ctrlcmp's cache directory, absolute: dir when it is not
// empty (--cache-dir), else $CTRLCMP_CACHE, else the user cache directory's
// ctrlcmp. Fetched trees are kept under it, and so are analysis results.
func CacheDir(dir string) (string, error) {
	if dir == "" {
		dir = os.Getenv(CacheEnv)
	}
	if dir == "" {
		user, err := os.UserCacheDir()
		if err != nil {
			return "", cacheDirError("no cache directory: $%s is not set and %w", CacheEnv, err)
		}
		dir = filepath.Join(user, "ctrlcmp")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fail.Usage("cache directory %s: %w", dir, err)
	}
	return abs, nil
}

// openCache returns the cache of repository url under dir (or the default
// cache directory when dir is empty).
func openCache(dir, url string) (*cache, error) {
	abs, err := CacheDir(dir)
	if err != nil {
		return nil, err
	}
	c := &cache{repoDir: filepath.Join(abs, "git", repoKey(url))}
	if err := os.MkdirAll(c.repoDir, 0o755); err != nil {
		return nil, cacheDirError("cannot create the cache directory %s: %w", c.repoDir, err)
	}
	return c, nil
}

// repoKey names a repository's directory in the cache: a readable slug of
// its URL and a hash of the URL, so that distinct URLs never share entries.
// A trailing ".git" or "/" does not make a different repository.
func repoKey(url string) string {
	normal := strings.TrimSuffix(strings.TrimRight(url, "/"), ".git")
	sum := sha256.Sum256([]byte(normal))
	slug := normal
	if i := strings.Index(slug, "://"); i >= 0 {
		slug = slug[i+3:]
	}
	slug = strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, slug)
	if len(slug) > 64 {
		slug = slug[len(slug)-64:]
	}
	return slug + "-" + hex.EncodeToString(sum[:6])
}

// checkout returns the verified cache entry of sha, creating it when it is
// missing or damaged. Reading a whole entry takes no lock (entries appear
// by an atomic rename and are verified), so a complete cache on a
// read-only file system serves every run; only making or repairing one
// takes the lock.
func (c *cache) checkout(ctx context.Context, o Options, sha string) (Result, error) {
	entry := filepath.Join(c.repoDir, sha)
	if _, err := os.Lstat(entry); err == nil && verify(entry, sha) == nil {
		o.say("using %s at %s from the cache", o.Repo, sha[:12])
		return Result{Dir: entry, Repo: o.Repo, Sha: sha, FromCache: true}, nil
	}
	release, err := lock(ctx, o, filepath.Join(c.repoDir, sha+".lock"))
	if err != nil {
		return Result{}, err
	}
	defer release()
	c.removeLeftovers(sha)

	if _, err := os.Lstat(entry); err == nil {
		err := verify(entry, sha)
		if err == nil {
			o.say("using %s at %s from the cache", o.Repo, sha[:12])
			return Result{Dir: entry, Repo: o.Repo, Sha: sha, FromCache: true}, nil
		}
		if o.Offline {
			return Result{}, fail.Wrap(fail.CodeFetch, &OfflineError{Need: fmt.Sprintf("the cache entry %s is damaged (%v)", entry, err)})
		}
		o.say("the cache entry of %s is damaged (%v); fetching it again", sha[:12], err)
		if err := discard(entry); err != nil {
			return Result{}, fail.Fetch("cannot remove the damaged cache entry %s: %w; remove it by hand", entry, err)
		}
	} else if o.Offline {
		return Result{}, fail.Wrap(fail.CodeFetch, &OfflineError{Need: fmt.Sprintf("%s at %s is not in the cache %s", o.Repo, sha, c.repoDir)})
	}

	tmp, err := os.MkdirTemp(c.repoDir, ".tmp-"+sha+"-")
	if err != nil {
		return Result{}, cacheDirError("cannot write the cache %s: %w", c.repoDir, err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed into place
	repo, n, err := fetchCommit(ctx, o, tmp, sha)
	if err != nil {
		return Result{}, err
	}
	o.say("checking out %s", sha[:12])
	if err := checkoutCommit(repo, sha); err != nil {
		return Result{}, fail.Fetch("%s at %s: %w", o.Repo, sha, err)
	}
	if err := verify(tmp, sha); err != nil {
		return Result{}, fail.Fetch("%s at %s: %w", o.Repo, sha, err)
	}
	if err := os.Rename(tmp, entry); err != nil {
		return Result{}, fail.Fetch("cannot store %s in the cache: %w", entry, err)
	}
	return Result{Dir: entry, Repo: o.Repo, Sha: sha, BytesFetched: n}, nil
}

// removeLeftovers removes what a process killed while holding sha's lock
// left behind; the caller holds that lock.
func (c *cache) removeLeftovers(sha string) {
	for _, pattern := range []string{".tmp-" + sha + "-*", ".trash-" + sha + "-*"} {
		matches, _ := filepath.Glob(filepath.Join(c.repoDir, pattern))
		for _, m := range matches {
			_ = os.RemoveAll(m)
		}
	}
}

// discard removes a damaged entry: first out of its name, atomically, so
// that a process stopped half-way never leaves half an entry in place.
func discard(entry string) error {
	dir, sha := filepath.Split(entry)
	trash, err := os.MkdirTemp(dir, ".trash-"+sha+"-")
	if err != nil {
		return err
	}
	if err := os.Rename(entry, filepath.Join(trash, sha)); err != nil {
		return err
	}
	return os.RemoveAll(trash)
}

// lock takes the file lock at path, waiting for the process that holds it.
func lock(ctx context.Context, o Options, path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, cacheDirError("cannot create the lock %s: %w", path, err)
	}
	for told := false; ; told = true {
		locked, err := flock.TryLock(f)
		if err != nil {
			f.Close()
			return nil, cacheDirError("cannot lock %s: %w", path, err)
		}
		if locked {
			return func() {
				_ = flock.Unlock(f)
				f.Close()
			}, nil
		}
		if !told {
			o.say("waiting for another ctrlcmp fetching the same commit")
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// checkoutCommit checks sha out into repo's work tree, after making sure
// no path or symlink of its tree leads out of it.
func checkoutCommit(repo *git.Repository, sha string) error {
	commit, err := repo.CommitObject(plumbing.NewHash(sha))
	if err != nil {
		return err
	}
	tree, err := commit.Tree()
	if err != nil {
		return err
	}
	err = tree.Files().ForEach(func(f *object.File) error {
		if err := checkPath(f.Name); err != nil {
			return err
		}
		if f.Mode != filemode.Symlink {
			return nil
		}
		target, err := f.Contents()
		if err != nil {
			return err
		}
		return checkLinkText(f.Name, target)
	})
	if err != nil {
		return err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return err
	}
	return wt.Checkout(&git.CheckoutOptions{Hash: commit.Hash, Force: true})
}

// verify checks that dir is a complete, unaltered work tree of commit sha:
// HEAD is sha, the commit and its tree are present, every file of the tree
// is on disk with its content (symlinks with their target, none leading out
// of dir), and nothing else is.
func verify(dir, sha string) error {
	repo, err := git.PlainOpen(dir)
	if err != nil {
		return fmt.Errorf("no repository: %v", err)
	}
	head, err := repo.Head()
	if err != nil {
		return fmt.Errorf("no HEAD: %v", err)
	}
	if head.Hash().String() != sha {
		return fmt.Errorf("HEAD is %s", head.Hash())
	}
	commit, err := repo.CommitObject(head.Hash())
	if err != nil {
		return fmt.Errorf("commit %s: %v", sha, err)
	}
	tree, err := commit.Tree()
	if err != nil {
		return fmt.Errorf("tree of %s: %v", sha, err)
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	err = tree.Files().ForEach(func(f *object.File) error {
		want[f.Name] = true
		return verifyFile(realDir, f)
	})
	if err != nil {
		return err
	}
	return filepath.WalkDir(realDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(realDir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".git" && d.IsDir():
			return filepath.SkipDir
		case !d.IsDir() && !want[rel]:
			return fmt.Errorf("%s is not in the commit", rel)
		}
		return nil
	})
}

// verifyFile checks one file of the tree against the work tree at root.
func verifyFile(root string, f *object.File) error {
	if err := checkPath(f.Name); err != nil {
		return err
	}
	p := filepath.Join(root, filepath.FromSlash(f.Name))
	info, err := os.Lstat(p)
	if err != nil {
		return fmt.Errorf("%s is missing", f.Name)
	}
	if f.Mode == filemode.Symlink {
		return verifySymlink(root, p, f, info)
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", f.Name)
	}
	if info.Size() != f.Size {
		return fmt.Errorf("%s has %d bytes, not %d", f.Name, info.Size(), f.Size)
	}
	file, err := os.Open(p)
	if err != nil {
		return err
	}
	defer file.Close()
	h := plumbing.NewHasher(plumbing.BlobObject, info.Size())
	if _, err := io.Copy(h, file); err != nil {
		return err
	}
	if h.Sum() != f.Hash {
		return fmt.Errorf("%s differs from the commit", f.Name)
	}
	return nil
}

func verifySymlink(root, p string, f *object.File, info os.FileInfo) error {
	if info.Mode()&os.ModeSymlink == 0 {
		return fmt.Errorf("%s is not a symlink", f.Name)
	}
	target, err := os.Readlink(p)
	if err != nil {
		return err
	}
	want, err := f.Contents()
	if err != nil {
		return err
	}
	if target != want {
		return fmt.Errorf("symlink %s points to %s, not %s", f.Name, target, want)
	}
	if err := checkLinkText(f.Name, target); err != nil {
		return err
	}
	// Through other symlinks a target may resolve elsewhere than it reads.
	resolved, err := filepath.EvalSymlinks(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // dangling, and by its text inside the tree: nothing to read
	}
	if err != nil {
		return fmt.Errorf("symlink %s: %v", f.Name, err)
	}
	if rel, err := filepath.Rel(root, resolved); err != nil || !local(filepath.ToSlash(rel)) {
		return fmt.Errorf("symlink %s resolves to %s, outside the tree; ctrlcmp refuses trees that link out of themselves", f.Name, resolved)
	}
	return nil
}

// checkLinkText refuses a symlink whose target, as written, leaves the tree.
func checkLinkText(name, target string) error {
	if path.IsAbs(target) || filepath.IsAbs(target) || !local(path.Join(path.Dir(name), target)) {
		return fmt.Errorf("symlink %s points to %s, outside the tree; ctrlcmp refuses trees that link out of themselves", name, target)
	}
	return nil
}

// checkPath refuses a tree path that could write outside the work tree or
// into its .git.
func checkPath(name string) error {
	if !local(name) || path.Clean(name) != name {
		return fmt.Errorf("the commit holds a path that leaves the tree: %q", name)
	}
	for _, part := range strings.Split(name, "/") {
		if strings.EqualFold(part, ".git") {
			return fmt.Errorf("the commit holds a path inside .git: %q", name)
		}
	}
	return nil
}

// local tells whether a slash-separated relative path stays inside its root.
func local(rel string) bool {
	return rel != ".." && !strings.HasPrefix(rel, "../") && !path.IsAbs(rel)
}
