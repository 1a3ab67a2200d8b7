package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/fetch"
	"github.com/ctrlcmp/ctrlcmp/internal/inspect"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
	"github.com/ctrlcmp/ctrlcmp/internal/result"
	"github.com/ctrlcmp/ctrlcmp/internal/resultcache"
)

// defaultTheirsRepo is the mature controller compared against by default.
const defaultTheirsRepo = "https://github.com/fluxcd/kustomize-controller"

// pinnedHelp explains, in the help of every command that fetches, what a
// pinned tree is.
const pinnedHelp = `A pinned tree is a repository at one revision: a full 40-hex sha, an
abbreviated sha (unique in the repository), a tag or a branch; a tag or branch
is resolved once and its full sha printed on stderr. It is fetched with no git
binary, one commit deep where the server allows it, into a cache keyed by
repository and sha (--cache-dir, else $CTRLCMP_CACHE, else the user cache
directory's ctrlcmp); later runs at the same sha use the cache and work
offline. Its markdown citations are permalinks at the full sha. --verbose
reports the bytes fetched.

` + timeoutHelp

// timeoutHelp explains --timeout and its default, in the help of every
// command that fetches.
const timeoutHelp = `A server that sends nothing for --timeout (default 30s), or does not take the
connection within a third of it (10s), ends the run with exit code 4: a live
git server is never silent that long, since it sends a keep-alive every 5
seconds even while it prepares a large pack.`

// fetchFlags are the flags about fetching pinned trees and about the
// cache that keeps them and the analyses.
type fetchFlags struct {
	cacheDir string
	offline  bool
	timeout  time.Duration
	// noCache is --no-cache: analyse the trees again, and store nothing.
	// It is also set for a command that needs more than a stored result
	// holds (stages reads the syntax of its anchors).
	noCache bool
	// tags are --tags: the build tags the trees are loaded with.
	tags []string
}

func (f *fetchFlags) register(fs *pflag.FlagSet) {
	tagsFlag(fs, &f.tags)
	fs.StringVar(&f.cacheDir, "cache-dir", "", "where fetched trees, analysis results and dependency types are kept (default $"+fetch.CacheEnv+", else the user cache directory's ctrlcmp)")
	fs.BoolVar(&f.noCache, "no-cache", false, "analyse the trees again instead of reading their stored results, and store none (the standard library's types, and where the build cache holds the dependencies' export data, are still kept under types/)")
	fs.BoolVar(&f.offline, "offline", false, "never use the network: a pinned tree that is not in the cache is an error")
	timeoutFlag(fs, &f.timeout)
}

// timeoutFlag registers --timeout into d, set to fetch.DefaultTimeout.
func timeoutFlag(fs *pflag.FlagSet, d *time.Duration) {
	*d = fetch.DefaultTimeout
	fs.Var((*timeoutValue)(d), "timeout", "give up on a server that sends nothing for this long (connecting: a third of it), such as 30s or 2m")
}

// timeoutValue is the value of --timeout: a positive duration.
type timeoutValue time.Duration

func (v *timeoutValue) String() string { return time.Duration(*v).String() }
func (v *timeoutValue) Type() string   { return "duration" }

func (v *timeoutValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("not a duration; give one such as 30s or 2m")
	}
	if d <= 0 {
		return fmt.Errorf("a fetch needs time; give a positive duration such as 30s or 2m")
	}
	*v = timeoutValue(d)
	return nil
}

