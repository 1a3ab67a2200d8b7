// Package loopback starts throwaway servers on 127.0.0.1 for tests: a port
// nobody listens on, a port that takes connections and never answers, and
// git's smart HTTP serving bare repositories; and it runs git isolated from
// the user's and the system's configuration. Nothing here reaches beyond the
// loopback interface.
package loopback

import (
	"io"
	"log"
	"net"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Dead returns the address of a port of 127.0.0.1 nobody listens on.
func Dead(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// Silent returns the address of a port of 127.0.0.1 that accepts
// connections and never answers: a server that hangs. It holds what it
// accepts until the test ends.
func Silent(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, conn)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	return l.Addr().String()
}

// GitEnv isolates a git command from the user's and the system's
// configuration, with a fixed author and date.
func GitEnv(home string) []string {
	return []string{"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_AUTHOR_DATE=2024-01-01T00:00:00Z",
		"GIT_COMMITTER_DATE=2024-01-01T00:00:00Z", "PATH=" + os.Getenv("PATH")}
}

// GitPath is the git command; the test is skipped when there is none.
func GitPath(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		t.Skip("the git command is not installed; these tests serve repositories with git")
	}
	return p
}

// Git runs git in dir, isolated, and returns its output trimmed.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(GitPath(t), args...)
	cmd.Dir = dir
	cmd.Env = GitEnv(t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// GitHTTP is git http-backend (smart HTTP) serving the bare repositories
// under root, as a handler, with home as its HOME; it lets clients fetch
// any commit by sha, as GitHub does.
func GitHTTP(root, home string) (http.Handler, error) {
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		return nil, err
	}
	env := append(GitEnv(home), "GIT_PROJECT_ROOT="+root, "GIT_HTTP_EXPORT_ALL=1",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=uploadpack.allowAnySHA1InWant", "GIT_CONFIG_VALUE_0=true")
	return &cgi.Handler{Path: filepath.Join(strings.TrimSpace(string(out)), "git-http-backend"), Env: env,
		Stderr: io.Discard, Logger: log.New(io.Discard, "", 0)}, nil
}
