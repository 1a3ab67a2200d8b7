package liverun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestControllerSeesOnlyItsCluster starts a stand-in controller (a shell
// script that prints its arguments and environment, with no -kubeconfig
// flag in its help) as Start starts the patched one, from an environment
// that looks like a pod's with the user's KUBECONFIG: it sees the given
// kubeconfig alone, none of the in-cluster variables, and the run says
// that no kubeconfig flag was found.
func TestControllerSeesOnlyItsCluster(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "10.0.0.1")
	t.Setenv("KUBERNETES_SERVICE_PORT", "443")
	t.Setenv("KUBERNETES_PORT_443_TCP", "tcp://10.0.0.1:443")
	t.Setenv("KUBECONFIG", "/home/user/.kube/config")
	work := t.TempDir()
	bin := filepath.Join(work, "controller")
	script := "#!/bin/sh\n" +
		`[ "$1" = -h ] && { echo "Usage: controller [-v level]"; exit 0; }` + "\n" +
		`echo "args=[$*] host=${KUBERNETES_SERVICE_HOST-unset} port=${KUBERNETES_SERVICE_PORT-unset} tcp=${KUBERNETES_PORT_443_TCP-unset} kubeconfig=$KUBECONFIG"` + "\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var said []string
	p := &Prepared{Work: work, Dir: work, Binary: bin, progress: func(s string) { said = append(said, s) }}
	run, err := p.Start(context.Background(), "/tmp/throwaway/kubeconfig")
	if err != nil {
		t.Fatal(err)
	}
	<-run.Process.Exited()
	log, err := run.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if want := "args=[] host=unset port=unset tcp=unset kubeconfig=/tmp/throwaway/kubeconfig\n"; string(log) != want {
		t.Errorf("the controller saw %q, want %q", log, want)
	}
	if len(said) != 1 || !strings.Contains(said[0], "no -kubeconfig flag") {
		t.Errorf("progress %q, want one line saying no -kubeconfig flag was found", said)
	}
}

// TestKubeconfigFlagPassed gives a stand-in controller whose help lists
// -kubeconfig the flag, and nothing is said about it.
func TestKubeconfigFlagPassed(t *testing.T) {
	work := t.TempDir()
	bin := filepath.Join(work, "controller")
	script := "#!/bin/sh\n" +
		`[ "$1" = -h ] && { echo "  -kubeconfig string"; exit 0; }` + "\n" +
		`echo "args=[$*]"` + "\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var said []string
	p := &Prepared{Work: work, Dir: work, Binary: bin, progress: func(s string) { said = append(said, s) }}
	run, err := p.Start(context.Background(), "/tmp/k")
	if err != nil {
		t.Fatal(err)
	}
	<-run.Process.Exited()
	log, _ := run.Stop()
	if string(log) != "args=[--kubeconfig=/tmp/k]\n" || len(said) != 0 {
		t.Errorf("the controller saw %q and progress said %q; want --kubeconfig=/tmp/k and nothing said", log, said)
	}
}
