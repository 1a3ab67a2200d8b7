package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"golang.org/x/mod/semver"

	"github.com/ctrlcmp/ctrlcmp/internal/fetch"
	"github.com/ctrlcmp/ctrlcmp/internal/flock"
	"github.com/ctrlcmp/ctrlcmp/internal/proc"
)

// Binaries are the paths of the cached server binaries.
type Binaries struct {
	Etcd, APIServer string
	Versions        Versions
}

// BuildEnv is the environment of every go command ctrlcmp runs to build
// the servers: the local toolchain, no cgo.
var BuildEnv = []string{"GOTOOLCHAIN=local", "CGO_ENABLED=0", "GOFLAGS=-mod=mod"}

// goCmd runs the go command in dir and returns its standard output; on
// failure the error carries the end of its output.
func goCmd(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	out, errOut, err := proc.Run(ctx.Done(), "go "+args[0], "go", args, dir, env)
	if errors.Is(err, proc.ErrCancelled) {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("%w:\n%s", err, tail(string(errOut), 20))
	}
	return out, nil
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// CacheDir is where the binaries of v are cached: cluster/ under ctrlcmp's
// cache directory (see fetch.CacheDir), one subdirectory per version set
// and platform.
func CacheDir(cacheRoot string, v Versions) (string, error) {
	root, err := fetch.CacheDir(cacheRoot)
	if err != nil {
		return "", err
	}
	key := fmt.Sprintf("kubernetes-%s-etcd-%s-%s-%s", v.Kubernetes, v.Etcd, runtime.GOOS, runtime.GOARCH)
	return filepath.Join(root, "cluster", key), nil
}

// Ensure returns the cached binaries of v, building those missing first.
// A lock file serialises ctrlcmp processes so that two runs never build
// twice; each binary is built into a temporary file and renamed into
// place. progress hears which step runs and, during a build, the time
// spent so far.
func Ensure(ctx context.Context, cacheRoot string, v Versions, progress func(string)) (Binaries, error) {
	dir, err := CacheDir(cacheRoot, v)
	if err != nil {
		return Binaries{}, err
	}
	b := Binaries{Etcd: filepath.Join(dir, "etcd"), APIServer: filepath.Join(dir, "kube-apiserver"), Versions: v}
	if exists(b.Etcd) && exists(b.APIServer) {
		return b, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Binaries{}, fmt.Errorf("cannot create the server cache %s: %w", dir, err)
	}
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return Binaries{}, fmt.Errorf("server cache lock: %w", err)
	}
	defer lock.Close()
	if ok, err := flock.TryLock(lock); err != nil {
		return Binaries{}, fmt.Errorf("server cache lock %s: %w", lock.Name(), err)
	} else if !ok {
		progress("waiting for another ctrlcmp that is building the servers into " + dir)
		if err := flock.Lock(lock); err != nil {
			return Binaries{}, fmt.Errorf("server cache lock %s: %w", lock.Name(), err)
		}
	}
	defer flock.Unlock(lock)
	work, err := os.MkdirTemp(filepath.Dir(dir), ".build-")
	if err != nil {
		return Binaries{}, err
	}
	defer os.RemoveAll(work)
	if !exists(b.Etcd) {
		if err := buildEtcd(ctx, work, v, b.Etcd, progress); err != nil {
			return Binaries{}, err
		}
	}
	if !exists(b.APIServer) {
		if err := buildAPIServer(ctx, work, v, b.APIServer, progress); err != nil {
			return Binaries{}, err
		}
	}
	return b, nil
}

func exists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

const etcdMain = `package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
`

const apiServerMain = `package main

import (
	"os"

	_ "time/tzdata"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() { os.Exit(cli.Run(app.NewAPIServerCommand())) }
`

// buildEtcd builds etcd's own main from etcd's server module at v.Etcd.
func buildEtcd(ctx context.Context, work string, v Versions, dest string, progress func(string)) error {
	mod := "module ctrlcmp.local/etcd\n\ngo 1.24\n\nrequire " + etcdServer + " " + v.Etcd + "\n"
	return buildWrapper(ctx, filepath.Join(work, "etcd"), "etcd "+v.Etcd, mod, etcdMain, nil, dest, progress)
}

