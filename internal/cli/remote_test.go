package cli

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/fetch"
	"github.com/ctrlcmp/ctrlcmp/internal/loopback"
)

func TestPermalinks(t *testing.T) {
	const sha = "186fb3b29138ce82ff61ba1a9370b96a3dd598fe"
	for _, c := range []struct{ repo, want string }{
		{"https://github.com/fluxcd/kustomize-controller", "https://github.com/fluxcd/kustomize-controller/blob/" + sha + "/internal/a b.go#L129"},
		{"https://github.com/fluxcd/kustomize-controller.git/", "https://github.com/fluxcd/kustomize-controller/blob/" + sha + "/internal/a b.go#L129"},
		{"git@github.com:fluxcd/kustomize-controller.git", "https://github.com/fluxcd/kustomize-controller/blob/" + sha + "/internal/a b.go#L129"},
		{"ssh://git@github.com/fluxcd/kustomize-controller", "https://github.com/fluxcd/kustomize-controller/blob/" + sha + "/internal/a b.go#L129"},
		{"http://user:secret@127.0.0.1:8080/git/repo.git", "http://127.0.0.1:8080/git/repo/blob/" + sha + "/internal/a b.go#L129"},
		{"ssh://git@example.com/repo.git", ""},
		{"file:///srv/repo.git", ""},
	} {
		link := permalinks(c.repo, sha)
		got := ""
		if link != nil {
			got = strings.ReplaceAll(link("internal/a b.go", 129), "%20", " ")
		}
		if got != c.want {
			t.Errorf("permalink in %s: got %q, want %q", c.repo, got, c.want)
		}
	}
}

// TestPinnedTreeBadInput checks the failures of fetching a pinned tree
// (its flag mistakes are in TestBadInput): a malformed revision exits 2, a
// repository that does not answer or is not at hand offline exits 4, each
// with one line naming the input and, when a flag gets past it, the flag.
func TestPinnedTreeBadInput(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/repo.git"
	l.Close()
	cache := t.TempDir()
	notADir := filepath.Join(cache, "file")
	if err := os.WriteFile(notADir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sha := strings.Repeat("ab", 20)
	for _, c := range []struct {
		name  string
		args  []string
		code  int
		wants []string
	}{
		{"malformed rev", []string{"table", "--theirs", "v1..2", "--theirs-repo", dead, "--ours", ".", "--cache-dir", cache}, fail.CodeUsage, []string{`"v1..2"`}},
		{"dead server", []string{"table", "--theirs", sha, "--theirs-repo", dead, "--ours", ".", "--cache-dir", cache}, fail.CodeFetch, []string{"cannot reach " + dead}},
		{"offline miss", []string{"locate", "--rev", sha, "--repo", dead, "--offline", "--cache-dir", cache},
			fail.CodeFetch, []string{"not in the cache", "--offline forbids fetching it; run once without --offline"}},
		{"offline tag", []string{"locate", "--rev", "v1.0.0", "--repo", dead, "--offline", "--cache-dir", cache},
			fail.CodeFetch, []string{`at "v1.0.0"`, "give the full 40-hex sha, or run without --offline"}},
		{"unusable cache", []string{"explain", "writes", "--rev", sha, "--repo", dead, "--cache-dir", notADir},
			fail.CodeFetch, []string{"cannot create the cache directory " + notADir, "with --cache-dir or $" + fetch.CacheEnv}},
	} {
		var out, errb bytes.Buffer
		code := Main(append(c.args, "--quiet"), &out, &errb)
		msg := errb.String()
		if code != c.code || strings.Count(msg, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and one line", c.name, code, msg, c.code)
		}
		for _, want := range c.wants {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: stderr %q does not say %q", c.name, msg, want)
			}
		}
	}
}

