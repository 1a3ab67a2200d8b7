//go:build e2e

// The end-to-end test of `stages --run` (make e2e): a real etcd and
// kube-apiserver, started once for all tests, and both client-go fixtures
// patched, built and driven through create, a quiet window, a spec change,
// a write conflict and delete. Set CTRLCMP_E2E_LOGS to a directory to keep
// the controllers' logs there (testdata/logs/real holds the committed ones).

package liverun_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ctrlcmp/ctrlcmp/internal/cluster"
	"github.com/ctrlcmp/ctrlcmp/internal/liverun"
)

// shared is the cluster and the ctrlcmp binary every test uses.
var shared struct {
	root       string // the repository
	client     *cluster.Client
	kubeconfig string
	ctrlcmp    string
}

func TestMain(m *testing.M) {
	os.Exit(func() int {
		ctx := context.Background()
		say := func(s string) { fmt.Fprintln(os.Stderr, "e2e:", s) }
		root, err := filepath.Abs("../..")
		if err != nil {
			say(err.Error())
			return 1
		}
		shared.root = root
		minor, err := cluster.ClientGoMinor(filepath.Join(root, "testdata/src/clientgo-plain"))
		if err != nil {
			say(err.Error())
			return 1
		}
		v, err := cluster.Resolve(ctx, minor, cluster.BuildEnv)
		if err != nil {
			say(err.Error())
			return 1
		}
		start := time.Now()
		bins, err := cluster.Ensure(ctx, "", v, say)
		if err != nil {
			say(err.Error())
			return 1
		}
		say(fmt.Sprintf("server binaries ready after %s", time.Since(start).Round(time.Second)))
		c, err := cluster.Start(ctx, bins, say)
		if err != nil {
			say(err.Error())
			return 1
		}
		defer c.Stop()
		shared.kubeconfig = c.Kubeconfig
		if shared.client, err = cluster.NewClient(c.Kubeconfig); err != nil {
			say(err.Error())
			return 1
		}
		bin, err := os.MkdirTemp("", "ctrlcmp-e2e-")
		if err != nil {
			say(err.Error())
			return 1
		}
		defer os.RemoveAll(bin)
		shared.ctrlcmp = filepath.Join(bin, "ctrlcmp")
		if out, err := exec.Command("go", "build", "-o", shared.ctrlcmp, filepath.Join(root, "cmd/ctrlcmp")).CombinedOutput(); err != nil {
			say(fmt.Sprintf("build ctrlcmp: %v\n%s", err, out))
			return 1
		}
		return m.Run()
	}())
}

