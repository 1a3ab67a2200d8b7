package fetch

import (
	"crypto/rand"
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
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ctrlcmp/ctrlcmp/internal/loopback"
)

// fixture is a repository built by the test with the git command:
//
//	first  -- go.mod and main.go (not a tip: only reachable through later commits)
//	tagged -- adds big.bin, 256 KiB of random bytes; annotated tag v0.1.0
//	tip    -- removes big.bin; branch main
//	evil   -- on branch evil, off tip: a symlink leading out of the tree
type fixture struct {
	root                     string // GIT_PROJECT_ROOT holding repo.git
	first, tagged, tip, evil string
}

func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	work := t.TempDir()
	loopback.Git(t, work, "init", "-q", "-b", "main")
	writeFile(t, filepath.Join(work, "go.mod"), []byte("module example.com/fixture\n\ngo 1.22\n"))
	writeFile(t, filepath.Join(work, "main.go"), []byte("package main\n\nfunc main() {}\n"))
	loopback.Git(t, work, "add", ".")
	loopback.Git(t, work, "commit", "-q", "-m", "first")
	fx := &fixture{first: loopback.Git(t, work, "rev-parse", "HEAD")}

	big := make([]byte, 256<<10)
	if _, err := rand.Read(big); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(work, "big.bin"), big)
	writeFile(t, filepath.Join(work, "pkg", "lib.go"), []byte("package pkg\n\nconst Version = 1\n"))
	loopback.Git(t, work, "add", ".")
	loopback.Git(t, work, "commit", "-q", "-m", "tagged")
	loopback.Git(t, work, "tag", "-a", "-m", "release", "v0.1.0")
	fx.tagged = loopback.Git(t, work, "rev-parse", "HEAD")

	loopback.Git(t, work, "rm", "-q", "big.bin")
	writeFile(t, filepath.Join(work, "pkg", "lib.go"), []byte("package pkg\n\nconst Version = 2\n"))
	loopback.Git(t, work, "commit", "-q", "-am", "tip")
	fx.tip = loopback.Git(t, work, "rev-parse", "HEAD")

	loopback.Git(t, work, "checkout", "-q", "-b", "evil")
	if err := os.Symlink("../../../etc/passwd", filepath.Join(work, "passwd")); err != nil {
		t.Fatal(err)
	}
	loopback.Git(t, work, "add", "passwd")
	loopback.Git(t, work, "commit", "-q", "-m", "evil")
	fx.evil = loopback.Git(t, work, "rev-parse", "HEAD")
	loopback.Git(t, work, "checkout", "-q", "main")

	fx.root = t.TempDir()
	loopback.Git(t, fx.root, "clone", "-q", "--bare", work, "repo.git")
	return fx
}

// serverConfig is the upload-pack configuration of a test server.
type serverConfig int

const (
	// permissive allows fetching any sha and filtered fetches, as GitHub does.
	permissive serverConfig = iota
	// refusing allows fetching advertised refs only, so exact-sha fetches
	// are refused and the fallback runs.
	refusing
	// tipsOnly allows a sha that is the tip of a reference, advertised or
	// hidden, and no other: a fetch of any other sha is sent and refused.
	tipsOnly
)

// uploadPackEnv is the environment of a test server's git commands: its
// upload-pack configuration, and no user or system configuration.
func uploadPackEnv(t *testing.T, fx *fixture, cfg serverConfig) []string {
	t.Helper()
	env := append(loopback.GitEnv(t.TempDir()), "GIT_PROJECT_ROOT="+fx.root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_COUNT=4")
	values := map[serverConfig][4]string{
		permissive: {"true", "true", "true", "true"},
		refusing:   {"false", "false", "false", "false"},
		tipsOnly:   {"false", "false", "true", "false"},
	}[cfg]
	for i, key := range []string{"uploadpack.allowAnySHA1InWant", "uploadpack.allowReachableSHA1InWant", "uploadpack.allowTipSHA1InWant", "uploadpack.allowFilter"} {
		env = append(env, "GIT_CONFIG_KEY_"+string(rune('0'+i))+"="+key, "GIT_CONFIG_VALUE_"+string(rune('0'+i))+"="+values[i])
	}
	return env
}

// gitServer is git http-backend (smart HTTP) serving a fixture on 127.0.0.1.
type gitServer struct {
	*httptest.Server
	url   string       // the repository's URL
	packs atomic.Int64 // upload-pack requests served
	cutAt atomic.Int64 // when > 0, upload-pack responses are cut after this many bytes
	pause atomic.Int64 // how long to stay silent before answering each request, in nanoseconds
}

func serve(t *testing.T, fx *fixture, cfg serverConfig) *gitServer {
	t.Helper()
	backend := filepath.Join(loopback.Git(t, fx.root, "--exec-path"), "git-http-backend")
	s := &gitServer{}
	cgiHandler := &cgi.Handler{Path: backend, Env: uploadPackEnv(t, fx, cfg), Stderr: io.Discard, Logger: log.New(io.Discard, "", 0)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Duration(s.pause.Load()))
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/git-upload-pack") {
			s.packs.Add(1)
			if n := s.cutAt.Load(); n > 0 {
				w = &cuttingWriter{ResponseWriter: w, left: n}
			}
		}
		cgiHandler.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	s.url = s.URL + "/repo.git"
	return s
}

// cuttingWriter drops the connection after a number of bytes, as a server
// dying in the middle of a transfer does.
type cuttingWriter struct {
	http.ResponseWriter
	left int64
}

func (w *cuttingWriter) Write(p []byte) (int, error) {
	if int64(len(p)) <= w.left {
		w.left -= int64(len(p))
		return w.ResponseWriter.Write(p)
	}
	n, _ := w.ResponseWriter.Write(p[:w.left])
	w.left = 0
	http.NewResponseController(w.ResponseWriter).Flush()
	if conn, _, err := http.NewResponseController(w.ResponseWriter).Hijack(); err == nil {
		conn.Close()
	}
	return n, io.ErrClosedPipe
}

// daemon is git daemon (the git:// protocol) serving a fixture on
// 127.0.0.1: each connection is handed to a `git daemon --inetd` of its own.
type daemon struct {
	url   string       // the repository's URL
	conns atomic.Int64 // connections accepted
}

func serveDaemon(t *testing.T, fx *fixture, cfg serverConfig) *daemon {
	t.Helper()
	git := loopback.GitPath(t)
	env := uploadPackEnv(t, fx, cfg)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &daemon{url: "git://" + l.Addr().String() + "/repo.git"}
	var mu sync.Mutex
	var running []*exec.Cmd
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			d.conns.Add(1)
			f, err := conn.(*net.TCPConn).File()
			conn.Close()
			if err != nil {
				continue
			}
			cmd := exec.Command(git, "daemon", "--inetd", "--export-all", "--log-destination=none", "--base-path="+fx.root, fx.root)
			cmd.Stdin, cmd.Stdout, cmd.Env = f, f, env
			if cmd.Start() == nil {
				mu.Lock()
				running = append(running, cmd)
				mu.Unlock()
				go cmd.Wait()
			}
			f.Close()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, cmd := range running {
			_ = cmd.Process.Kill()
		}
	})
	return d
}
