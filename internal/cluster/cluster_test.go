package cluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClientGoMinor(t *testing.T) {
	got, err := ClientGoMinor("../../testdata/src/clientgo-plain")
	if err != nil || got != "v1.36" {
		t.Fatalf("ClientGoMinor(clientgo-plain) = %q, %v; want v1.36", got, err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.26\n"), 0o644)
	if _, err := ClientGoMinor(dir); err == nil || !strings.Contains(err.Error(), "--kubeconfig") {
		t.Fatalf("ClientGoMinor of a module without client-go: %v; want an error that names --kubeconfig", err)
	}
}

// TestPKI checks the certificates: the serving one for 127.0.0.1 and
// localhost, the admin one a client of group system:masters, both signed
// by the CA.
func TestPKI(t *testing.T) {
	p, err := newPKI(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(p.caCert) {
		t.Fatal("the CA certificate does not parse")
	}
	serving := parseCert(t, mustRead(t, p.servingCert))
	for _, name := range []string{"127.0.0.1", "localhost", "kubernetes.default.svc"} {
		if _, err := serving.Verify(x509.VerifyOptions{Roots: pool, DNSName: name}); err != nil {
			t.Errorf("serving certificate for %s: %v", name, err)
		}
	}
	admin := parseCert(t, p.adminCert)
	if _, err := admin.Verify(x509.VerifyOptions{Roots: pool, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("admin certificate: %v", err)
	}
	if got := admin.Subject.Organization; len(got) != 1 || got[0] != "system:masters" {
		t.Errorf("admin organisation %v, want system:masters", got)
	}
	for _, f := range []string{p.saKey, p.saPub, p.servingKey} {
		if b, _ := pem.Decode(mustRead(t, f)); b == nil {
			t.Errorf("%s is not PEM", f)
		}
	}
}

// TestClientOverTLS serves a fake API (on 127.0.0.1, with the PKI's
// serving certificate, requiring a client certificate) and drives the
// client from the kubeconfig the cluster writes: discovery, create, read,
// replace, delete.
func TestClientOverTLS(t *testing.T) {
	p, err := newPKI(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]Object{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.TLS.PeerCertificates) == 0 || r.TLS.PeerCertificates[0].Subject.CommonName != "ctrlcmp-admin" {
			http.Error(w, "no client certificate", http.StatusUnauthorized)
			return
		}
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1":
			json.NewEncoder(w).Encode(map[string]any{"resources": []map[string]any{
				{"name": "configmaps", "kind": "ConfigMap", "namespaced": true},
				{"name": "configmaps/status", "kind": "ConfigMap", "namespaced": true},
			}})
		case r.Method == http.MethodPost && r.URL.Path == "/api/v1/namespaces/default/configmaps":
			var o Object
			json.NewDecoder(r.Body).Decode(&o)
			o.meta()["resourceVersion"] = "1"
			stored[o.Name()] = o
			json.NewEncoder(w).Encode(o)
		case strings.HasPrefix(r.URL.Path, "/api/v1/namespaces/default/configmaps/"):
			name := filepath.Base(r.URL.Path)
			cur, ok := stored[name]
			if !ok {
				w.WriteHeader(http.StatusNotFound)
				json.NewEncoder(w).Encode(map[string]any{"reason": "NotFound", "message": name + " not found"})
				return
			}
			switch r.Method {
			case http.MethodGet:
				json.NewEncoder(w).Encode(cur)
			case http.MethodPut:
				var o Object
				json.NewDecoder(r.Body).Decode(&o)
				if o.ResourceVersion() != cur.ResourceVersion() {
					w.WriteHeader(http.StatusConflict)
					json.NewEncoder(w).Encode(map[string]any{"reason": "Conflict", "message": "the object has been modified"})
					return
				}
				o.meta()["resourceVersion"] = "2"
				stored[name] = o
				json.NewEncoder(w).Encode(o)
			case http.MethodDelete:
				delete(stored, name)
			}
		default:
			http.NotFound(w, r)
		}
	}))
	pair, err := tls.LoadX509KeyPair(p.servingCert, p.servingKey)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(p.caCert)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{pair}, ClientCAs: pool, ClientAuth: tls.RequireAndVerifyClientCert}
	srv.StartTLS()
	defer srv.Close()

	c := &Cluster{Dir: p.dir, Server: srv.URL, pki: p}
	kc := filepath.Join(p.dir, "kubeconfig")
	if err := os.WriteFile(kc, c.kubeconfig(), 0o600); err != nil {
		t.Fatal(err)
	}
	client, err := NewClient(kc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cm := Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x", "namespace": "default"}, "data": map[string]any{"a": "1"}}
	if _, err := client.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	changed := Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x", "namespace": "default"}, "data": map[string]any{"a": "2"}}
	got, err := client.Replace(ctx, changed)
	if err != nil {
		t.Fatal(err)
	}
	if got.ResourceVersion() != "2" || got["data"].(map[string]any)["a"] != "2" {
		t.Errorf("Replace stored %v", got)
	}
	stale := Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x", "namespace": "default", "resourceVersion": "1"}}
	if _, err := client.Update(ctx, stale); !IsStatus(err, http.StatusConflict) {
		t.Errorf("Update with a stale resourceVersion: %v, want a 409", err)
	}
	if err := client.Delete(ctx, cm); err != nil {
		t.Fatal(err)
	}
	if err := client.Delete(ctx, cm); err != nil {
		t.Errorf("deleting an object already gone: %v, want no error", err)
	}
	if _, err := client.Read(ctx, cm); !IsStatus(err, http.StatusNotFound) {
		t.Errorf("Read after Delete: %v, want a 404", err)
	}
}

func TestKubeconfigPluginRefused(t *testing.T) {
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	os.WriteFile(kc, []byte(`current-context: c
contexts: [{name: c, context: {cluster: k, user: u}}]
clusters: [{name: k, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {exec: {command: gke-gcloud-auth-plugin}}}]
`), 0o600)
	if _, err := NewClient(kc); err == nil || !strings.Contains(err.Error(), "plugin") {
		t.Fatalf("NewClient with an exec plugin: %v, want an error that says plugins are not run", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func parseCert(t *testing.T, pemBytes []byte) *x509.Certificate {
	t.Helper()
	b, _ := pem.Decode(pemBytes)
	if b == nil {
		t.Fatal("not PEM")
	}
	c, err := x509.ParseCertificate(b.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAPIServerModule: the wrapper's replace block names each staging
// module the release requires, at the staging version, and leaves out one
// it only replaces.
func TestAPIServerModule(t *testing.T) {
	dir := t.TempDir()
	goMod := filepath.Join(dir, "kubernetes.mod")
	os.WriteFile(goMod, []byte(`module k8s.io/kubernetes

go 1.26.0

require (
	go.etcd.io/etcd/server/v3 v3.6.8 // indirect
	k8s.io/client-go v0.0.0
)

replace (
	k8s.io/client-go => ./staging/src/k8s.io/client-go
	k8s.io/sample-cli-plugin => ./staging/src/k8s.io/sample-cli-plugin
)
`), 0o644)
	got, err := apiServerModule(Versions{Kubernetes: "v1.36.3", Staging: "v0.36.3", goModFile: goMod})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "\tk8s.io/client-go => k8s.io/client-go v0.36.3\n") || strings.Contains(got, "sample-cli-plugin") || !strings.Contains(got, "go 1.26.0") {
		t.Errorf("the wrapper's go.mod:\n%s", got)
	}
}
