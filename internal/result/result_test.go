package result

import "testing"

// TestLabel: a local tree is named by its module path, whatever its
// directory is called; a pinned one by its repository and short sha.
func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		tree Tree
		want string
	}{
		{Tree{Root: "/ci/repo", Module: "k8s.io/sample-controller"}, "sample-controller"},
		{Tree{Root: ".", Module: "github.com/o/op/v2"}, "op/v2"},
		{Tree{Root: ".", Module: "example.com/v2tools"}, "v2tools"},
		{Tree{Root: ".", Module: "op"}, "op"},
		{Tree{Root: "/work/sample-controller"}, "sample-controller"},
		{Tree{Root: "/x", Module: "m", Pinned: true, Repo: "https://github.com/o/r.git", Sha: "186fb3b29138ce"}, "r@186fb3b"},
	} {
		if got := tc.tree.Label(); got != tc.want {
			t.Errorf("%+v: label %q, want %q", tc.tree, got, tc.want)
		}
	}
}
