package cli

import (
	"context"
	"fmt"

	"github.com/ctrlcmp/ctrlcmp/internal/fetch"
	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/resultcache"
)

// analyse analyses the tree at dir (label names it in progress lines), or
// reads its analysis from the result cache when the cache holds one under
// the same key (keyOf) and --no-cache is not given. A fresh analysis is
// stored for the next run when the tree loaded cleanly. The cache never
// fails a run: when it cannot be used, the tree is analysed, and progress
// says why.
func analyse(ctx context.Context, dir, label string, f fetchFlags, progress func(string), keyOf func() (resultcache.Key, error)) (inspect.Analysis, error) {
	say := func(format string, args ...any) {
		if progress != nil {
			progress(fmt.Sprintf(format, args...))
		}
	}
	if f.noCache {
		say("%s: result cache not used", label)
		return inspect.Analyse(ctx, dir, progress)
	}
	store, k, err := openResults(f.cacheDir, keyOf)
	if err != nil {
		say("%s: result cache not used: %v", label, err)
		return inspect.Analyse(ctx, dir, progress)
	}
	var a inspect.Analysis
	miss := store.Get(k, &a)
	if miss == "" {
		say("%s: cache hit", label)
		return a, nil
	}
	say("%s: cache miss (%s)", label, miss)
	a, err = inspect.Analyse(ctx, dir, progress)
	switch {
	case err != nil:
		return inspect.Analysis{}, err
	case !a.Clean:
		say("%s: result not stored: the tree did not load cleanly, so its analysis may change with the module cache", label)
	default:
		if err := store.Put(k, a); err != nil {
			say("%s: result not stored: %v", label, err)
		}
	}
	return a, nil
}

// openResults opens the result cache under the cache directory (--cache-dir,
// else the default) and computes the tree's key.
func openResults(cacheDir string, keyOf func() (resultcache.Key, error)) (*resultcache.Store, resultcache.Key, error) {
	dir, err := fetch.CacheDir(cacheDir)
	if err != nil {
		return nil, resultcache.Key{}, err
	}
	store, err := resultcache.Open(dir)
	if err != nil {
		return nil, resultcache.Key{}, err
	}
	k, err := keyOf()
	if err != nil {
		return nil, resultcache.Key{}, err
	}
	return store, k, nil
}
