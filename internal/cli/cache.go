package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/fetch"
	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
	"github.com/ctrlcmp/ctrlcmp/internal/resultcache"
)

// analyse analyses the tree at dir (label names it in progress lines), or
// reads its analysis from the result cache when the cache holds one under
// the same key (keyOf) and --no-cache is not given. A fresh analysis is
// stored for the next run when the tree loaded cleanly; the dependency
// types the analysis keeps (load.Load) are kept whether or not --no-cache
// is given, since they are a function of their inputs alone. The cache
// never fails a run: when it cannot be used, the tree is analysed, and
// progress says why.
func analyse(ctx context.Context, dir, label string, f fetchFlags, progress func(string), keyOf func() (resultcache.Key, error)) (inspect.Analysis, error) {
	say := func(format string, args ...any) {
		if progress != nil {
			progress(fmt.Sprintf(format, args...))
		}
	}
	ctx = load.WithTags(ctx, f.tags)
	cacheDir, err := fetch.CacheDir(f.cacheDir)
	if err != nil {
		say("%s: cache not used: %v", label, err)
		return inspect.Analyse(ctx, dir, progress, nil)
	}
	kept, err := resultcache.OpenTypes(cacheDir)
	if err != nil {
		say("%s: no dependency types kept: %v", label, err)
	}
	if f.noCache {
		say("%s: result cache not used", label)
		return inspect.Analyse(ctx, dir, progress, kept)
	}
	store, err := resultcache.Open(cacheDir)
	var k resultcache.Key
	if err == nil {
		k, err = keyOf()
		if len(f.tags) > 0 {
			k.Go += " -tags=" + strings.Join(f.tags, ",") // another build: another result
		}
	}
	if err != nil {
		say("%s: result cache not used: %v", label, err)
		return inspect.Analyse(ctx, dir, progress, kept)
	}
	var a inspect.Analysis
	miss := store.Get(k, &a)
	if miss == "" {
		say("%s: cache hit", label)
		return a, nil
	}
	say("%s: cache miss (%s)", label, miss)
	a, err = inspect.Analyse(ctx, dir, progress, kept)
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