// fetchHint adds to a failed fetch the flag that gets past it: --offline
// when only the network could have avoided it, --cache-dir when the cache
// directory cannot be used, --timeout when the server went silent. Other
// errors are returned unchanged.
func fetchHint(err error) error {
	var off *fetch.OfflineError
	if errors.As(err, &off) {
		fix := "run once without --offline to fetch it"
		if off.Instead != "" {
			fix = off.Instead + ", or run without --offline"
		}
		return &hinted{err: err, msg: off.Need + " and --offline forbids fetching it; " + fix}
	}
	if errors.As(err, new(*fetch.CacheDirError)) {
		return fmt.Errorf("%w; name a usable cache directory with --cache-dir or $%s", err, fetch.CacheEnv)
	}
	var timeout *fetch.TimeoutError
	if errors.As(err, &timeout) {
		if timeout.Connecting {
			return fmt.Errorf("%w, or raise --timeout (connecting may take a third of it)", err)
		}
		return fmt.Errorf("%w, or raise --timeout", err)
	}
	return err
}

// hinted is an error told in the CLI's words: msg is the whole message,
// and err stays the cause for errors.Is, errors.As and fail.Code.
type hinted struct {
	err error
	msg string
}

func (h *hinted) Error() string { return h.msg }
func (h *hinted) Unwrap() error { return h.err }

// source is one tree to analyse: a local directory, or a repository pinned
// at a revision.
type source struct {
	dir       string
	repo, rev string
}

// theirsSource is table's tree of theirs: --theirs-dir, or --theirs with
// --theirs-repo.
func theirsSource(c *cobra.Command, dir, rev, repo string) (source, error) {
	switch {
	case dir != "" && rev != "":
		return source{}, fail.Usage("--theirs and --theirs-dir both name their tree; give one of them")
	case dir == "" && rev == "":
		return source{}, fail.Usage("table needs their tree: --theirs REV (a sha, tag or branch of --theirs-repo, default %s) or --theirs-dir PATH", defaultTheirsRepo)
	case dir != "" && c.Flags().Changed("theirs-repo"):
		return source{}, fail.Usage("--theirs-repo goes with --theirs REV, not with --theirs-dir")
	}
	return source{dir: dir, repo: repo, rev: rev}, nil
}

// pathOrRev checks locate's arguments: one PATH, or none with --rev.
func pathOrRev(rev *string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if *rev != "" {
			return exactArgs(0, "no PATH with --rev (the tree is --repo at REV)")(c, args)
		}
		if c.Flags().Changed("repo") {
			return fail.Usage("--repo goes with --rev REV; give the revision to fetch")
		}
		return exactArgs(1, "one PATH, the directory of a Go module (or --rev REV to fetch one)")(c, args)
	}
}

// locateSource is locate's tree: PATH, or --repo at --rev.
func locateSource(args []string, repo, rev string) source {
	if rev != "" {
		return source{repo: repo, rev: rev}
	}
	return source{dir: args[0]}
}

// inspectSource analyses a source and prints its warnings on stderr. A
// pinned one is fetched first (or taken from the cache) and described by
// its repository and full sha; when linkFrom is set (markdown), its
// citations are permalinks at that sha.
func (g *globals) inspectSource(ctx context.Context, s source, f fetchFlags, side, linkFrom string) (result.Tree, error) {
	t, err := g.inspect(ctx, s, f, side, linkFrom, g.progress())
	if err != nil {
		return result.Tree{}, err
	}
	g.printWarnings(t)
	return t, nil
}

// printWarnings prints a tree's warnings on stderr, each named by the
// tree's side (or label).
func (g *globals) printWarnings(t result.Tree) {
	label := t.Side
	if label == "" {
		label = t.Label()
	}
	for _, w := range t.Warnings {
		g.warn(label + ": " + w)
	}
}

// inspect analyses a local or pinned source for inspectSource, with its
// progress lines to progress.
func (g *globals) inspect(ctx context.Context, s source, f fetchFlags, side, linkFrom string, progress func(string)) (result.Tree, error) {
	t, _, err := g.inspectAt(ctx, s, f, side, linkFrom, progress)
	return t, err
}