// buildAPIServer builds kube-apiserver from k8s.io/kubernetes at
// v.Kubernetes. That module replaces its staging modules (k8s.io/api …)
// with directories of its own repository; the wrapper replaces each one it
// requires with the published module at v.Staging instead.
func buildAPIServer(ctx context.Context, work string, v Versions, dest string, progress func(string)) error {
	mod, err := apiServerModule(v)
	if err != nil {
		return err
	}
	major, minor, _ := strings.Cut(strings.TrimPrefix(semver.MajorMinor(v.Kubernetes), "v"), ".")
	ldflags := fmt.Sprintf("-X k8s.io/component-base/version.gitVersion=%s -X k8s.io/component-base/version.gitMajor=%s -X k8s.io/component-base/version.gitMinor=%s", v.Kubernetes, major, minor)
	return buildWrapper(ctx, filepath.Join(work, "kube-apiserver"), "kube-apiserver "+v.Kubernetes, mod, apiServerMain, []string{"-ldflags", ldflags}, dest, progress)
}

// apiServerModule is the go.mod of the kube-apiserver wrapper: the
// release, and each staging module it requires replaced by the published
// module at v.Staging (one it replaces without requiring, such as
// k8s.io/sample-cli-plugin, may not be published at all).
func apiServerModule(v Versions) (string, error) {
	f, err := readGoMod(v.goModFile)
	if err != nil {
		return "", err
	}
	required := map[string]bool{}
	for _, r := range f.Require {
		required[r.Mod.Path] = true
	}
	var mod strings.Builder
	fmt.Fprintf(&mod, "module ctrlcmp.local/kube-apiserver\n\ngo %s\n\nrequire k8s.io/kubernetes %s\n\nreplace (\n", f.Go.Version, v.Kubernetes)
	for _, r := range f.Replace {
		if strings.HasPrefix(r.New.Path, "./staging/") && required[r.Old.Path] {
			fmt.Fprintf(&mod, "\t%s => %s %s\n", r.Old.Path, r.Old.Path, v.Staging)
		}
	}
	mod.WriteString(")\n")
	return mod.String(), nil
}

// buildWrapper writes a module of one main package, resolves its
// requirements from the module proxy and builds it to dest (through a
// temporary file renamed into place).
func buildWrapper(ctx context.Context, dir, what, goMod, main string, flags []string, dest string, progress func(string)) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o644); err != nil {
		return err
	}
	stop := ticker(progress, what)
	err := resolveAndBuild(ctx, dir, what, flags, dest, progress)
	stop(err == nil)
	return err
}

// resolveAndBuild runs go mod tidy and go build in the wrapper module.
func resolveAndBuild(ctx context.Context, dir, what string, flags []string, dest string, progress func(string)) error {
	progress(fmt.Sprintf("building %s from the Go module proxy: resolving modules", what))
	if _, err := goCmd(ctx, dir, BuildEnv, "mod", "tidy"); err != nil {
		return fmt.Errorf("resolve the modules of %s: %w", what, err)
	}
	progress(fmt.Sprintf("building %s: compiling and linking (the first time takes minutes)", what))
	tmp := dest + ".tmp"
	args := append([]string{"build", "-trimpath"}, flags...)
	args = append(args, "-o", tmp, ".")
	if _, err := goCmd(ctx, dir, BuildEnv, args...); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("build %s: %w", what, err)
	}
	if err := os.Rename(tmp, dest); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// ticker reports every 30 s how long the build of what has taken, until
// the returned stop is called, which reports the total.
func ticker(progress func(string), what string) func(ok bool) {
	start := time.Now()
	t := time.NewTicker(30 * time.Second)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-t.C:
				progress(fmt.Sprintf("building %s: %s so far", what, time.Since(start).Round(time.Second)))
			case <-done:
				return
			}
		}
	}()
	return func(ok bool) {
		t.Stop()
		close(done)
		outcome := "done"
		if !ok {
			outcome = "failed"
		}
		progress(fmt.Sprintf("building %s: %s after %s", what, outcome, time.Since(start).Round(time.Second)))
	}
}
