package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/fetch"
	"github.com/ctrlcmp/ctrlcmp/internal/journal"
	"github.com/ctrlcmp/ctrlcmp/internal/load"
	"github.com/ctrlcmp/ctrlcmp/internal/redact"
)

const checkLong = `Check that every citation in the journals still points at the code it cited.

Citations are the ones ctrlcmp generated (links titled "ctrlcmp SYMBOL HASH")
and the ones typed in prose: path:10, path:10-20, path#L10-L20, markdown links
to path#L10, and GitHub permalinks (https://github.com/O/R/blob/SHA/path#L10).
Citations inside fenced code blocks are examples and are skipped.

Where a citation is checked:
  - a permalink, a plain citation inside a fence that records repo= and
    sha=, or a citation into a fence's checkout= directory (a local checkout
    of theirs the table was written from): in that repository at that
    commit, from ctrlcmp's cache (fetched into it when missing, unless
    --offline); while that tree is not at hand (a server silent for
    --timeout, default 30s, included), the citation is unverified;
  - module@version/path:line: in the Go module cache, downloaded into it
    when missing (go mod download, through $GOPROXY, checked against
    $GOSUMDB; nothing is built or run), unless --offline;
  - anything else: in the working tree, relative to the journal's directory,
    then to the root of its git repository, then to --root. A path that
    leaves the git repository and --root (.., an absolute path, a symlink
    out) is rejected, never read. A prose citation not found there is looked
    for in the tree the journal's fences pin, when they pin exactly one.

What a citation must still match (its anchor): a generated one, the hash of
the cited line (and the symbol around it); one typed by hand in a journal kept
in git, the lines it cited in the commit that last changed that journal line.
When the anchor is elsewhere in the file (or the file was renamed in git), the
citation is reported as "moved: old → new", and --fix rewrites it in place.
Citations with nothing to compare (no anchor, no tree at hand) are reported as
unverified; they fail the check only under --strict. In a shallow clone, a
hand-typed citation whose journal line was last changed before the clone's
history starts has no anchor at hand: it fails the check (exit 6) until the
whole history is fetched (git fetch --unshallow; fetch-depth: 0 in GitHub's
actions/checkout); generated citations carry their anchors and verify.

Output: one FILE:LINE: message line per problem, then a summary; --format
github writes GitHub Actions annotations instead, and --format json every
citation with its verdict and the counts (schema ctrlcmp-check/v1, in
docs/output.md). When every citation is unverified, a warning says that the
check proved nothing; in CI, run with --strict, which fails it. Exit 0 when
every citation holds, 1 when one is moved, broken or rejected, 2 on a usage
error, 5 when --fix cannot write the journal, 6 when the only problem is a
shallow clone's missing history, 130 when interrupted, 143 when terminated.`

// CheckOptions is what check was asked to do: its FILEs and flags, checked.
type CheckOptions struct {
	Files    []string      // the journals
	Root     string        // --root: a further directory local citations may resolve in
	Format   string        // text, github or json
	CacheDir string        // --cache-dir: the cache of pinned trees; "" for the default
	Fix      bool          // --fix: rewrite moved citations in place
	Offline  bool          // --offline: never fetch a pinned tree
	Strict   bool          // --strict: unverified citations fail the check too
	Timeout  time.Duration // --timeout: how long a pinned tree's server may stay silent
	Out      io.Writer
	ErrOut   io.Writer // where rewrites are reported
}

