package load

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDownload downloads a module the fixtures require into an empty module
// cache, from a module proxy made of the test's own module cache (file://),
// and fails with the go command's words for a version that is not there
// and without it for a malformed one.
func TestDownload(t *testing.T) {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	proxy := "file://" + filepath.ToSlash(filepath.Join(strings.TrimSpace(string(out)), "cache", "download"))
	// The test's own module cache serves as the proxy: bring the module
	// into it first (a cold cache, as on a fresh CI machine, lacks it).
	if out, err := exec.Command("go", "mod", "download", "github.com/fluxcd/pkg/apis/meta@v1.31.0").CombinedOutput(); err != nil {
		t.Fatalf("filling the module cache: %v\n%s", err, out)
	}
	cache := t.TempDir()
	t.Setenv("GOMODCACHE", cache)
	t.Setenv("GOPROXY", proxy)
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-mod=vendor -modcacherw")

	dir, err := Download(context.Background(), "github.com/fluxcd/pkg/apis/meta", "v1.31.0")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(cache, "github.com", "fluxcd", "pkg", "apis", "meta@v1.31.0"); dir != want {
		t.Errorf("Download: dir %s, want %s", dir, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "conditions.go")); err != nil {
		t.Errorf("the module is not in the cache: %v", err)
	}

	for _, c := range []struct{ path, version, says string }{
		{"github.com/fluxcd/pkg/apis/meta", "v1.99.0", "go mod download: github.com/fluxcd/pkg/apis/meta@v1.99.0: reading " + proxy},
		{"-x", "v1.0.0", "malformed module path"},
		{"github.com/fluxcd/pkg/apis/meta", "latest", "invalid version"},
	} {
		if _, err := Download(context.Background(), c.path, c.version); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("Download(%s, %s) = %v, want an error saying %q", c.path, c.version, err, c.says)
		}
	}
}

// TestDownloadWithoutGo: with no go command on $PATH, the failure says so
// and how to fix it (no dangling "exec: … :").
func TestDownloadWithoutGo(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Download(context.Background(), "example.com/m", "v1.0.0")
	if err == nil || err.Error() != "go mod download example.com/m@v1.0.0: "+goMissing {
		t.Errorf("Download without go: %v, want the module and %q", err, goMissing)
	}
}
