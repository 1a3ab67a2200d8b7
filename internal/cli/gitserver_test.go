package cli

import (
	"io"
	"log"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// gitEnv isolates a git command from the user's and the system's
// configuration, with a fixed author.
func gitEnv(home string) []string {
	return []string{"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "PATH=" + os.Getenv("PATH")}
}

// gitIn runs git in dir and returns its output, trimmed; the test is
// skipped when there is no git command.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("the git command is not installed; these tests serve repositories with git http-backend")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// gitHTTP is git http-backend (smart HTTP) serving the bare repositories
// under root, as a handler, with home as its HOME; it lets clients fetch
// any commit by sha, as GitHub does.
func gitHTTP(root, home string) (http.Handler, error) {
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		return nil, err
	}
	env := append(gitEnv(home), "GIT_PROJECT_ROOT="+root, "GIT_HTTP_EXPORT_ALL=1",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=uploadpack.allowAnySHA1InWant", "GIT_CONFIG_VALUE_0=true")
	return &cgi.Handler{Path: filepath.Join(strings.TrimSpace(string(out)), "git-http-backend"), Env: env,
		Stderr: io.Discard, Logger: log.New(io.Discard, "", 0)}, nil
}

// serveGit serves the bare repositories under root on 127.0.0.1 for the
// test's life and returns the server's URL: root/NAME.git is URL/NAME.git.
func serveGit(t *testing.T, root string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("the git command is not installed; these tests serve repositories with git http-backend")
	}
	h, err := gitHTTP(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}

// cmdGitServe serves the bare repositories under DIR on 127.0.0.1 until the
// script ends, and sets VAR to the server's URL: gitserve DIR VAR
func cmdGitServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: gitserve DIR VAR")
	}
	home := ts.MkAbs(".gitserve-home")
	ts.Check(os.MkdirAll(home, 0o755))
	h, err := gitHTTP(ts.MkAbs(args[0]), home)
	ts.Check(err)
	s := httptest.NewServer(h)
	ts.Defer(s.Close)
	ts.Setenv(args[1], s.URL)
}

// deadURL is the URL of a repository on a port of 127.0.0.1 nobody listens
// on.
func deadURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/repo.git"
}
