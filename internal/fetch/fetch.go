// Package fetch brings a remote git repository's tree at one commit onto
// this machine with go-git alone (no git binary): it resolves a revision (a
// full or abbreviated sha, a tag or a branch) to a full sha, fetches that
// commit at depth 1 where the server allows it (and its branches and tags
// where it does not), and checks it out into a cache entry keyed by
// repository URL and sha. Entries are created atomically, verified on every
// use, and shared safely between processes, so a second run at the same sha
// makes no network call. The fetched tree is untrusted: a symlink that leads
// out of it is refused.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/redact"
)

// Options says what to fetch and where to keep it.
type Options struct {
	Repo     string // repository URL
	Rev      string // full sha, abbreviated sha, tag or branch
	CacheDir string // "" = $CTRLCMP_CACHE or os.UserCacheDir()/ctrlcmp
	Offline  bool   // never touch the network: a cache miss is an error
	// Timeout is how long the server may stay silent: every read and write
	// must progress within it, and a connection must open within a third
	// of it. 0 is DefaultTimeout.
	Timeout time.Duration
	// Progress hears of each stage (resolving, fetching N KiB, checking
	// out); nil is silent.
	Progress func(string)

	// remote is Repo as given, the URL the network is asked at: its
	// user-info (credentials) included. Checkout sets it, and makes Repo
	// the name without user-info, the one every message, the cache entry
	// and the Result carry.
	remote string
}

// Result is a verified work tree of a repository at one commit.
type Result struct {
	Dir          string // verified work tree of Repo at Sha
	Repo, Sha    string // Sha is the full 40-hex sha
	FromCache    bool   // no network call was made
	BytesFetched int64  // size of the packs received; 0 from the cache
}

// pinnedRef is where a fetched commit is kept in the entry's repository, so
// that it stays reachable.
const pinnedRef = "refs/ctrlcmp/pinned"

// Checkout returns a verified work tree of o.Repo at o.Rev, from the cache
// when it holds one and fetched into it otherwise. A malformed revision is a
// fail.Usage error; a repository that cannot be reached or lacks the
// revision is a fail.Fetch error (a *NoCommitError in its chain when the
// repository lacks a full sha), an *OfflineError in its chain when
// o.Offline forbade the network, a *TimeoutError when the server went
// silent for o.Timeout and a *CacheDirError when the cache cannot be used;
// when ctx is cancelled, context.Canceled is in the chain. A failed call
// leaves no cache entry behind.
func Checkout(ctx context.Context, o Options) (Result, error) {
	installTransports()
	ctx = withLimits(ctx, newLimits(o.Timeout))
	o.remote, o.Repo = o.Repo, redact.URLs(o.Repo)
	if o.Repo == "" {
		return Result{}, fail.Usage("no repository URL given; name the repository to fetch")
	}
	rev, err := parseRev(o.Rev)
	if err != nil {
		return Result{}, err
	}
	c, err := openCache(o.CacheDir, o.Repo)
	if err != nil {
		return Result{}, err
	}
	sha := rev.sha
	if sha == "" {
		if o.Offline {
			return Result{}, fail.Wrap(fail.CodeFetch, &OfflineError{
				Need:    fmt.Sprintf("%s at %q: resolving a tag, branch or abbreviated sha needs the network", o.Repo, o.Rev),
				Instead: "give the full 40-hex sha",
			})
		}
		if sha, err = c.resolve(ctx, o, rev); err != nil {
			return Result{}, err
		}
	}
	return c.checkout(ctx, o, sha)
}

// OfflineError is a failure that only the network could have avoided, when
// Options.Offline forbids it. Its message names the repository, revision or
// cache entry at fault but no way to turn the network on: that is the
// caller's to say.
type OfflineError struct {
	// Need says what needed the network: what is missing or damaged.
	Need string
	// Instead is a way out that needs no network, or "".
	Instead string
}

func (e *OfflineError) Error() string {
	msg := e.Need + ", and fetching is turned off"
	if e.Instead != "" {
		msg += "; " + e.Instead
	}
	return msg
}

// NoCommitError is a repository that answered, and sent its branches and
// tags, but holds no commit Sha.
type NoCommitError struct {
	Repo, Sha string
}

func (e *NoCommitError) Error() string {
	return fmt.Sprintf("%s has no commit %s; check the sha and the repository (`git ls-remote %s` lists its branches and tags)", e.Repo, e.Sha, e.Repo)
}

// CacheDirError is a cache directory that cannot be used: none was found,
// or it cannot be created, written to or locked. Err names the path and the
// cause; the way out is another directory, and how to name one is the
// caller's to say.
type CacheDirError struct {
	Err error
}

func (e *CacheDirError) Error() string { return e.Err.Error() }
func (e *CacheDirError) Unwrap() error { return e.Err }