// newCheck is the check command. runF, when not nil, runs instead of
// checkRun once the flags and arguments are checked.
func newCheck(g *globals, runF func(*CheckOptions) error) *cobra.Command {
	opts := &CheckOptions{}
	c := &cobra.Command{
		Use:   "check FILE...",
		Short: "Check that every citation in markdown journals still resolves",
		Long:  checkLong,
		Example: `  ctrlcmp check journal/04-controllers.md
  ctrlcmp check --fix journal/*.md
  ctrlcmp check --format github --strict journal/*.md`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fail.Usage("check takes one or more journal FILEs; see `%s --help`", c.CommandPath())
			}
			return nil
		},
		RunE: func(c *cobra.Command, files []string) error {
			if err := checkFormat(opts.Format, "text", "github", "json"); err != nil {
				return err
			}
			opts.Files = files
			opts.Out, opts.ErrOut = c.OutOrStdout(), c.ErrOrStderr()
			if runF != nil {
				return runF(opts)
			}
			return checkRun(c.Context(), g, opts)
		},
	}
	c.Flags().StringVar(&opts.Root, "root", "", "a further directory local citations resolve against and may point into")
	c.Flags().StringVar(&opts.Format, "format", "text", "output format: text, github (GitHub Actions annotations) or json (every citation with its verdict)")
	c.Flags().BoolVar(&opts.Fix, "fix", false, "rewrite moved citations in place to point at where their code went")
	c.Flags().BoolVar(&opts.Offline, "offline", false, "never fetch or download: a pinned repository missing from the cache, or a module missing from the module cache, leaves its citations unverified")
	c.Flags().BoolVar(&opts.Strict, "strict", false, "fail on unverified citations too")
	c.Flags().StringVar(&opts.CacheDir, "cache-dir", "", "ctrlcmp's cache of pinned repositories (default $CTRLCMP_CACHE, else the user cache dir)")
	timeoutFlag(c.Flags(), &opts.Timeout)
	return c
}

// checkRun checks the journals (rewriting their moved citations under
// --fix) and prints the problems.
func checkRun(ctx context.Context, g *globals, opts *CheckOptions) error {
	jo := journal.Options{Root: opts.Root, ModCache: moduleCache(),
		WorkTrees: cachedTrees{cacheDir: opts.CacheDir, offline: opts.Offline, timeout: opts.Timeout, progress: g.progress()}}
	if !opts.Offline {
		jo.Download = load.Download
	}
	var results []journal.Result
	for _, file := range opts.Files {
		res, err := checkFile(ctx, file, jo, opts.Fix, opts.ErrOut)
		if err != nil {
			return err
		}
		// An interrupted fetch leaves citations unverified, not the check
		// failed: the interruption itself is the outcome.
		if err := ctx.Err(); err != nil {
			return err
		}
		results = append(results, res)
	}
	counts, shallow := printCheck(opts.Out, opts.Format, results, opts.Strict)
	lost := 0
	for _, res := range results {
		for _, n := range lostPins(res) {
			lost += n
		}
	}
	if n := counts[journal.Unverified]; n > 0 && !opts.Strict && n == total(counts) {
		msg := fmt.Sprintf("none of the %d citation(s) could be verified, so this check proves nothing; each line says what would verify it, and --strict (the CI default) makes this fail", n)
		g.warn(msg)
		if opts.Format == "github" {
			annotate(opts.Out, opts.Format, "warning", "", 0, msg)
		}
	}
	if msg := problemsMessage(counts, opts.Strict, shallow, lost); msg != "" {
		return fail.Wrap(fail.CodeFindings, errors.New(msg))
	}
	if shallow > 0 {
		return fail.Wrap(fail.CodeShallow, errors.New(shallowMessage(shallow)))
	}
	return nil
}

// total is how many citations have a verdict in counts.
func total(counts map[journal.Status]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

// shallowMessage says that n hand-typed citations could not be checked
// because the clone is shallow, and how to get the history they need.
func shallowMessage(n int) string {
	return fmt.Sprintf("%d citation(s) are anchored in history this shallow clone does not have; %s", n, journal.ShallowFix)
}

// problemsMessage says how many citations fail the check and what to do
// about each kind of them; "" when none does. The shallow ones among the
// unverified are left to shallowMessage; the lost ones among the broken
// (their pin's commit is gone) are told apart, since moving the pin fixes
// them.
func problemsMessage(counts map[journal.Status]int, strict bool, shallow, lost int) string {
	var todo []string
	problems := 0
	if n := counts[journal.Moved]; n > 0 {
		problems += n
		todo = append(todo, fmt.Sprintf("run `ctrlcmp check --fix` to rewrite the %d moved one(s)", n))
	}
	if n := lost; n > 0 {
		problems += n
		todo = append(todo, fmt.Sprintf("move the pin of the %d whose commit is gone (see the broken line of each pin)", n))
	}
	if n := counts[journal.Broken] + counts[journal.Rejected] - lost; n > 0 {
		problems += n
		todo = append(todo, fmt.Sprintf("fix the %d broken or rejected one(s) by hand", n))
	}
	if n := counts[journal.Unverified] - shallow; strict && n > 0 {
		problems += n
		todo = append(todo, fmt.Sprintf("the %d unverified one(s) fail because of --strict; each line says what would verify it", n))
	}
	if problems == 0 {
		return ""
	}
	return fmt.Sprintf("%d citation problem(s): %s", problems, strings.Join(todo, "; "))
}

// checkFile checks one journal, and with fix rewrites its moved citations
// and checks it again.
func checkFile(ctx context.Context, file string, opt journal.Options, fix bool, stderr io.Writer) (journal.Result, error) {
	if st, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		return journal.Result{}, fail.Usage("journal %s does not exist; give the path of a markdown file", file)
	} else if err == nil && st.IsDir() {
		return journal.Result{}, fail.Usage("journal %s is a directory; give the markdown files in it", file)
	}
	res, err := checkOnce(ctx, file, opt)
	if err != nil || !fix {
		return res, err
	}
	n, err := journal.Fix(res)
	if err != nil {
		return res, writeFailure(err)
	}
	if n == 0 {
		return res, nil
	}
	fmt.Fprintf(stderr, "ctrlcmp: %s: rewrote %d moved citation(s)\n", file, n)
	return checkOnce(ctx, file, opt)
}

