package fetch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/loopback"
)

func checkout(t *testing.T, url, rev, cacheDir string) (Result, error) {
	t.Helper()
	return Checkout(context.Background(), Options{Repo: url, Rev: rev, CacheDir: cacheDir})
}

func mustCheckout(t *testing.T, url, rev, cacheDir string) Result {
	t.Helper()
	res, err := checkout(t, url, rev, cacheDir)
	if err != nil {
		t.Fatalf("Checkout(%s, %s): %v", url, rev, err)
	}
	return res
}

// wantFailure checks err's exit code and that it is one line naming want
// and no command-line flag (naming flags is the CLI's job).
func wantFailure(t *testing.T, err error, code int, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want exit code %d", code)
	}
	if got := fail.Code(err); got != code {
		t.Errorf("exit code %d, want %d (error: %v)", got, code, err)
	}
	if msg := err.Error(); !strings.Contains(msg, want) || strings.Contains(msg, "\n") || strings.Contains(msg, "--") {
		t.Errorf("error %q: want one line holding %q and no flag", msg, want)
	}
}

// wantNoEntries checks that the cache holds no entry, whole or partial:
// nothing but lock files.
func wantNoEntries(t *testing.T, cacheDir string) {
	t.Helper()
	_ = filepath.WalkDir(cacheDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".lock") {
			t.Errorf("cache holds %s after a failure", p)
		}
		return err
	})
}

