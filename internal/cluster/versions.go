// Package cluster is the throwaway API server of `stages --run`: etcd and
// kube-apiserver built once from the Go module proxy (at the Kubernetes
// minor version the controller's client-go names) and cached, started on
// 127.0.0.1 with a fresh PKI, and a small REST client that applies CRDs and
// objects with the admin certificate. It never links client-go: the REST
// calls are plain net/http.
package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// Versions are the versions of the server binaries: the Kubernetes
// release, its staging modules (k8s.io/api … at v0.MINOR.PATCH) and etcd.
type Versions struct {
	Kubernetes string // v1.36.3
	Staging    string // v0.36.3
	Etcd       string // v3.6.8
	// goModFile is the release's go.mod in the module cache, once
	// downloaded; Staging modules are read from its replace block.
	goModFile string
}

// knownEtcd is the etcd server to use for a Kubernetes minor version whose
// go.mod does not require go.etcd.io/etcd/server/v3 (each was run against
// that release).
var knownEtcd = map[string]string{
	"v1.36": "v3.6.16",
}

// etcdServer is the module the etcd binary is built from.
const etcdServer = "go.etcd.io/etcd/server/v3"

// ClientGoMinor reads the Kubernetes minor version ("v1.36") the tree's
// go.mod names through k8s.io/client-go (v0.36.x).
func ClientGoMinor(dir string) (string, error) {
	path := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%w; --run builds an API server at the Kubernetes version of the tree's k8s.io/client-go, so PATH must be a Go module", err)
	}
	f, err := modfile.ParseLax(path, data, nil)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	for _, r := range f.Require {
		if r.Mod.Path != "k8s.io/client-go" {
			continue
		}
		mm := semver.MajorMinor(r.Mod.Version) // v0.36
		if !strings.HasPrefix(mm, "v0.") {
			return "", fmt.Errorf("%s requires k8s.io/client-go %s, not a v0.MINOR release; give your own cluster with --kubeconfig", path, r.Mod.Version)
		}
		return "v1." + strings.TrimPrefix(mm, "v0."), nil
	}
	return "", fmt.Errorf("%s does not require k8s.io/client-go, so the Kubernetes version to build is unknown; give your own cluster with --kubeconfig", path)
}

// Resolve finds the highest Kubernetes patch release of minor ("v1.36")
// that the module proxy serves, downloads its go.mod and picks the etcd it
// requires.
func Resolve(ctx context.Context, minor string, env []string) (Versions, error) {
	out, err := goCmd(ctx, os.TempDir(), env, "list", "-m", "-versions", "k8s.io/kubernetes")
	if err != nil {
		return Versions{}, fmt.Errorf("list the versions of k8s.io/kubernetes on the module proxy: %w", err)
	}
	var best string
	for _, v := range strings.Fields(string(out))[1:] {
		if semver.MajorMinor(v) == minor && semver.Prerelease(v) == "" && (best == "" || semver.Compare(v, best) > 0) {
			best = v
		}
	}
	if best == "" {
		return Versions{}, fmt.Errorf("the module proxy serves no k8s.io/kubernetes %s.x release; give your own cluster with --kubeconfig", minor)
	}
	v := Versions{Kubernetes: best, Staging: "v0" + strings.TrimPrefix(best, "v1")}
	// go list -m fetches the release's go.mod only, not its 115 MB of source.
	out, err = goCmd(ctx, os.TempDir(), env, "list", "-m", "-json", "k8s.io/kubernetes@"+best)
	if err != nil {
		return Versions{}, fmt.Errorf("download the go.mod of k8s.io/kubernetes@%s: %w", best, err)
	}
	var dl struct{ GoMod string }
	if err := json.Unmarshal(out, &dl); err != nil || dl.GoMod == "" {
		return Versions{}, fmt.Errorf("download the go.mod of k8s.io/kubernetes@%s: the go command named none (%v)", best, err)
	}
	v.goModFile = dl.GoMod
	f, err := readGoMod(dl.GoMod)
	if err != nil {
		return Versions{}, err
	}
	for _, r := range f.Require {
		if r.Mod.Path == etcdServer {
			v.Etcd = r.Mod.Version
		}
	}
	if v.Etcd == "" {
		v.Etcd = knownEtcd[minor]
	}
	if v.Etcd == "" {
		return Versions{}, fmt.Errorf("k8s.io/kubernetes %s does not require %s and no etcd is known to work with %s; give your own cluster with --kubeconfig", best, etcdServer, minor)
	}
	return v, nil
}

func readGoMod(path string) (*modfile.File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := modfile.Parse(path, data, nil) // not ParseLax, which drops replace directives
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}
