package cli

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
	"github.com/ctrlcmp/ctrlcmp/internal/fetch"
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