// checkOnce checks one journal; one whose fences cannot be read is a usage
// error (exit 2), as when table writes it.
func checkOnce(ctx context.Context, file string, opt journal.Options) (journal.Result, error) {
	res, err := journal.Check(ctx, file, opt)
	if errors.As(err, new(*journal.MalformedError)) {
		return res, fail.Wrap(fail.CodeUsage, err)
	}
	return res, err
}

// printCheck writes the problems (and unverified citations) of the results
// and a summary, and returns how many citations have each verdict, and how
// many of the unverified ones a shallow clone cut off from their anchors
// (errors: they fail the check, with exit code 6, whatever --strict says).
func printCheck(w io.Writer, format string, results []journal.Result, strict bool) (map[journal.Status]int, int) {
	counts := map[journal.Status]int{}
	citations, shallow := 0, 0
	for _, res := range results {
		pins := lostPins(res)
		for _, f := range res.Findings {
			citations++
			counts[f.Status]++
			if f.Shallow {
				shallow++
			}
			switch {
			case format == "json":
			case f.Pin != "":
				// Said once per pin, at its first citation.
				if n, ok := pins[f.Pin]; ok {
					delete(pins, f.Pin)
					annotate(w, format, "error", res.File, f.Citation.Line, lostPinMessage(f.Pin, n, res.File))
				}
			case f.Status.Problem() || f.Shallow || strict && f.Status == journal.Unverified:
				annotate(w, format, "error", res.File, f.Citation.Line, f.Message)
			case f.Status == journal.Unverified:
				annotate(w, format, "notice", res.File, f.Citation.Line, f.Message)
			}
		}
	}
	if format == "json" {
		writeCheckJSON(w, results, counts, citations, shallow)
		return counts, shallow
	}
	summary := fmt.Sprintf("ctrlcmp check: %d citation(s) in %d file(s): %d ok, %d moved, %d broken, %d rejected, %d unverified",
		citations, len(results), counts[journal.OK], counts[journal.Moved], counts[journal.Broken], counts[journal.Rejected], counts[journal.Unverified])
	if shallow > 0 {
		summary += fmt.Sprintf(" (%d of them in history this shallow clone lacks)", shallow)
	}
	fmt.Fprintln(w, summary)
	if shallow > 0 && format == "github" {
		annotate(w, format, "error", "", 0, shallowMessage(shallow))
	}
	return counts, shallow
}

// lostPins counts the citations of a journal broken because their
// repository lacks the commit they are pinned at, by pin.
func lostPins(res journal.Result) map[string]int {
	pins := map[string]int{}
	for _, f := range res.Findings {
		if f.Pin != "" {
			pins[f.Pin]++
		}
	}
	return pins
}

// lostPinMessage says once that the n citations of a pin whose commit its
// repository lacks cannot be read, and how to move the pin.
func lostPinMessage(pin string, n int, file string) string {
	repo, sha, _ := strings.Cut(pin, " at ")
	return fmt.Sprintf("broken: %s has no commit %s (force-pushed away, or never pushed), so the %d citation(s) of this journal pinned there cannot be read; move the pin to a commit it has: write the table again (ctrlcmp table --theirs REV --theirs-repo %s … --journal %s), and edit the permalinks typed by hand", repo, sha, n, repo, file)
}