// cacheDirError is a *CacheDirError with exit code 4, its message formatted
// as fmt.Errorf does.
func cacheDirError(format string, args ...any) error {
	return fail.Wrap(fail.CodeFetch, &CacheDirError{Err: fmt.Errorf(format, args...)})
}

// say passes a stage line to o.Progress, if there is one.
func (o Options) say(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

// resolve turns a tag, a branch or an abbreviated sha into a full sha,
// asking the server once for its references. An abbreviated sha that names
// no reference is looked up among the commits of a full fetch, and must be
// unique there.
func (c *cache) resolve(ctx context.Context, o Options, rev revision) (string, error) {
	o.say("resolving %s at %s", rev.text, o.Repo)
	ar, err := advertise(ctx, o.remote)
	if err != nil {
		return "", fetchError(ctx, o.Repo, rev.text, err)
	}
	if rev.text == "HEAD" && ar.Head != nil {
		return ar.Head.String(), nil
	}
	for _, name := range []string{rev.text, "refs/tags/" + rev.text, "refs/heads/" + rev.text} {
		// A peeled annotated tag names its commit; a plain ref names it directly.
		if sha, ok := ar.Peeled[name]; ok {
			return sha.String(), nil
		}
		if sha, ok := ar.References[name]; ok {
			return sha.String(), nil
		}
	}
	if rev.abbreviated {
		return c.resolveAbbreviated(ctx, o, rev.text)
	}
	return "", fail.Fetch("%s has no tag or branch %q; give a full sha, a tag or a branch that `git ls-remote %s` lists", o.Repo, rev.text, o.Repo)
}

// advertise asks the server of url for its references and capabilities,
// which is all it sends before a pack is asked for.
func advertise(ctx context.Context, url string) (*packp.AdvRefs, error) {
	ep, err := transport.NewEndpoint(url)
	if err != nil {
		return nil, err
	}
	t, err := client.NewClient(ep)
	if err != nil {
		return nil, err
	}
	s, err := t.NewUploadPackSession(ep, nil)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.AdvertisedReferencesContext(ctx)
}

// resolveAbbreviated fetches every branch and tag of the repository into a
// scratch repository and returns the one commit whose sha starts with prefix.
func (c *cache) resolveAbbreviated(ctx context.Context, o Options, prefix string) (string, error) {
	scratch, err := os.MkdirTemp(c.repoDir, ".resolve-")
	if err != nil {
		return "", cacheDirError("cannot write the cache %s: %w", c.repoDir, err)
	}
	defer os.RemoveAll(scratch)
	repo, err := initRepo(scratch, o.Repo, true)
	if err != nil {
		return "", err
	}
	stopWatching := watchBytes(o, objectsDir(scratch, true))
	err = fetchBranchesAndTags(ctx, repo, o.remote)
	stopWatching()
	if err != nil {
		return "", fetchError(ctx, o.Repo, prefix, err)
	}
	commits, err := repo.CommitObjects()
	if err != nil {
		return "", fail.Fetch("%s: reading the fetched commits: %w", o.Repo, err)
	}
	var matches []string
	for commit, err := commits.Next(); err == nil; commit, err = commits.Next() {
		if sha := commit.Hash.String(); strings.HasPrefix(sha, prefix) {
			matches = append(matches, sha)
		}
	}
	switch len(matches) {
	case 0:
		return "", fail.Fetch("%s has no tag, branch or commit %q; check the revision", o.Repo, prefix)
	case 1:
		return matches[0], nil
	}
	return "", fail.Usage("%q is ambiguous in %s: %d commits start with it (%s, …); give more hex digits or the full sha", prefix, o.Repo, len(matches), strings.Join(matches[:2], ", "))
}

// fetchCommit fetches commit sha of o.Repo into a new repository with a
// work tree at dir, and returns how many bytes of packs it received.
//
// The server's capabilities say how: one that sends any commit reachable
// from its references is asked for sha alone at depth 1, and its refusal
// means it has no such commit (its branches and tags could not hold it
// either); one that sends only the tips of its references is asked for sha
// alone too, and on a refusal for its branches and tags, whose history may
// hold it; one that sends neither is asked for its branches and tags at
// once.
func fetchCommit(ctx context.Context, o Options, dir, sha string) (*git.Repository, int64, error) {
	o.say("fetching %s from %s", sha, o.Repo)
	ar, err := advertise(ctx, o.remote)
	if err != nil {
		return nil, 0, fetchError(ctx, o.Repo, sha, err)
	}
	reachable := ar.Capabilities.Supports(capability.AllowReachableSHA1InWant)
	tips := ar.Capabilities.Supports(capability.AllowTipSHA1InWant)
	repo, err := initRepo(dir, o.Repo, false)
	if err != nil {
		return nil, 0, err
	}
	stopWatching := watchBytes(o, objectsDir(dir, false))
	if reachable || tips {
		err = repo.FetchContext(ctx, &git.FetchOptions{
			RemoteURL: o.remote,
			RefSpecs:  []config.RefSpec{config.RefSpec("+" + sha + ":" + pinnedRef)},
			Depth:     1,
			Tags:      git.NoTags,
		})
		switch {
		case err == nil || !refusedExactFetch(err):
		case reachable:
			err = nil // the check below says it has no such commit
		default:
			o.say("%s will not send %s alone (%v); fetching its branches and tags", o.Repo, sha[:12], redact.URLs(firstLine(err.Error())))
			err = fetchBranchesAndTags(ctx, repo, o.remote)
		}
	} else {
		o.say("%s sends only its branches and tags, not one commit; fetching them to find %s", o.Repo, sha[:12])
		err = fetchBranchesAndTags(ctx, repo, o.remote)
	}
	stopWatching()
	if err != nil {
		return nil, 0, fetchError(ctx, o.Repo, sha, err)
	}
	if _, err := repo.CommitObject(plumbing.NewHash(sha)); err != nil {
		return nil, 0, fail.Wrap(fail.CodeFetch, &NoCommitError{Repo: o.Repo, Sha: sha})
	}
	return repo, packBytes(objectsDir(dir, false)), nil
}

// fetchBranchesAndTags fetches every branch and tag of origin, at remote,
// into repo, the whole history.
func fetchBranchesAndTags(ctx context.Context, repo *git.Repository, remote string) error {
	err := repo.FetchContext(ctx, &git.FetchOptions{
		RemoteURL: remote,
		RefSpecs:  []config.RefSpec{"+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*"},
		Tags:      git.NoTags,
	})
	if errors.Is(err, git.NoErrAlreadyUpToDate) {
		return nil
	}
	return err
}

// refusedExactFetch tells whether err is the server declining to send one
// commit by sha, as opposed to the server being out of reach or the
// connection breaking.
func refusedExactFetch(err error) bool {
	return strings.Contains(err.Error(), "not our ref")
}

// initRepo creates a repository at dir whose origin is url, a name without
// user-info (the fetches give the URL with it): nothing in the cache holds a
// credential.
func initRepo(dir, url string, bare bool) (*git.Repository, error) {
	repo, err := git.PlainInit(dir, bare)
	if err == nil {
		_, err = repo.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{url}})
	}
	if err != nil {
		return nil, cacheDirError("cannot create a repository in the cache at %s: %w", dir, err)
	}
	return repo, nil
}