func readTreeFile(t *testing.T, res Result, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(res.Dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// server is a test server's name and repository URL.
type server struct{ name, url string }

// servers serves fx in every configuration, over http (git http-backend)
// and git:// (git daemon).
func servers(t *testing.T, fx *fixture) []server {
	t.Helper()
	var all []server
	for _, cfg := range []struct {
		name string
		cfg  serverConfig
	}{{"permissive", permissive}, {"refusing", refusing}, {"tips-only", tipsOnly}} {
		all = append(all, server{"http/" + cfg.name, serve(t, fx, cfg.cfg).url}, server{"git/" + cfg.name, serveDaemon(t, fx, cfg.cfg).url})
	}
	return all
}

func TestCheckoutShas(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	for _, srv := range servers(t, fx) {
		for _, c := range []struct {
			name, rev, sha, version string
		}{
			{"tip", fx.tip, fx.tip, "2"},
			{"non-tip", fx.tagged, fx.tagged, "1"},
			{"root commit", fx.first, fx.first, ""},
			{"annotated tag", "v0.1.0", fx.tagged, "1"},
			{"branch", "main", fx.tip, "2"},
			{"HEAD", "HEAD", fx.tip, "2"},
			{"full ref", "refs/tags/v0.1.0", fx.tagged, "1"},
			{"abbreviated sha", fx.first[:8], fx.first, ""},
			{"upper-case sha", strings.ToUpper(fx.tip), fx.tip, "2"},
		} {
			t.Run(srv.name+"/"+c.name, func(t *testing.T) {
				res := mustCheckout(t, srv.url, c.rev, t.TempDir())
				if res.Sha != c.sha || res.Repo != srv.url || res.FromCache || res.BytesFetched <= 0 {
					t.Errorf("got %+v, want sha %s fetched from %s", res, c.sha, srv.url)
				}
				if c.version != "" && !strings.Contains(readTreeFile(t, res, "pkg/lib.go"), "Version = "+c.version) {
					t.Errorf("pkg/lib.go is not the one of %s", c.sha)
				}
				if readTreeFile(t, res, "go.mod") == "" {
					t.Error("go.mod is empty")
				}
			})
		}
	}
}

// TestExactFetchIsShallow checks that a server allowing it is asked for the
// one commit at depth 1, and that the fallback fetches more.
func TestExactFetchIsShallow(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	exact := mustCheckout(t, serve(t, fx, permissive).url, fx.tip, t.TempDir())
	full := mustCheckout(t, serve(t, fx, refusing).url, fx.tip, t.TempDir())
	if _, err := os.Stat(filepath.Join(exact.Dir, ".git", "shallow")); err != nil {
		t.Errorf("the exact fetch is not shallow: %v", err)
	}
	// The tip no longer holds big.bin (256 KiB of random bytes); only the
	// fallback's full history brings it.
	if exact.BytesFetched >= 64<<10 || full.BytesFetched < 256<<10 {
		t.Errorf("fetched %d bytes exactly and %d in the fallback; want under 64 KiB and over 256 KiB", exact.BytesFetched, full.BytesFetched)
	}
}

func TestMalformedRev(t *testing.T) {
	t.Parallel()
	for _, rev := range []string{"", "bad..rev", "-x", "a b", "v1^{}", strings.Repeat("a", 41), "refs/heads/", "@{-1}"} {
		_, err := checkout(t, "http://127.0.0.1:1/repo.git", rev, t.TempDir())
		wantFailure(t, err, fail.CodeUsage, "")
	}
}

// TestUnknownRevisions checks that a revision the repository lacks is told
// as such, every time, whatever the server allows and over both protocols.
// (A git daemon refusing a sha used to hang up while the request was still
// being written, and the write's "broken pipe" was told instead, now and
// then.) A server that sends any commit its references reach is not asked
// for its branches and tags to find out.
func TestUnknownRevisions(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	const unknown = "0123456789abcdef0123456789abcdef01234567"
	for _, srv := range servers(t, fx) {
		t.Run(srv.name, func(t *testing.T) {
			for _, c := range []struct {
				rev, want string
				times     int
			}{
				{unknown, "has no commit " + unknown, 6},
				{"no-such-tag", `has no tag or branch "no-such-tag"`, 1},
				{"0123abcd", `has no tag, branch or commit "0123abcd"`, 1},
			} {
				for range c.times {
					var said []string
					cache := t.TempDir()
					_, err := Checkout(context.Background(), Options{Repo: srv.url, Rev: c.rev, CacheDir: cache,
						Progress: func(s string) { said = append(said, s) }})
					wantFailure(t, err, fail.CodeFetch, c.want)
					wantNoEntries(t, cache)
					if c.rev == unknown && strings.HasSuffix(srv.name, "permissive") {
						for _, s := range said {
							if strings.Contains(s, "branches and tags") {
								t.Errorf("%s: %q; want no fetch of the branches and tags", srv.name, s)
							}
						}
					}
				}
			}
		})
	}
}

func TestUnreachableServer(t *testing.T) {
	t.Parallel()
	for _, rev := range []string{strings.Repeat("ab", 20), "main"} {
		cache := t.TempDir()
		url := "http://" + loopback.Dead(t) + "/repo.git"
		_, err := checkout(t, url, rev, cache)
		wantFailure(t, err, fail.CodeFetch, "cannot reach "+url)
		wantNoEntries(t, cache)
	}
}

func TestRepositoryNotFound(t *testing.T) {
	t.Parallel()
	srv := serve(t, newFixture(t), permissive)
	_, err := checkout(t, srv.URL+"/missing.git", strings.Repeat("ab", 20), t.TempDir())
	wantFailure(t, err, fail.CodeFetch, "repository not found")
}

func TestServerDiesMidTransfer(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	srv := serve(t, fx, permissive)
	srv.cutAt.Store(32 << 10)
	cache := t.TempDir()
	_, err := checkout(t, srv.url, fx.tagged, cache)
	wantFailure(t, err, fail.CodeFetch, "broke off while fetching "+fx.tagged)
	wantNoEntries(t, cache)

	srv.cutAt.Store(0)
	if res := mustCheckout(t, srv.url, fx.tagged, cache); res.FromCache {
		t.Error("the retry came from the cache")
	}
}

func TestCacheReuseWithServerStopped(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	srv := serve(t, fx, permissive)
	cache := t.TempDir()
	first := mustCheckout(t, srv.url, fx.tagged, cache)
	srv.Close()
	for _, offline := range []bool{false, true} {
		again, err := Checkout(context.Background(), Options{Repo: srv.url, Rev: fx.tagged, CacheDir: cache, Offline: offline})
		if err != nil {
			t.Fatalf("offline=%v: %v", offline, err)
		}
		if !again.FromCache || again.Dir != first.Dir || again.BytesFetched != 0 {
			t.Errorf("offline=%v: got %+v, want the cached %s", offline, again, first.Dir)
		}
	}
	// Reading a whole entry takes no lock, so a complete cache on a
	// read-only file system serves (root ignores a mode, so the lock's
	// absence is what this checks).
	locks, _ := filepath.Glob(filepath.Join(filepath.Dir(first.Dir), "*.lock"))
	for _, l := range locks {
		if err := os.Remove(l); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Checkout(context.Background(), Options{Repo: srv.url, Rev: fx.tagged, CacheDir: cache, Offline: true}); err != nil {
		t.Fatal(err)
	}
	if locks, _ := filepath.Glob(filepath.Join(filepath.Dir(first.Dir), "*.lock")); len(locks) > 0 {
		t.Errorf("reading a whole entry took a lock: %v", locks)
	}
	_, err := Checkout(context.Background(), Options{Repo: srv.url, Rev: fx.tip, CacheDir: cache, Offline: true})
	wantFailure(t, err, fail.CodeFetch, "not in the cache")
	wantOffline(t, err, "")
	_, err = Checkout(context.Background(), Options{Repo: srv.url, Rev: "v0.1.0", CacheDir: cache, Offline: true})
	wantFailure(t, err, fail.CodeFetch, "needs the network")
	wantOffline(t, err, "give the full 40-hex sha")
}

// wantOffline checks that err is an *OfflineError whose way out without the
// network is instead.
func wantOffline(t *testing.T, err error, instead string) {
	t.Helper()
	var off *OfflineError
	if !errors.As(err, &off) {
		t.Fatalf("error %q: want an *OfflineError in its chain", err)
	}
	if off.Instead != instead {
		t.Errorf("error %q: Instead is %q, want %q", err, off.Instead, instead)
	}
}

// TestUnusableCacheDir: a cache directory that cannot be created is a
// *CacheDirError naming it, with exit code 4, before any network call.
func TestUnusableCacheDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := checkout(t, "http://127.0.0.1:1/repo.git", strings.Repeat("ab", 20), file)
	wantFailure(t, err, fail.CodeFetch, "cannot create the cache directory "+file)
	var dirErr *CacheDirError
	if !errors.As(err, &dirErr) {
		t.Errorf("error %q: want a *CacheDirError in its chain", err)
	}
}

func TestCacheEnvironment(t *testing.T) {
	fx := newFixture(t)
	srv := serve(t, fx, permissive)
	cache := t.TempDir()
	t.Setenv(CacheEnv, cache)
	res := mustCheckout(t, srv.url, fx.tip, "")
	if !strings.HasPrefix(res.Dir, cache+string(filepath.Separator)) {
		t.Errorf("entry %s is not under $%s=%s", res.Dir, CacheEnv, cache)
	}
}

func TestCorruptedCacheEntry(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	srv := serve(t, fx, permissive)
	for _, c := range []struct {
		name    string
		corrupt func(dir string) error
	}{
		{"changed file", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "pkg", "lib.go"), []byte("package pkg\n\nconst Version = 9\n"), 0o644)
		}},
		{"missing file", func(dir string) error { return os.Remove(filepath.Join(dir, "go.mod")) }},
		{"extra file", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "pkg", "extra.go"), []byte("package pkg\n"), 0o644)
		}},
		{"missing objects", func(dir string) error { return os.RemoveAll(filepath.Join(dir, ".git", "objects")) }},
		{"HEAD elsewhere", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte(fx.first+"\n"), 0o644)
		}},
		{"file replaced by a symlink", func(dir string) error {
			p := filepath.Join(dir, "main.go")
			if err := os.Remove(p); err != nil {
				return err
			}
			return os.Symlink("/etc/hostname", p)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := t.TempDir()
			first := mustCheckout(t, srv.url, fx.tip, cache)
			if err := c.corrupt(first.Dir); err != nil {
				t.Fatal(err)
			}
			packs := srv.packs.Load()
			_, err := Checkout(context.Background(), Options{Repo: srv.url, Rev: fx.tip, CacheDir: cache, Offline: true})
			wantFailure(t, err, fail.CodeFetch, "damaged")
			wantOffline(t, err, "")
			again := mustCheckout(t, srv.url, fx.tip, cache)
			if again.FromCache || srv.packs.Load() != packs+1 {
				t.Errorf("the damaged entry was used, not fetched again: %+v", again)
			}
			if err := verify(again.Dir, fx.tip); err != nil {
				t.Errorf("the refetched entry does not verify: %v", err)
			}
		})
	}
}