// checkSchema is the schema id of check's JSON.
const checkSchema = "ctrlcmp-check/v1"

// checkDocument is check's JSON: every citation of every journal with its
// verdict, and the counts.
type checkDocument struct {
	Schema  string         `json:"schema"`
	Files   []checkedFile  `json:"files"`
	Summary map[string]int `json:"summary"`
}

type checkedFile struct {
	File      string            `json:"file"`
	Citations []checkedCitation `json:"citations"`
}

type checkedCitation struct {
	Line     int    `json:"line"`     // the journal line holding it
	Text     string `json:"text"`     // as written
	Location string `json:"location"` // path:line or path:from-to
	Status   string `json:"status"`   // ok, moved, broken, rejected or unverified
	Message  string `json:"message,omitempty"`
	Fixed    string `json:"fixed,omitempty"`   // for moved: the text --fix writes
	Shallow  bool   `json:"shallow,omitempty"` // unverified: its anchor is in history a shallow clone lacks
}

// writeCheckJSON writes the results as check's JSON (no URL in it keeps
// its user-info).
func writeCheckJSON(w io.Writer, results []journal.Result, counts map[journal.Status]int, citations, shallow int) {
	doc := checkDocument{Schema: checkSchema, Files: []checkedFile{}, Summary: map[string]int{
		"citations": citations, "files": len(results), "shallow": shallow}}
	for s := journal.OK; s <= journal.Unverified; s++ {
		doc.Summary[s.String()] = counts[s]
	}
	for _, res := range results {
		cf := checkedFile{File: filepath.ToSlash(res.File), Citations: []checkedCitation{}}
		for _, f := range res.Findings {
			cf.Citations = append(cf.Citations, checkedCitation{Line: f.Citation.Line, Text: redact.URLs(f.Citation.Text),
				Location: redact.URLs(f.Citation.Location()), Status: f.Status.String(), Message: redact.URLs(f.Message),
				Fixed: redact.URLs(f.Fixed), Shallow: f.Shallow})
		}
		doc.Files = append(doc.Files, cf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(doc)
}

// annotate writes one finding: FILE:LINE: message, or a GitHub Actions
// workflow command (one about no file when file is ""). A URL in the message (a fence's repo=, a fetch's
// failure) is named without its user-info: CI logs are public.
func annotate(w io.Writer, format, level, file string, line int, msg string) {
	msg = redact.URLs(msg)
	if format != "github" {
		fmt.Fprintf(w, "%s:%d: %s\n", file, line, msg)
		return
	}
	prop := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	data := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	where := ""
	if file != "" {
		where = fmt.Sprintf("file=%s,line=%d,", prop.Replace(filepath.ToSlash(file)), line)
	}
	fmt.Fprintf(w, "::%s %stitle=ctrlcmp check::%s\n", level, where, data.Replace(msg))
}

// moduleCache is the Go module cache directory, found without running the
// go command: $GOMODCACHE, else the first $GOPATH entry's pkg/mod, else
// ~/go/pkg/mod.
func moduleCache() string {
	if dir := os.Getenv("GOMODCACHE"); dir != "" {
		return dir
	}
	if gopath := filepath.SplitList(os.Getenv("GOPATH")); len(gopath) > 0 && gopath[0] != "" {
		return filepath.Join(gopath[0], "pkg", "mod")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, "go", "pkg", "mod")
	}
	return ""
}

// cachedTrees gives pinned work trees from ctrlcmp's fetch cache.
type cachedTrees struct {
	cacheDir string
	offline  bool
	timeout  time.Duration
	progress func(string)
}

// WorkTree fetches repo at sha into the cache, unless it is there; a
// repository without that commit is a *journal.NoCommitError.
func (t cachedTrees) WorkTree(ctx context.Context, repo, sha string) (string, error) {
	res, err := fetch.Checkout(ctx, fetch.Options{Repo: repo, Rev: sha, CacheDir: t.cacheDir, Offline: t.offline, Timeout: t.timeout, Progress: t.progress})
	if errors.As(err, new(*fetch.NoCommitError)) {
		return "", &journal.NoCommitError{Err: err}
	}
	if err != nil {
		return "", fetchHint(err)
	}
	return res.Dir, nil
}
