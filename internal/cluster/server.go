package cluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ctrlcmp/ctrlcmp/internal/proc"
)

// Cluster is a running throwaway etcd and kube-apiserver on 127.0.0.1.
type Cluster struct {
	Dir        string // its PKI, data, logs and kubeconfig; removed by Stop
	Kubeconfig string // path of the admin kubeconfig
	Server     string // https://127.0.0.1:PORT
	Ports      []int  // every port it listens on
	procs      []*proc.Process
	pki        *pki
	reserved   *ports
}

// readyTimeout bounds the wait for /readyz.
const readyTimeout = 2 * time.Minute

// stopGrace is how long a process has to exit after SIGTERM.
const stopGrace = 10 * time.Second

// startAttempts is how many times Start tries, each on new ports, when a
// server finds one of its ports taken.
const startAttempts = 3

// errPortInUse is a server's exit because a port reserved for it was
// taken before it bound it.
var errPortInUse = errors.New("a port reserved for it was taken by another process first")

// Start starts etcd and then kube-apiserver on loopback ports reserved for
// them (reservePorts), waits until the API server answers /readyz, and
// writes an admin kubeconfig. When a server exits because another process
// took one of its ports first, it starts again on new ports. On failure
// everything started is stopped again.
func Start(ctx context.Context, b Binaries, progress func(string)) (*Cluster, error) {
	for attempt := 1; ; attempt++ {
		c, err := start(ctx, b, progress)
		if err == nil || !errors.Is(err, errPortInUse) || attempt == startAttempts {
			return c, err
		}
		progress(fmt.Sprintf("%s; starting again on other ports", firstLine(err.Error())))
	}
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func start(ctx context.Context, b Binaries, progress func(string)) (c *Cluster, err error) {
	dir, err := os.MkdirTemp("", "ctrlcmp-cluster-")
	if err != nil {
		return nil, err
	}
	c = &Cluster{Dir: dir}
	defer func() {
		if err != nil {
			c.Stop()
			c = nil
		}
	}()
	if c.pki, err = newPKI(dir); err != nil {
		return c, fmt.Errorf("make the cluster's certificates: %w", err)
	}
	if c.reserved, err = reservePorts(portLockDir(), 3); err != nil {
		return c, err
	}
	ports := c.reserved.numbers
	c.Ports = ports
	etcdURL := func(p int) string { return "http://127.0.0.1:" + strconv.Itoa(p) }
	etcdLog, err := os.Create(filepath.Join(dir, "etcd.log"))
	if err != nil {
		return c, err
	}
	defer etcdLog.Close()
	etcd, err := proc.Start("etcd", b.Etcd, []string{
		"--name", "ctrlcmp", "--data-dir", filepath.Join(dir, "etcd"),
		"--listen-client-urls", etcdURL(ports[0]), "--advertise-client-urls", etcdURL(ports[0]),
		"--listen-peer-urls", etcdURL(ports[1]), "--initial-advertise-peer-urls", etcdURL(ports[1]),
		"--initial-cluster", "ctrlcmp=" + etcdURL(ports[1]),
		"--unsafe-no-fsync", "--quota-backend-bytes", strconv.Itoa(256 << 20),
	}, dir, nil, etcdLog, etcdLog)
	if err != nil {
		return c, err
	}
	c.procs = append(c.procs, etcd)
	progress(fmt.Sprintf("started etcd %s (pid %d) on 127.0.0.1:%d (peers on 127.0.0.1:%d)", b.Versions.Etcd, etcd.PID(), ports[0], ports[1]))
	apiLog, err := os.Create(filepath.Join(dir, "kube-apiserver.log"))
	if err != nil {
		return c, err
	}
	defer apiLog.Close()
	api, err := proc.Start("kube-apiserver", b.APIServer, []string{
		"--etcd-servers=" + etcdURL(ports[0]),
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", "--secure-port=" + strconv.Itoa(ports[2]),
		"--tls-cert-file=" + c.pki.servingCert, "--tls-private-key-file=" + c.pki.servingKey,
		"--client-ca-file=" + c.pki.caFile,
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + c.pki.saPub, "--service-account-signing-key-file=" + c.pki.saKey,
		"--service-cluster-ip-range=10.0.0.0/24", "--authorization-mode=RBAC",
		"--endpoint-reconciler-type=none",
	}, dir, nil, apiLog, apiLog)
	if err != nil {
		return c, err
	}
	c.procs = append(c.procs, api)
	c.Server = "https://127.0.0.1:" + strconv.Itoa(ports[2])
	progress(fmt.Sprintf("started kube-apiserver %s (pid %d) on %s", b.Versions.Kubernetes, api.PID(), c.Server))
	if err := c.waitReady(ctx, etcd, api); err != nil {
		return c, err
	}
	c.Kubeconfig = filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(c.Kubeconfig, c.kubeconfig(), 0o600); err != nil {
		return c, err
	}
	return c, nil
}

// waitReady polls /readyz with the admin certificate until it answers 200,
// a server exits, ctx ends or readyTimeout passes.
func (c *Cluster) waitReady(ctx context.Context, etcd, api *proc.Process) error {
	hc, err := c.httpClient()
	if err != nil {
		return err
	}
	deadline := time.Now().Add(readyTimeout)
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.Server+"/readyz", nil)
		if resp, err := hc.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-etcd.Exited():
			return exitedEarly("etcd", etcd, filepath.Join(c.Dir, "etcd.log"))
		case <-api.Exited():
			return exitedEarly("kube-apiserver", api, filepath.Join(c.Dir, "kube-apiserver.log"))
		case <-time.After(300 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("kube-apiserver not ready after %s; its log:\n%s", readyTimeout, logTail(filepath.Join(c.Dir, "kube-apiserver.log")))
		}
	}
}