// inspectAt is inspect that also gives the directory on this machine the
// tree's citations are relative to (for a pinned tree, in the checkout
// the analysis read), where --format html reads its excerpts.
func (g *globals) inspectAt(ctx context.Context, s source, f fetchFlags, side, linkFrom string, progress func(string)) (result.Tree, string, error) {
	theirs := s.rev != "" || side == "theirs"
	if theirs {
		ctx = load.OnItsOwn(ctx) // not the user's tree: not in the user's workspace
	}
	if s.rev == "" {
		a, err := analyse(ctx, s.dir, s.dir, f, progress, func() (resultcache.Key, error) { return resultcache.LocalKey(s.dir, theirs) })
		if err != nil {
			return result.Tree{}, "", err
		}
		t, err := inspect.Describe(a, s.dir, side, linkFrom)
		return t, a.CitationRoot, err
	}
	res, err := fetch.Checkout(ctx, fetch.Options{Repo: s.repo, Rev: s.rev, CacheDir: f.cacheDir, Offline: f.offline, Timeout: f.timeout, Progress: progress})
	if err != nil {
		return result.Tree{}, "", fetchHint(err)
	}
	g.reportFetch(s.rev, res)
	label := res.Repo + " at " + res.Sha
	a, err := analyse(ctx, res.Dir, label, f, progress, func() (resultcache.Key, error) { return resultcache.PinnedKey(res.Dir, res.Sha) })
	if err != nil {
		return result.Tree{}, "", err
	}
	t := a.Tree
	t.Side, t.Root, t.Repo, t.Sha, t.Dirty, t.Pinned = side, res.Repo, res.Repo, res.Sha, false, true
	if linkFrom != "" {
		t.Link = permalinks(res.Repo, res.Sha)
	}
	return t, a.CitationRoot, nil
}

// reportFetch says on stderr which sha a tag or branch named (unless
// --quiet) and, under --verbose, how many bytes were fetched.
func (g *globals) reportFetch(rev string, res fetch.Result) {
	if g.quiet {
		return
	}
	if !strings.EqualFold(rev, res.Sha) {
		fmt.Fprintf(g.stderr, "ctrlcmp: %s at %s is %s\n", res.Repo, rev, res.Sha)
	}
	if !g.verbose {
		return
	}
	if res.FromCache {
		fmt.Fprintf(g.stderr, "ctrlcmp: %s at %s from the cache (%s): 0 bytes fetched\n", res.Repo, res.Sha, res.Dir)
		return
	}
	fmt.Fprintf(g.stderr, "ctrlcmp: fetched %s at %s: %d bytes (%.1f KiB) of packs, kept in %s\n", res.Repo, res.Sha, res.BytesFetched, float64(res.BytesFetched)/1024, res.Dir)
}

// permalinks returns the links of a pinned tree's citations:
// WEB/blob/SHA/PATH#LLINE, where WEB is the repository's web address; nil
// (plain citations) when it has none.
func permalinks(repo, sha string) func(file string, line int) string {
	web := webURL(repo)
	if web == "" {
		return nil
	}
	return func(file string, line int) string {
		parts := strings.Split(file, "/")
		for i, p := range parts {
			parts[i] = url.PathEscape(p)
		}
		return fmt.Sprintf("%s/blob/%s/%s#L%d", web, sha, strings.Join(parts, "/"), line)
	}
}

// webURL is the web address of a repository: its http(s) URL without
// credentials and ".git", or GitHub's for any GitHub address; "" for an
// address with no web pages (ssh elsewhere, file).
func webURL(repo string) string {
	if rest, ok := strings.CutPrefix(repo, "git@github.com:"); ok {
		return "https://github.com/" + strings.TrimSuffix(strings.Trim(rest, "/"), ".git")
	}
	u, err := url.Parse(repo)
	if err != nil || u.Host == "" {
		return ""
	}
	switch {
	case u.Hostname() == "github.com":
		u.Scheme, u.Host = "https", "github.com"
	case u.Scheme != "http" && u.Scheme != "https":
		return ""
	}
	u.User, u.RawQuery, u.Fragment, u.RawPath = nil, "", "", ""
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), ".git")
	return u.String()
}