// TestSilentServer checks that a pinned tree whose server takes the
// connection and never answers ends table with exit 4 once --timeout runs
// out, over git:// and http://, in one line naming the repository and
// --timeout; and that check, on a journal whose fence is pinned there,
// ends as soon, the fence's citations unverified for that reason.
func TestSilentServer(t *testing.T) {
	addr := loopback.Silent(t)
	sha := strings.Repeat("ab", 20)
	for _, scheme := range []string{"git", "http"} {
		url := scheme + "://" + addr + "/repo.git"
		start := time.Now()
		code, _, stderr := run(t, "table", "--theirs", sha, "--theirs-repo", url, "--ours", ".", "--cache-dir", t.TempDir(), "--timeout", "1s")
		took := time.Since(start)
		if code != fail.CodeFetch {
			t.Errorf("%s: exit %d, want %d (stderr %q)", scheme, code, fail.CodeFetch, stderr)
		}
		wantOneLine(t, stderr, url+" sent nothing for 1s while fetching "+sha+"; check that the server is up and serves git at that URL, or raise --timeout")
		if took > 5*time.Second {
			t.Errorf("%s: table took %s with --timeout 1s", scheme, took)
		}
	}

	url := "git://" + addr + "/repo.git"
	start := time.Now()
	code, stdout, stderr := run(t, "check", pinnedJournal(t, url), "--cache-dir", t.TempDir(), "--timeout", "1s")
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("check took %s with --timeout 1s", took)
	}
	if code != fail.CodeOK || !strings.Contains(stdout, "unverified: "+url+" at "+sha[:12]+" is not at hand: "+url+" sent nothing for 1s") {
		t.Errorf("check: exit %d, stdout %q, stderr %q; want exit 0 and the citation unverified for the silent server", code, stdout, stderr)
	}
}

// TestInterrupted checks that an interrupt (the cancelled context of the
// run) ends a command with exit 130 and "interrupted", whether it comes
// while a pinned tree is fetched or while a tree is loaded, and SIGTERM
// the same way with exit 143 and "terminated".
func TestInterrupted(t *testing.T) {
	addr := loopback.Silent(t)
	for _, c := range []struct {
		name string
		args []string
		sig  os.Signal
	}{
		{"fetch", []string{"locate", "--rev", strings.Repeat("ab", 20), "--repo", "git://" + addr + "/repo.git", "--cache-dir", t.TempDir()}, os.Interrupt},
		{"check's fetch", []string{"check", pinnedJournal(t, "git://"+addr+"/repo.git"), "--cache-dir", t.TempDir()}, os.Interrupt},
		{"load", []string{"locate", filepath.Join(fixturesDir, "kubebuilder")}, os.Interrupt},
		{"fetch, SIGTERM", []string{"locate", "--rev", strings.Repeat("ab", 20), "--repo", "git://" + addr + "/repo.git", "--cache-dir", t.TempDir()}, syscall.SIGTERM},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			time.AfterFunc(200*time.Millisecond, func() { cancel(signalled{c.sig}) })
			var out, errb bytes.Buffer
			g := &globals{stderr: &errb, quiet: true}
			root := newRoot(g, &out)
			root.AddCommand(newLocate(g, nil), newCheck(g, nil))
			start := time.Now()
			code := execute(ctx, root, c.args, &errb)
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %s to stop after the interrupt", took)
			}
			wantCode, wantErr := fail.CodeInterrupted, "ctrlcmp: interrupted\n"
			if c.sig == syscall.SIGTERM {
				wantCode, wantErr = fail.CodeTerminated, "ctrlcmp: terminated\n"
			}
			if code != wantCode || errb.String() != wantErr {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errb.String(), wantCode, wantErr)
			}
		})
	}
}

// pinnedJournal writes a journal whose one fence is pinned in repo, and
// returns its path.
func pinnedJournal(t *testing.T, repo string) string {
	t.Helper()
	journal := filepath.Join(t.TempDir(), "j.md")
	text := "<!-- ctrlcmp:begin id=t repo=" + repo + " sha=" + strings.Repeat("ab", 20) + " -->\n`internal/controller/widget.go:12`\n<!-- ctrlcmp:end -->\n"
	if err := os.WriteFile(journal, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return journal
}