func objectsDir(dir string, bare bool) string {
	if bare {
		return filepath.Join(dir, "objects")
	}
	return filepath.Join(dir, ".git", "objects")
}

// watchBytes reports the growth of the objects directory while a fetch
// runs, until the returned function is called.
func watchBytes(o Options, objects string) (stop func()) {
	if o.Progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		var last int64
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				if n := packBytes(objects) / 1024; n != last {
					last = n
					o.say("fetching %d KiB", n)
				}
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// packBytes is the size of the packs received under objects, those being
// written included: the bytes a fetch transferred, less the protocol's
// framing and the server's reference advertisement.
func packBytes(objects string) int64 {
	entries, err := os.ReadDir(filepath.Join(objects, "pack"))
	if err != nil {
		return 0
	}
	var n int64
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".pack") || strings.HasPrefix(name, "tmp_pack_") {
			if info, err := e.Info(); err == nil {
				n += info.Size()
			}
		}
	}
	return n
}

// fetchError turns a failed network operation for rev of repo (a name
// without user-info) into one line with exit code 4 that says what to do: a
// *TimeoutError when a connection ran into the limits ctx carries, ctx's own
// error when it is done. The URLs in err's text lose their user-info too.
func fetchError(ctx context.Context, repo, rev string, err error) error {
	if ctx.Err() != nil {
		return fail.Wrap(fail.CodeFetch, fmt.Errorf("fetching %s from %s: %w", rev, repo, ctx.Err()))
	}
	if timeout := limitsOf(ctx).timedOut(repo, rev); timeout != nil {
		return fail.Wrap(fail.CodeFetch, timeout)
	}
	var netErr net.Error
	var opErr *net.OpError
	switch {
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return fail.Fetch("%s: repository not found; check the repository URL", repo)
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed):
		return fail.Fetch("%s: the server asks for credentials; ctrlcmp fetches public repositories only", repo)
	case errors.Is(err, transport.ErrEmptyRemoteRepository):
		return fail.Fetch("%s is empty; check the repository URL", repo)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fail.Fetch("the connection to %s broke off while fetching %s; retry (nothing was kept)", repo, rev)
	case errors.As(err, &opErr), errors.As(err, &netErr):
		return fail.Fetch("cannot reach %s (%v); check the URL and the network (a sha fetched before is used from the cache)", repo, redact.URLs(firstLine(err.Error())))
	}
	return fail.Fetch("fetching %s from %s failed: %s; check the revision and the repository URL, then retry", rev, repo, redact.URLs(firstLine(err.Error())))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