// TestHalfWrittenEntryIgnored checks that what a killed process left behind
// (a temporary entry) is neither used nor kept.
func TestHalfWrittenEntryIgnored(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	srv := serve(t, fx, permissive)
	cache := t.TempDir()
	c, err := openCache(cache, srv.url)
	if err != nil {
		t.Fatal(err)
	}
	leftover := filepath.Join(c.repoDir, ".tmp-"+fx.tip+"-123")
	writeFile(t, filepath.Join(leftover, "go.mod"), []byte("module half\n"))
	res := mustCheckout(t, srv.url, fx.tip, cache)
	if res.FromCache {
		t.Error("a half-written entry was used")
	}
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Errorf("the half-written entry %s is still there", leftover)
	}
}

func TestConcurrentFetchesOfOneSha(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	srv := serve(t, fx, permissive)
	cache := t.TempDir()
	const n = 4
	results := make([]Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = Checkout(context.Background(), Options{Repo: srv.url, Rev: fx.tagged, CacheDir: cache})
		}()
	}
	wg.Wait()
	fetched := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("fetch %d: %v", i, errs[i])
		}
		if results[i].Dir != results[0].Dir {
			t.Errorf("fetch %d gave %s, fetch 0 %s", i, results[i].Dir, results[0].Dir)
		}
		if !results[i].FromCache {
			fetched++
		}
	}
	if fetched != 1 || srv.packs.Load() != 1 {
		t.Errorf("%d of %d fetches went to the server (%d upload-packs); want 1", fetched, n, srv.packs.Load())
	}
	if err := verify(results[0].Dir, fx.tagged); err != nil {
		t.Error(err)
	}
}

func TestSymlinkOutOfTreeRefused(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	srv := serve(t, fx, permissive)
	cache := t.TempDir()
	_, err := checkout(t, srv.url, "evil", cache)
	wantFailure(t, err, fail.CodeFetch, "symlink passwd points to ../../../etc/passwd, outside the tree")
	wantNoEntries(t, cache)
}

func TestRepoKey(t *testing.T) {
	t.Parallel()
	a := repoKey("https://github.com/fluxcd/kustomize-controller")
	if a != repoKey("https://github.com/fluxcd/kustomize-controller.git") || a != repoKey("https://github.com/fluxcd/kustomize-controller/") {
		t.Error("a trailing .git or / makes another cache key")
	}
	if a == repoKey("https://github.com/fluxcd/source-controller") {
		t.Error("two repositories share a cache key")
	}
	if !strings.HasPrefix(a, "github.com_fluxcd_kustomize-controller-") {
		t.Errorf("key %q is not readable", a)
	}
}
