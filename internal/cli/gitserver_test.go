package cli

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ctrlcmp/ctrlcmp/internal/loopback"
)

// serveGit serves the bare repositories under root on 127.0.0.1 for the
// test's life and returns the server's URL: root/NAME.git is URL/NAME.git.
func serveGit(t *testing.T, root string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("the git command is not installed; these tests serve repositories with git http-backend")
	}
	h, err := loopback.GitHTTP(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}

// cmdGitServe serves the bare repositories under DIR on 127.0.0.1 until the
// script ends, and sets VAR to the server's URL and VAR_HOST to its host and
// port (to write a URL with user-info): gitserve DIR VAR
func cmdGitServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: gitserve DIR VAR")
	}
	home := ts.MkAbs(".gitserve-home")
	ts.Check(os.MkdirAll(home, 0o755))
	h, err := loopback.GitHTTP(ts.MkAbs(args[0]), home)
	ts.Check(err)
	s := httptest.NewServer(h)
	ts.Defer(s.Close)
	ts.Setenv(args[1], s.URL)
	ts.Setenv(args[1]+"_HOST", s.Listener.Addr().String())
}
