package cli

import (
	"bytes"
	"net"
	"strings"
	"testing"

	"github.com/ctrlcmp/ctrlcmp/internal/fail"
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

// TestPinnedTreeBadInput checks the command line of pinned trees: usage
// mistakes exit 2, a repository that does not answer exits 4, each with one
// line naming the input.
func TestPinnedTreeBadInput(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/repo.git"
	l.Close()
	cache := t.TempDir()
	sha := strings.Repeat("ab", 20)
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"both theirs", []string{"table", "--theirs", sha, "--theirs-dir", ".", "--ours", "."}, fail.CodeUsage, "give one of them"},
		{"no theirs", []string{"table", "--ours", "."}, fail.CodeUsage, "--theirs REV"},
		{"repo with dir", []string{"table", "--theirs-dir", ".", "--theirs-repo", dead, "--ours", "."}, fail.CodeUsage, "--theirs-repo goes with --theirs"},
		{"malformed rev", []string{"table", "--theirs", "v1..2", "--theirs-repo", dead, "--ours", "."}, fail.CodeUsage, `"v1..2"`},
		{"dead server", []string{"table", "--theirs", sha, "--theirs-repo", dead, "--ours", "."}, fail.CodeFetch, "cannot reach " + dead},
		{"offline miss", []string{"locate", "--rev", sha, "--repo", dead, "--offline"}, fail.CodeFetch, "not in the cache"},
		{"locate path and rev", []string{"locate", ".", "--rev", sha}, fail.CodeUsage, "no PATH with --rev"},
		{"locate repo alone", []string{"locate", "--repo", dead}, fail.CodeUsage, "--repo goes with --rev"},
	} {
		var out, errb bytes.Buffer
		code := Main(append(c.args, "--quiet", "--cache-dir", cache), &out, &errb)
		if msg := errb.String(); code != c.code || !strings.Contains(msg, c.want) || strings.Count(msg, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and one line holding %q", c.name, code, msg, c.code, c.want)
		}
	}
}