// TestPlainFixture runs the ConfigMap mirror: its informers resync every
// 30 s, so the quiet window after the create holds one resync.
func TestPlainFixture(t *testing.T) {
	objs, err := cluster.ReadObjects(filepath.Join(shared.root, "testdata/src/clientgo-plain/examples/configmap.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cm := objs[0]
	secret := cluster.Object{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": cm.Name() + "-mirror", "namespace": "default"}}
	withData := func(mode string) cluster.Object {
		o := clone(cm)
		o["data"] = map[string]any{"mode": mode}
		return o
	}
	log := drive(t, "clientgo-plain", func(logFile string, g *gate) []liverun.Step {
		return []liverun.Step{
			{After: time.Second, Name: "create " + cm.String(), Do: create(cm)},
			{After: 38 * time.Second, Name: "change its data (after a resync)", Do: replace(withData("slow"))},
			{After: 46 * time.Second, Name: "write conflict on the mirror Secret", Do: conflict(g, logFile, "secrets", secret, withData("conflict"))},
			{After: 60 * time.Second, Name: "delete " + cm.String(), Do: remove(cm)},
		}
	}, 68*time.Second)
	assertConflict(t, log)
	assertVerdicts(t, reading["clientgo-plain"], "default/"+cm.Name())
}

// TestFinalizerFixture runs the Widget controller: a CRD, a finalizer, a
// status written on every pass.
func TestFinalizerFixture(t *testing.T) {
	ctx := context.Background()
	c := shared.client
	read := func(name string) cluster.Object {
		objs, err := cluster.ReadObjects(filepath.Join("testdata/widget", name))
		if err != nil {
			t.Fatal(err)
		}
		return objs[0]
	}
	crd, secret, widget := read("crd.yaml"), read("secret.yaml"), read("widget.yaml")
	if _, err := c.EnsureCRD(ctx, crd); err != nil {
		t.Fatal(err)
	}
	twice := clone(widget)
	twice["spec"] = map[string]any{"secretName": "widget-data", "replicas": 2}
	moreData := clone(secret)
	moreData["stringData"] = map[string]any{"colour": "blue", "size": "large"}
	log := drive(t, "clientgo-finalizer", func(logFile string, g *gate) []liverun.Step {
		return []liverun.Step{
			{After: time.Second, Name: "create " + secret.String(), Do: create(secret)},
			{After: 1500 * time.Millisecond, Name: "create " + widget.String(), Do: create(widget)},
			{After: 12 * time.Second, Name: "change its spec", Do: replace(twice)},
			{After: 20 * time.Second, Name: "write conflict on the Widget status", Do: conflict(g, logFile, "widgets", widget, moreData)},
			{After: 34 * time.Second, Name: "delete " + widget.String(), Do: func(ctx context.Context, c *cluster.Client) error {
				if err := c.Delete(ctx, widget); err != nil {
					return err
				}
				return c.WaitGone(ctx, widget, 15*time.Second)
			}},
		}
	}, 44*time.Second)
	if err := c.Delete(ctx, secret); err != nil {
		t.Error(err)
	}
	assertConflict(t, log)
	assertVerdicts(t, reading["clientgo-finalizer"], "default/"+widget.Name())
}

// drive patches and builds a fixture, runs it behind a gating proxy for
// end, plays the steps, and returns its log (kept in $CTRLCMP_E2E_LOGS).
func drive(t *testing.T, fixture string, steps func(logFile string, g *gate) []liverun.Step, end time.Duration) []byte {
	t.Helper()
	ctx := context.Background()
	p, err := liverun.Prepare(ctx, filepath.Join(shared.root, "testdata/src", fixture), "", logf(t))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Remove()
	for _, s := range p.Skipped {
		t.Logf("not patched: %s", s)
	}
	g := &gate{paused: map[string]chan struct{}{}}
	kubeconfig := startProxy(t, g, shared.client, p.Work)
	run, err := p.Start(ctx, kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	playErr := run.Play(ctx, shared.client, steps(run.LogFile, g), end, logf(t))
	g.resumeAll()
	log, err := run.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("CTRLCMP_E2E_LOGS"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, fixture+".log"), log, 0o644); err != nil {
			t.Error(err)
		}
	}
	if playErr != nil {
		t.Fatalf("%v\nthe log:\n%s", playErr, log)
	}
	saved := filepath.Join(t.TempDir(), fixture+".log")
	if err := os.WriteFile(saved, log, 0o644); err != nil {
		t.Fatal(err)
	}
	// Read against the patched copy: the log's file:line are its lines.
	reading[fixture] = readWithCtrlcmp(t, p.Dir, saved)
	return log
}

// reading is each fixture's reading by the ctrlcmp binary, as JSON.
var reading = map[string][]byte{}

func readWithCtrlcmp(t *testing.T, dir, log string) []byte {
	t.Helper()
	out, err := exec.Command(shared.ctrlcmp, "stages", dir, "--log", log, "--format", "json").Output()
	if err != nil {
		t.Fatalf("ctrlcmp stages --log: %v", err)
	}
	return out
}

func create(o cluster.Object) func(context.Context, *cluster.Client) error {
	return func(ctx context.Context, c *cluster.Client) error {
		_, err := c.Create(ctx, o)
		return err
	}
}

func replace(o cluster.Object) func(context.Context, *cluster.Client) error {
	return func(ctx context.Context, c *cluster.Client) error {
		_, err := c.Replace(ctx, o)
		return err
	}
}

func remove(o cluster.Object) func(context.Context, *cluster.Client) error {
	return func(ctx context.Context, c *cluster.Client) error { return c.Delete(ctx, o) }
}

// conflict provokes a 409 on the controller's write, deterministically:
// it holds the watch events of resource (so the controller's lister keeps
// the old resourceVersion of stale), changes stale behind the
// controller's back, makes the change trigger (which brings the
// controller to write stale), waits until the log shows the 409, and lets
// the watch events through again.
func conflict(g *gate, logFile, resource string, stale, trigger cluster.Object) func(context.Context, *cluster.Client) error {
	return func(ctx context.Context, c *cluster.Client) error {
		g.pause(resource)
		defer g.resume(resource)
		cur, err := c.Read(ctx, stale)
		if err != nil {
			return err
		}
		meta := cur["metadata"].(map[string]any)
		labels, _ := meta["labels"].(map[string]any)
		if labels == nil {
			labels = map[string]any{}
		}
		labels["e2e.ctrlcmp/touched"] = "true"
		meta["labels"] = labels
		if _, err := c.Update(ctx, cur); err != nil {
			return err
		}
		if _, err := c.Replace(ctx, trigger); err != nil {
			return err
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			data, _ := os.ReadFile(logFile)
			if conflictLine.Match(data) {
				time.Sleep(time.Second) // a few rate-limited retries, all 409
				return nil
			}
			if time.Now().After(deadline) {
				return errors.New("no 409 in the controller's log 20s after the stale write was set up")
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// conflictLine is a line that reports a 409 conflict: the STAGE/write
// line's err, or the controller's own error when the patch could not
// place a line after that write (it says which it skipped).
var conflictLine = regexp.MustCompile(`the object has been modified`)

func assertConflict(t *testing.T, log []byte) {
	t.Helper()
	if !conflictLine.Match(log) {
		t.Errorf("the log reports no 409 conflict")
	}
}

// gate holds the watch streams of chosen resources: while a resource is
// paused, the events its watches deliver wait in the proxy.
type gate struct {
	mu     sync.Mutex
	paused map[string]chan struct{} // resource → closed on resume
}

func (g *gate) pause(resource string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.paused[resource] == nil {
		g.paused[resource] = make(chan struct{})
	}
}

func (g *gate) resume(resource string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if ch := g.paused[resource]; ch != nil {
		close(ch)
		delete(g.paused, resource)
	}
}

func (g *gate) resumeAll() {
	g.mu.Lock()
	var rs []string
	for r := range g.paused {
		rs = append(rs, r)
	}
	g.mu.Unlock()
	for _, r := range rs {
		g.resume(r)
	}
}

func (g *gate) wait(resource string) {
	g.mu.Lock()
	ch := g.paused[resource]
	g.mu.Unlock()
	if ch != nil {
		<-ch
	}
}

// gatedBody is a watch response whose data, once read, waits for the gate
// (so an event that arrives after the pause is held, even when the read
// was already waiting for it).
type gatedBody struct {
	io.ReadCloser
	g        *gate
	resource string
}

func (b gatedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.g.wait(b.resource)
	return n, err
}

// startProxy serves plain HTTP on 127.0.0.1 in front of the API server
// (forwarding with the admin client's credentials), with watches gated by
// g, and writes a kubeconfig for it into dir.
func startProxy(t *testing.T, g *gate, c *cluster.Client, dir string) string {
	t.Helper()
	target, err := url.Parse(c.Server())
	if err != nil {
		t.Fatal(err)
	}
	rp := &httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.SetURL(target) },
		Transport:     c.Transport(),
		FlushInterval: -1,
		ModifyResponse: func(resp *http.Response) error {
			if resp.Request.URL.Query().Get("watch") == "true" || resp.Request.URL.Query().Get("watch") == "1" {
				resp.Body = gatedBody{ReadCloser: resp.Body, g: g, resource: path.Base(resp.Request.URL.Path)}
			}
			return nil
		},
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: rp}
	go srv.Serve(l)
	t.Cleanup(func() {
		g.resumeAll()
		srv.Close()
	})
	kc := filepath.Join(dir, "proxy.kubeconfig")
	data := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: proxy, cluster: {server: "http://%s"}}]
users: [{name: anyone, user: {}}]
contexts: [{name: proxy, context: {cluster: proxy, user: anyone}}]
current-context: proxy
`, l.Addr())
	if err := os.WriteFile(kc, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return kc
}

func clone(o cluster.Object) cluster.Object {
	var c cluster.Object
	b, _ := json.Marshal(o)
	_ = json.Unmarshal(b, &c)
	return c
}

// TestRunCommand is the "done when": the command alone, on the
// plain fixture, says the object settles.
func TestRunCommand(t *testing.T) {
	cmd := exec.Command(shared.ctrlcmp, "stages", filepath.Join(shared.root, "testdata/src/clientgo-plain"), "--run", "--for", "15s")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	t.Logf("stages --run took %s; stderr:\n%s", time.Since(start).Round(time.Second), stderr.String())
	if err != nil {
		t.Fatalf("stages --run: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("settles")) {
		t.Errorf("stages --run printed no settles verdict:\n%s", out)
	}
}

// TestRunInterrupted interrupts `stages --run` once its controller runs
// and checks that every process it started is gone and every port it
// listened on is free.
func TestRunInterrupted(t *testing.T) {
	cmd := exec.Command(shared.ctrlcmp, "stages", filepath.Join(shared.root, "testdata/src/clientgo-plain"), "--run", "--for", "2m")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pidRe, portRe := regexp.MustCompile(`\(pid (\d+)\)`), regexp.MustCompile(`127\.0\.0\.1:(\d+)`)
	var pids, ports []int
	var lines []string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		l := sc.Text()
		lines = append(lines, l)
		for _, m := range pidRe.FindAllStringSubmatch(l, -1) {
			n, _ := strconv.Atoi(m[1])
			pids = append(pids, n)
		}
		for _, m := range portRe.FindAllStringSubmatch(l, -1) {
			n, _ := strconv.Atoi(m[1])
			ports = append(ports, n)
		}
		if strings.Contains(l, "started the patched controller") {
			time.Sleep(2 * time.Second)
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	go io.Copy(io.Discard, stderr)
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("interrupted stages --run: %v, want exit code 130; stderr:\n%s", err, strings.Join(lines, "\n"))
	}
	if len(pids) != 3 || len(ports) < 2 {
		t.Fatalf("want the pids of etcd, kube-apiserver and the controller and their ports on stderr; got pids %v ports %v:\n%s", pids, ports, strings.Join(lines, "\n"))
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("process %d still exists after the interrupt (kill 0: %v)", pid, err)
		}
	}
	for _, port := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			t.Errorf("port %d still taken after the interrupt: %v", port, err)
			continue
		}
		l.Close()
	}
}

// logf is a progress printer into the test's log.
func logf(t *testing.T) func(string) { return func(s string) { t.Log(s) } }

// TestCRDNeverReplaced creates a CRD, ensures a changed version of it
// (which leaves the cluster's as it is), and deletes it, as `stages --run
// --kubeconfig` does with the CRDs of a tree in the user's cluster.
func TestCRDNeverReplaced(t *testing.T) {
	ctx := context.Background()
	c := shared.client
	crd := func(description string) cluster.Object {
		return cluster.Object{
			"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			"metadata": map[string]any{"name": "gadgets.e2e.ctrlcmp.test"},
			"spec": map[string]any{
				"group": "e2e.ctrlcmp.test", "scope": "Namespaced",
				"names": map[string]any{"plural": "gadgets", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetList"},
				"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
					"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "description": description, "x-kubernetes-preserve-unknown-fields": true}}}},
			},
		}
	}
	if created, err := c.EnsureCRD(ctx, crd("the user's")); err != nil || !created {
		t.Fatalf("EnsureCRD of a new CRD: %v, %v; want it created", created, err)
	}
	if created, err := c.EnsureCRD(ctx, crd("the tree's")); err != nil || created {
		t.Fatalf("EnsureCRD of an existing CRD: %v, %v; want it left, no error", created, err)
	}
	var got struct {
		Spec struct {
			Versions []struct {
				Schema struct {
					OpenAPIV3Schema struct{ Description string }
				}
			}
		}
	}
	if err := c.Get(ctx, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.e2e.ctrlcmp.test", &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Spec.Versions) != 1 || got.Spec.Versions[0].Schema.OpenAPIV3Schema.Description != "the user's" {
		t.Errorf("the cluster's CRD was changed: %+v", got)
	}
	if err := c.DeleteCRD(ctx, crd("")); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteCRD(ctx, crd("")); err != nil {
		t.Errorf("deleting a CRD already gone: %v, want no error", err)
	}
}

// TestRunKubeconfigCRDs runs `stages --run --kubeconfig` (the shared
// cluster standing for the user's) with an --object file that holds the
// Widget CRD: when the cluster lacks the CRD the run creates it and
// deletes it at the end; when the cluster has it, the run leaves it.
func TestRunKubeconfigCRDs(t *testing.T) {
	ctx := context.Background()
	c := shared.client
	crdPath := "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.widgets.example.com"
	objs, err := cluster.ReadObjects(filepath.Join("testdata/widget", "crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	crd := objs[0]
	// gone waits until the CRD is deleted (a CRD's delete finishes once
	// its objects are).
	gone := func() bool {
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
			if err := c.Get(ctx, crdPath, nil); cluster.IsStatus(err, http.StatusNotFound) {
				return true
			}
		}
		return false
	}
	crdFile, err := os.ReadFile(filepath.Join("testdata/widget", "crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	widget, err := os.ReadFile(filepath.Join("testdata/widget", "widget.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	object := filepath.Join(t.TempDir(), "object.yaml")
	if err := os.WriteFile(object, append(append(crdFile, "\n---\n"...), widget...), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func() string {
		cmd := exec.Command(shared.ctrlcmp, "stages", filepath.Join(shared.root, "testdata/src/clientgo-finalizer"),
			"--run", "--kubeconfig", shared.kubeconfig, "--object", object, "--for", "4s")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if out, err := cmd.Output(); err != nil {
			t.Fatalf("stages --run --kubeconfig: %v\n%s\n%s", err, out, &stderr)
		}
		return stderr.String()
	}

	// The Widget's secret, which the controller reads, so that it handles
	// the Widget and its delete (its finalizer) as in TestFinalizerFixture.
	secrets, err := cluster.ReadObjects(filepath.Join("testdata/widget", "secret.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Create(ctx, secrets[0]); err != nil && !cluster.IsStatus(err, http.StatusConflict) {
		t.Fatal(err)
	}
	defer c.Delete(ctx, secrets[0])
	if err := c.DeleteCRD(ctx, crd); err != nil || !gone() {
		t.Fatalf("the Widget CRD could not be deleted before the run: %v", err)
	}
	if stderr := run(); !strings.Contains(stderr, "created "+crd.String()) || !strings.Contains(stderr, "deleted "+crd.String()) {
		t.Errorf("a run in a cluster without the CRD does not say it created and deleted it:\n%s", stderr)
	}
	if !gone() {
		t.Error("the CRD the run created is still in the cluster")
	}

	if _, err := c.EnsureCRD(ctx, crd); err != nil {
		t.Fatal(err)
	}
	if stderr := run(); !strings.Contains(stderr, "exists in the cluster already") || strings.Contains(stderr, "deleted "+crd.String()) {
		t.Errorf("a run in a cluster with the CRD does not say it left it:\n%s", stderr)
	}
	if err := c.Get(ctx, crdPath, nil); err != nil {
		t.Errorf("the cluster's own CRD is gone after the run: %v", err)
	}
}