// exitedEarly is the error of a server that exited before the API server
// was ready: errPortInUse when its log says a port was taken.
func exitedEarly(what string, p *proc.Process, log string) error {
	data, _ := os.ReadFile(log)
	if strings.Contains(string(data), "address already in use") {
		return fmt.Errorf("%s exited (%v): %w; its log:\n%s", what, p.Err(), errPortInUse, tail(string(data), 15))
	}
	return fmt.Errorf("%s exited (%v) before the API server was ready; its log:\n%s", what, p.Err(), tail(string(data), 15))
}

func logTail(path string) string {
	data, _ := os.ReadFile(path)
	return tail(string(data), 15)
}

// Stop stops kube-apiserver then etcd, each by PID with its process group,
// waits for them to exit, and removes the cluster's directory.
func (c *Cluster) Stop() {
	for i := len(c.procs) - 1; i >= 0; i-- {
		c.procs[i].Stop(stopGrace)
	}
	c.reserved.release()
	os.RemoveAll(c.Dir)
}

// httpClient is an HTTPS client that trusts the cluster's CA and presents
// the admin certificate.
func (c *Cluster) httpClient() (*http.Client, error) {
	cert, err := tls.X509KeyPair(c.pki.adminCert, c.pki.adminKey)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(c.pki.caCert)
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
	}}, nil
}

// kubeconfig is the admin kubeconfig, with the certificates inline.
func (c *Cluster) kubeconfig() []byte {
	b64 := base64.StdEncoding.EncodeToString
	return fmt.Appendf(nil, `apiVersion: v1
kind: Config
clusters:
- name: ctrlcmp
  cluster:
    server: %s
    certificate-authority-data: %s
users:
- name: ctrlcmp-admin
  user:
    client-certificate-data: %s
    client-key-data: %s
contexts:
- name: ctrlcmp
  context: {cluster: ctrlcmp, user: ctrlcmp-admin}
current-context: ctrlcmp
`, c.Server, b64(c.pki.caCert), b64(c.pki.adminCert), b64(c.pki.adminKey))
}
